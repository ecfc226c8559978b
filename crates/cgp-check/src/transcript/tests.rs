use super::*;
use crate::semantic::Rule;
use cgp_schema::json_text::Position;
use cgp_types::{MAX_LINE_BYTES, Variant};

fn validator() -> Validator {
    published_interop_validator()
}

fn findings(validator: &Validator, line: &str) -> Vec<(Layer, String, String)> {
    check_message(validator, line.as_bytes())
        .findings
        .into_iter()
        .map(|f| (f.layer, f.instance_path, f.message))
        .collect()
}

#[test]
fn valid_lines_decode() {
    let validator = validator();
    let checked = check_message(&validator, br#"{"type":"shutdown"}"#);
    assert!(checked.is_valid(), "{:?}", checked.findings);
    assert_eq!(checked.variant, Some(Variant::Shutdown));
    assert!(checked.envelope.is_some());
    // JSON whitespace around the object, CRLF included, is fine.
    assert!(check_message(&validator, b" {\"type\":\"shutdown\"} \r").is_valid());
}

#[test]
fn text_layer_problems() {
    let validator = validator();
    let dup = findings(&validator, r#"{"type":"shutdown","type":"shutdown"}"#);
    assert_eq!(dup.len(), 1);
    assert_eq!(dup[0].0, Layer::Text);
    assert_eq!(dup[0].1, "/type");
    assert!(dup[0].2.contains("duplicate member name"), "{dup:?}");
    let trailing = findings(&validator, r#"{"type":"shutdown"} x"#);
    assert!(trailing[0].2.contains("trailing"), "{trailing:?}");
    let utf8 = check_message(&validator, b"{\"type\":\"sh\xffutdown\"}");
    assert_eq!(
        utf8.findings[0].position,
        Some(Position {
            line: 1,
            column: 12
        })
    );
    assert!(utf8.findings[0].message.contains("UTF-8"));
    let empty = findings(&validator, "");
    assert!(empty[0].2.contains("empty line"), "{empty:?}");
}

#[test]
fn float_spelled_integers_are_located() {
    let validator = validator();
    for (literal, fragment) in [
        ("1.0", "spelled as a float"),
        ("1e2", "spelled as a float"),
        ("-0", "negative zero"),
    ] {
        let line = format!(
            r#"{{"type":"query","query":{{"goal":"g","max_frames":{literal},"max_tokens":5}}}}"#
        );
        let checked = check_message(&validator, line.as_bytes());
        assert_eq!(
            checked.findings.len(),
            1,
            "{literal}: {:?}",
            checked.findings
        );
        let finding = &checked.findings[0];
        assert_eq!(finding.layer, Layer::Text);
        assert_eq!(finding.instance_path, "/query/max_frames");
        assert!(finding.message.contains(fragment), "{}", finding.message);
        assert!(finding.message.starts_with(literal), "{}", finding.message);
        assert_eq!(finding.position.map(|p| p.column), Some(50));
    }
    // An f32 member may be written as an integer or a float.
    assert!(check_message(
        &validator,
        br#"{"type":"frames","result":{"frames":[{"id":"a","kind":"doc","title":"t","score":1.0,"token_cost":0}],"truncated":false}}"#
    )
    .is_valid());
}

/// `check_verdict` skips the decode only where it cannot matter: its
/// findings are `check_message`'s, float-spelled integers included.
#[test]
fn the_verdict_alone_is_the_full_verdict() {
    let validator = validator();
    let frames = |score: &str, cost: &str| {
        format!(
            r#"{{"type":"frames","result":{{"frames":[{{"id":"a","kind":"doc","title":"t","score":{score},"token_cost":{cost}}}],"truncated":false}}}}"#
        )
    };
    let lines = [
        r#"{"type":"shutdown"}"#.to_owned(),
        r#"{"type":"query","query":{"goal":"g","max_frames":1e0,"max_tokens":5}}"#.to_owned(),
        r#"{"type":"query","query":{"goal":"g","max_frames":-0,"max_tokens":5}}"#.to_owned(),
        frames("0.25", "0"),
        frames("1.0", "0"),
        frames("1e0", "0.0"),
        frames("0.5", "3.5"),
        r#"{"type":"shutdown","type":"shutdown"}"#.to_owned(),
        "[1, 2".to_owned(),
    ];
    for line in &lines {
        let full = check_message(&validator, line.as_bytes());
        let verdict = check_verdict(&validator, line.as_bytes());
        assert_eq!(verdict.findings, full.findings, "{line}");
        assert_eq!(verdict.variant, full.variant, "{line}");
        assert!(verdict.value.is_none() && verdict.envelope.is_none());
    }
    assert!(check_verdict(&validator, frames("1.0", "0").as_bytes()).is_valid());
    assert!(!check_verdict(&validator, frames("1e0", "0.0").as_bytes()).is_valid());
}

#[test]
fn schema_errors_are_precise_and_located() {
    let validator = validator();
    let line = r#"{"type":"query","query":{"goal":"g","max_frames":1,"max_tokens":4294967296}}"#;
    let checked = check_message(&validator, line.as_bytes());
    assert_eq!(checked.findings.len(), 1);
    let finding = &checked.findings[0];
    assert_eq!(finding.instance_path, "/query/max_tokens");
    assert_eq!(
        finding.message,
        "4294967296 is greater than the maximum 4294967295"
    );
    assert_eq!(
        finding.position,
        Some(Position {
            line: 1,
            column: 65
        })
    );
    let unknown = findings(&validator, r#"{"type":"hello"}"#);
    assert!(
        unknown[0]
            .2
            .starts_with("unknown envelope type \"hello\"; expected one of handshake"),
        "{unknown:?}"
    );
    // Decoder leniencies stay schema errors.
    let array = findings(&validator, r#"["shutdown"]"#);
    assert_eq!(array[0].0, Layer::Schema);
}

#[test]
fn semantic_rules_through_the_transcript_checker() {
    let validator = validator();
    let mut checker = TranscriptChecker::new(&validator, true);
    let query = br#"{"type":"query","query":{"goal":"g","max_frames":5,"max_tokens":5}}"#;
    assert!(checker.check(query, "line 1").is_valid());
    let frames = br#"{"type":"frames","result":{"frames":[{"id":"a","kind":"doc","title":"t","content":"abcdefghijklmnopqrstuvwxyz","score":0.5,"token_cost":7,"citation_label":"x"}],"truncated":false}}"#;
    let checked = checker.check(frames, "line 2");
    let rules: Vec<_> = checked.findings.iter().filter_map(|f| f.rule).collect();
    assert_eq!(rules, vec![Rule::B1]);
    assert!(checked.findings[0].message.contains("line 1"));
}

/// Every Envelope example of the SPEC.md corpus, as an NDJSON line: valid
/// examples pass, invalid ones fail at their `at=` pointer (or, for a
/// duplicate name, at the member inside it).
#[test]
fn the_corpus_envelopes_as_lines() {
    let validator = validator();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../SPEC.md");
    let markdown = std::fs::read_to_string(path).expect("SPEC.md");
    let examples = cgp_gates::corpus::extract("SPEC.md", &markdown).expect("corpus");
    let mut seen = 0;
    for example in examples.iter().filter(|e| e.target == "Envelope") {
        seen += 1;
        let checked = check_message(&validator, example.as_line().as_bytes());
        if example.expect.valid_under(cgp_schema::Profile::Interop) {
            assert!(
                checked.is_valid(),
                "{}: {:?}",
                example.name,
                checked.findings
            );
            continue;
        }
        let at = example.at.as_deref().unwrap_or_default();
        assert!(
            checked.findings.iter().any(|f| {
                let parent = f
                    .instance_path
                    .rfind('/')
                    .map_or("", |cut| &f.instance_path[..cut]);
                f.instance_path == at || (f.layer == Layer::Text && parent == at)
            }),
            "{}: expected an error at {at:?}, got {:?}",
            example.name,
            checked.findings
        );
    }
    assert!(seen > 20, "only {seen} envelope examples");
}

#[test]
fn reader_skips_blank_and_overlong_lines() {
    let mut input = b"{}\n\n  \r\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 10));
    input.extend(b"\n{\"a\":1}");
    let mut reader = LineReader::new(&input[..]);
    assert_eq!(
        reader.next_line().unwrap(),
        Some(Line::Message {
            number: 1,
            bytes: b"{}",
            terminated: true
        })
    );
    assert_eq!(
        reader.next_line().unwrap(),
        Some(Line::TooLong {
            number: 4,
            length: MAX_LINE_BYTES as u64 + 10
        })
    );
    assert_eq!(
        reader.next_line().unwrap(),
        Some(Line::Message {
            number: 5,
            bytes: b"{\"a\":1}",
            terminated: false
        })
    );
    assert_eq!(reader.next_line().unwrap(), None);
    let exact = [vec![b'y'; MAX_LINE_BYTES], b"\n".to_vec()].concat();
    let mut reader = LineReader::new(&exact[..]);
    assert!(matches!(
        reader.next_line().unwrap(),
        Some(Line::Message { .. })
    ));
}

/// A peer's reader returns blank lines and stops at an overlong line as soon
/// as it passes the limit, without reading on to its end.
#[test]
fn a_peer_reader_keeps_blank_lines_and_stops_at_an_overlong_one() {
    let mut input = b"{}\n\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 10));
    input.extend(b"\n{}\n");
    let mut reader = LineReader::for_peer(&input[..]);
    assert!(matches!(
        reader.next_line().unwrap(),
        Some(Line::Message {
            number: 1,
            bytes: b"{}",
            terminated: true
        })
    ));
    assert!(matches!(
        reader.next_line().unwrap(),
        Some(Line::Message {
            number: 2,
            bytes: b"",
            terminated: true
        })
    ));
    assert_eq!(
        reader.next_line().unwrap(),
        Some(Line::TooLong {
            number: 3,
            length: MAX_LINE_BYTES as u64 + 1
        })
    );
}

/// A deferred validator compiles nothing up front and then judges and explains
/// every corpus line exactly as an eagerly compiled one does.
#[test]
fn a_deferred_validator_gives_the_same_findings() {
    let eager = validator();
    let bundle = published_interop_bundle();
    let deferred = Validator::deferred(bundle.clone()).expect("reads");
    let markdown = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../SPEC.md"))
        .expect("SPEC.md");
    let examples = cgp_gates::corpus::extract("SPEC.md", &markdown).expect("corpus");
    let mut invalid = 0;
    for example in examples.iter().filter(|e| e.target == "Envelope") {
        let line = example.as_line();
        let expected = check_message(&eager, line.as_bytes()).findings;
        invalid += usize::from(!expected.is_empty());
        assert_eq!(
            check_message(&deferred, line.as_bytes()).findings,
            expected,
            "{}",
            example.name
        );
    }
    assert!(invalid > 10, "only {invalid} invalid examples");
}

/// A variant whose schema does not compile: `new` refuses the bundle, and a
/// deferred validator says so on the first message of that variant.
#[test]
fn a_variant_that_does_not_compile_is_named() {
    let document = serde_json::json!({
        "x-cgp-profile": "interop",
        "oneOf": [{
            "type": "object",
            "properties": {"type": {"const": "ping"}, "p": {"type": "string", "pattern": "("}}
        }],
        "$defs": {}
    });
    let bundle =
        cgp_schema::bundle::Bundle::from_published(&document.to_string()).expect("a bundle");
    let refused = Validator::new(&bundle).expect_err("does not compile");
    assert!(refused.to_string().contains("/oneOf/0"), "{refused}");
    let deferred = Validator::deferred(bundle.clone()).expect("reads");
    let line = serde_json::json!({"type": "ping", "p": "x"});
    assert!(!deferred.is_valid_envelope(&line));
    let violations = deferred.validate_envelope(&line);
    assert_eq!(violations.len(), 1, "{violations:?}");
    assert_eq!(violations[0].schema_path, "/oneOf/0");
    assert!(
        violations[0]
            .message
            .starts_with("the bundle's schema of variant `ping` does not compile"),
        "{}",
        violations[0].message
    );
}

/// A variant tag the hand-written types lack.
fn a_tag_the_types_lack() -> String {
    (0..)
        .map(|n| format!("ping{n}"))
        .find(|tag| Variant::from_tag(tag).is_none())
        .expect("a free tag")
}

/// The interop bundle, relabelled as a family the hand-written types do not
/// speak and given a variant they lack: what an older released family looks
/// like after a major removed a variant.
fn another_family_with_a_variant_the_types_lack(tag: &str) -> Validator {
    let version: cgp_schema::ProtocolVersion =
        cgp_types::PROTOCOL_VERSION.parse().expect("a version");
    // The next major stands in for an older one: only the family differs.
    let other = version.with_number(version.major + 1, 0);
    let mut document = published_interop_bundle().document;
    document["x-cgp-protocol-version"] = serde_json::json!(other.to_string());
    document["oneOf"]
        .as_array_mut()
        .expect("oneOf")
        .push(serde_json::json!({
            "type": "object",
            "properties": {"type": {"const": tag}, "id": {"type": "string"}},
            "required": ["type"]
        }));
    let bundle =
        cgp_schema::bundle::Bundle::from_published(&document.to_string()).expect("a bundle");
    Validator::new(&bundle).expect("compiles")
}

/// Another family's messages are judged by its own schema alone: a variant the
/// hand-written types lack is valid there (found by the version rehearsal,
/// where `cgp validate --version <older>` tripped the decoder layer).
#[test]
fn another_familys_messages_are_judged_by_its_schema_alone() {
    let tag = a_tag_the_types_lack();
    let validator = another_family_with_a_variant_the_types_lack(&tag);
    assert!(!validator.decodes_with_hand_written_types());
    assert!(published_interop_validator().decodes_with_hand_written_types());
    let line = format!(r#"{{"type":"{tag}","id":"p1"}}"#);
    let message = check_message(&validator, line.as_bytes());
    assert!(message.is_valid(), "{:?}", message.findings);
    assert!(message.envelope.is_none() && message.value.is_some());
    // What the hand-written types can read, they decode, for the semantic
    // rules.
    let shutdown = check_message(&validator, br#"{"type":"shutdown"}"#);
    assert!(shutdown.is_valid() && shutdown.envelope.is_some());
    let verdict = check_verdict(&validator, line.as_bytes());
    assert!(verdict.is_valid(), "{:?}", verdict.findings);
    // Its schema still rejects what it does not allow.
    let wrong = format!(r#"{{"type":"{tag}","id":1}}"#);
    let wrong = check_message(&validator, wrong.as_bytes());
    assert_eq!(wrong.findings.len(), 1, "{:?}", wrong.findings);
    assert_eq!(wrong.findings[0].layer, Layer::Schema);
    // The wire's integer rule holds there too, judged by that family's
    // schema: an integer member spelled as a float is refused, a number
    // member's integral float is fine, as in the working family.
    for validator in [&validator, &published_interop_validator()] {
        let float_spelled = check_verdict(
            validator,
            br#"{"type":"query","query":{"goal":"g","max_frames":1.0,"max_tokens":5}}"#,
        );
        assert_eq!(
            float_spelled.findings.len(),
            1,
            "{:?}",
            float_spelled.findings
        );
        assert_eq!(float_spelled.findings[0].layer, Layer::Text);
        assert_eq!(float_spelled.findings[0].instance_path, "/query/max_frames");
        assert!(
            float_spelled.findings[0]
                .message
                .starts_with("1.0 is spelled as a float"),
            "{:?}",
            float_spelled.findings
        );
        let number = check_message(
            validator,
            br#"{"type":"query","query":{"goal":"g","embedding":[1.0],"max_frames":1,"max_tokens":5}}"#,
        );
        assert!(number.is_valid(), "{:?}", number.findings);
    }
}

/// Lines are the same whether they lie whole in the reader's buffer (handed
/// out from it) or cross its end (gathered): every buffer size from one byte,
/// blank lines, CRLF, an unterminated last line, and lines at the limit.
#[test]
fn reader_gives_the_same_lines_whatever_its_buffer() {
    use std::io::BufReader;
    let mut input = Vec::new();
    for index in 0..200 {
        input.extend(std::iter::repeat_n(
            b'a' + (index % 26) as u8,
            index * 7 % 53,
        ));
        input.extend_from_slice(match index % 4 {
            0 => b"\r\n".as_slice(),
            1 => b"\n\n",
            2 => b"\n \t\n",
            _ => b"\n",
        });
    }
    input.extend_from_slice(b"{\"last\":true}");
    let expected: Vec<(usize, Vec<u8>, bool)> = {
        let count = input.split(|&byte| byte == b'\n').count();
        input
            .split(|&byte| byte == b'\n')
            .enumerate()
            .filter(|(_, line)| !is_blank(line))
            .map(|(index, line)| (index + 1, line.to_vec(), index + 1 < count))
            .collect()
    };
    for capacity in [1, 2, 3, 7, 8, 64, 1 << 16] {
        let mut reader = LineReader::new(BufReader::with_capacity(capacity, &input[..]));
        let mut seen = Vec::new();
        while let Some(line) = reader.next_line().unwrap() {
            match line {
                Line::Message {
                    number,
                    bytes,
                    terminated,
                } => seen.push((number, bytes.to_vec(), terminated)),
                Line::TooLong { number, .. } => panic!("line {number} is not too long"),
            }
        }
        assert_eq!(seen, expected, "buffer of {capacity} bytes");
    }
    for (length, fits) in [(MAX_LINE_BYTES, true), (MAX_LINE_BYTES + 1, false)] {
        let line = [vec![b'y'; length], b"\n{}\n".to_vec()].concat();
        for capacity in [4096, 1 << 16, 2 * MAX_LINE_BYTES] {
            let mut reader = LineReader::new(BufReader::with_capacity(capacity, &line[..]));
            let first = reader.next_line().unwrap();
            let number = match first {
                Some(Line::Message { number, bytes, .. }) if fits => {
                    assert_eq!(bytes.len(), length);
                    number
                }
                Some(Line::TooLong {
                    number,
                    length: skipped,
                }) if !fits => {
                    assert_eq!(skipped, length as u64);
                    number
                }
                other => panic!("{length} bytes in a buffer of {capacity}: {other:?}"),
            };
            assert_eq!(number, 1);
            assert_eq!(
                reader.next_line().unwrap(),
                Some(Line::Message {
                    number: 2,
                    bytes: b"{}",
                    terminated: true
                })
            );
            assert_eq!(reader.next_line().unwrap(), None);
        }
    }
}

/// A line reader over a borrowed reader leaves it after the last line it
/// returned, as consuming each line when read did.
#[test]
fn a_dropped_reader_leaves_the_input_after_its_last_line() {
    use std::io::{BufReader, Read};
    let input = b"{\"a\":1}\n{\"b\":2}\nrest";
    let mut reader = BufReader::new(&input[..]);
    {
        let mut lines = LineReader::new(&mut reader);
        assert!(matches!(
            lines.next_line().unwrap(),
            Some(Line::Message { number: 1, .. })
        ));
    }
    let mut rest = String::new();
    reader.read_to_string(&mut rest).unwrap();
    assert_eq!(rest, "{\"b\":2}\nrest");
}
