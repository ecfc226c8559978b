//! The classifier, rule by rule: one fixture pair (old, new) per rule, plus pairs
//! that must report no change. Each pair is a small in-memory schema set (a demo
//! protocol with one variant per direction, a type shared by both, a closed and an
//! open vocabulary and a tagged union) and one edit of it; every expectation names
//! the exact rule id, pointer, directions, bump and message.

use cgp_schema::SchemaSet;
use cgp_schema::classify::{self, Bump, Comparison, Rule, Side};
use serde_json::{Value, json};
use std::collections::BTreeMap;

type Files = BTreeMap<String, Value>;

const ID: &str = "https://cgp.test/demo-1/";

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

fn file(path: &str, title: &str, description: &str, body: Value) -> (String, Value) {
    let mut map = header(path, title, description);
    if let Value::Object(body) = body {
        map.extend(body);
    }
    (path.to_owned(), Value::Object(map))
}

fn tag(value: &str) -> Value {
    json!({"const": value, "description": "The tag.", "x-cgp-since": "1.0"})
}

/// The demo protocol `demo/1.0`: `ask` and `bye` travel host → provider, `answer`
/// provider → host; `Shape` is reached from both directions.
fn base() -> Files {
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

fn load(files: &Files) -> Side {
    let sources = files
        .iter()
        .map(|(path, value)| {
            let text = serde_json::to_string_pretty(value).expect("serialise");
            (path.clone(), text)
        })
        .collect();
    let set = SchemaSet::from_sources("schema", sources)
        .unwrap_or_else(|problems| panic!("the fixture must be a valid schema set:\n{problems}"));
    Side::from_source(set).unwrap_or_else(|problems| panic!("bundle: {problems}"))
}

fn at<'v>(files: &'v mut Files, path: &str, pointer: &str) -> &'v mut Value {
    files
        .get_mut(path)
        .and_then(|value| value.pointer_mut(pointer))
        .unwrap_or_else(|| panic!("{path} has nothing at {pointer}"))
}

fn members<'v>(files: &'v mut Files, path: &str) -> &'v mut serde_json::Map<String, Value> {
    at(files, path, "/properties")
        .as_object_mut()
        .expect("properties")
}

fn set_required(files: &mut Files, path: &str, names: &[&str]) {
    *at(files, path, "/required") = json!(names);
}

const QUERY: &str = "types/query.schema.json";
const ITEM: &str = "types/item.schema.json";
const SHAPE: &str = "vocab/shape.schema.json";
const KIND: &str = "vocab/kind.schema.json";
const VERDICT: &str = "types/verdict.schema.json";

/// One expected change: rule id, pointer, directions, bump, message.
type Expected = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);

/// One fixture pair: a name, the edit that makes the new version, the changes.
type Case = (&'static str, Box<dyn FnOnce(&mut Files)>, Vec<Expected>);

fn summarise(comparison: &Comparison) -> Vec<(String, String, String, String, String)> {
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

fn check(name: &str, edit: impl FnOnce(&mut Files), expected: &[Expected]) {
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

const H2P: &str = "host-to-provider";
const P2H: &str = "provider-to-host";
const BOTH: &str = "host-to-provider, provider-to-host";

#[test]
fn every_rule_has_a_fixture_pair() {
    let cases: Vec<Case> = vec![
        (
            "variant added",
            Box::new(|files: &mut Files| {
                files.extend([file(
                    "variants/ping.schema.json",
                    "Ping",
                    "Are you there?",
                    json!({"x-cgp-direction": "host-to-provider", "type": "object",
                           "properties": {"type": tag("ping")}, "required": ["type"]}),
                )]);
                at(files, "envelope.schema.json", "/oneOf")
                    .as_array_mut()
                    .expect("oneOf")
                    .push(json!({"$ref": "variants/ping.schema.json"}));
            }),
            vec![(
                "VARIANT_ADDED",
                "/ping",
                H2P,
                "minor",
                "the envelope variant `ping` was added; send it only to peers that signalled support",
            )],
        ),
        (
            "variant removed",
            Box::new(|files: &mut Files| {
                files.remove("variants/bye.schema.json");
                at(files, "envelope.schema.json", "/oneOf")
                    .as_array_mut()
                    .expect("oneOf")
                    .pop();
            }),
            vec![(
                "VARIANT_REMOVED",
                "/bye",
                H2P,
                "major",
                "the envelope variant `bye` was removed",
            )],
        ),
        (
            "variant direction changed",
            Box::new(|files: &mut Files| {
                *at(files, "variants/bye.schema.json", "/x-cgp-direction") =
                    json!("provider-to-host");
            }),
            vec![(
                "VARIANT_DIRECTION_CHANGED",
                "/bye",
                BOTH,
                "major",
                "the variant `bye` changed direction from host-to-provider to provider-to-host",
            )],
        ),
        (
            "optional member added",
            Box::new(|files: &mut Files| {
                members(files, QUERY).insert(
                    "note".into(),
                    json!({"type": "string", "description": "A note.", "x-cgp-since": "1.0", "x-cgp-emit": "omit-if-absent"}),
                );
            }),
            vec![(
                "FIELD_ADDED_OPTIONAL",
                "/Query/note",
                H2P,
                "minor",
                "the optional member `note` was added",
            )],
        ),
        (
            "required member added",
            Box::new(|files: &mut Files| {
                members(files, QUERY).insert(
                    "note".into(),
                    json!({"type": "string", "description": "A note.", "x-cgp-since": "1.0"}),
                );
                set_required(files, QUERY, &["goal", "limit", "note"]);
            }),
            vec![(
                "FIELD_ADDED_REQUIRED",
                "/Query/note",
                H2P,
                "major",
                "the required member `note` was added",
            )],
        ),
        (
            "member removed",
            Box::new(|files: &mut Files| {
                members(files, QUERY).shift_remove("as_of");
            }),
            vec![(
                "FIELD_REMOVED",
                "/Query/as_of",
                H2P,
                "major",
                "the member `as_of` was removed; deprecate it instead (SPEC U4)",
            )],
        ),
        (
            "member renamed",
            Box::new(|files: &mut Files| {
                let members = members(files, QUERY);
                let mut schema = members.shift_remove("as_of").expect("as_of");
                schema["description"] = json!("The point in time to answer for.");
                members.insert("at".into(), schema);
            }),
            vec![(
                "FIELD_RENAMED",
                "/Query/at",
                H2P,
                "major",
                "the member `as_of` was renamed to `at` (removed, and added with the same schema); deprecate it instead (SPEC U4)",
            )],
        ),
        (
            "optional member made required",
            Box::new(|files: &mut Files| {
                members(files, QUERY)
                    .get_mut("as_of")
                    .and_then(Value::as_object_mut)
                    .expect("as_of")
                    .shift_remove("x-cgp-emit");
                set_required(files, QUERY, &["goal", "limit", "as_of"]);
            }),
            vec![
                (
                    "FIELD_MADE_REQUIRED",
                    "/Query/as_of",
                    H2P,
                    "major",
                    "the member `as_of` is now required",
                ),
                (
                    "VALUE_SET_NARROWED",
                    "/Query/as_of",
                    H2P,
                    "major",
                    "`null` is no longer accepted",
                ),
            ],
        ),
        (
            "required member made optional",
            Box::new(|files: &mut Files| {
                at(files, QUERY, "/properties/goal")["x-cgp-emit"] = json!("omit-if-absent");
                set_required(files, QUERY, &["limit"]);
            }),
            vec![
                (
                    "FIELD_MADE_OPTIONAL",
                    "/Query/goal",
                    H2P,
                    "major",
                    "the member `goal` is no longer required",
                ),
                (
                    "VALUE_SET_WIDENED",
                    "/Query/goal",
                    H2P,
                    "minor",
                    "`null` is now accepted",
                ),
            ],
        ),
        (
            "JSON type changed",
            Box::new(|files: &mut Files| {
                at(files, ITEM, "/properties/score")["type"] = json!("string");
            }),
            vec![(
                "TYPE_CHANGED",
                "/Item/score",
                P2H,
                "major",
                "the JSON type changed from `number` to `string`",
            )],
        ),
        (
            "array item type changed",
            Box::new(|files: &mut Files| {
                at(files, ITEM, "/properties/weights")["items"] = json!({"type": "string"});
            }),
            vec![(
                "TYPE_CHANGED",
                "/Item/weights/items",
                P2H,
                "major",
                "the JSON type changed from `number` to `string`",
            )],
        ),
        (
            "input narrowed: a lower maximum breaks old hosts",
            Box::new(|files: &mut Files| {
                at(files, QUERY, "/properties/limit")["maximum"] = json!(50);
            }),
            vec![(
                "VALUE_SET_NARROWED",
                "/Query/limit",
                H2P,
                "major",
                "`maximum` lowered from 100 to 50",
            )],
        ),
        (
            "output narrowed: a new bound old hosts already accept",
            Box::new(|files: &mut Files| {
                at(files, ITEM, "/properties/score")["maximum"] = json!(1);
            }),
            vec![(
                "VALUE_SET_NARROWED",
                "/Item/score",
                P2H,
                "minor",
                "`maximum` 1 was added",
            )],
        ),
        (
            "input widened: hosts send it only to new providers",
            Box::new(|files: &mut Files| {
                at(files, QUERY, "/properties/limit")["maximum"] = json!(200);
            }),
            vec![(
                "VALUE_SET_WIDENED",
                "/Query/limit",
                H2P,
                "minor",
                "`maximum` raised from 100 to 200",
            )],
        ),
        (
            "output widened: old hosts reject the new values",
            Box::new(|files: &mut Files| {
                at(files, ITEM, "/properties/id")
                    .as_object_mut()
                    .expect("id")
                    .shift_remove("pattern");
            }),
            vec![(
                "VALUE_SET_WIDENED",
                "/Item/id",
                P2H,
                "major",
                "`pattern` ^[a-z]+$ was removed",
            )],
        ),
        (
            "input widened: integer became number",
            Box::new(|files: &mut Files| {
                at(files, QUERY, "/properties/limit")["type"] = json!("number");
            }),
            vec![(
                "VALUE_SET_WIDENED",
                "/Query/limit",
                H2P,
                "minor",
                "numbers with a fraction are now accepted (`integer` became `number`)",
            )],
        ),
        (
            "shared type narrowed: a closed value removed breaks both directions",
            Box::new(|files: &mut Files| {
                *at(files, SHAPE, "/enum") = json!(["full"]);
            }),
            vec![(
                "VALUE_SET_NARROWED",
                "/Shape",
                BOTH,
                "major",
                "`compact` is no longer accepted",
            )],
        ),
        (
            "value set replaced",
            Box::new(|files: &mut Files| {
                at(files, ITEM, "/properties/id")["pattern"] = json!("^[0-9]+$");
            }),
            vec![(
                "VALUE_SET_CHANGED",
                "/Item/id",
                P2H,
                "major",
                "`pattern` changed from ^[a-z]+$ to ^[0-9]+$",
            )],
        ),
        (
            "closed enumeration value added",
            Box::new(|files: &mut Files| {
                *at(files, SHAPE, "/enum") = json!(["full", "compact", "reference"]);
            }),
            vec![(
                "ENUM_VALUE_ADDED",
                "/Shape",
                BOTH,
                "minor",
                "the closed enumeration gains `reference`; send it only to peers that signalled support",
            )],
        ),
        (
            "open vocabulary value added",
            Box::new(|files: &mut Files| {
                *at(files, KIND, "/$defs/KnownKind/enum") = json!(["doc", "code", "fact"]);
                *at(files, KIND, "/oneOf/1/not/enum") = json!(["doc", "code", "fact"]);
            }),
            vec![(
                "VOCABULARY_VALUE_ADDED",
                "/Kind",
                H2P,
                "none",
                "the open vocabulary gains the known value `fact`",
            )],
        ),
        (
            "open vocabulary value removed",
            Box::new(|files: &mut Files| {
                *at(files, KIND, "/$defs/KnownKind/enum") = json!(["doc"]);
                *at(files, KIND, "/oneOf/1/not/enum") = json!(["doc"]);
            }),
            vec![(
                "VOCABULARY_VALUE_REMOVED",
                "/Kind",
                H2P,
                "major",
                "the open vocabulary no longer names `code`; receivers now treat it with the fallback",
            )],
        ),
        (
            "open vocabulary closed",
            Box::new(|files: &mut Files| {
                files.extend([file(
                    KIND,
                    "Kind",
                    "What an item is about; open.",
                    json!({"x-cgp-vocabulary": "closed", "type": "string", "enum": ["doc", "code"]}),
                )]);
            }),
            vec![(
                "VALUE_SET_NARROWED",
                "/Kind",
                H2P,
                "major",
                "the open vocabulary is now closed: only `doc`, `code` are accepted",
            )],
        ),
        (
            "default changed",
            Box::new(|files: &mut Files| {
                at(files, ITEM, "/properties/shape")["default"] = json!("compact");
            }),
            vec![(
                "DEFAULT_CHANGED",
                "/Item/shape",
                P2H,
                "major",
                "the default changed from `full` to `compact`",
            )],
        ),
        (
            "emit rule changed",
            Box::new(|files: &mut Files| {
                at(files, ITEM, "/properties/shape")["x-cgp-emit"] = json!("always");
            }),
            vec![(
                "EMIT_CHANGED",
                "/Item/shape",
                P2H,
                "minor",
                "`x-cgp-emit` changed from `omit-if-default` to `always`",
            )],
        ),
        (
            "member deprecated",
            Box::new(|files: &mut Files| {
                at(files, QUERY, "/properties/as_of")["deprecated"] = json!(true);
            }),
            vec![(
                "DEPRECATION_CHANGED",
                "/Query/as_of",
                H2P,
                "minor",
                "now deprecated",
            )],
        ),
        (
            "type renamed",
            Box::new(|files: &mut Files| {
                *at(files, ITEM, "/title") = json!("Entry");
            }),
            vec![(
                "TYPE_RENAMED",
                "/Entry",
                P2H,
                "none",
                "the type `Item` was renamed to `Entry`",
            )],
        ),
        (
            "documentation changed",
            Box::new(|files: &mut Files| {
                at(files, QUERY, "/properties/goal")["description"] = json!("What it is for.");
                at(files, QUERY, "/properties/goal")["examples"] = json!(["fix the build"]);
                at(files, QUERY, "/properties/goal")["title"] = json!("Goal");
                at(files, QUERY, "/properties/goal")["x-cgp-spec"] = json!("SPEC.md#goal");
                *at(files, "variants/ask.schema.json", "/description") = json!("A question.");
            }),
            vec![
                (
                    "DOCUMENTATION_CHANGED",
                    "/Query/goal",
                    H2P,
                    "none",
                    "`title`, `description`, `examples`, `x-cgp-spec` changed (documentation only)",
                ),
                (
                    "DOCUMENTATION_CHANGED",
                    "/ask",
                    H2P,
                    "none",
                    "`description` changed (documentation only)",
                ),
            ],
        ),
        (
            "tagged-union branch added",
            Box::new(|files: &mut Files| {
                at(files, VERDICT, "/oneOf").as_array_mut().expect("oneOf").push(json!(
                    {"title": "Gone", "description": "Gone.", "x-cgp-since": "1.0", "type": "object",
                     "properties": {"status": {"const": "gone", "description": "The status.", "x-cgp-since": "1.0"}},
                     "required": ["status"]}
                ));
            }),
            vec![(
                "VARIANT_ADDED",
                "/Verdict/gone",
                P2H,
                "minor",
                "the `status` branch `gone` was added; send it only to peers that signalled support",
            )],
        ),
        (
            "tagged-union branch removed",
            Box::new(|files: &mut Files| {
                at(files, VERDICT, "/oneOf")
                    .as_array_mut()
                    .expect("oneOf")
                    .remove(1);
            }),
            vec![(
                "VARIANT_REMOVED",
                "/Verdict/stale",
                P2H,
                "major",
                "the `status` branch `stale` was removed",
            )],
        ),
        (
            "member of a tagged-union branch removed",
            Box::new(|files: &mut Files| {
                at(files, VERDICT, "/oneOf/1/properties")
                    .as_object_mut()
                    .expect("properties")
                    .shift_remove("digest");
            }),
            vec![(
                "FIELD_REMOVED",
                "/Verdict/stale/digest",
                P2H,
                "major",
                "the member `digest` was removed; deprecate it instead (SPEC U4)",
            )],
        ),
    ];
    let mut covered: Vec<&str> = Vec::new();
    for (name, edit, expected) in cases {
        covered.extend(expected.iter().map(|(rule, ..)| *rule));
        check(name, edit, &expected);
    }
    // Rules that only a hand-written bundle can trigger are covered below.
    let elsewhere = ["VALUE_SET_CHANGED"];
    for rule in Rule::ALL {
        assert!(
            covered.contains(&rule.id()) || elsewhere.contains(&rule.id()),
            "no fixture pair for {}",
            rule.id()
        );
    }
}

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
    let compact = Side::from_source(set).expect("bundle");
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

/// A published bundle whose one variant, `answer` (provider → host), refers to
/// the type `Item`.
fn bundle(item: Value) -> Side {
    let document = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "x-cgp-protocol-version": "demo/1.0",
        "x-cgp-profile": "interop",
        "oneOf": [{
            "x-cgp-direction": "provider-to-host",
            "type": "object",
            "properties": {"type": {"const": "answer"}, "item": {"$ref": "#/$defs/Item"}},
            "required": ["type"]
        }],
        "$defs": {"Item": item}
    });
    let text = serde_json::to_string_pretty(&document).expect("serialise");
    Side::from_bundle_text("bundle.json", &text).expect("a valid bundle")
}

/// Hand-written bundles reach shapes the source checker refuses; the classifier
/// must still order them or call them replaced, and never panic.
#[test]
fn bundle_only_shapes_are_classified() {
    let old = bundle(json!({"type": "string", "const": "a"}));
    let new = bundle(json!({"type": "string", "const": "b", "not": {"const": "c"}}));
    let comparison = classify::classify(&old, &new);
    let found: Vec<(String, String, String)> = comparison
        .changes
        .iter()
        .map(|c| {
            (
                c.rule.id().to_owned(),
                c.required_bump.to_string(),
                c.message.clone(),
            )
        })
        .collect();
    assert_eq!(
        found,
        vec![
            (
                "VALUE_SET_NARROWED".into(),
                "minor".into(),
                "`a` is no longer accepted".into()
            ),
            (
                "ENUM_VALUE_ADDED".into(),
                "minor".into(),
                "the closed enumeration gains `b`; send it only to peers that signalled support"
                    .into()
            ),
            (
                "VALUE_SET_NARROWED".into(),
                "minor".into(),
                "`not` {\"const\":\"c\"} was added".into()
            ),
        ]
    );
    let replaced = classify::classify(
        &bundle(json!({"type": "integer", "multipleOf": 2})),
        &bundle(json!({"type": "integer", "multipleOf": 3})),
    );
    assert_eq!(
        summarise(&replaced),
        vec![(
            "VALUE_SET_CHANGED".into(),
            "/Item".into(),
            P2H.into(),
            "major".into(),
            "`multipleOf` changed from 2 to 3".into()
        )]
    );
    let union = classify::classify(
        &bundle(json!({"type": "object", "properties": {"a": {"type": "string"}}})),
        &bundle(json!({"x-cgp-tag": "k", "oneOf": []})),
    );
    assert_eq!(
        summarise(&union),
        vec![(
            "VALUE_SET_CHANGED".into(),
            "/Item".into(),
            P2H.into(),
            "major".into(),
            "is now a tagged union".into()
        )]
    );
}

/// A schema the protocol model cannot describe is compared as written: the same
/// text is no change, any other is one the classifier cannot order.
#[test]
fn undescribed_shapes_compare_as_written() {
    let odd = |minimum: u32| bundle(json!({"type": "string", "minimum": minimum}));
    assert_eq!(classify::classify(&odd(1), &odd(1)).changes, Vec::new());
    assert_eq!(
        summarise(&classify::classify(&odd(1), &odd(2))),
        vec![(
            "VALUE_SET_CHANGED".into(),
            "/Item".into(),
            P2H.into(),
            "major".into(),
            "the schema changed, and the protocol model cannot describe it (keyword `minimum` in this position), so the change cannot be ordered".into()
        )]
    );
    let nullable = bundle(json!({"type": ["string", "null"], "minimum": 1}));
    assert_eq!(
        summarise(&classify::classify(&bundle(json!({"type": "string"})), &nullable)),
        vec![(
            "VALUE_SET_CHANGED".into(),
            "/Item".into(),
            P2H.into(),
            "major".into(),
            "the new schema is one the protocol model cannot describe (keyword `minimum` in this position), so the change cannot be ordered".into()
        )],
        "whether an undescribed schema accepts `null` is not guessed"
    );
}

/// Shapes compare as the model reads them: the spelling of `null` and the
/// annotations of a `null` branch are no change; item documentation is seen.
#[test]
fn shapes_compare_as_the_model_reads_them() {
    let any_of = bundle(json!({"anyOf": [{"type": "string"}, {"type": "null", "title": "None"}]}));
    let by_type = bundle(json!({"type": ["string", "null"], "maxLength": 3}));
    assert_eq!(
        summarise(&classify::classify(&any_of, &by_type)),
        vec![(
            "VALUE_SET_NARROWED".into(),
            "/Item".into(),
            P2H.into(),
            "minor".into(),
            "`maxLength` 3 was added".into()
        )]
    );
    let items = |description: &str| {
        bundle(json!({"type": "array", "items": {"type": "string", "description": description}}))
    };
    assert_eq!(
        summarise(&classify::classify(&items("a"), &items("b"))),
        vec![(
            "DOCUMENTATION_CHANGED".into(),
            "/Item/items".into(),
            P2H.into(),
            "none".into(),
            "`description` changed (documentation only)".into()
        )]
    );
    let inclusive = bundle(json!({"type": "integer", "minimum": 1}));
    let exclusive = bundle(json!({"type": "integer", "exclusiveMinimum": 0}));
    assert_eq!(
        classify::classify(&inclusive, &exclusive).changes,
        Vec::new(),
        "the same integer range, spelt two ways"
    );
}

#[test]
fn odd_bundles_do_not_panic() {
    let shapes = [
        json!({"oneOf": [1, "x", {"properties": []}, {"properties": {"type": {"const": 3}}}], "$defs": {}}),
        json!({"oneOf": [{"properties": {"type": {"const": "a"}, "m": true}, "required": "m"}], "$defs": {"A": false}}),
        json!({"oneOf": [{"properties": {"type": {"const": "a"}, "m": {"$ref": "#/$defs/A"}}}], "$defs": {"A": {"$ref": "#/$defs/B", "title": "A"}, "B": {"$ref": "#/$defs/C"}, "C": true}}),
        json!({"oneOf": [{"properties": {"type": {"const": "a"}, "m": {"x-cgp-tag": 5, "oneOf": [null]}}}], "$defs": {}}),
        json!({"oneOf": [{"properties": {"type": {"const": "a"}, "m": {"type": [1, "null"], "enum": 3, "minimum": "x", "items": 7}}}], "$defs": {}}),
    ];
    let sides: Vec<Side> = shapes
        .iter()
        .map(|shape| {
            let mut document = shape.clone();
            document["x-cgp-profile"] = json!("interop");
            document["x-cgp-protocol-version"] = json!("demo/1.0");
            Side::from_bundle_text("odd.json", &document.to_string()).expect("loads")
        })
        .collect();
    let mut compared = 0;
    for old in &sides {
        for new in &sides {
            let comparison = classify::classify(old, new);
            for change in &comparison.changes {
                assert!(!change.to_string().is_empty());
            }
            compared += 1;
        }
    }
    assert_eq!(compared, shapes.len() * shapes.len());
}

/// A `$ref` cycle with no schema in between constrains nothing; in a published
/// bundle it is refused at load, named from its first entry, as the source
/// loader refuses it in schema/.
#[test]
fn a_reference_cycle_in_a_bundle_is_named() {
    let document = json!({
        "x-cgp-profile": "interop",
        "x-cgp-protocol-version": "demo/1.0",
        "oneOf": [{"properties": {"type": {"const": "a"}, "m": {"$ref": "#/$defs/Loop2"}}}],
        "$defs": {"Loop2": {"$ref": "#/$defs/Loop1"}, "Loop1": {"$ref": "#/$defs/Loop2"}, "Self": {"$ref": "#/$defs/Self"}}
    });
    let problems = Side::from_bundle_text("cycle.json", &document.to_string())
        .expect_err("a cycle")
        .to_string();
    assert!(
        problems.contains(
            "/$defs/Loop1/$ref: `$ref` cycle with no schema in between: Loop1 -> Loop2 -> Loop1"
        ),
        "{problems}"
    );
    assert!(
        problems.contains("`$ref` cycle with no schema in between: Self -> Self"),
        "{problems}"
    );
    assert_eq!(problems.matches("cycle with").count(), 2, "{problems}");
}

#[test]
fn unreadable_input_is_a_diagnostic() {
    let missing = classify::load_side(std::path::Path::new("/nonexistent/cgp-schema"))
        .expect_err("missing path");
    assert!(
        missing
            .to_string()
            .starts_with("/nonexistent/cgp-schema: cannot read: "),
        "{missing}"
    );
    let not_json = Side::from_bundle_text("b.json", "{\"oneOf\": [").expect_err("bad JSON");
    assert!(not_json.to_string().starts_with("b.json:1:"), "{not_json}");
    let strict = Side::from_bundle_text(
        "strict.schema.json",
        "{\"x-cgp-profile\": \"strict\", \"oneOf\": []}",
    )
    .expect_err("strict");
    assert_eq!(
        strict.to_string(),
        "strict.schema.json:1:19: /x-cgp-profile: this is the strict bundle; compare interop bundles (the receiver's contract), e.g. interop.schema.json beside it"
    );
    let dangling = Side::from_bundle_text(
        "b.json",
        "{\"x-cgp-profile\": \"interop\", \"x-cgp-protocol-version\": \"demo/1.0\",\n \"oneOf\": [{\"$ref\": \"#/$defs/Nope\"}]}",
    )
    .expect_err("dangling");
    assert_eq!(
        dangling.to_string(),
        "b.json:2:21: /oneOf/0/$ref: `$ref` \"#/$defs/Nope\" does not name an entry of the bundle's `$defs`; a published bundle has only local `#/$defs/<Name>` references"
    );
}

#[test]
fn locations_point_into_both_versions() {
    let old = base();
    let mut new = base();
    members(&mut new, QUERY).shift_remove("as_of");
    let comparison = classify::classify(&load(&old), &load(&new));
    let [change] = comparison.changes.as_slice() else {
        panic!("{:#?}", comparison.changes);
    };
    let old_text = serde_json::to_string_pretty(&old[QUERY]).expect("serialise");
    let new_text = serde_json::to_string_pretty(&new[QUERY]).expect("serialise");
    let line =
        |text: &str, needle: &str| text.lines().position(|l| l.contains(needle)).expect("line") + 1;
    let old_line = line(&old_text, "\"as_of\"");
    let new_line = line(&new_text, "\"properties\"");
    assert_eq!(
        change.old.as_ref().map(ToString::to_string),
        Some(format!("schema/types/query.schema.json:{old_line}"))
    );
    // The member is gone from the new file: the object that lost it is shown.
    assert_eq!(
        change.new.as_ref().map(ToString::to_string),
        Some(format!("schema/types/query.schema.json:{new_line}"))
    );
    assert_eq!(
        comparison.changes[0].to_string(),
        format!(
            "schema/types/query.schema.json:{new_line}: FIELD_REMOVED /Query/as_of (host-to-provider) requires a major bump: the member `as_of` was removed; deprecate it instead (SPEC U4)"
        )
    );
    let change = &comparison.changes[0];
    let location = change.location().expect("a location");
    assert_eq!(
        (location.file.as_str(), location.line),
        ("schema/types/query.schema.json", new_line)
    );
    assert_eq!(
        change.headline(),
        "FIELD_REMOVED /Query/as_of (host-to-provider) requires a major bump: the member `as_of` was removed; deprecate it instead (SPEC U4)"
    );
}

#[test]
fn an_added_optional_member_is_minor_and_a_description_edit_needs_no_bump() {
    let old = base();
    let mut new = base();
    members(&mut new, QUERY).insert(
        "note".into(),
        json!({"type": "string", "description": "A note, 100% optional.", "x-cgp-since": "1.0", "x-cgp-emit": "omit-if-absent"}),
    );
    *at(&mut new, SHAPE, "/description") = json!("Shapes: full, compact.");
    let comparison = classify::classify(&load(&old), &load(&new));
    let bumps: Vec<Bump> = comparison
        .changes
        .iter()
        .map(|change| change.required_bump)
        .collect();
    assert_eq!(bumps, vec![Bump::Minor, Bump::None]);
    assert_eq!(comparison.required_bump, Bump::Minor);
}

#[test]
fn bumps_order_and_apply() {
    let v = |text: &str| {
        text.parse::<cgp_schema::ProtocolVersion>()
            .expect("version")
    };
    assert!(Bump::None < Bump::Minor && Bump::Minor < Bump::Major);
    assert_eq!(
        Bump::between(&v("demo/1.0"), &v("demo/1.0")),
        Some(Bump::None)
    );
    assert_eq!(
        Bump::between(&v("demo/1.0"), &v("demo/1.4")),
        Some(Bump::Minor)
    );
    assert_eq!(
        Bump::between(&v("demo/1.3"), &v("demo/2.0")),
        Some(Bump::Major)
    );
    assert_eq!(Bump::between(&v("demo/1.3"), &v("demo/1.2")), None);
    assert_eq!(Bump::between(&v("demo/1.0"), &v("other/1.1")), None);
    assert_eq!(Bump::Minor.apply(&v("demo/1.9")), v("demo/1.10"));
    assert_eq!(Bump::Major.apply(&v("demo/1.9")), v("demo/2.0"));
    assert_eq!("major".parse::<Bump>(), Ok(Bump::Major));
    assert_eq!(
        "huge".parse::<Bump>(),
        Err("unknown bump `huge`; expected `none`, `minor` or `major`".to_owned())
    );
}

#[test]
fn the_published_bundle_compares_equal_to_its_sources() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let source = classify::load_side(&root.join("schema")).expect("schema/ loads");
    let bundle_path = root.join(format!(
        "generated/schema/{}/interop.schema.json",
        source.version().slug()
    ));
    let published = classify::load_side(&bundle_path).expect("the interop bundle loads");
    for (old, new) in [(&source, &published), (&published, &source)] {
        let comparison = classify::classify(old, new);
        assert_eq!(comparison.changes, Vec::new());
    }
}

/// SPEC.md §Compatibility documents every rule, with the bump the code requires.
#[test]
fn the_spec_rule_table_matches_the_rules() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let spec = std::fs::read_to_string(root.join("SPEC.md")).expect("SPEC.md");
    let table = spec
        .split("**The classifier's rules.**")
        .nth(1)
        .expect("SPEC.md §Compatibility has the rule table");
    let rows: Vec<(String, String)> = table
        .lines()
        .skip_while(|line| !line.starts_with("| Rule |"))
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            (
                cells.get(1).unwrap_or(&"").trim_matches('`').to_owned(),
                cells.get(3).unwrap_or(&"").to_string(),
            )
        })
        .collect();
    let expected: Vec<(String, String)> = Rule::ALL
        .iter()
        .map(|rule| {
            let bump = match rule.decision() {
                classify::Decision::Fixed(bump) => bump.to_string(),
                classify::Decision::Narrowed | classify::Decision::Widened => {
                    "major or minor".to_owned()
                }
            };
            (rule.id().to_owned(), bump)
        })
        .collect();
    assert_eq!(rows, expected);
}
