//! The first release describes every type reachable from `Envelope` in the
//! reference implementation and every member slot (SPEC.md §Envelope;
//! `wire-facts.md` counts 29 types and 117 member slots, tags included). Its
//! frozen interop bundle is checked, so later versions may add or remove members.

use cgp_gates::release::Manifest;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

fn interop() -> Value {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let manifest = std::fs::read_to_string(root.join("generated/schema/releases.json"))
        .expect("releases.json");
    let manifest = Manifest::parse("releases.json", &manifest).expect("the release manifest");
    let first = manifest.releases().first().expect("a first release");
    let path = root.join(format!(
        "generated/schema/{}/interop.schema.json",
        first.version.slug()
    ));
    serde_json::from_str(&std::fs::read_to_string(path).expect("the first release's bundle"))
        .expect("JSON")
}

fn members(schema: &Value) -> BTreeSet<String> {
    let mut names: BTreeSet<String> = schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|props| props.keys().cloned().collect())
        .unwrap_or_default();
    // A tagged union's members are those of all its shapes.
    for branch in schema
        .get("oneOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        names.extend(members(branch));
    }
    names
}

#[test]
fn every_type_of_the_reference_wire_is_described() {
    let document = interop();
    let defs = document["$defs"].as_object().expect("$defs");
    let named: BTreeSet<&str> = defs
        .keys()
        .map(String::as_str)
        .filter(|name| !name.starts_with("Known"))
        .collect();
    let expected: BTreeSet<&str> = [
        "AttesterKey",
        "Capabilities",
        "ContentFidelity",
        "ContentRef",
        "ContextFrame",
        "ContextQuery",
        "ContextQueryResult",
        "DataFlow",
        "EgressScope",
        "ErrorCode",
        "FrameAttestation",
        "FrameEmbedding",
        "FrameId",
        "FrameKind",
        "FrameVerdict",
        "InclusionProof",
        "InclusionStep",
        "InlineContentRequirement",
        "Provenance",
        "ProvenanceAttestation",
        "ProviderInfo",
        "QueryCapability",
        "Relation",
        "Representation",
        "Transform",
        "VerifyRequest",
        "VerifyResponse",
    ]
    .into();
    assert_eq!(named, expected);
    // Envelope is the bundle root; the reference's `Verdict` is FrameVerdict's
    // tagged union on `status`, with one shape per verdict.
    let verdicts: Vec<&str> = defs["FrameVerdict"]["oneOf"]
        .as_array()
        .expect("shapes")
        .iter()
        .filter_map(|shape| {
            shape
                .pointer("/properties/status/const")
                .and_then(Value::as_str)
        })
        .collect();
    assert_eq!(verdicts, ["valid", "stale", "gone", "unknown"]);
    assert_eq!(1 + named.len() + 1, 29);
}

#[test]
fn every_member_slot_is_described() {
    let document = interop();
    let mut slots = 0;
    let mut tags = 0;
    for variant in document["oneOf"].as_array().expect("variants") {
        let names = members(variant);
        tags += usize::from(names.contains("type"));
        slots += names.len();
    }
    for (name, schema) in document["$defs"].as_object().expect("$defs") {
        if !name.starts_with("Known") {
            slots += members(schema).len();
        }
    }
    assert_eq!(tags, 8);
    assert_eq!(
        slots, 117,
        "8 envelope tags + 14 payload members + 95 members of the object types"
    );
}
