//! The words a [`Mismatch`](super::Mismatch) uses for a shape and its values.

use cgp_schema::model::Shape;
use serde_json::Value;

/// Vocabulary values as JSON strings.
pub(super) fn strings(values: &[String]) -> Vec<Value> {
    values.iter().cloned().map(Value::String).collect()
}

/// JSON values, comma-separated.
pub(super) fn list(values: &[Value]) -> String {
    values
        .iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A shape in a few words, for messages.
pub(super) fn describe(shape: &Shape) -> String {
    match shape {
        Shape::Any => "any value".into(),
        Shape::Named(name) => format!("`{name}`"),
        Shape::Null => "null".into(),
        Shape::Boolean => "boolean".into(),
        Shape::Integer(integer) => integer.describe(),
        Shape::Number(number) => number.describe(),
        Shape::String(string) => string.describe(),
        Shape::Const(value) => format!("const {value}"),
        Shape::Enum(_) => "a closed vocabulary".into(),
        Shape::OpenVocabulary(_) => "an open vocabulary".into(),
        Shape::Array(array) => format!("an array of {}", describe(&array.items)),
        Shape::Object(_) => "an object".into(),
        Shape::TaggedUnion(union) => format!("a union tagged on `{}`", union.tag),
        Shape::Nullable(inner) => format!("{} or null", describe(inner)),
        Shape::Excluding(inner, values) => format!("{} except {}", describe(inner), list(values)),
        Shape::Unsupported(reason) => format!("an unrecognised schema ({reason})"),
    }
}
