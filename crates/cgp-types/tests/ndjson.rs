//! Line framing: whitespace handling, the line-length limit, error variants
//! and non-finite numbers written `null`, as the reference writes them.

use cgp_types::ndjson::decode_line_bytes;
use cgp_types::{
    ContextFrame, ContextQuery, ContextQueryResult, Envelope, FrameEmbedding, FrameKind,
    MAX_LINE_BYTES, WireError, decode_line, encode_line,
};

#[test]
fn whitespace_around_a_line() {
    let expected = Envelope::Shutdown;
    for line in [
        "{\"type\":\"shutdown\"}\n",
        "{\"type\":\"shutdown\"}\r\n",
        "{\"type\":\"shutdown\"}  \t\n\n",
        "  \t{\"type\":\"shutdown\"}",
        "\n{\"type\":\"shutdown\"}\n",
        "{ \"type\" : \"shutdown\" }",
        // `str::trim_end` also removes Unicode whitespace such as U+00A0.
        "{\"type\":\"shutdown\"}\u{a0}\u{2028}",
    ] {
        assert_eq!(decode_line(line), Ok(expected.clone()), "{line:?}");
    }
    // Leading non-ASCII whitespace is not JSON whitespace.
    assert!(matches!(
        decode_line("\u{a0}{\"type\":\"shutdown\"}"),
        Err(WireError::Syntax { .. })
    ));
}

#[test]
fn garbage_is_a_syntax_error() {
    for line in [
        "this is not json {{{",
        "{",
        "{\"type\":",
        "{'type':'shutdown'}",
        "",
        "\n",
        "   ",
    ] {
        let err = decode_line(line).unwrap_err();
        assert!(matches!(err, WireError::Syntax { .. }), "{line:?}: {err:?}");
        assert!(err.line().is_some() && err.column().is_some());
    }
}

#[test]
fn trailing_garbage_is_reported_with_its_position() {
    let err = decode_line("{\"type\":\"shutdown\"}{\"type\":\"shutdown\"}").unwrap_err();
    assert_eq!(
        err,
        WireError::TrailingCharacters {
            line: 1,
            column: 20
        }
    );
    assert!(err.to_string().contains("line 1 column 20"), "{err}");
    assert!(matches!(
        decode_line("{\"type\":\"shutdown\"} ,"),
        Err(WireError::TrailingCharacters { .. })
    ));
}

#[test]
fn non_objects_are_not_envelopes() {
    for line in ["null", "1", "\"shutdown\"", "true", "[]", "{}"] {
        let err = decode_line(line).unwrap_err();
        assert!(
            matches!(err, WireError::NotAnEnvelope { .. }),
            "{line}: {err:?}"
        );
    }
    let err = decode_line("{\"type\":\"handshake\"}").unwrap_err();
    let WireError::NotAnEnvelope {
        message,
        line,
        column,
    } = &err
    else {
        panic!("{err:?}");
    };
    assert_eq!(message, "missing field `protocol_version`");
    // The envelope is buffered before its variant is read, so the parser
    // cannot say where the problem is.
    assert_eq!((*line, *column), (0, 0));
    assert_eq!(err.line(), None);
    // A problem the parser meets itself keeps its position.
    let err = decode_line("{\"type\":\"nope\"}").unwrap_err();
    assert!(matches!(err, WireError::NotAnEnvelope { .. }), "{err:?}");
    assert_eq!(err.line(), Some(1));
}

#[test]
fn arrays_are_read_like_serde_reads_internally_tagged_enums() {
    // serde lets an internally tagged enum be given as a sequence whose first
    // element is the tag. The reference decoder accepts this too.
    assert_eq!(decode_line(r#"["shutdown"]"#), Ok(Envelope::Shutdown));
    assert_eq!(
        decode_line(r#"["handshake","demo/1.0"]"#),
        Ok(Envelope::Handshake {
            protocol_version: "demo/1.0".into()
        })
    );
}

#[test]
fn over_long_lines_are_refused_before_parsing() {
    let mut line = String::from("{\"type\":\"shutdown\"}");
    line.push_str(&" ".repeat(MAX_LINE_BYTES - line.len()));
    assert_eq!(line.len(), MAX_LINE_BYTES);
    assert_eq!(decode_line(&line), Ok(Envelope::Shutdown));
    line.push('\n');
    assert_eq!(
        decode_line(&line),
        Ok(Envelope::Shutdown),
        "the newline is not counted"
    );
    line.insert(0, ' ');
    let err = decode_line(&line).unwrap_err();
    assert_eq!(
        err,
        WireError::LineTooLong {
            length: MAX_LINE_BYTES + 1,
            limit: MAX_LINE_BYTES
        }
    );
    assert_eq!(err.line(), None);
    assert_eq!(decode_line_bytes(line.as_bytes()), Err(err));
}

#[test]
fn invalid_utf8_bytes_are_replaced() {
    let env = decode_line_bytes(b"{\"type\":\"error\",\"message\":\"a\xffb\"}\n").unwrap();
    let Envelope::Error { message, .. } = env else {
        panic!("not an error envelope");
    };
    assert_eq!(message, "a\u{fffd}b");
}

fn frames_with(frame: ContextFrame) -> Envelope {
    Envelope::Frames {
        id: Some("q1".into()),
        result: ContextQueryResult::new(
            vec![
                ContextFrame::new("ok", FrameKind::Doc, "t", None, 0.5, 0),
                frame,
            ],
            false,
        ),
    }
}

#[test]
fn encode_writes_non_finite_numbers_as_null_like_the_reference() {
    let nan = frames_with(ContextFrame::new(
        "f",
        FrameKind::Doc,
        "t",
        None,
        f32::NAN,
        0,
    ));
    let line = encode_line(&nan).unwrap();
    assert!(line.contains(r#""title":"t","score":null,"#), "{line}");

    let mut frame = ContextFrame::new("f", FrameKind::Doc, "t", None, 1.0, 0);
    frame.embedding = Some(FrameEmbedding {
        fingerprint: "m/3".into(),
        vector: Some(vec![0.0, 1.0, f32::NEG_INFINITY]),
    });
    let line = encode_line(&frames_with(frame)).unwrap();
    assert!(line.contains(r#""vector":[0.0,1.0,null]"#), "{line}");

    let mut query = ContextQuery::new("g", 1, 1);
    query.embedding = Some(vec![f32::INFINITY]);
    let line = encode_line(&Envelope::Query { id: None, query }).unwrap();
    assert!(line.contains(r#""embedding":[null]"#), "{line}");
}

#[test]
fn extreme_finite_numbers_still_encode() {
    let frame = ContextFrame::new("f", FrameKind::Doc, "t", None, f32::MAX, u32::MAX);
    let line = encode_line(&frames_with(frame)).unwrap();
    assert!(line.contains("\"score\":3.4028235e+38"), "{line}");
    decode_line(&line).unwrap();
}

#[test]
fn out_of_range_numbers_on_input() {
    // Larger than any f64: a JSON syntax error in serde_json.
    let frame = |score: &str| {
        format!(
            r#"{{"type":"frames","result":{{"frames":[{{"id":"f","kind":"doc","title":"t","score":{score},"token_cost":0}}],"truncated":false}}}}"#
        )
    };
    assert!(matches!(
        decode_line(&frame("1e400")),
        Err(WireError::Syntax { .. })
    ));
    // In f64 range but not in f32 range: decodes to infinity, which
    // `encode_line` writes as `null`, as the reference does; that line no
    // decoder reads back (a score is required and not nullable).
    let env = decode_line(&frame("1e39")).unwrap();
    let line = encode_line(&env).unwrap();
    assert_eq!(line, frame("null") + "\n");
    assert!(decode_line(&line).is_err());
}

#[test]
fn wire_error_is_a_std_error() {
    fn takes_error(_: &dyn std::error::Error) {}
    let err = decode_line("x").unwrap_err();
    takes_error(&err);
    let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(err.clone());
    assert_eq!(boxed.to_string(), err.to_string());
}
