//! The dense transcript: maximal messages, every member the protocol model
//! declares present, repeated to size.
//!
//! Where the mixed transcript is mostly frame content (long strings, cheap to
//! check per byte), these lines are all structure: numbers, enums, nested
//! objects, unions, a member name every few bytes. [`samples`] writes
//! [`SAMPLES`] envelopes from the model of the published interop bundle, each
//! variant in turn and each union branch in turn, with short strings; [`write`](fn@write)
//! repeats them. Every sample is checked valid before it is used.

use cgp_schema::model::{Member, Protocol, Shape};
use serde_json::{Map, Value};
use std::fmt::Write as _;

/// How many different messages the dense transcript repeats.
pub const SAMPLES: usize = 28;

/// How deep named types may nest in a sample (a `$ref` cycle stops here).
const MAX_DEPTH: usize = 16;

/// The maximal envelopes: sample `i` is variant `i mod n`, its unions on branch
/// `i mod b`, its strings and numbers varied by `i`.
pub fn samples(protocol: &Protocol) -> Vec<String> {
    let variants = protocol.variants.len().max(1);
    (0..SAMPLES)
        .filter_map(|index| {
            let variant = protocol.variants.get(index % variants)?;
            let filler = Filler { protocol, index };
            Some(filler.members(&variant.object.members, 0).to_string())
        })
        .collect()
}

/// Writes `samples` in turn, one a line, until at least `target_bytes` are
/// written.
pub fn write(samples: &[String], target_bytes: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(target_bytes as usize + 4096);
    if samples.is_empty() {
        return out;
    }
    while (out.len() as u64) < target_bytes {
        for sample in samples {
            out.extend_from_slice(sample.as_bytes());
            out.push(b'\n');
        }
    }
    out
}

/// Fills shapes with values for sample `index`.
struct Filler<'p> {
    protocol: &'p Protocol,
    index: usize,
}

const WORDS: [&str; 12] = [
    "ledger", "retry", "policy", "owner", "cache", "index", "token", "schema", "étude", "deploy",
    "handler", "value",
];

impl Filler<'_> {
    fn members(&self, members: &[Member], depth: usize) -> Value {
        let mut object = Map::new();
        for (position, member) in members.iter().enumerate() {
            let filler = Filler {
                protocol: self.protocol,
                index: self.index + position,
            };
            object.insert(member.name.clone(), filler.value(&member.shape, depth));
        }
        Value::Object(object)
    }

    fn text(&self, low: u64, high: Option<u64>) -> String {
        let mut text = String::new();
        let mut word = self.index;
        while (text.chars().count() as u64) < low.max(4 + (self.index as u64 % 12)) {
            if !text.is_empty() {
                text.push('-');
            }
            let _ = write!(text, "{}", WORDS[word % WORDS.len()]);
            word += 5;
        }
        match high {
            Some(high) => text.chars().take(high as usize).collect(),
            None => text,
        }
    }

    fn value(&self, shape: &Shape, depth: usize) -> Value {
        let pick = |count: usize| self.index % count.max(1);
        match shape {
            Shape::Any => Value::from(self.text(0, None)),
            Shape::Named(name) => match self.protocol.named(name) {
                Some(named) if depth < MAX_DEPTH => self.value(&named.shape, depth + 1),
                _ => Value::Null,
            },
            Shape::Null => Value::Null,
            Shape::Boolean => Value::Bool(self.index % 2 == 0),
            Shape::Integer(range) => {
                let wanted = 7 + 13 * self.index as i128;
                let low = range.minimum.unwrap_or(i128::MIN);
                let high = range.maximum.unwrap_or(i128::MAX);
                let value = wanted.clamp(low, high);
                i64::try_from(value)
                    .map(Value::from)
                    .or_else(|_| u64::try_from(value).map(Value::from))
                    .unwrap_or(Value::Null)
            }
            Shape::Number(range) => {
                let low = range.minimum.as_ref().map_or(0.0, |limit| limit.value);
                let high = range
                    .maximum
                    .as_ref()
                    .map_or(low + 1.0, |limit| limit.value);
                let share = (1 + self.index % 7) as f64 / 8.0;
                Value::from(low + (high - low) * share)
            }
            Shape::String(rule) => {
                Value::from(self.text(rule.min_length.unwrap_or(0), rule.max_length))
            }
            Shape::Const(value) => value.clone(),
            Shape::Enum(values) => values
                .get(pick(values.len()))
                .cloned()
                .unwrap_or(Value::Null),
            Shape::OpenVocabulary(vocabulary) => vocabulary
                .known
                .get(pick(vocabulary.known.len()))
                .map_or(Value::Null, |known| Value::from(known.as_str())),
            Shape::Array(array) => {
                let count = array
                    .min_items
                    .unwrap_or(0)
                    .max(2)
                    .min(array.max_items.unwrap_or(u64::MAX));
                Value::Array(
                    (0..count as usize)
                        .map(|item| {
                            Filler {
                                protocol: self.protocol,
                                index: self.index + item,
                            }
                            .value(&array.items, depth)
                        })
                        .collect(),
                )
            }
            Shape::Object(object) => self.members(&object.members, depth),
            Shape::TaggedUnion(union) => match union.branches.get(pick(union.branches.len())) {
                Some(branch) => {
                    let mut members: Vec<Member> = branch.object.members.clone();
                    members.extend(
                        union
                            .shared
                            .members
                            .iter()
                            .filter(|shared| branch.object.member(&shared.name).is_none())
                            .cloned(),
                    );
                    self.members(&members, depth)
                }
                None => Value::Null,
            },
            Shape::Nullable(inner) => self.value(inner, depth),
            Shape::Excluding(inner, excluded) => (0..8)
                .map(|offset| {
                    Filler {
                        protocol: self.protocol,
                        index: self.index + offset,
                    }
                    .value(inner, depth)
                })
                .find(|value| !excluded.contains(value))
                .unwrap_or(Value::Null),
            Shape::Unsupported(_) => Value::Null,
        }
    }
}
