//! Hand-written bundles: shapes only a bundle can state, shapes the model
//! cannot describe, and bundles that are odd or broken.

use super::fixture::*;
use cgp_classify::{self as classify, ComparedVersion};
use serde_json::{Value, json};

/// A published bundle whose one variant, `answer` (provider → host), refers to
/// the type `Item`.
fn bundle(item: Value) -> ComparedVersion {
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
    ComparedVersion::from_bundle_text("bundle.json", &text).expect("a valid bundle")
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
    let sides: Vec<ComparedVersion> = shapes
        .iter()
        .map(|shape| {
            let mut document = shape.clone();
            document["x-cgp-profile"] = json!("interop");
            document["x-cgp-protocol-version"] = json!("demo/1.0");
            ComparedVersion::from_bundle_text("odd.json", &document.to_string()).expect("loads")
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
    let problems = ComparedVersion::from_bundle_text("cycle.json", &document.to_string())
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
    let not_json =
        ComparedVersion::from_bundle_text("b.json", "{\"oneOf\": [").expect_err("bad JSON");
    assert!(not_json.to_string().starts_with("b.json:1:"), "{not_json}");
    let strict = ComparedVersion::from_bundle_text(
        "strict.schema.json",
        "{\"x-cgp-profile\": \"strict\", \"oneOf\": []}",
    )
    .expect_err("strict");
    assert_eq!(
        strict.to_string(),
        "strict.schema.json:1:19: /x-cgp-profile: this is the strict bundle; compare interop bundles (the receiver's contract), e.g. interop.schema.json beside it"
    );
    let dangling = ComparedVersion::from_bundle_text(
        "b.json",
        "{\"x-cgp-profile\": \"interop\", \"x-cgp-protocol-version\": \"demo/1.0\",\n \"oneOf\": [{\"$ref\": \"#/$defs/Nope\"}]}",
    )
    .expect_err("dangling");
    assert_eq!(
        dangling.to_string(),
        "b.json:2:21: /oneOf/0/$ref: `$ref` \"#/$defs/Nope\" does not name an entry of the bundle's `$defs`; a published bundle has only local `#/$defs/<Name>` references"
    );
}
