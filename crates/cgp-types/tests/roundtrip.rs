//! Lines in canonical form that hold the edge values of every member (the
//! largest integers, every optional member) must decode and re-encode to the
//! very same bytes. The SPEC.md corpus's examples of each variant are
//! round-tripped by `spec-tests` (`tests/envelope_round_trip.rs`), which can
//! read the repository; this published crate's tests cannot.

use cgp_types::{
    ContextFrame, ContextQuery, ContextQueryResult, Direction, Envelope, ErrorCode, FrameKind,
    Representation, Variant, Verdict, decode_line, encode_line,
};

const FRAME_ID: &str = r#"{"provider_id":"docs","frame_id":"f1","content_digest":"sha256:0000000000000000000000000000000000000000000000000000000000000000"}"#;
const ATTESTATION: &str = r#"{"signed_commitment":"sha256:1111111111111111111111111111111111111111111111111111111111111111","key_id":"k1","algorithm":"ed25519","attester_id":"docs","signature":"abcd","issued_at":"2024-01-02T03:04:05Z"}"#;

fn maximal_frame() -> String {
    [
        r#"{"id":"f1","kind":"doc","title":"Title","content":"hello","#,
        r#""content_digest":"sha256:2222222222222222222222222222222222222222222222222222222222222222","#,
        r#""uri":"file:///a.md","representation":"compact","content_fidelity":"summarized","#,
        r#""canonical_content_hash":"sha256:3333333333333333333333333333333333333333333333333333333333333333","#,
        r#""content_ref":{"provider_id":"docs","uri":"cgp://docs/f1","expires_at":"2030-01-01T00:00:00Z"},"#,
        r#""transform":{"method":"extractive_summary","implementation":"sumy","version":"1.0"},"#,
        r#""minimum_content_fidelity":"normalized","inline_content_requirement":"resolvable_reference_allowed","#,
        r#""score":0.75,"token_cost":2,"canonical_token_cost":4294967295,"tokenizer_ref":"openai:o200k_base","#,
        r#""valid_from":"2024-01-01T00:00:00Z","valid_to":"2025-01-01T00:00:00.5Z","recorded_at":"2024-06-01T12:00:00Z","#,
        r#""provenance":[{"type":"file","uri":"file:///a.md","range":"L1-2","digest":"sha256:4444444444444444444444444444444444444444444444444444444444444444","method":"read","by":"indexer"},{"type":"derivation"}],"#,
        r#""citation_label":"[1]","embedding":{"fingerprint":"m/3","vector":[0.1,-2.5,3.0]},"#,
        r#""relations":[{"rel":"code.calls","target_uri":"sym://b","display_name":"b()"},{"rel":"x","target_uri":""}]}"#,
    ]
    .concat()
}

fn maximal_lines() -> Vec<String> {
    vec![
        r#"{"type":"handshake","protocol_version":"demo/1.0"}"#.to_owned(),
        [
            r#"{"type":"handshake_ack","protocol_version":"demo/1.0-draft","#,
            r#""provider":{"name":"docs","version":"0.1.0","data_flow":{"reads":true,"writes":true,"egress":true,"egress_scopes":["local-only","org-tenant","third-party-index","third-party-model","acme:vectors"]}},"#,
            r#""capabilities":{"query":{"kinds":["doc","DOC",""]},"correlation":true,"graph":true,"embeddings_fingerprint":"m/3","verify":true,"representations":["full","compact","reference"],"resolve":true},"#,
            r#""attester_keys":[{"key_id":"k1","algorithm":"ed25519","public_key":"00ff"}]}"#,
        ]
        .concat(),
        [
            r#"{"type":"query","id":"q1","query":{"goal":"find","query_text":"text","embedding":[0.5,1.0,-0.25],"#,
            r#""kinds":["doc","trajectory"],"anchors":["file:///a.md"],"max_frames":4294967295,"max_tokens":0,"#,
            r#""as_of":"2024-01-01T00:00:00Z","representation_preferences":["reference","full"]}}"#,
        ]
        .concat(),
        format!(
            r#"{{"type":"frames","id":"q1","result":{{"frames":[{},{}],"truncated":true,"dropped_estimate":3,"frame_attestations":[{{"frame":{FRAME_ID},"attestation":{ATTESTATION},"inclusion_proof":{{"leaf_index":18446744073709551615,"leaf_count":2,"path":[{{"sibling":"sha256:55","sibling_is_left":true}}]}}}}],"result_attestation":{ATTESTATION}}}}}"#,
            maximal_frame(),
            r#"{"id":"f2","kind":"memory","title":"t","score":0.0,"token_cost":0}"#,
        ),
        format!(
            r#"{{"type":"verify","request":{{"frames":[{FRAME_ID},{{"provider_id":"p","frame_id":"f"}}]}}}}"#
        ),
        format!(
            r#"{{"type":"verified","response":{{"verdicts":[{{"frame":{FRAME_ID},"status":"valid"}},{{"frame":{FRAME_ID},"status":"stale","replacement_digest":"sha256:66"}},{{"frame":{FRAME_ID},"status":"stale"}},{{"frame":{FRAME_ID},"status":"gone"}},{{"frame":{FRAME_ID},"status":"unknown"}}]}}}}"#
        ),
        r#"{"type":"shutdown"}"#.to_owned(),
        r#"{"type":"error","id":"q7","code":"quota_exceeded","message":"slow down"}"#.to_owned(),
    ]
}

fn assert_round_trip(line: &str) -> Envelope {
    let env = decode_line(line).unwrap_or_else(|e| panic!("{line}\n{e}"));
    let encoded = encode_line(&env).unwrap();
    assert_eq!(encoded, format!("{line}\n"), "re-encoding changed the line");
    assert_eq!(decode_line(&encoded).unwrap(), env);
    env
}

#[test]
fn maximal_examples_round_trip_byte_identically() {
    for line in maximal_lines() {
        assert_round_trip(&line);
    }
}

#[test]
fn maximal_frame_decodes_into_the_expected_fields() {
    let line = &maximal_lines()[3];
    let Envelope::Frames { id, result } = decode_line(line).unwrap() else {
        panic!("not frames");
    };
    assert_eq!(id.as_deref(), Some("q1"));
    let frame = &result.frames[0];
    assert_eq!(frame.kind, FrameKind::Doc);
    assert_eq!(frame.representation, Representation::Compact);
    assert_eq!(frame.canonical_token_cost, Some(u32::MAX));
    assert_eq!(frame.provenance[0].kind, "file");
    assert_eq!(frame.relations[1].display_name, None);
    assert_eq!(
        result.frame_attestations[0]
            .inclusion_proof
            .as_ref()
            .unwrap()
            .leaf_index,
        u64::MAX
    );
    assert_eq!(result.frames[1].representation, Representation::Full);
}

#[test]
fn verdicts_decode_to_their_variants() {
    let Envelope::Verified { response } = decode_line(&maximal_lines()[5]).unwrap() else {
        panic!("not verified");
    };
    let statuses: Vec<&str> = response
        .verdicts
        .iter()
        .map(|v| v.verdict.status())
        .collect();
    assert_eq!(statuses, ["valid", "stale", "stale", "gone", "unknown"]);
    assert_eq!(
        response.verdicts[1].verdict,
        Verdict::Stale {
            replacement_digest: Some("sha256:66".into())
        }
    );
    assert!(response.verdicts[0].verdict.permits_reuse());
    assert!(!response.verdicts[4].verdict.permits_reuse());
}

#[test]
fn envelope_accessors() {
    let envs: Vec<Envelope> = maximal_lines()
        .iter()
        .map(|l| decode_line(l).unwrap())
        .collect();
    // By variant, not by position: a variant added since has its own lines.
    let without_id = [
        Variant::Handshake,
        Variant::HandshakeAck,
        Variant::Verify,
        Variant::Verified,
        Variant::Shutdown,
    ];
    for env in &envs {
        let variant = env.variant();
        if matches!(variant, Variant::Query | Variant::Frames) {
            assert_eq!(env.correlation_id(), Some("q1"), "{variant}");
        } else if variant == Variant::Error {
            assert_eq!(env.correlation_id(), Some("q7"), "{variant}");
        } else if without_id.contains(&variant) {
            assert_eq!(env.correlation_id(), None, "{variant}");
        }
        assert_eq!(
            env.error_code().is_some(),
            variant == Variant::Error,
            "{variant}"
        );
    }
    let error = envs
        .iter()
        .find(|env| env.variant() == Variant::Error)
        .expect("an error line");
    assert_eq!(
        error.error_code(),
        Some(ErrorCode::Other("quota_exceeded".into()))
    );
    assert_eq!(envs[0].direction(), Direction::HostToProvider);
    assert_eq!(envs[1].direction(), Direction::ProviderToHost);
}

#[test]
fn built_values_encode_canonically() {
    let mut frame = ContextFrame::new(
        "f",
        FrameKind::Other("trajectory".into()),
        "t",
        None,
        1.0,
        0,
    );
    frame.representation = Representation::Reference;
    let env = Envelope::Frames {
        id: None,
        result: ContextQueryResult::new(vec![frame], false),
    };
    assert_eq!(
        encode_line(&env).unwrap(),
        "{\"type\":\"frames\",\"result\":{\"frames\":[{\"id\":\"f\",\"kind\":\"trajectory\",\"title\":\"t\",\"representation\":\"reference\",\"score\":1.0,\"token_cost\":0}],\"truncated\":false}}\n"
    );
    let mut query = ContextQuery::new("g", 1, 2);
    query.embedding = Some(vec![]);
    let line = encode_line(&Envelope::Query { id: None, query }).unwrap();
    assert_eq!(
        line,
        "{\"type\":\"query\",\"query\":{\"goal\":\"g\",\"embedding\":[],\"max_frames\":1,\"max_tokens\":2}}\n"
    );
    assert_eq!(
        encode_line(&Envelope::Shutdown).unwrap(),
        "{\"type\":\"shutdown\"}\n"
    );
}

#[test]
fn encoded_lines_never_contain_an_inner_newline() {
    let env = Envelope::Error {
        id: Some("a\nb".into()),
        code: Some(ErrorCode::Other("x\r\ny".into())),
        message: "line1\nline2\u{2028}".into(),
    };
    let line = encode_line(&env).unwrap();
    assert_eq!(line.matches('\n').count(), 1);
    assert!(line.ends_with('\n'));
    assert_eq!(decode_line(&line).unwrap(), env);
}
