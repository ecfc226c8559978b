//! Edits that change nothing on the wire: reordering, version bookkeeping,
//! formatting, documentation.

use super::fixture::*;
use cgp_classify::{self as classify, Bump, ComparedVersion};
use cgp_schema::SchemaSet;
use serde_json::{Value, json};

#[test]
fn reordered_members_values_and_variants_are_no_change() {
    check(
        "reordered",
        |files| {
            let reversed: serde_json::Map<String, Value> = members(files, QUERY)
                .iter()
                .rev()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            *at(files, QUERY, "/properties") = Value::Object(reversed);
            set_required(files, QUERY, &["limit", "goal"]);
            *at(files, SHAPE, "/enum") = json!(["compact", "full"]);
            at(files, "envelope.schema.json", "/oneOf")
                .as_array_mut()
                .expect("oneOf")
                .reverse();
            at(files, VERDICT, "/oneOf")
                .as_array_mut()
                .expect("oneOf")
                .reverse();
        },
        &[],
    );
}

#[test]
fn version_bookkeeping_is_no_change() {
    check(
        "x-cgp-since and the spec link",
        |files| {
            at(files, QUERY, "/properties/as_of")["x-cgp-since"] = json!("1.0");
            *at(files, "envelope.schema.json", "/x-cgp-protocol-version") = json!("demo/1.3");
        },
        &[],
    );
}

#[test]
fn a_reformatted_file_is_no_change() {
    let files = base();
    let pretty = load(&files);
    let sources = files
        .iter()
        .map(|(path, value)| {
            // Compact, on one line, with keys in another order.
            let mut text = serde_json::to_string(value).expect("serialise");
            if path == QUERY {
                let mut map = value.as_object().cloned().expect("object");
                map = map.into_iter().rev().collect();
                text = format!(
                    "\n\n  {}  \n",
                    serde_json::to_string(&map).expect("serialise")
                );
            }
            (path.clone(), text)
        })
        .collect();
    let set = SchemaSet::from_sources("schema", sources).expect("valid");
    let compact = ComparedVersion::from_source(set).expect("bundle");
    let comparison = classify::classify(&pretty, &compact);
    assert_eq!(comparison.changes, Vec::new());
    assert_eq!(comparison.required_bump, Bump::None);
}

#[test]
fn a_description_change_needs_no_bump() {
    check(
        "description",
        |files| {
            *at(files, SHAPE, "/description") = json!("The shape of an item.");
        },
        &[(
            "DOCUMENTATION_CHANGED",
            "/Shape",
            BOTH,
            "none",
            "`description` changed (documentation only)",
        )],
    );
}
