//! Helpers for the `schema` feature's `schemars::JsonSchema` derives.

use schemars::Schema;
use serde_json::Value;

/// Rewrites the schema schemars derives for a documented unit enum (a
/// `oneOf` of one `const` per variant) into the plain form
/// `{"type": "string", "enum": [...]}`. Anything else is left alone.
pub(crate) fn plain_string_enum(schema: &mut Schema) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    let Some(Value::Array(branches)) = object.get("oneOf") else {
        return;
    };
    let values: Option<Vec<Value>> = branches
        .iter()
        .map(|branch| match branch.get("const") {
            Some(value @ Value::String(_)) => Some(value.clone()),
            _ => None,
        })
        .collect();
    let Some(values) = values else {
        return;
    };
    object.remove("oneOf");
    object.insert("type".to_owned(), Value::from("string"));
    object.insert("enum".to_owned(), Value::Array(values));
}
