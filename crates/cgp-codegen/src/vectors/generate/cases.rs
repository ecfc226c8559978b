//! The hand-written case files: every variant and vocabulary value
//! ([`vocabulary`]), and the edge cases of §Leniency, §Numbers, the envelope
//! and §Transport ([`edge`]).

use super::{Builder, CaseFile, Judges};
use cgp_types::{
    ContentFidelity, EgressScope, ErrorCode, FrameKind, InlineContentRequirement, Representation,
};
use cgp_vectors::case::Transport;
use serde_json::{Value, json};

fn line(value: &Value) -> Vec<u8> {
    value.to_string().into_bytes()
}

/// A frame with the members every frame needs, and `extra` besides.
fn frame(extra: Value) -> Value {
    let mut frame = json!({"id": "doc:a", "kind": "doc", "title": "A", "content": "a", "score": 0.5, "token_cost": 1});
    if let (Some(members), Value::Object(extra)) = (frame.as_object_mut(), extra) {
        members.extend(extra);
    }
    frame
}

fn frames_with(frame: Value) -> Value {
    json!({"type": "frames", "id": "q1", "result": {"frames": [frame], "truncated": false}})
}

fn query_with(extra: Value) -> Value {
    let mut query = json!({"goal": "g", "max_frames": 1, "max_tokens": 100});
    if let (Some(members), Value::Object(extra)) = (query.as_object_mut(), extra) {
        members.extend(extra);
    }
    json!({"type": "query", "id": "q1", "query": query})
}

fn verified_with(verdict: Value) -> Value {
    let mut entry = json!({"frame": {"provider_id": "p", "frame_id": "doc:a"}});
    if let (Some(members), Value::Object(verdict)) = (entry.as_object_mut(), verdict) {
        members.extend(verdict);
    }
    json!({"type": "verified", "response": {"verdicts": [entry]}})
}

fn ack_with(data_flow: Value, capabilities: Value) -> Value {
    json!({"type": "handshake_ack", "protocol_version": "v", "provider": {"name": "p", "version": "1", "data_flow": data_flow}, "capabilities": capabilities})
}

/// Every variant and every vocabulary value, on both transports.
pub(super) fn vocabulary(judges: Judges<'_>, version: &str) -> CaseFile {
    let mut builder = Builder::new(judges);
    let source = "vocabulary";
    let mut add = |id: String, description: String, value: Value| {
        builder.both(&id, &description, source, &line(&value));
    };
    variant_cases(&mut add, version);
    known_value_cases(&mut add);
    builder.finish("vocabulary")
}

/// Adds a vocabulary case: (id, description, message).
type AddCase<'a> = dyn FnMut(String, String, Value) + 'a;

/// One case per envelope variant, with its required members.
fn variant_cases(add: &mut AddCase<'_>, version: &str) {
    add(
        "variant/handshake".into(),
        "handshake with the working version".into(),
        json!({"type": "handshake", "protocol_version": version}),
    );
    add(
        "variant/shutdown".into(),
        "shutdown".into(),
        json!({"type": "shutdown"}),
    );
    add(
        "variant/verify".into(),
        "verify of one frame".into(),
        json!({"type": "verify", "request": {"frames": [{"provider_id": "p", "frame_id": "doc:a"}]}}),
    );
    add(
        "variant/handshake_ack".into(),
        "handshake_ack with empty capabilities: every default written back".into(),
        ack_with(json!({}), json!({})),
    );
    add(
        "variant/query".into(),
        "query with its required members".into(),
        query_with(json!({})),
    );
    add(
        "variant/frames".into(),
        "frames with one frame".into(),
        frames_with(frame(json!({"title": "the frames variant"}))),
    );
    add(
        "variant/error".into(),
        "error with a message only".into(),
        json!({"type": "error", "message": "boom"}),
    );
}

/// Every known value of each vocabulary (and an unknown one of each open
/// vocabulary) where the envelope carries it.
fn known_value_cases(add: &mut AddCase<'_>) {
    for kind in FrameKind::KNOWN.iter().copied().chain(["x-custom-kind"]) {
        add(
            format!("frame-kind/{kind}"),
            format!("FrameKind {kind} in a frame and in a query's kinds"),
            frames_with(frame(json!({"kind": kind}))),
        );
        add(
            format!("query-kind/{kind}"),
            format!("FrameKind {kind} in a query's kinds"),
            query_with(json!({"kinds": [kind]})),
        );
    }
    for code in ErrorCode::KNOWN.iter().copied().chain(["x_custom_code"]) {
        add(
            format!("error-code/{code}"),
            format!("ErrorCode {code}"),
            json!({"type": "error", "id": "q1", "code": code, "message": "m"}),
        );
    }
    for scope in EgressScope::KNOWN.iter().copied().chain(["x-custom-scope"]) {
        add(
            format!("egress-scope/{scope}"),
            format!("EgressScope {scope}"),
            ack_with(
                json!({"reads": true, "egress": true, "egress_scopes": [scope]}),
                json!({}),
            ),
        );
    }
    for representation in Representation::ALL.map(Representation::as_str) {
        add(
            format!("representation/{representation}"),
            format!(
                "Representation {representation} in capabilities, a query's preferences and a frame"
            ),
            ack_with(
                json!({}),
                json!({"resolve": true, "representations": [representation]}),
            ),
        );
        add(
            format!("representation-preference/{representation}"),
            format!("Representation {representation} in a query's preferences"),
            query_with(json!({"representation_preferences": [representation]})),
        );
        add(
            format!("representation-frame/{representation}"),
            format!("Representation {representation} of a frame"),
            frames_with(frame(json!({"representation": representation}))),
        );
    }
    for fidelity in ContentFidelity::ALL.map(ContentFidelity::as_str) {
        add(
            format!("content-fidelity/{fidelity}"),
            format!("ContentFidelity {fidelity}, as a frame's fidelity and minimum"),
            frames_with(frame(
                json!({"content_fidelity": fidelity, "minimum_content_fidelity": fidelity}),
            )),
        );
    }
    for requirement in InlineContentRequirement::ALL.map(InlineContentRequirement::as_str) {
        add(
            format!("inline-content-requirement/{requirement}"),
            format!("InlineContentRequirement {requirement}"),
            frames_with(frame(json!({"inline_content_requirement": requirement}))),
        );
    }
    for status in ["valid", "stale", "gone", "unknown"] {
        add(
            format!("verdict-status/{status}"),
            format!("a verdict of status {status}"),
            verified_with(json!({"status": status})),
        );
    }
    add(
        "verdict-status/stale-replacement".into(),
        "a stale verdict with its replacement digest".into(),
        verified_with(json!({"status": "stale", "replacement_digest": "sha256:00"})),
    );
}

/// Bytes nested `depth` levels deep in total (the envelope is the first),
/// inside an unknown member of a shutdown.
fn nested(depth: usize) -> Vec<u8> {
    let inner = depth.saturating_sub(1);
    format!(
        "{{\"type\":\"shutdown\",\"x\":{}{}}}",
        "[".repeat(inner),
        "]".repeat(inner)
    )
    .into_bytes()
}

/// One edge case both transports carry: (id, source, description, bytes).
type EdgeCase = (&'static str, &'static str, &'static str, Vec<u8>);

/// The message the text and transport cases wrap or repeat.
const SHUTDOWN: &[u8; 19] = br#"{"type":"shutdown"}"#;

/// SPEC.md §Leniency: what the reference decoder reads beyond the schema.
#[rustfmt::skip]
fn leniency_cases(version: &str) -> Vec<EdgeCase> {
    let positional_handshake = line(&json!(["handshake", version]));
    vec![
        ("leniency/unit-object-form", "leniency", "a Representation in the one-member object form {\"compact\": null} reads as the string", line(&query_with(json!({"representation_preferences": [{"compact": null}]})))),
        ("leniency/unit-object-form-not-null", "leniency", "the object form of a Representation with a non-null value", line(&query_with(json!({"representation_preferences": [{"compact": 1}]})))),
        ("leniency/integer-status-0", "leniency", "the integer verdict status 0 reads as valid", line(&verified_with(json!({"status": 0})))),
        ("leniency/integer-status-1", "leniency", "the integer verdict status 1 reads as stale", line(&verified_with(json!({"status": 1})))),
        ("leniency/integer-status-2", "leniency", "the integer verdict status 2 reads as gone", line(&verified_with(json!({"status": 2})))),
        ("leniency/integer-status-3", "leniency", "the integer verdict status 3 reads as unknown", line(&verified_with(json!({"status": 3})))),
        ("leniency/integer-status-4", "leniency", "the integer verdict status 4 names no verdict", line(&verified_with(json!({"status": 4})))),
        ("leniency/integer-type", "leniency", "the envelope's type does not accept an integer", line(&json!({"type": 1}))),
        ("leniency/positional-shutdown", "leniency", "the positional array form of shutdown", line(&json!(["shutdown"]))),
        ("leniency/positional-handshake", "leniency", "the positional array form of handshake", positional_handshake),
        ("leniency/positional-error", "leniency", "the positional array form of error (id, code, message)", line(&json!(["error", null, null, "boom"]))),
        ("leniency/positional-empty", "leniency", "an empty array is too short for any envelope", b"[]".to_vec()),
        ("leniency/positional-short", "leniency", "a positional handshake without its version", line(&json!(["handshake"]))),
        ("leniency/ignored-replacement-digest", "leniency", "replacement_digest is not read unless the status is stale, so a number passes", line(&verified_with(json!({"status": "valid", "replacement_digest": 7})))),
        ("leniency/duplicate-unknown-member", "leniency", "duplicate names of a member the decoder does not know are accepted", br#"{"type":"shutdown","x":1,"x":2}"#.to_vec()),
        ("leniency/duplicate-type", "leniency", "a duplicate type tag", br#"{"type":"shutdown","type":"shutdown"}"#.to_vec()),
        ("leniency/duplicate-message", "leniency", "a duplicate member the decoder knows", br#"{"type":"error","message":"a","message":"b"}"#.to_vec()),
        ("leniency/f32-overflow-score", "leniency", "a score beyond the f32 range decodes to infinity, which the encoder writes as null", line(&frames_with(frame(json!({"score": 1e39}))))),
        ("leniency/f32-overflow-embedding", "leniency", "an embedding component beyond the f32 range", line(&query_with(json!({"embedding": [1e39, 0.5]})))),
    ]
}

/// SPEC.md §Numbers: integer and float ranges and spellings.
#[rustfmt::skip]
fn number_cases() -> Vec<EdgeCase> {
    vec![
        ("numbers/u32-max", "numbers", "a u32 at its maximum, 4294967295", line(&query_with(json!({"max_frames": 4_294_967_295u64})))),
        ("numbers/u32-zero", "numbers", "a u32 at 0", line(&query_with(json!({"max_tokens": 0})))),
        ("numbers/u32-above", "numbers", "a u32 at 4294967296", line(&query_with(json!({"max_frames": 4_294_967_296u64})))),
        ("numbers/u32-negative", "numbers", "a u32 at -1", line(&query_with(json!({"max_frames": -1})))),
        ("numbers/u32-fraction", "numbers", "a u32 spelled 10.0", br#"{"type":"query","query":{"goal":"g","max_frames":10.0,"max_tokens":1}}"#.to_vec()),
        ("numbers/u32-exponent", "numbers", "a u32 spelled 1e1", br#"{"type":"query","query":{"goal":"g","max_frames":1e1,"max_tokens":1}}"#.to_vec()),
        ("numbers/u32-negative-zero", "numbers", "a u32 spelled -0", br#"{"type":"query","query":{"goal":"g","max_frames":-0,"max_tokens":1}}"#.to_vec()),
        ("numbers/u32-string", "numbers", "a u32 written as a string", line(&query_with(json!({"max_frames": "10"})))),
        ("numbers/u32-null", "numbers", "a u32 written as null", line(&query_with(json!({"max_frames": null})))),
        ("numbers/beyond-u64", "numbers", "an integer beyond the u64 range reads as a double", br#"{"type":"query","query":{"goal":"g","max_frames":18446744073709551616,"max_tokens":1}}"#.to_vec()),
        ("numbers/token-cost-above", "numbers", "a frame's token_cost above the u32 range", line(&frames_with(frame(json!({"token_cost": 4_294_967_296u64}))))),
        ("numbers/dropped-estimate-negative", "numbers", "a negative dropped_estimate", line(&json!({"type": "frames", "result": {"frames": [], "truncated": true, "dropped_estimate": -1}}))),
        ("numbers/u64-max", "numbers", "the inclusion counters at the u64 maximum", line(&json!({"type": "frames", "result": {"frames": [], "truncated": false, "frame_attestations": [{"frame": {"provider_id": "p", "frame_id": "doc:a"}, "inclusion_proof": {"leaf_index": u64::MAX, "leaf_count": u64::MAX, "path": []}}]}}))),
        ("numbers/u64-above", "numbers", "an inclusion counter beyond the u64 range", br#"{"type":"frames","result":{"frames":[],"truncated":false,"frame_attestations":[{"frame":{"provider_id":"p","frame_id":"doc:a"},"inclusion_proof":{"leaf_index":18446744073709551616,"leaf_count":1,"path":[]}}]}}"#.to_vec()),
        ("numbers/f32-integer", "numbers", "an f32 written as the integer 1 re-encodes as 1.0", line(&frames_with(frame(json!({"score": 1}))))),
        ("numbers/f32-rounded", "numbers", "an f32 0.123456789 re-encodes as the shortest binary32 spelling", br#"{"type":"frames","result":{"frames":[{"id":"doc:a","kind":"doc","title":"A","content":"a","score":0.123456789,"token_cost":1}],"truncated":false}}"#.to_vec()),
        ("numbers/f32-underflow", "numbers", "an f32 1e-50 re-encodes as 0.0", br#"{"type":"frames","result":{"frames":[{"id":"doc:a","kind":"doc","title":"A","content":"a","score":1e-50,"token_cost":1}],"truncated":false}}"#.to_vec()),
        ("numbers/f32-string", "numbers", "an f32 written as a string", line(&frames_with(frame(json!({"score": "0.5"}))))),
        ("numbers/beyond-double", "numbers", "a number beyond a double, 1e400, in an f32 member", br#"{"type":"frames","result":{"frames":[{"id":"doc:a","kind":"doc","title":"A","content":"a","score":1e400,"token_cost":1}],"truncated":false}}"#.to_vec()),
        ("numbers/beyond-double-unknown", "numbers", "a number beyond a double in a member no decoder knows", br#"{"type":"shutdown","x":1e400}"#.to_vec()),
    ]
}

/// The envelope tag and members.
#[rustfmt::skip]
fn envelope_cases() -> Vec<EdgeCase> {
    vec![
        ("envelope/unknown-type", "envelope", "a type that names no variant", br#"{"type":"ping"}"#.to_vec()),
        ("envelope/wrong-case-type", "envelope", "a type in the wrong case", br#"{"type":"Shutdown"}"#.to_vec()),
        ("envelope/missing-type", "envelope", "an object without type", br#"{"protocol_version":"v"}"#.to_vec()),
        ("envelope/null-type", "envelope", "a null type", br#"{"type":null}"#.to_vec()),
        ("envelope/tag-last", "envelope", "the type tag after the other members", br#"{"message":"m","type":"error"}"#.to_vec()),
        ("envelope/unknown-member", "envelope", "an unknown member is ignored and dropped", br#"{"type":"shutdown","extra":{"a":[1,2]}}"#.to_vec()),
        ("envelope/verify-id", "envelope", "an id on verify is not a member of verify and is dropped", br#"{"type":"verify","id":"q1","request":{"frames":[]}}"#.to_vec()),
        ("envelope/missing-query", "envelope", "a query without its query member", br#"{"type":"query","id":"q1"}"#.to_vec()),
        ("envelope/missing-message", "envelope", "an error without its message", br#"{"type":"error","code":"internal"}"#.to_vec()),
        ("envelope/null-message", "envelope", "an error whose message is null", br#"{"type":"error","message":null}"#.to_vec()),
        ("envelope/null-id", "envelope", "a null id reads as absent", br#"{"type":"error","id":null,"message":"m"}"#.to_vec()),
        ("envelope/number-id", "envelope", "an id that is a number", br#"{"type":"error","id":1,"message":"m"}"#.to_vec()),
        ("envelope/null-frames", "envelope", "frames written as null", br#"{"type":"frames","result":{"frames":null,"truncated":false}}"#.to_vec()),
        ("envelope/null-attester-keys", "envelope", "attester_keys written as null", line(&json!({"type": "handshake_ack", "protocol_version": "v", "provider": {"name": "p", "version": "1", "data_flow": {}}, "capabilities": {}, "attester_keys": null}))),
        ("envelope/empty-content", "envelope", "an empty content string and an empty embedding are present values, written back", line(&json!({"type": "frames", "result": {"frames": [frame(json!({"content": "", "embedding": {"fingerprint": "m/0", "vector": []}}))], "truncated": false}}))),
        ("envelope/not-an-object-string", "envelope", "a JSON string is not an envelope", br#""shutdown""#.to_vec()),
        ("envelope/not-an-object-null", "envelope", "null is not an envelope", b"null".to_vec()),
        ("envelope/not-an-object-number", "envelope", "a number is not an envelope", b"1".to_vec()),
        ("envelope/closed-representation", "envelope", "a Representation outside its closed set", line(&frames_with(frame(json!({"representation": "summary"}))))),
        ("envelope/closed-fidelity", "envelope", "a ContentFidelity outside its closed set", line(&frames_with(frame(json!({"content_fidelity": "approximate"}))))),
        ("envelope/closed-inline-requirement", "envelope", "an InlineContentRequirement outside its closed set", line(&frames_with(frame(json!({"inline_content_requirement": "optional"}))))),
        ("envelope/closed-status", "envelope", "a verdict status outside its closed set", line(&verified_with(json!({"status": "maybe"})))),
        ("envelope/open-vocabulary-number", "envelope", "an open vocabulary value that is not a string", line(&frames_with(frame(json!({"kind": 7}))))),
    ]
}

/// SPEC.md §Transport: text no decoder reads.
#[rustfmt::skip]
fn text_cases() -> Vec<EdgeCase> {
    let shutdown = SHUTDOWN;
    vec![
        ("text/empty", "text", "an empty input", Vec::new()),
        ("text/whitespace", "text", "whitespace only", b"  \t".to_vec()),
        ("text/byte-order-mark", "text", "a byte-order mark before the object", [b"\xef\xbb\xbf".as_slice(), shutdown].concat()),
        ("text/trailing-characters", "text", "text after the object", [shutdown.as_slice(), b" x"].concat()),
        ("text/two-objects", "text", "two objects in one input", [shutdown.as_slice(), shutdown].concat()),
        ("text/unterminated", "text", "an object that does not end", br#"{"type":"shutdown""#.to_vec()),
        ("text/raw-control", "text", "a raw control character inside a string", b"{\"type\":\"error\",\"message\":\"a\x01b\"}".to_vec()),
        ("text/raw-nul", "text", "a raw NUL inside a string", b"{\"type\":\"error\",\"message\":\"a\x00b\"}".to_vec()),
        ("text/escaped-nul", "text", "an escaped NUL is a character", br#"{"type":"error","message":"a\u0000b"}"#.to_vec()),
        ("text/lone-surrogate", "text", "a lone surrogate escape", br#"{"type":"error","message":"\ud800"}"#.to_vec()),
        ("text/surrogate-pair", "text", "a surrogate pair escape is one character", br#"{"type":"error","message":"\ud83d\ude00"}"#.to_vec()),
        ("text/single-quotes", "text", "single quotes are not JSON", b"{'type':'shutdown'}".to_vec()),
        ("text/trailing-comma", "text", "a trailing comma", br#"{"type":"shutdown",}"#.to_vec()),
        ("text/leading-whitespace", "text", "whitespace before the object", [b" \t".as_slice(), shutdown].concat()),
        ("text/trailing-cr", "text", "a carriage return after the object (CRLF line endings)", [shutdown.as_slice(), b"\r"].concat()),
        ("text/nesting-127", "text", "nesting 127 levels deep, the most the decoder reads", nested(127)),
        ("text/nesting-128", "text", "nesting 128 levels deep", nested(128)),
        ("text/invalid-utf8-outside-string", "text", "a byte that is not UTF-8 outside any string", [shutdown.as_slice(), b"\xff"].concat()),
    ]
}

/// Where the transports differ.
#[rustfmt::skip]
fn transport_cases(version: &str) -> Vec<EdgeCase> {
    let shutdown = SHUTDOWN;
    let handshake = line(&json!({"type": "handshake", "protocol_version": version}));
    vec![
        ("transport/invalid-utf8-in-string", "http", "invalid UTF-8 inside a string: U+FFFD over stdio, an error in an HTTP body", b"{\"type\":\"error\",\"message\":\"a\xffb\"}".to_vec()),
        ("transport/overlong-utf8", "http", "an overlong UTF-8 encoding inside a string", b"{\"type\":\"error\",\"message\":\"\xc0\xaf\"}".to_vec()),
        ("transport/truncated-utf8", "http", "a truncated UTF-8 sequence inside a string", b"{\"type\":\"handshake\",\"protocol_version\":\"\xe2\x82\"}".to_vec()),
        ("transport/trailing-nbsp", "http", "trailing U+00A0: trimmed from a stdio line, text after the value in an HTTP body", [handshake.as_slice(), "\u{a0}".as_bytes()].concat()),
        ("transport/trailing-ideographic-space", "http", "trailing U+3000: trimmed from a stdio line only", [shutdown.as_slice(), "\u{3000}".as_bytes()].concat()),
        ("transport/trailing-vertical-tab", "http", "a trailing vertical tab: Unicode whitespace, not JSON whitespace", [shutdown.as_slice(), b"\x0b"].concat()),
    ]
}

/// The edge cases of SPEC.md's rules, on both transports, and the bodies
/// only HTTP carries.
pub(super) fn edge(judges: Judges<'_>, version: &str) -> CaseFile {
    let mut builder = Builder::new(judges);
    let shutdown = SHUTDOWN;
    let both = [
        leniency_cases(version),
        number_cases(),
        envelope_cases(),
        text_cases(),
        transport_cases(version),
    ];
    for (id, source, description, bytes) in both.into_iter().flatten() {
        builder.both(id, description, source, &bytes);
    }
    // Bodies only HTTP carries: a line feed cannot travel inside a stdio line.
    let pretty =
        serde_json::to_string_pretty(&query_with(json!({"kinds": ["doc"]}))).unwrap_or_default();
    for (id, description, bytes) in [
        (
            "transport/pretty-body",
            "a pretty-printed body, line breaks and all",
            pretty.into_bytes(),
        ),
        (
            "transport/trailing-line-feed",
            "a body ending in a line feed",
            [shutdown.as_slice(), b"\n"].concat(),
        ),
        (
            "transport/crlf-around",
            "CRLF before and after the object",
            [b"\r\n".as_slice(), shutdown, b"\r\n"].concat(),
        ),
    ] {
        builder.add(
            format!("{id}/http"),
            description,
            "http",
            Transport::Http,
            &bytes,
        );
    }
    builder.finish("edge")
}
