//! The generated single-pass check (`cgp-validator`) gives the `jsonschema`
//! path's verdict on every SPEC.md example written as a line, and on the
//! mutations of every valid one, under both profiles. The randomised
//! differential (randomised_differential.rs) does the same on generated
//! envelopes, and the fuzz corpus replay (crates/cgp-check/tests/fuzz_corpus.rs)
//! on arbitrary bytes.

mod verdicts;

use spec_tests::examples;

#[test]
fn the_corpus_and_its_mutations_get_the_same_verdicts() {
    let mut failures = Vec::new();
    let mut compared = 0;
    for example in examples().iter().filter(|e| e.target == "Envelope") {
        for line in verdicts::mutations(&example.as_line(), usize::MAX) {
            compared += 1;
            failures.extend(
                verdicts::disagreements(&line)
                    .into_iter()
                    .map(|found| format!("{}: {found}", example.name)),
            );
        }
    }
    assert!(compared > 1000, "only {compared} lines compared");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Lines the mutations do not make: the text layer, a tag after members that
/// need it, nesting at serde_json's limit behind a late tag.
#[test]
fn the_text_layer_and_late_tags_get_the_same_verdicts() {
    let deep = |levels: usize| {
        format!(
            "{{\"x\":{}1{},\"type\":\"shutdown\"}}",
            "[".repeat(levels),
            "]".repeat(levels)
        )
    };
    let mut lines = vec![
        r#"{"type":"shutdown"}"#.to_owned(),
        " {\"type\":\"shutdown\"} \r".to_owned(),
        "\u{feff}{\"type\":\"shutdown\"}".to_owned(),
        r#"{"type":"shutdown"} x"#.to_owned(),
        r#"{"type":"shutdown","type":"shutdown"}"#.to_owned(),
        r#"{"a":1,"a":2,"type":"shutdown"}"#.to_owned(),
        r#"{"a":{"b":1,"b":1},"type":"shutdown"}"#.to_owned(),
        r#"{"\u0074ype":"shutdown"}"#.to_owned(),
        r#"{"type":"shutdown","x":1e400}"#.to_owned(),
        r#"{"x":1e400,"type":"shutdown"}"#.to_owned(),
        r#"{"x":"\ud800","type":"shutdown"}"#.to_owned(),
        r#"{"query":{"goal":"g","max_frames":1,"max_tokens":5},"type":"query"}"#.to_owned(),
        r#"{"query":{"goal":"g","max_frames":1.0,"max_tokens":5},"type":"query"}"#.to_owned(),
        r#"{"type":"query","query":{"goal":"g","max_frames":-0,"max_tokens":5}}"#.to_owned(),
        r#"{"type":"query","query":{"goal":"g","max_frames":1e2,"max_tokens":5}}"#.to_owned(),
        r#"{"type":"query","query":{"goal":"g","max_frames":18446744073709551616,"max_tokens":5}}"#
            .to_owned(),
        r#"{"type":"query","query":{"goal":"g","max_frames":4294967295,"max_tokens":4294967296}}"#
            .to_owned(),
        r#"{"type":7}"#.to_owned(),
        r#"{"type":"hello"}"#.to_owned(),
        r#"["shutdown"]"#.to_owned(),
        String::new(),
    ];
    lines.extend(tags_read_ahead().into_iter().map(str::to_owned));
    for levels in [120, 125, 126, 127, 128] {
        lines.push(deep(levels));
    }
    let failures: Vec<String> = lines
        .iter()
        .flat_map(|line| verdicts::disagreements(line))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Lines whose tag the check reads ahead in the text before it parses: the
/// look trusts the text to be JSON, so here it is not, or it meets the tag
/// spelled otherwise, twice, inside a member, or after strings that hide
/// quotes and brackets.
fn tags_read_ahead() -> Vec<&'static str> {
    vec![
        r#"{"reason":"done","type":"shutdown"}"#,
        r#"{ "reason" : "done" , "type" : "shutdown" }"#,
        r#"{"reason":"a \"type\":\"query\" }","type":"shutdown"}"#,
        r#"{"reason":"a\\","type":"shutdown"}"#,
        r#"{"reason":"a\\\"","type":"shutdown"}"#,
        r#"{"x":{"type":"query"},"type":"shutdown"}"#,
        r#"{"x":[{"type":"query"},"]"],"type":"shutdown"}"#,
        r#"{"x":{"type":"query"]},"type":"shutdown"}"#,
        r#"{"x":[1,2}],"type":"shutdown"}"#,
        r#"{"x":tru,"type":"shutdown"}"#,
        r#"{"x":1 2,"type":"shutdown"}"#,
        r#"{"x":1,"type":"shutdown","type":"query"}"#,
        r#"{"x":1,"type":"shutdown","type":"shutdown"}"#,
        r#"{"x":1,"type":"shutdown","\u0074ype":"shutdown"}"#,
        r#"{"x":1,"\u0074ype":"query","type":"shutdown"}"#,
        r#"{"x":1,"\u0074ype":"shutdown"}"#,
        r#"{"x":1,"type":"shu\u0074down"}"#,
        r#"{"x":1,"type":"shutdown\u0000"}"#,
        r#"{"x":1,"type":"shutdown""#,
        r#"{"x":1,"type":"shutdown"} {"#,
        r#"{"x":1,"type":"shutdown"}}"#,
        r#"{"x":1,"type":"shutdown","#,
        r#"{"x":1,"type" "shutdown"}"#,
        r#"{"x":"\ud800","type":"shutdown"}"#,
        r#"{"x":"\ud83d\ude42","type":"shutdown"}"#,
        r#"{"x":"a	b","type":"shutdown"}"#,
        r#"{"id":"q1","query":{"max_tokens":5,"max_frames":1,"goal":"g"},"type":"query"}"#,
        r#"{"id":"q1","query":{"max_tokens":5,"max_frames":1,"goal":"g"},"type":"frames"}"#,
        r#"{"id":"q1","query":{"goal":"g","max_frames":1},"type":"query"}"#,
    ]
}
