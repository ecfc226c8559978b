//! One fixture pair per rule id, each expecting exactly that change.

use super::fixture::*;
use cgp_classify::ChangeRule;
use serde_json::{Value, json};

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
    for rule in ChangeRule::ALL {
        assert!(
            covered.contains(&rule.id()) || elsewhere.contains(&rule.id()),
            "no fixture pair for {}",
            rule.id()
        );
    }
}
