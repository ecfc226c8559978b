//! Unit tests of the JSON text layer.

use super::*;

#[test]
fn records_positions_of_values_and_names() {
    let doc = parse("{\n  \"a\": [1,\n    {\"b/c\": true}]\n}").expect("valid");
    assert_eq!(doc.position(""), Some(Position { line: 1, column: 1 }));
    assert_eq!(doc.position("/a"), Some(Position { line: 2, column: 8 }));
    assert_eq!(
        doc.position("/a/1/b~1c"),
        Some(Position {
            line: 3,
            column: 13
        })
    );
    assert_eq!(
        doc.name_position("/a"),
        Some(Position { line: 2, column: 3 })
    );
    assert_eq!(doc.nearest_position("/a/1/missing").line, 3);
}

#[test]
fn rejects_duplicate_names_at_any_depth() {
    let err = parse("{\"a\": {\"b\": 1, \"b\": 2}}").unwrap_err();
    assert_eq!(err.message, "duplicate member name `b`");
    assert_eq!(err.pointer, "/a/b");
    assert_eq!(
        err.position,
        Position {
            line: 1,
            column: 16
        }
    );
}

#[test]
fn rejects_trailing_garbage_and_deep_nesting() {
    assert!(parse("{} x").unwrap_err().message.contains("trailing"));
    let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
    assert!(parse(&deep).unwrap_err().message.contains("nesting"));
    let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
    assert!(parse(&ok).is_ok());
}

/// Found by the line_decoder fuzz target: at 128 levels serde_json refused
/// the line and this parser accepted it, so the error had no location.
#[test]
fn nesting_limit_is_serde_jsons() {
    for depth in [MAX_DEPTH, MAX_DEPTH + 1] {
        let text = "[".repeat(depth) + &"]".repeat(depth);
        let serde = serde_json::from_str::<Value>(&text).is_ok();
        assert_eq!(parse(&text).is_ok(), serde, "depth {depth}");
    }
    let deep = "{\"a\":".repeat(100_000);
    let error = parse(&deep).unwrap_err();
    assert!(error.message.contains("nesting deeper than 127"), "{error}");
    assert_eq!(error.position.column, 5 * 127 + 1);
}

#[test]
fn decodes_escapes_and_rejects_lone_surrogates() {
    let doc = parse(r#""a\u00e9\ud83d\ude00\n""#).expect("valid");
    assert_eq!(doc.value, Value::String("aé😀\n".into()));
    assert!(
        parse(r#""\ud800""#)
            .unwrap_err()
            .message
            .contains("surrogate")
    );
    assert!(
        parse(r#""\udc00""#)
            .unwrap_err()
            .message
            .contains("surrogate")
    );
}

#[test]
fn numbers_follow_json_grammar() {
    // serde_json reads `-0` as the float -0.0, which is why serde rejects it
    // where an integer is required.
    assert!(parse("-0").expect("valid").value.is_f64());
    assert_eq!(
        parse("18446744073709551615").expect("valid").value,
        serde_json::json!(18446744073709551615u64)
    );
    assert!(parse("01").is_err());
    assert!(parse("1.").is_err());
    assert!(parse("1e400").unwrap_err().message.contains("out of range"));
}

#[test]
fn locate_keeps_only_the_positions_asked_for() {
    let text = "{\"a\": [1, {\"b\": true}], \"c\": 2}";
    let full = parse(text).expect("valid");
    let located = locate(text, ["/a/1/b", "/a/1/missing"]).expect("valid");
    assert_eq!(located.value, Value::Null);
    for pointer in ["", "/a", "/a/1", "/a/1/b"] {
        assert_eq!(
            located.position(pointer),
            full.position(pointer),
            "{pointer}"
        );
    }
    assert_eq!(located.position("/c"), None);
    assert_eq!(
        located.nearest_position("/a/1/missing"),
        full.nearest_position("/a/1/missing")
    );
}

/// Columns on a long line are counted once, not once per value: a line of
/// 100,000 members parses in linear time.
#[test]
fn columns_on_a_long_line() {
    let members: Vec<String> = (0..100_000).map(|i| format!("\"m{i}\":\"é\"")).collect();
    let text = format!("{{{}}}", members.join(","));
    let document = parse(&text).expect("valid");
    let last = document.position("/m99999").expect("recorded");
    let before = text.rfind("\"é\"").expect("there");
    assert_eq!(last.column, text[..before].chars().count() + 1);
}

#[test]
fn pointer_tokens_round_trip_escapes() {
    assert_eq!(pointer_tokens("/a~1b/c~0d"), vec!["a/b", "c~d"]);
    assert_eq!(escape_token("a/b~"), "a~1b~0");
    assert!(pointer_tokens("").is_empty());
}
