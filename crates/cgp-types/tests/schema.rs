//! The schemars output (feature `schema`) has the shape the JSON Schema
//! comparison expects.
#![cfg(feature = "schema")]

use cgp_types::{EgressScope, Envelope, FrameKind, Representation};
use serde_json::Value;

fn schema<T: schemars::JsonSchema>() -> Value {
    serde_json::to_value(schemars::schema_for!(T)).unwrap()
}

#[test]
fn envelope_is_a_one_of_of_one_tagged_object_per_variant() {
    // The count comes from `Variant::ALL`, never a literal: the protocol grows.
    let root = schema::<Envelope>();
    let branches = root["oneOf"].as_array().expect("oneOf");
    let tags: Vec<&str> = branches
        .iter()
        .map(|b| {
            assert_eq!(b["type"], "object");
            assert!(
                b["required"]
                    .as_array()
                    .unwrap()
                    .contains(&Value::from("type")),
                "{b}"
            );
            b["properties"]["type"]["const"]
                .as_str()
                .expect("type const")
        })
        .collect();
    let expected: Vec<&str> = cgp_types::Variant::ALL.iter().map(|v| v.as_str()).collect();
    assert_eq!(
        tags, expected,
        "Envelope and Variant::ALL disagree (ARCHITECTURE.md, recipe \"Add an envelope variant\": the hand-written types)"
    );
    assert_eq!(root["title"], "Envelope");
}

/// Every named type of `schema/` (its `title`), read from the schema files so
/// that the protocol may grow, is a `$defs` entry of the Rust types' schema.
#[test]
fn every_type_is_named_after_its_rust_type() {
    let root = schema::<Envelope>();
    let defs = root["$defs"].as_object().unwrap();
    let schema_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schema");
    let mut names = Vec::new();
    for folder in ["types", "vocab"] {
        for entry in std::fs::read_dir(schema_dir.join(folder)).expect("a schema folder") {
            let path = entry.expect("entry").path();
            let text = std::fs::read_to_string(&path).expect("read");
            let schema: Value = serde_json::from_str(&text).expect("json");
            let title = schema["title"].as_str().expect("a title").to_owned();
            names.push((title, path));
        }
    }
    assert!(names.len() > 1, "{names:?}");
    for (name, path) in names {
        assert!(
            defs.contains_key(&name),
            "missing $defs/{name}, the type of {}: a named type needs its hand-written Rust \
             type, reached from Envelope (ARCHITECTURE.md, recipe \"Add a named type\": the Rust type)",
            path.display()
        );
    }
}

#[test]
fn open_vocabularies_list_their_known_values() {
    let kind = schema::<FrameKind>();
    assert_eq!(kind["type"], "string");
    let branches = kind["oneOf"].as_array().unwrap();
    assert_eq!(branches.len(), 2);
    let known: Vec<Value> = FrameKind::KNOWN.iter().map(|s| Value::from(*s)).collect();
    assert_eq!(branches[0]["enum"], Value::Array(known.clone()));
    assert_eq!(branches[1]["not"]["enum"], Value::Array(known));
    assert_eq!(schema::<EgressScope>()["oneOf"][0]["enum"][0], "local-only");
}

#[test]
fn closed_enums_are_string_enums() {
    let rep = schema::<Representation>();
    assert_eq!(rep["type"], "string");
    assert_eq!(
        rep["enum"],
        serde_json::json!(["full", "compact", "reference"])
    );
    assert!(rep.get("oneOf").is_none());
}
