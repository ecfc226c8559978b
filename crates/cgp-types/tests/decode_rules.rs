//! What `decode_line` accepts and rejects, and how accepted input is written
//! back: defaults, `null` handling, integer bounds, ignored members and the
//! serde leniencies the reference implementation shares.

use cgp_types::{
    Capabilities, Envelope, ErrorCode, FrameKind, Representation, Verdict, WireError, decode_line,
    encode_line,
};

fn reencode(line: &str) -> String {
    let env = decode_line(line).unwrap_or_else(|e| panic!("{line}\n{e}"));
    let out = encode_line(&env).unwrap();
    out.strip_suffix('\n').unwrap().to_owned()
}

fn rejected(line: &str) -> WireError {
    match decode_line(line) {
        Ok(env) => panic!("accepted {line}: {env:?}"),
        Err(e) => e,
    }
}

fn frame_line(extra: &str) -> String {
    format!(
        r#"{{"type":"frames","result":{{"frames":[{{"id":"f","kind":"doc","title":"t","score":0.5,"token_cost":1{extra}}}],"truncated":false}}}}"#
    )
}

/// A frame with `extra` placed right after `title`, where `representation`
/// and the other early members are written.
fn frame_line_mid(extra: &str) -> String {
    format!(
        r#"{{"type":"frames","result":{{"frames":[{{"id":"f","kind":"doc","title":"t"{extra},"score":0.5,"token_cost":1}}],"truncated":false}}}}"#
    )
}

fn query_line(extra: &str) -> String {
    format!(r#"{{"type":"query","query":{{"goal":"g","max_frames":1,"max_tokens":1{extra}}}}}"#)
}

#[test]
fn null_is_accepted_for_option_members() {
    for extra in [
        r#","content":null"#,
        r#","content_digest":null"#,
        r#","content_fidelity":null"#,
        r#","content_ref":null"#,
        r#","canonical_token_cost":null"#,
        r#","embedding":null"#,
        r#","citation_label":null"#,
    ] {
        assert_eq!(reencode(&frame_line(extra)), frame_line(""), "{extra}");
    }
    for extra in [
        r#","query_text":null"#,
        r#","embedding":null"#,
        r#","as_of":null"#,
    ] {
        assert_eq!(reencode(&query_line(extra)), query_line(""), "{extra}");
    }
    assert_eq!(
        reencode(
            r#"{"type":"query","id":null,"query":{"goal":"g","max_frames":1,"max_tokens":1}}"#
        ),
        query_line("")
    );
    assert_eq!(
        reencode(r#"{"type":"error","id":null,"code":null,"message":"m"}"#),
        r#"{"type":"error","message":"m"}"#
    );
    assert_eq!(
        reencode(
            r#"{"type":"frames","result":{"frames":[],"truncated":true,"dropped_estimate":null,"result_attestation":null}}"#
        ),
        r#"{"type":"frames","result":{"frames":[],"truncated":true}}"#
    );
}

#[test]
fn null_is_rejected_for_vec_bool_and_representation_defaults() {
    for extra in [
        r#","representation":null"#,
        r#","provenance":null"#,
        r#","relations":null"#,
    ] {
        rejected(&frame_line(extra));
    }
    for extra in [
        r#","kinds":null"#,
        r#","anchors":null"#,
        r#","representation_preferences":null"#,
    ] {
        rejected(&query_line(extra));
    }
    let ack = |caps: &str, flow: &str| {
        format!(
            r#"{{"type":"handshake_ack","protocol_version":"v","provider":{{"name":"n","version":"v","data_flow":{flow}}},"capabilities":{caps}}}"#
        )
    };
    for caps in [
        r#"{"query":null}"#,
        r#"{"correlation":null}"#,
        r#"{"graph":null}"#,
        r#"{"verify":null}"#,
        r#"{"resolve":null}"#,
        r#"{"representations":null}"#,
        r#"{"query":{"kinds":null}}"#,
        "null",
    ] {
        rejected(&ack(caps, "{}"));
    }
    for flow in [
        r#"{"reads":null}"#,
        r#"{"writes":null}"#,
        r#"{"egress":null}"#,
        r#"{"egress_scopes":null}"#,
        "null",
    ] {
        rejected(&ack("{}", flow));
    }
    rejected(r#"{"type":"verify","request":{"frames":null}}"#);
    rejected(r#"{"type":"verified","response":{"verdicts":null}}"#);
    rejected(r#"{"type":"error","message":null}"#);
    rejected(&frame_line("").replace(r#""score":0.5"#, r#""score":null"#));
}

#[test]
fn required_members_are_required() {
    rejected(r#"{"type":"handshake"}"#);
    rejected(r#"{"type":"error"}"#);
    rejected(r#"{"type":"query","query":{"goal":"g","max_frames":1}}"#);
    rejected(r#"{"type":"frames","result":{"frames":[]}}"#);
    rejected(r#"{"type":"frames","result":{"truncated":false}}"#);
    rejected(r#"{"type":"verify"}"#);
    rejected(&frame_line("").replace(r#","title":"t""#, ""));
}

#[test]
fn full_representation_is_dropped_on_reencode() {
    assert_eq!(
        reencode(&frame_line(r#","representation":"full""#)),
        frame_line("")
    );
    assert_eq!(
        reencode(&frame_line_mid(r#","representation":"full""#)),
        frame_line("")
    );
    let kept = frame_line_mid(r#","representation":"reference""#);
    assert_eq!(reencode(&kept), kept);
}

#[test]
fn empty_capabilities_decode_and_reencode_with_their_flags() {
    let line = r#"{"type":"handshake_ack","protocol_version":"demo/1.0","provider":{"name":"n","version":"v","data_flow":{}},"capabilities":{}}"#;
    let env = decode_line(line).unwrap();
    let Envelope::HandshakeAck { capabilities, .. } = &env else {
        panic!("not an ack");
    };
    assert_eq!(*capabilities, Capabilities::default());
    assert_eq!(
        reencode(line),
        r#"{"type":"handshake_ack","protocol_version":"demo/1.0","provider":{"name":"n","version":"v","data_flow":{"reads":false,"writes":false,"egress":false}},"capabilities":{"query":{"kinds":[]},"correlation":false,"graph":false,"verify":false,"resolve":false}}"#
    );
}

#[test]
fn legacy_capability_flags_are_ignored() {
    let line = r#"{"type":"handshake_ack","protocol_version":"demo/1.0","provider":{"name":"n","version":"v","data_flow":{}},"capabilities":{"upsert":true,"subscribe":false,"query":{"kinds":["doc"],"filters":["x"]}}}"#;
    assert!(
        reencode(line).contains(r#""capabilities":{"query":{"kinds":["doc"]},"correlation":false"#)
    );
}

#[test]
fn u32_bounds() {
    let with =
        |n: &str| query_line("").replace(r#""max_tokens":1"#, &format!(r#""max_tokens":{n}"#));
    assert_eq!(reencode(&with("4294967295")), with("4294967295"));
    assert_eq!(reencode(&with("0")), with("0"));
    for bad in [
        "4294967296",
        "-1",
        "1.0",
        "1e2",
        "\"1\"",
        "null",
        "18446744073709551616",
    ] {
        rejected(&with(bad));
    }
    let frame =
        |n: &str| frame_line("").replace(r#""token_cost":1"#, &format!(r#""token_cost":{n}"#));
    assert_eq!(reencode(&frame("4294967295")), frame("4294967295"));
    rejected(&frame("4294967296"));
    rejected(&frame("-1"));
    rejected(&frame("1.0"));
}

#[test]
fn u64_bounds_for_inclusion_proofs() {
    let line = |n: &str| {
        format!(
            r#"{{"type":"frames","result":{{"frames":[],"truncated":false,"frame_attestations":[{{"frame":{{"provider_id":"p","frame_id":"f"}},"inclusion_proof":{{"leaf_index":{n},"leaf_count":1,"path":[]}}}}]}}}}"#
        )
    };
    assert_eq!(
        reencode(&line("18446744073709551615")),
        line("18446744073709551615")
    );
    rejected(&line("18446744073709551616"));
    rejected(&line("-1"));
    rejected(&line("0.0"));
}

#[test]
fn f32_members_reencode_in_their_shortest_f32_spelling() {
    let with = |s: &str| frame_line("").replace(r#""score":0.5"#, &format!(r#""score":{s}"#));
    assert_eq!(reencode(&with("1")), with("1.0"));
    assert_eq!(reencode(&with("0.123456789")), with("0.12345679"));
    assert_eq!(reencode(&with("1e-50")), with("0.0"));
    assert_eq!(reencode(&with("-0")), with("-0.0"));
    rejected(&with("\"0.5\""));
}

#[test]
fn an_id_on_verify_is_ignored_and_dropped() {
    let env = decode_line(r#"{"type":"verify","id":"v1","request":{"frames":[]}}"#).unwrap();
    assert_eq!(env.correlation_id(), None);
    assert_eq!(
        encode_line(&env).unwrap(),
        "{\"type\":\"verify\",\"request\":{\"frames\":[]}}\n"
    );
    assert_eq!(
        reencode(r#"{"id":"v2","response":{},"type":"verified"}"#),
        r#"{"type":"verified","response":{"verdicts":[]}}"#
    );
    assert_eq!(
        reencode(r#"{"type":"verify","request":{}}"#),
        r#"{"type":"verify","request":{"frames":[]}}"#
    );
}

#[test]
fn error_code_defaults_to_internal() {
    let absent = decode_line(r#"{"type":"error","message":"boom"}"#).unwrap();
    assert_eq!(absent.error_code(), Some(ErrorCode::Internal));
    let null = decode_line(r#"{"type":"error","code":null,"message":"boom"}"#).unwrap();
    assert_eq!(null.error_code(), Some(ErrorCode::Internal));
    let unknown = decode_line(r#"{"type":"error","code":"","message":""}"#).unwrap();
    assert_eq!(unknown.error_code(), Some(ErrorCode::Other(String::new())));
    assert_eq!(
        unknown.error_code().unwrap().effective(),
        ErrorCode::Internal
    );
    let known = decode_line(r#"{"type":"error","code":"unavailable","message":""}"#).unwrap();
    assert_eq!(known.error_code(), Some(ErrorCode::Unavailable));
    assert_eq!(Envelope::Shutdown.error_code(), None);
}

#[test]
fn unknown_members_are_ignored_everywhere() {
    assert_eq!(
        reencode(r#"{"type":"shutdown","reason":"bye","id":"x"}"#),
        r#"{"type":"shutdown"}"#
    );
    assert_eq!(
        reencode(&frame_line(r#","attestation":{"x":1},"future":[1,2]"#)),
        frame_line("")
    );
    assert_eq!(
        reencode(
            r#"{"jsonrpc":"2.0","type":"handshake","protocol_version":"v","extra":{"deep":[null]}}"#
        ),
        r#"{"type":"handshake","protocol_version":"v"}"#
    );
}

#[test]
fn the_tag_is_strict() {
    for line in [
        r#"{"type":"Handshake","protocol_version":"v"}"#,
        r#"{"type":"handshake ","protocol_version":"v"}"#,
        r#"{"type":"subscribe"}"#,
        r#"{"type":1}"#,
        r#"{"type":null}"#,
        r#"{"protocol_version":"v"}"#,
        r#"{"type":"shutdown","type":"shutdown"}"#,
        "{}",
    ] {
        assert!(
            matches!(rejected(line), WireError::NotAnEnvelope { .. }),
            "{line}"
        );
    }
    // The tag may come anywhere in the object.
    assert_eq!(
        reencode(r#"{"protocol_version":"v","type":"handshake"}"#),
        r#"{"type":"handshake","protocol_version":"v"}"#
    );
}

#[test]
fn duplicate_members_are_rejected() {
    rejected(r#"{"type":"handshake","protocol_version":"a","protocol_version":"b"}"#);
    rejected(&frame_line(r#","id":"g""#));
}

#[test]
fn verdict_status_leniencies() {
    let verified = |entry: &str| {
        format!(
            r#"{{"type":"verified","response":{{"verdicts":[{{"frame":{{"provider_id":"p","frame_id":"f"}}{entry}}}]}}}}"#
        )
    };
    // Integer variant indices are accepted for `status` and written back as
    // strings.
    for (index, name) in ["valid", "stale", "gone", "unknown"]
        .into_iter()
        .enumerate()
    {
        assert_eq!(
            reencode(&verified(&format!(r#","status":{index}"#))),
            verified(&format!(r#","status":"{name}""#))
        );
    }
    rejected(&verified(r#","status":4"#));
    rejected(&verified(r#","status":"Valid""#));
    rejected(&verified(r#","status":"revoked""#));
    rejected(&verified(""));
    rejected(&verified(r#","verdict":{"status":"valid"}"#));
    rejected(&verified(r#","status":"valid","status":"gone""#));
    // `replacement_digest` is only read for `stale`.
    assert_eq!(
        reencode(&verified(
            r#","status":"gone","replacement_digest":"sha256:1""#
        )),
        verified(r#","status":"gone""#)
    );
    let env = decode_line(&verified(r#","replacement_digest":null,"status":"stale""#)).unwrap();
    let Envelope::Verified { response } = env else {
        panic!()
    };
    assert_eq!(
        response.verdicts[0].verdict,
        Verdict::Stale {
            replacement_digest: None
        }
    );
}

#[test]
fn closed_enum_unit_object_form_inside_a_frame() {
    let lenient = frame_line(r#","representation":{"compact":null}"#);
    assert_eq!(
        reencode(&lenient),
        frame_line_mid(r#","representation":"compact""#)
    );
    rejected(&frame_line(r#","representation":{"compact":1}"#));
    rejected(&frame_line(r#","representation":0"#));
}

#[test]
fn provenance_type_member() {
    let line = frame_line(r#","provenance":[{"type":"file","uri":"u"}]"#);
    let env = decode_line(&line).unwrap();
    let Envelope::Frames { result, .. } = &env else {
        panic!()
    };
    assert_eq!(result.frames[0].provenance[0].kind, "file");
    assert_eq!(result.frames[0].kind, FrameKind::Doc);
    assert_eq!(result.frames[0].representation, Representation::Full);
    rejected(&frame_line(r#","provenance":[{"kind":"file"}]"#));
}
