//! The generated Python package `cgp_types` against the reference decoder:
//! every SPEC.md example and a set of edge texts must get the reference's
//! verdict, and every accepted one the reference's re-encoding, byte for byte.
//! (The randomised differential sends its envelopes through the package too.)
//! The verdicts are the reference's, computed here, never written down; only
//! the examples the reference's protocol version knows are compared
//! ([`support::examples_the_reference_knows`]).

// Only the reference half of the shared support is used here.
#[allow(dead_code)]
mod support;

use spec_tests::{Outcome, python_package};
use std::path::Path;
use support::reference;

/// Compares the package with the reference on each `(name, target, text)`.
fn compare(cases: Vec<(String, String, String)>) -> Vec<String> {
    compare_with(cases, None).0
}

/// [`compare`] with `extra` on `PYTHONPATH` (msgspec, for the fast path); also
/// how many envelopes the fast decoder took.
fn compare_with(
    cases: Vec<(String, String, String)>,
    extra: Option<&Path>,
) -> (Vec<String>, usize) {
    let texts: Vec<(String, String)> = cases
        .iter()
        .map(|(_, target, text)| (target.clone(), text.clone()))
        .collect();
    let (ours, fast) = python_package::round_trips_with(&texts, extra)
        .unwrap_or_else(|problem| panic!("{problem}"));
    let mut failures = Vec::new();
    for ((name, target, text), python) in cases.iter().zip(ours) {
        let theirs: Outcome = reference(target, text).expect("known target");
        let agree = match (&theirs, &python) {
            (Ok(a), Ok(b)) => a == b,
            (Err(_), Err(_)) => true,
            _ => false,
        };
        if !agree {
            failures.push(format!(
                "{name}: {target} {text}\n  reference: {theirs:?}\n  cgp_types: {python:?}"
            ));
        }
    }
    (failures, fast)
}

fn corpus_cases() -> Vec<(String, String, String)> {
    let (known, _) = support::examples_the_reference_knows();
    known
        .into_iter()
        .map(|example| {
            (
                format!("SPEC.md:{}: {}", example.fence_line, example.name),
                example.target.clone(),
                example.as_line(),
            )
        })
        .collect()
}

#[test]
fn every_corpus_example_gets_the_reference_verdict_and_bytes() {
    let cases = corpus_cases();
    assert!(cases.len() > 100, "only {} examples", cases.len());
    let failures = compare(cases);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// With msgspec installed, `decode_line` reads through msgspec's decoder what
/// it can vouch for: the corpus and the edge texts still get the reference's
/// verdicts and bytes, both paths agree on every value (the script checks),
/// and the fast path takes most valid corpus envelopes.
#[test]
#[ignore = "full tier"]
fn with_msgspec_the_fast_path_keeps_every_verdict_and_byte() {
    let msgspec = spec_tests::peers::ensure_msgspec().unwrap_or_else(|problem| panic!("{problem}"));
    let corpus = corpus_cases();
    let envelopes_accepted = corpus
        .iter()
        .filter(|(_, target, text)| {
            target == "Envelope" && reference(target, text).is_some_and(|outcome| outcome.is_ok())
        })
        .count();
    let (failures, fast) = compare_with(corpus, Some(&msgspec));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        fast * 4 >= envelopes_accepted * 3,
        "the fast path took {fast} of {envelopes_accepted} valid corpus envelopes"
    );
    let (failures, _) = compare_with(edge_cases(), Some(&msgspec));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Texts where serde's rules are easy to get wrong: duplicates, number
/// spellings, lenient forms, nesting, whitespace.
#[rustfmt::skip]
const EDGES: &[(&str, &str)] = &[
    ("Envelope", r#"{"type":"shutdown","x":1,"x":2}"#),
    ("Envelope", r#"{"type":"shutdown","type":"shutdown"}"#),
    ("Envelope", r#"{"type":"error","message":"a","message":"b"}"#),
    ("Envelope", r#"{"type":"error","message":"a","x":{"y":1,"y":2}}"#),
    ("Envelope", r#"["shutdown"]"#),
    ("Envelope", r#"["shutdown",1]"#),
    ("Envelope", r#"[]"#),
    ("Envelope", r#"[1]"#),
    ("Envelope", r#"["error"]"#),
    ("Envelope", r#"["error",null,null,"m"]"#),
    ("Envelope", r#"["error","i","bad_request","m",1]"#),
    ("Envelope", r#"["handshake_ack","v",["n","1",[]],{}]"#),
    ("Envelope", r#"["handshake_ack","v",["n","1",[true]],[[["doc"]]]]"#),
    ("Envelope", r#"{"type":1}"#),
    ("Envelope", r#"{"type":null}"#),
    ("Envelope", r#"{"type":"Shutdown"}"#),
    ("Envelope", r#"{"type":"shutdown"}  "#),
    ("Envelope", "{\"type\":\"shutdown\"}\u{a0}\u{2028}\u{b}"),
    ("Envelope", "\u{feff}{\"type\":\"shutdown\"}"),
    ("Envelope", r#" {"type":"shutdown"} x"#),
    ("Envelope", r#"{"type":"shutdown","x":NaN}"#),
    ("Envelope", r#"{"type":"shutdown","x":1e400}"#),
    ("Envelope", r#"{"type":"shutdown","x":-1e400}"#),
    ("Envelope", r#"{"type":"shutdown","x":123456789012345678901234567890}"#),
    ("Envelope", r#"{"type":"shutdown","x":"\ud800"}"#),
    ("Envelope", r#"{"type":"shutdown","\udc00":1}"#),
    ("Envelope", r#"{"type":"error","message":"\ud83d\ude00"}"#),
    ("Envelope", r#"{"type":"error","message":"\u0000\u001f\u007f\"\\/\b\f\n\r\t"}"#),
    ("Envelope", r#"{"type":"query","query":{"goal":"g","max_frames":-0,"max_tokens":1}}"#),
    ("Envelope", r#"{"type":"query","query":{"goal":"g","max_frames":1.0,"max_tokens":1}}"#),
    ("Envelope", r#"{"type":"query","query":{"goal":"g","max_frames":4294967296,"max_tokens":1}}"#),
    ("Envelope", r#"{"type":"query","query":{"goal":"g","max_frames":true,"max_tokens":1}}"#),
    ("Envelope", r#"{"type":"query","query":{"goal":"g","max_frames":1,"max_tokens":1,"embedding":[-0,1,1e-50,1e-7,1e-6,123456789012,1234567890123,16777217,18446744073709551615,-9223372036854775809,0.1,3.4028235e38]}}"#),
    ("Envelope", r#"{"type":"query","query":{"goal":"g","max_frames":1,"max_tokens":1,"embedding":null,"kinds":null}}"#),
    ("Envelope", r#"{"type":"query","query":{"goal":"g","max_frames":1,"max_tokens":1,"representation_preferences":[{"compact":null},{"full":null,"x":1}]}}"#),
    ("Envelope", r#"{"type":"query","query":{"goal":"g","max_frames":1,"max_tokens":1,"representation_preferences":[{"compact":null,"compact":null}]}}"#),
    ("Envelope", r#"{"type":"query","query":["g",null,null,[],[],1,2]}"#),
    ("Envelope", r#"{"type":"query","id":1,"query":{"goal":"g","max_frames":1,"max_tokens":1}}"#),
    ("Envelope", r#"{"type":"verify","id":"x","request":{}}"#),
    ("Envelope", r#"{"type":"verified","response":{"verdicts":[{"frame":{"provider_id":"p","frame_id":"f"},"status":1,"replacement_digest":"d"}]}}"#),
    ("Envelope", r#"{"type":"verified","response":{"verdicts":[{"frame":{"provider_id":"p","frame_id":"f"},"status":4}]}}"#),
    ("Envelope", r#"{"type":"verified","response":{"verdicts":[{"frame":{"provider_id":"p","frame_id":"f"},"status":"valid","replacement_digest":5}]}}"#),
    ("Envelope", r#"{"type":"verified","response":{"verdicts":[{"frame":{"provider_id":"p","frame_id":"f"},"status":"stale","replacement_digest":5}]}}"#),
    ("Envelope", r#"{"type":"verified","response":{"verdicts":[{"frame":{"provider_id":"p","frame_id":"f"},"status":"stale","status":"stale"}]}}"#),
    ("Envelope", r#"{"type":"verified","response":{"verdicts":[[{"provider_id":"p","frame_id":"f"},"valid"]]}}"#),
    ("Envelope", r#"{"type":"verified","response":{"verdicts":[{"frame":["p","f"],"status":"gone","x":[1,2]}]}}"#),
    ("Envelope", r#"{"type":"frames","result":{"frames":[{"id":"a","kind":"DOC","title":"t","score":1,"token_cost":0,"representation":"full"}],"truncated":false}}"#),
    ("Envelope", r#"{"type":"frames","result":{"frames":[{"id":"a","kind":{"doc":null},"title":"t","score":1,"token_cost":0}],"truncated":false}}"#),
    ("Envelope", r#"{"type":"frames","result":{"frames":[{"id":"a","kind":"doc","title":"t","score":null,"token_cost":0}],"truncated":false}}"#),
    ("Envelope", r#"{"type":"frames","result":{"frames":[],"truncated":false,"frame_attestations":[{"frame":{"provider_id":"p","frame_id":"f"},"inclusion_proof":{"leaf_index":18446744073709551615,"leaf_count":0,"path":[]}}]}}"#),
    ("Envelope", r#"{"type":"frames","result":{"frames":[],"truncated":false,"frame_attestations":[{"frame":{"provider_id":"p","frame_id":"f"},"inclusion_proof":{"leaf_index":18446744073709551616,"leaf_count":0,"path":[]}}]}}"#),
    ("Envelope", r#"{"type":"handshake_ack","protocol_version":"v","provider":{"name":"n","version":"1","data_flow":{"egress_scopes":["LOCAL-ONLY","local-only"]}},"capabilities":{"query":{},"representations":["full"]},"attester_keys":[]}"#),
    ("FrameVerdict", r#"{"frame":{"provider_id":"p","frame_id":"f"},"status":3}"#),
    ("Envelope", r#"["handshake_ack","v",["n","1",[]],[]]"#),
    ("Envelope", r#"["handshake_ack","v",["n","1",[false,true,false,["x:y"]]],[["k"],true]]"#),
    ("Envelope", r#"["frames",null,[[],false]]"#),
    ("Envelope", r#"["frames","i",[[],false,7,[],null,1]]"#),
    ("Envelope", r#"["query","i",["g",null,[1.5],["doc","x"],["a"],1,2,"t",["compact"]]]"#),
    ("Envelope", r#"["verified",[[{"frame":["p","f"],"status":0}]]]"#),
    ("Envelope", r#"["verify",[[["p","f","d"]]]]"#),
    ("Envelope", r#"["verify",[[["p"]]]]"#),
    ("Envelope", r#"["frames",null,[[["a","doc","t"]],false]]"#),
    ("Envelope", r#"["frames",null,[[["a","doc","t",null,null,null,"full",null,null,null,null,null,null,0.5,1]],false]]"#),
    ("Envelope", r#"["frames",null,[[["a","doc","t",null,null,null,{"reference":null},"exact",null,null,null,null,null,0.5,1]],false]]"#),
    ("Envelope", r#"{"type":"frames","result":{"frames":[{"id":"a","kind":"doc","title":"t","score":0.5,"token_cost":1,"provenance":[["file","u","r","d","m","b"]],"relations":[["r","t","d"]],"embedding":["f",[1,2]],"content_ref":["p","u"],"transform":["m","i","v"]}],"truncated":true}}"#),
    // What msgspec's re-encoding of its mirrors must catch (the fast decoder
    // counts the members it wrote): duplicates of members with each kind of
    // default, behind a tag that is not first, a colon hidden in an escape,
    // an unknown member holding colons, members the canonical encoder
    // leaves out written with their default or null, `-0` and `-0.0` for an
    // f32.
    ("Envelope", r#"{"type":"query","id":"a","id":"b","query":{"goal":"g","max_frames":1,"max_tokens":1}}"#),
    ("Envelope", r#"{"type":"frames","result":{"frames":[{"id":"a","kind":"doc","title":"t","score":0.5,"token_cost":1,"representation":"full","representation":"compact"}],"truncated":false}}"#),
    ("Envelope", r#"{"type":"frames","result":{"frames":[],"truncated":false,"dropped_estimate":1,"dropped_estimate":2}}"#),
    ("Envelope", r#"{"type":"verified","response":{"verdicts":[{"frame":{"provider_id":"p","frame_id":"f","frame_id":"g"},"status":"valid"}]}}"#),
    ("Envelope", r#"{"type":"verified","response":{"verdicts":[{"frame":{"provider_id":"p","frame_id":"f"},"status":"stale","replacement_digest":"a:b"}]}}"#),
    ("Envelope", r#"{"type":"error","message":"a","message":"b\u003a"}"#),
    ("Envelope", r#"{"type":"error","message":"a:b","x":"c:d"}"#),
    ("Envelope", r#"{"type":"error","message":"m","x":{"y":[[[[]]]]}}"#),
    ("Envelope", r#"{"type":"error","id":null,"code":null,"message":"m"}"#),
    ("Envelope", r#"{"type":"handshake_ack","protocol_version":"v","provider":{"name":"n","version":"1","data_flow":{"reads":false,"egress_scopes":[]}},"capabilities":{"correlation":false,"graph":false,"representations":[],"query":{"kinds":[]}}}"#),
    ("Envelope", r#"{"type":"handshake_ack","protocol_version":"v","provider":{"name":"n","version":"1","data_flow":{"reads":null}},"capabilities":{}}"#),
    ("Envelope", r#"{"type":"frames","result":{"frames":[{"id":"a","kind":"doc","title":"t","score":-0,"token_cost":1}],"truncated":false}}"#),
    ("Envelope", r#"{"type":"frames","result":{"frames":[{"id":"a","kind":"doc","title":"t","score":-0.0,"token_cost":1}],"truncated":false}}"#),
    ("Envelope", r#"{"type":"frames","result":{"frames":[{"id":"a","kind":"doc","title":"t","score":0.5,"token_cost":1,"provenance":[],"relations":[{"rel":"r","target_uri":"u"}]}],"truncated":false}}"#),
    // What the member count of SDK-spelled lines (not the mirrors'
    // encoding) must catch: the names' closing `":` against the members the
    // mirrors hold. A duplicate, behind whitespace before its colon; an
    // unknown member, named with an escaped quote; `":` in strings (an
    // escaped quote, a string opening with a colon) and `\u003a`, beside a
    // duplicate and alone.
    ("Envelope", r#"{"message": "a", "type": "error", "message": "b"}"#),
    ("Envelope", r#"{"message" : "a", "type": "error", "message": "b"}"#),
    ("Envelope", r#"{"message":"a","type" :"error","message":"b"}"#),
    ("Envelope", r#"{"x": {"y": 1, "z": [{}]}, "message": "m", "type": "error"}"#),
    ("Envelope", r#"{"message": "m", "type": "error", "a\":": 1}"#),
    ("Envelope", r#"{"message": "m", "type": "error", "a\":": 1, "a\":": 2}"#),
    ("Envelope", r#"{"message": "a\": b", "type": "error", "message": "c"}"#),
    ("Envelope", r#"{"message": "a\": b", "type": "error"}"#),
    ("Envelope", r#"{"message": ":", "type": "error", "id": ":"}"#),
    ("Envelope", r#"{"message": ":", "type": "error", "message": ":"}"#),
    ("Envelope", r#"{"message": "\u003a", "type": "error", "message": "b"}"#),
    ("Envelope", r#"{"message": "a\u003a", "id": "\u0022:", "type": "error"}"#),
    ("Envelope", r#"{"result": {"truncated": false, "frames": [{"title": "t", "id": "a", "kind": "doc", "score": 0.5, "token_cost": 1, "relations": [], "uri": "u", "uri": "v"}]}, "type": "frames"}"#),
    ("Envelope", r#"{"result": {"truncated": false, "frames": [{"title": "t", "id": "a", "kind": "doc", "score": -0, "token_cost": 1}]}, "type": "frames"}"#),
    ("FrameId", r#"["p","f",null]"#),
    ("Representation", r#"{"reference":null}"#),
    ("FrameKind", r#""graph""#),
];

/// The Python side of the API: known vocabulary values are enum members,
/// unknown ones strings; `encode_line` refuses a bool for an integer, a str for
/// an enum, a float for an integer, a missing member, a record of the wrong
/// type, naming the pointer, and writes a non-finite f32 as `null`.
#[test]
fn the_package_types_known_values_and_refuses_to_write_ill_typed_values() {
    let printed = python_package::run_script("cgp_types_api.py")
        .unwrap_or_else(|problem| panic!("{problem}"));
    let checks: usize = printed.trim().parse().expect("the script prints its count");
    assert!(checks >= 20, "only {checks} checks ran");
}

/// An f32 beyond the binary32 range decodes to infinity, which the reference
/// encoder writes as `null` (a line no decoder reads back); the package and
/// the hand-written Rust types write the same bytes (SPEC.md §Leniency).
#[test]
fn an_infinite_f32_is_written_null_as_the_reference_writes_it() {
    let line =
        r#"{"type":"query","query":{"goal":"g","max_frames":1,"max_tokens":1,"embedding":[1e39]}}"#;
    let cases = [("Envelope".to_owned(), line.to_owned())];
    let python = python_package::round_trips(&cases).unwrap_or_else(|problem| panic!("{problem}"));
    let expected = reference("Envelope", line)
        .expect("known")
        .expect("the reference writes it");
    assert!(expected.contains("[null]"), "{expected}");
    assert_eq!(
        spec_tests::hand_written("Envelope", line).expect("known"),
        Ok(expected.clone())
    );
    assert_eq!(python[0].as_deref(), Ok(expected.as_str()));
}

fn edge_cases() -> Vec<(String, String, String)> {
    let mut cases: Vec<(String, String, String)> = EDGES
        .iter()
        .enumerate()
        .map(|(index, (target, text))| {
            (
                format!("edge {index}"),
                (*target).to_owned(),
                (*text).to_owned(),
            )
        })
        .collect();
    for depth in [126, 127, 128, 200] {
        let nested = format!("{}{}", "[".repeat(depth - 1), "]".repeat(depth - 1));
        cases.push((
            format!("nesting {depth}"),
            "Envelope".into(),
            format!(r#"{{"type":"shutdown","x":{nested}}}"#),
        ));
    }
    cases
}

#[test]
fn edge_texts_get_the_reference_verdict_and_bytes() {
    let cases = edge_cases();
    let accepted = cases
        .iter()
        .filter(|(_, target, text)| reference(target, text).is_some_and(|outcome| outcome.is_ok()))
        .count();
    assert!(
        accepted >= 15 && cases.len() - accepted >= 15,
        "the edges should hold both verdicts: {accepted} of {} accepted",
        cases.len()
    );
    let failures = compare(cases);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
