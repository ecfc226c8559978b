//! The single-pass check (`cgp-validator`) against the `jsonschema` path: the
//! verdict of `check_verdict` on a validator without the fast path (text layer,
//! `jsonschema`, the reference decoder's reading of integers) must be the
//! generated check's, under both profiles, on a line and on its mutations.

use cgp_schema::transcript::check_verdict;
use cgp_schema::{Bundle, Profile, ProtocolVersion, Validator};
use serde_json::{Map, Value};
use std::sync::OnceLock;

/// One profile's two judges.
pub struct Judges {
    pub profile: Profile,
    /// The published bundle, `jsonschema` only.
    pub jsonschema: Validator,
    /// The check codegen wrote from the same bundle.
    pub single_pass: cgp_validator::Check,
}

/// Both profiles' judges of the working version's published bundles.
pub fn judges() -> &'static [Judges; 2] {
    static JUDGES: OnceLock<[Judges; 2]> = OnceLock::new();
    JUDGES.get_or_init(|| {
        Profile::ALL.map(|profile| {
            let version: ProtocolVersion = cgp_types::PROTOCOL_VERSION.parse().expect("version");
            let path =
                spec_tests::repo_root().join(cgp_codegen::plan::published_path(&version, profile));
            let text = std::fs::read_to_string(&path).expect("the published bundle");
            let bundle = Bundle::from_published(&text).expect("a bundle");
            Judges {
                profile,
                jsonschema: Validator::new(&bundle).expect("compiles"),
                single_pass: cgp_validator::for_bundle(
                    cgp_types::PROTOCOL_VERSION,
                    profile.as_str(),
                )
                .expect("codegen writes a check for the working version"),
            }
        })
    })
}

/// Every profile on which the two judges disagree about `line`, described.
pub fn disagreements(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    for judges in judges() {
        let slow = check_verdict(&judges.jsonschema, line.as_bytes());
        let fast = (judges.single_pass)(line);
        if fast.is_some() != slow.is_valid() {
            found.push(format!(
                "{}: single pass says {}, jsonschema {:?} on {line}",
                judges.profile,
                if fast.is_some() { "valid" } else { "invalid" },
                slow.findings
            ));
        } else if let Some(tag) = fast {
            if slow.variant.map(|variant| variant.as_str()) != Some(tag) {
                found.push(format!(
                    "{}: tag {tag} vs {:?} on {line}",
                    judges.profile, slow.variant
                ));
            }
        }
    }
    found
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
