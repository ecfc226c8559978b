//! The demo protocol every pair edits, and the comparison of what the
//! classifier reports with what a case expects.

use cgp_classify::{self as classify, Bump, ComparedVersion, Comparison};
use cgp_schema::SchemaSet;
use serde_json::{Value, json};
use std::collections::BTreeMap;

pub type Files = BTreeMap<String, Value>;

pub const ID: &str = "https://cgp.test/demo-1/";

fn header(path: &str, title: &str, description: &str) -> serde_json::Map<String, Value> {
    let mut map = serde_json::Map::new();
    map.insert(
        "$schema".into(),
        json!("https://json-schema.org/draft/2020-12/schema"),
    );
    map.insert("$id".into(), json!(format!("{ID}{path}")));
    map.insert("title".into(), json!(title));
    map.insert("description".into(), json!(description));
    map.insert("x-cgp-since".into(), json!("1.0"));
    map
}

pub fn file(path: &str, title: &str, description: &str, body: Value) -> (String, Value) {
    let mut map = header(path, title, description);
    if let Value::Object(body) = body {
        map.extend(body);
    }
    (path.to_owned(), Value::Object(map))
}

pub fn tag(value: &str) -> Value {
    json!({"const": value, "description": "The tag.", "x-cgp-since": "1.0"})
}

/// The demo protocol `demo/1.0`: `ask` and `bye` travel host → provider, `answer`
/// provider → host; `Shape` is reached from both directions.
pub fn base() -> Files {
    let mut files = Files::new();
    files.extend([
        file(
            "envelope.schema.json",
            "Envelope",
            "One demo message.",
            json!({
                "x-cgp-protocol-version": "demo/1.0",
                "x-cgp-tag": "type",
                "oneOf": [
                    {"$ref": "variants/ask.schema.json"},
                    {"$ref": "variants/answer.schema.json"},
                    {"$ref": "variants/bye.schema.json"}
                ]
            }),
        ),
        file(
            "variants/ask.schema.json",
            "Ask",
            "A host's question.",
            json!({
                "x-cgp-direction": "host-to-provider",
                "type": "object",
                "properties": {
                    "type": tag("ask"),
                    "id": {"type": "string", "description": "Correlation id.", "x-cgp-since": "1.0", "x-cgp-emit": "omit-if-absent"},
                    "query": {"$ref": "../types/query.schema.json", "description": "The question.", "x-cgp-since": "1.0"}
                },
                "required": ["type", "query"]
            }),
        ),
        file(
            "variants/answer.schema.json",
            "Answer",
            "A provider's answer.",
            json!({
                "x-cgp-direction": "provider-to-host",
                "type": "object",
                "properties": {
                    "type": tag("answer"),
                    "items": {"type": "array", "items": {"$ref": "../types/item.schema.json"}, "default": [], "description": "The items.", "x-cgp-since": "1.0", "x-cgp-emit": "omit-if-empty"},
                    "verdict": {"$ref": "../types/verdict.schema.json", "description": "The verdict.", "x-cgp-since": "1.0", "x-cgp-emit": "omit-if-absent"}
                },
                "required": ["type"]
            }),
        ),
        file(
            "variants/bye.schema.json",
            "Bye",
            "Ends the session.",
            json!({
                "x-cgp-direction": "host-to-provider",
                "type": "object",
                "properties": {"type": tag("bye")},
                "required": ["type"]
            }),
        ),
        file(
            "types/query.schema.json",
            "Query",
            "What the host asks.",
            json!({
                "type": "object",
                "properties": {
                    "goal": {"type": "string", "description": "The goal.", "x-cgp-since": "1.0"},
                    "limit": {"type": "integer", "minimum": 0, "maximum": 100, "description": "At most this many items.", "x-cgp-since": "1.0"},
                    "as_of": {"type": "string", "description": "A point in time.", "x-cgp-since": "1.0", "x-cgp-emit": "omit-if-absent"},
                    "kinds": {"type": "array", "items": {"$ref": "../vocab/kind.schema.json"}, "default": [], "description": "Wanted kinds.", "x-cgp-since": "1.0", "x-cgp-emit": "omit-if-empty"},
                    "shape": {"$ref": "../vocab/shape.schema.json", "description": "Preferred shape.", "x-cgp-since": "1.0", "x-cgp-emit": "omit-if-absent"}
                },
                "required": ["goal", "limit"]
            }),
        ),
        file(
            "types/item.schema.json",
            "Item",
            "One answered item.",
            json!({
                "type": "object",
                "properties": {
                    "id": {"type": "string", "pattern": "^[a-z]+$", "description": "The item id.", "x-cgp-since": "1.0"},
                    "score": {"type": "number", "description": "Relevance.", "x-cgp-since": "1.0"},
                    "weights": {"type": "array", "items": {"type": "number"}, "default": [], "description": "Weights.", "x-cgp-since": "1.0", "x-cgp-emit": "omit-if-empty"},
                    "shape": {"$ref": "../vocab/shape.schema.json", "default": "full", "description": "The item's shape.", "x-cgp-since": "1.0", "x-cgp-emit": "omit-if-default"}
                },
                "required": ["id", "score"]
            }),
        ),
        file(
            "types/verdict.schema.json",
            "Verdict",
            "A status-tagged verdict.",
            json!({
                "x-cgp-tag": "status",
                "oneOf": [
                    {"title": "Ok", "description": "All good.", "x-cgp-since": "1.0", "type": "object",
                     "properties": {"status": {"const": "ok", "description": "The status.", "x-cgp-since": "1.0"}},
                     "required": ["status"]},
                    {"title": "Stale", "description": "Out of date.", "x-cgp-since": "1.0", "type": "object",
                     "properties": {"status": {"const": "stale", "description": "The status.", "x-cgp-since": "1.0"},
                                    "digest": {"type": "string", "description": "The new digest.", "x-cgp-since": "1.0", "x-cgp-emit": "omit-if-absent"}},
                     "required": ["status"]}
                ]
            }),
        ),
        file(
            "vocab/shape.schema.json",
            "Shape",
            "How an item is shaped.",
            json!({"x-cgp-vocabulary": "closed", "type": "string", "enum": ["full", "compact"]}),
        ),
        file(
            "vocab/kind.schema.json",
            "Kind",
            "What an item is about; open.",
            json!({
                "x-cgp-vocabulary": "open",
                "oneOf": [
                    {"$ref": "#/$defs/KnownKind"},
                    {"title": "Other", "description": "Any other kind.", "type": "string", "not": {"enum": ["doc", "code"]}}
                ],
                "$defs": {"KnownKind": {"title": "KnownKind", "description": "Known kinds.", "type": "string", "enum": ["doc", "code"]}}
            }),
        ),
    ]);
    files
}

pub fn load(files: &Files) -> ComparedVersion {
    let sources = files
        .iter()
        .map(|(path, value)| {
            let text = serde_json::to_string_pretty(value).expect("serialise");
            (path.clone(), text)
        })
        .collect();
    let set = SchemaSet::from_sources("schema", sources)
        .unwrap_or_else(|problems| panic!("the fixture must be a valid schema set:\n{problems}"));
    ComparedVersion::from_source(set).unwrap_or_else(|problems| panic!("bundle: {problems}"))
}

pub fn at<'v>(files: &'v mut Files, path: &str, pointer: &str) -> &'v mut Value {
    files
        .get_mut(path)
        .and_then(|value| value.pointer_mut(pointer))
        .unwrap_or_else(|| panic!("{path} has nothing at {pointer}"))
}

pub fn members<'v>(files: &'v mut Files, path: &str) -> &'v mut serde_json::Map<String, Value> {
    at(files, path, "/properties")
        .as_object_mut()
        .expect("properties")
}

pub fn set_required(files: &mut Files, path: &str, names: &[&str]) {
    *at(files, path, "/required") = json!(names);
}

pub const QUERY: &str = "types/query.schema.json";
pub const ITEM: &str = "types/item.schema.json";
pub const SHAPE: &str = "vocab/shape.schema.json";
pub const KIND: &str = "vocab/kind.schema.json";
pub const VERDICT: &str = "types/verdict.schema.json";

/// One expected change: rule id, pointer, directions, bump, message.
pub type Expected = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);

/// One fixture pair: a name, the edit that makes the new version, the changes.
pub type Case = (&'static str, Box<dyn FnOnce(&mut Files)>, Vec<Expected>);

pub fn summarise(comparison: &Comparison) -> Vec<(String, String, String, String, String)> {
    comparison
        .changes
        .iter()
        .map(|change| {
            (
                change.rule.id().to_owned(),
                change.pointer.clone(),
                change.directions_text(),
                change.required_bump.to_string(),
                change.message.clone(),
            )
        })
        .collect()
}

pub fn check(name: &str, edit: impl FnOnce(&mut Files), expected: &[Expected]) {
    let old = base();
    let mut new = base();
    edit(&mut new);
    let comparison = classify::classify(&load(&old), &load(&new));
    let found = summarise(&comparison);
    let wanted: Vec<(String, String, String, String, String)> = expected
        .iter()
        .map(|(rule, pointer, directions, bump, message)| {
            (
                rule.to_string(),
                pointer.to_string(),
                directions.to_string(),
                bump.to_string(),
                message.to_string(),
            )
        })
        .collect();
    assert_eq!(found, wanted, "case `{name}`:\n{:#?}", comparison.changes);
    let largest = comparison
        .changes
        .iter()
        .map(|change| change.required_bump)
        .max()
        .unwrap_or(Bump::None);
    assert_eq!(comparison.required_bump, largest, "case `{name}`");
}

pub const H2P: &str = "host-to-provider";
pub const P2H: &str = "provider-to-host";
pub const BOTH: &str = "host-to-provider, provider-to-host";
