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

/// Strings the check's reader hands over without reading their escapes (free
/// text, members nobody declares, members kept as text before a union's tag)
/// are checked to the letter all the same: each body below, valid or not, in
/// each such place, gets the `jsonschema` path's verdict.
#[test]
fn strings_read_without_their_escapes_get_the_same_verdicts() {
    let digest = "sha256:fb11614ed51b69b38166126b05c56b77fbf054bcbb2dd8e3f20e404ccf5190aa";
    let places = [
        r#"{"type":"query","id":"q1","query":{"goal":"BODY","max_frames":1,"max_tokens":5}}"#
            .to_owned(),
        r#"{"query":{"max_tokens":5,"goal":"BODY","max_frames":1},"id":"q1","type":"query"}"#
            .to_owned(),
        r#"{"type":"shutdown","x":"BODY"}"#.to_owned(),
        r#"{"x":"BODY","type":"shutdown"}"#.to_owned(),
        r#"{"type":"shutdown","x":{"y":["BODY",{"z":"BODY"}]}}"#.to_owned(),
        r#"{"type":"shutdown","BODY":1}"#.to_owned(),
        format!(
            r#"{{"type":"verified","response":{{"verdicts":[{{"x":"BODY","frame":{{"provider_id":"p","frame_id":"BODY","content_digest":"{digest}"}},"status":"gone"}}]}}}}"#
        ),
        format!(
            r#"{{"type":"verified","response":{{"verdicts":[{{"status":"gone","frame":{{"provider_id":"p","frame_id":"BODY","content_digest":"{digest}"}},"x":["BODY"]}}]}}}}"#
        ),
    ];
    let bodies = [
        "plain",
        "",
        r#"line\nline\ttab\r\b\f\/\\\""#,
        r"\u00e9t\u00E9 \u003cli\u003e \u0026",
        r"\ud83d\ude42",
        r"\ud800",
        r"\udc00",
        r"\ud800\u0041",
        r"\ud800\n",
        r"\ud800x",
        r"\ud83d\ude4",
        r"\u12G4",
        r"\u12",
        r"\x",
        r"\\",
        r"a\\\\",
        "a\u{1}b",
        "tab\there",
        "\u{7f}\u{e9}\u{1F642}",
        r#"quote\"inside"#,
        r"trailing\",
        r"\u0000",
        r"\u005c",
        r"\uDFFF",
        r"\uDBFF\uDFFF",
        r"\uD7FF\uE000\uFFFF\uaBcD",
        r"\U00e9",
        r"\u 123",
        r"\u+123",
        r"\u00",
        r"\u00\n",
        "\u{1}\\u0041",
        r"first\nsecond\u00e9third\tfourth\u003cfifth\n\n\u0026sixth seventh eighth\\",
        "sixteen bytes...\u{1f}",
        "seven..\u{1f}",
        "eight...\u{0}",
        r"seventeen bytes..\u00e9nine....\q",
        "\u{e9}\u{e9}\u{e9}\u{e9} \u{1f}",
    ];
    // Prose is read 64 bytes at a time from its first escape: each piece
    // below lands on every position around the end of that first block.
    let pieces = [
        r#"\""#,
        r"\\",
        r"\\\",
        r"\ud83d\ude42",
        r"\ud800",
        r"\udc00",
        r"\u00e9",
        r"\u12G4",
        r"\q",
        "\u{1f}",
        "\u{e9}",
    ];
    let mut long = Vec::new();
    for piece in pieces {
        for before in 56..=68 {
            let body = format!(
                "{}\\n{}{piece}{}",
                "p".repeat(3),
                "a".repeat(before),
                "b".repeat(70)
            );
            long.push(body.clone());
            long.push(format!("{body}\\n{}", "c".repeat(before)));
        }
    }
    let mut failures = Vec::new();
    for place in &places {
        for body in bodies
            .iter()
            .copied()
            .chain(long.iter().map(String::as_str))
        {
            failures.extend(verdicts::disagreements(&place.replace("BODY", body)));
        }
    }
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
