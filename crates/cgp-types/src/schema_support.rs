//! The `schema` feature: JSON Schemas of the wire types, derived by schemars.
//!
//! [`deserialize_contract`] says what the types accept, [`serialize_contract`]
//! what they emit. The schema library compares them with the published
//! `interop` and `strict` bundles (`cargo xtask check`, the sync gate).

use schemars::Schema;
use schemars::generate::SchemaSettings;
use serde_json::Value;

/// The draft 2020-12 schema of what [`Envelope`](crate::Envelope) decoding accepts.
pub fn deserialize_contract() -> Value {
    contract(SchemaSettings::draft2020_12().for_deserialize())
}

/// The draft 2020-12 schema of what [`Envelope`](crate::Envelope) encoding emits.
pub fn serialize_contract() -> Value {
    contract(SchemaSettings::draft2020_12().for_serialize())
}

fn contract(settings: SchemaSettings) -> Value {
    let schema = settings
        .into_generator()
        .into_root_schema_for::<crate::Envelope>();
    schema.to_value()
}

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
