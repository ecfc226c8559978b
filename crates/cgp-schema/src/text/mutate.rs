//! Seeded and systematic mutations of envelopes: the cases the re-issue proof
//! and the randomised differential judge, and the conformance vectors publish.
//! Both are deterministic: the same input and seed give the same cases on
//! every machine.

use serde_json::{Map, Value, json};

/// Deterministic mutations of corpus envelopes: each case is one envelope with
/// one to three of its values removed, replaced or joined by an unknown member.
pub struct Mutator {
    state: u64,
}

impl Mutator {
    /// A mutator whose cases follow from `seed` alone.
    pub fn new(seed: u64) -> Self {
        Mutator { state: seed | 1 }
    }

    fn next(&mut self) -> u64 {
        // xorshift64*: small, fast and the same on every machine.
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        self.state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, bound: usize) -> usize {
        if bound == 0 {
            0
        } else {
            (self.next() % bound as u64) as usize
        }
    }

    /// The next case: a copy of one of `envelopes` with one to three edits;
    /// `None` when there are no envelopes.
    pub fn next_case(&mut self, envelopes: &[&Value]) -> Option<Value> {
        let base = envelopes.get(self.below(envelopes.len()))?;
        let mut case = (*base).clone();
        let edits = 1 + self.below(3);
        for _ in 0..edits {
            let mut pointers = Vec::new();
            collect_pointers(&case, String::new(), &mut pointers);
            let Some(pointer) = pointers.get(self.below(pointers.len())).cloned() else {
                break;
            };
            let replacement = self.value(envelopes);
            let action = self.below(4);
            mutate(&mut case, &pointer, action, replacement);
        }
        Some(case)
    }

    fn value(&mut self, envelopes: &[&Value]) -> Value {
        match self.below(14) {
            0 => Value::Null,
            1 => json!(true),
            2 => json!(0),
            3 => json!(-1),
            4 => json!(4_294_967_295u64),
            5 => json!(4_294_967_296u64),
            6 => json!(0.5),
            7 => json!(""),
            8 => json!("x"),
            9 => json!([]),
            10 => json!({}),
            11 => json!(u64::MAX),
            // A value from another envelope: a right type in a wrong place, or
            // a right value in the right place.
            _ => {
                let donor = envelopes
                    .get(self.below(envelopes.len()))
                    .copied()
                    .cloned()
                    .unwrap_or(Value::Null);
                let mut pointers = Vec::new();
                collect_pointers(&donor, String::new(), &mut pointers);
                pointers
                    .get(self.below(pointers.len()))
                    .and_then(|pointer| donor.pointer(pointer))
                    .cloned()
                    .unwrap_or(Value::Null)
            }
        }
    }
}

fn collect_pointers(value: &Value, here: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, member) in map {
                let pointer = format!("{here}/{}", super::json_text::escape_token(key));
                out.push(pointer.clone());
                collect_pointers(member, pointer, out);
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                let pointer = format!("{here}/{index}");
                out.push(pointer.clone());
                collect_pointers(item, pointer, out);
            }
        }
        _ => {}
    }
}

/// 0: replace the value; 1: remove it; 2: add an unknown member beside it (or
/// replace, in an array); 3: wrap it in an array.
fn mutate(case: &mut Value, pointer: &str, action: usize, replacement: Value) {
    let Some((parent_pointer, last)) = pointer.rsplit_once('/') else {
        return;
    };
    let key = last.replace("~1", "/").replace("~0", "~");
    let Some(parent) = case.pointer_mut(parent_pointer) else {
        return;
    };
    match parent {
        Value::Object(map) => match action {
            1 => {
                map.shift_remove(&key);
            }
            2 => {
                map.insert(format!("{key}_unknown"), replacement);
            }
            3 => {
                if let Some(slot) = map.get_mut(&key) {
                    *slot = Value::Array(vec![slot.take()]);
                }
            }
            _ => {
                map.insert(key, replacement);
            }
        },
        Value::Array(items) => {
            let Ok(index) = key.parse::<usize>() else {
                return;
            };
            if index >= items.len() {
                return;
            }
            if action == 1 {
                items.remove(index);
            } else if let Some(slot) = items.get_mut(index) {
                *slot = replacement;
            }
        }
        _ => {}
    }
}

/// `line` and lines made from it that break one rule each, or move things
/// around: every object's members reversed (a tag last), an unknown member, a
/// duplicate name, each top-level member removed, an integer spelled as a
/// float, and, for the first leaves and containers, a value of another type or
/// an empty one.
pub fn mutations(line: &str, budget: usize) -> Vec<String> {
    let mut out = vec![line.to_owned()];
    let Ok(value) = serde_json::from_str::<Value>(line) else {
        return out;
    };
    out.push(reversed(&value).to_string());
    if let Value::Object(members) = &value {
        let mut extra = Map::new();
        extra.insert(
            "x_unknown".into(),
            serde_json::json!({"k": [1, 2.5, null, {"a": "b"}]}),
        );
        extra.extend(members.clone());
        out.push(Value::Object(extra.clone()).to_string());
        let mut last = members.clone();
        last.insert("x_unknown".into(), Value::Bool(true));
        out.push(Value::Object(last).to_string());
        if let Some((name, member)) = members.iter().next() {
            let duplicate = format!("{}:{member},", Value::String(name.clone()));
            out.push(line.replacen('{', &format!("{{{duplicate}"), 1));
        }
        for name in members.keys() {
            let mut fewer = members.clone();
            fewer.shift_remove(name);
            out.push(Value::Object(fewer).to_string());
        }
    }
    let mut places = Vec::new();
    collect_places(&value, String::new(), &mut places);
    if let Some(pointer) = places
        .iter()
        .find(|pointer| value.pointer(pointer).is_some_and(Value::is_u64))
    {
        let mut floated = value.clone();
        if let Some(slot) = floated.pointer_mut(pointer) {
            *slot = Value::from(slot.as_f64().unwrap_or_default());
        }
        out.push(floated.to_string());
    }
    for pointer in places.iter().take(budget) {
        let replacements = match value.pointer(pointer) {
            Some(Value::String(text)) if text.is_empty() => vec![Value::from(7)],
            Some(Value::String(_)) => vec![Value::from(7), Value::from("")],
            Some(Value::Number(_)) => {
                vec![
                    Value::from("7"),
                    Value::from(-1),
                    Value::from(4_294_967_296u64),
                ]
            }
            Some(Value::Bool(_) | Value::Null) => vec![Value::Null, Value::from(true)],
            Some(Value::Array(_)) => vec![Value::Array(Vec::new()), Value::Null],
            Some(Value::Object(_)) => vec![Value::Array(Vec::new()), Value::Object(Map::new())],
            None => Vec::new(),
        };
        for replacement in replacements {
            let mut changed = value.clone();
            if let Some(slot) = changed.pointer_mut(pointer) {
                *slot = replacement;
                out.push(changed.to_string());
            }
        }
    }
    out
}

/// Every place in `value` below the root, parents before children.
fn collect_places(value: &Value, pointer: String, out: &mut Vec<String>) {
    match value {
        Value::Object(members) => {
            for (name, member) in members {
                let here = format!("{pointer}/{}", name.replace('~', "~0").replace('/', "~1"));
                out.push(here.clone());
                collect_places(member, here, out);
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                let here = format!("{pointer}/{index}");
                out.push(here.clone());
                collect_places(item, here, out);
            }
        }
        _ => {}
    }
}

/// `value` with every object's members in reverse order.
fn reversed(value: &Value) -> Value {
    match value {
        Value::Object(members) => Value::Object(
            members
                .iter()
                .rev()
                .map(|(name, member)| (name.clone(), reversed(member)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(reversed).collect()),
        other => other.clone(),
    }
}
