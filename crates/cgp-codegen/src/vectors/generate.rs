//! The cases of the working version, computed from the SPEC.md corpus, the
//! edge cases of §Leniency, §Numbers and §Transport, every vocabulary value,
//! and mutations of the corpus envelopes (the systematic ones of the
//! randomised differential and the seeded ones of the re-issue proof,
//! `cgp_schema::mutate`). Each case's expectations come from the hand-written
//! decoder and encoder ([`cgp_vectors::decode`], held to the reference crates in
//! `spec-tests`) and from the profiles' validators, as `cgp validate` judges.
//! The result depends on its inputs alone: the same cases, byte for byte, on
//! every machine.

use cgp_check::Validator;
use cgp_check::transcript::check_message;
use cgp_gates::corpus::Example;
use cgp_schema::mutate::{Mutator, mutations};
use cgp_types::{
    ContentFidelity, EgressScope, ErrorCode, FrameKind, InlineContentRequirement, Representation,
    Variant,
};
use cgp_vectors::case::{Case, Transport, Verdict};
use cgp_vectors::decode;
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// The seed of the randomised set.
pub const SEED: u64 = 0x5eed_0021;
/// How many seeded mutations the randomised set holds.
pub const RANDOM_CASES: usize = 3000;
/// How many places of each corpus envelope the systematic mutations change.
const MUTATED_PLACES: usize = 10;

/// One case file: its name (without `.ndjson`) and its cases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseFile {
    /// `corpus`, `edge`, `vocabulary` or `random`.
    pub name: &'static str,
    /// Its cases, in order.
    pub cases: Vec<Case>,
}

impl CaseFile {
    /// The file's text: one case per line, each ending in a line feed.
    pub fn text(&self) -> String {
        let mut text = String::new();
        for case in &self.cases {
            text.push_str(&case.to_line());
            text.push('\n');
        }
        text
    }
}

/// The judges of the schema verdicts.
#[derive(Clone, Copy)]
pub struct Judges<'a> {
    /// The interop profile's validator.
    pub interop: &'a Validator,
    /// The strict profile's validator.
    pub strict: &'a Validator,
}

/// A case before it is judged.
struct Pending {
    id: String,
    description: String,
    source: String,
    transport: Transport,
    bytes: Vec<u8>,
}

/// Collects cases, skipping repeated (transport, bytes) pairs and keeping ids
/// unique; [`Builder::finish`] judges them.
struct Builder<'a> {
    judges: Judges<'a>,
    seen: BTreeSet<(Transport, Vec<u8>)>,
    ids: BTreeSet<String>,
    pending: Vec<Pending>,
}

/// At most this many threads judge a file's cases.
const THREADS: usize = 4;

impl<'a> Builder<'a> {
    fn new(judges: Judges<'a>) -> Self {
        Builder {
            judges,
            seen: BTreeSet::new(),
            ids: BTreeSet::new(),
            pending: Vec::new(),
        }
    }

    fn add(
        &mut self,
        id: String,
        description: &str,
        source: &str,
        transport: Transport,
        bytes: &[u8],
    ) {
        if !self.seen.insert((transport, bytes.to_vec())) {
            return;
        }
        let mut id = id;
        let mut suffix = 2;
        while self.ids.contains(&id) {
            id = format!("{id}~{suffix}");
            suffix += 1;
        }
        self.ids.insert(id.clone());
        self.pending.push(Pending {
            id,
            description: description.to_owned(),
            source: source.to_owned(),
            transport,
            bytes: bytes.to_vec(),
        });
    }

    /// The same bytes on both transports.
    fn both(&mut self, id: &str, description: &str, source: &str, bytes: &[u8]) {
        for transport in [Transport::Stdio, Transport::Http] {
            self.add(
                format!("{id}/{transport}"),
                description,
                source,
                transport,
                bytes,
            );
        }
    }

    /// Judges every case (on a few threads: each case on its own, so the
    /// result is the same in any order) and returns them in the order added.
    fn finish(self, name: &'static str) -> CaseFile {
        let judges = self.judges;
        let threads = std::thread::available_parallelism()
            .map_or(1, usize::from)
            .clamp(1, THREADS);
        let chunk = self.pending.len().div_ceil(threads).max(1);
        let judged: Vec<Vec<Case>> = std::thread::scope(|scope| {
            let workers: Vec<_> = self
                .pending
                .chunks(chunk)
                .map(|part| scope.spawn(move || part.iter().map(|p| judge(judges, p)).collect()))
                .collect();
            workers
                .into_iter()
                .map(|worker| {
                    worker
                        .join()
                        .unwrap_or_else(|payload| std::panic::resume_unwind(payload))
                })
                .collect()
        });
        CaseFile {
            name,
            cases: judged.into_iter().flatten().collect(),
        }
    }
}

/// A pending case with its expectations.
fn judge(judges: Judges<'_>, pending: &Pending) -> Case {
    let bytes = &pending.bytes;
    let (input, input_base64) = Case::input_fields(bytes);
    Case {
        id: pending.id.clone(),
        description: pending.description.clone(),
        source: pending.source.clone(),
        variant: variant_of(pending.transport, bytes),
        transport: pending.transport,
        input,
        input_base64,
        decode: decode::expectation(pending.transport, bytes),
        interop: verdict(judges.interop, bytes),
        strict: verdict(judges.strict, bytes),
    }
}

/// What `cgp validate --profile` says of the bytes.
fn verdict(validator: &Validator, bytes: &[u8]) -> Verdict {
    // The full check, decoding every message: codegen may run on a tree whose
    // hand-written types the sync gate is about to refuse, where the
    // verdict-only shortcut's assumption does not hold.
    let checked = check_message(validator, bytes);
    match checked.findings.first() {
        None => Verdict {
            valid: true,
            at: None,
        },
        Some(finding) => Verdict {
            valid: false,
            at: Some(finding.instance_path.clone()),
        },
    }
}

/// The variant the input names: the decoded envelope's, or else the `type` of
/// the object the bytes hold when it is a variant's tag.
fn variant_of(transport: Transport, bytes: &[u8]) -> Option<String> {
    if let Ok(envelope) = decode::envelope(transport, bytes) {
        return Some(envelope.variant().as_str().to_owned());
    }
    let text = String::from_utf8_lossy(bytes);
    let value: Value = serde_json::from_str(text.trim()).ok()?;
    let tag = value.get("type")?.as_str()?;
    Variant::from_tag(tag).map(|variant| variant.as_str().to_owned())
}

/// Every case file of the working version, in publication order.
pub fn case_files(examples: &[Example], judges: Judges<'_>, version: &str) -> Vec<CaseFile> {
    let envelopes: Vec<&Example> = examples
        .iter()
        .filter(|example| example.target == "Envelope")
        .collect();
    vec![
        corpus(&envelopes, judges),
        edge(judges, version),
        vocabulary(judges, version),
        random(&envelopes, judges),
    ]
}

fn corpus(envelopes: &[&Example], judges: Judges<'_>) -> CaseFile {
    let mut builder = Builder::new(judges);
    for example in envelopes {
        let source = format!("SPEC.md:{}", example.fence_line);
        let description = match &example.reason {
            Some(reason) => format!("{}: {reason}", example.name),
            None => format!("{}: the SPEC.md example", example.name),
        };
        // Over stdio the block travels as one line; over HTTP as written,
        // line breaks and all.
        builder.add(
            format!("corpus/{}/stdio", example.name),
            &description,
            &source,
            Transport::Stdio,
            example.as_line().as_bytes(),
        );
        builder.add(
            format!("corpus/{}/http", example.name),
            &description,
            &source,
            Transport::Http,
            example.json.as_bytes(),
        );
    }
    builder.finish("corpus")
}

fn random(envelopes: &[&Example], judges: Judges<'_>) -> CaseFile {
    let mut builder = Builder::new(judges);
    for example in envelopes {
        let line = example.as_line();
        for (index, mutated) in mutations(&line, MUTATED_PLACES).iter().enumerate().skip(1) {
            let transport = if index % 2 == 0 {
                Transport::Stdio
            } else {
                Transport::Http
            };
            builder.add(
                format!("mutation/{}/{index}", example.name),
                &format!("{} changed: members reordered, removed, duplicated, unknown, or a value of another type", example.name),
                &format!("mutation:{}", example.name),
                transport,
                mutated.as_bytes(),
            );
        }
    }
    let values: Vec<Value> = envelopes
        .iter()
        .filter_map(|example| serde_json::from_str(&example.as_line()).ok())
        .collect();
    let bases: Vec<&Value> = values.iter().collect();
    let mut mutator = Mutator::new(SEED);
    for index in 0..RANDOM_CASES {
        let Some(case) = mutator.next_case(&bases) else {
            break;
        };
        let transport = if index % 2 == 0 {
            Transport::Stdio
        } else {
            Transport::Http
        };
        builder.add(
            format!("random/{SEED:x}/{index}"),
            "a corpus envelope with one to three values removed, replaced or joined by an unknown member",
            &format!("random:{SEED:x}/{index}"),
            transport,
            case.to_string().as_bytes(),
        );
    }
    builder.finish("random")
}

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

fn vocabulary(judges: Judges<'_>, version: &str) -> CaseFile {
    let mut builder = Builder::new(judges);
    let source = "vocabulary";
    let mut add = |id: String, description: String, value: Value| {
        builder.both(&id, &description, source, &line(&value));
    };
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
    builder.finish("vocabulary")
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

fn edge(judges: Judges<'_>, version: &str) -> CaseFile {
    let mut builder = Builder::new(judges);
    let shutdown = br#"{"type":"shutdown"}"#;
    let handshake = line(&json!({"type": "handshake", "protocol_version": version}));
    let positional_handshake = line(&json!(["handshake", version]));
    let both: Vec<(&str, &str, &str, Vec<u8>)> = vec![
        // §Leniency
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
        // §Numbers
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
        // The envelope tag and members
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
        // §Transport: text no decoder reads
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
        // Where the transports differ
        ("transport/invalid-utf8-in-string", "http", "invalid UTF-8 inside a string: U+FFFD over stdio, an error in an HTTP body", b"{\"type\":\"error\",\"message\":\"a\xffb\"}".to_vec()),
        ("transport/overlong-utf8", "http", "an overlong UTF-8 encoding inside a string", b"{\"type\":\"error\",\"message\":\"\xc0\xaf\"}".to_vec()),
        ("transport/truncated-utf8", "http", "a truncated UTF-8 sequence inside a string", b"{\"type\":\"handshake\",\"protocol_version\":\"\xe2\x82\"}".to_vec()),
        ("transport/trailing-nbsp", "http", "trailing U+00A0: trimmed from a stdio line, text after the value in an HTTP body", [handshake.as_slice(), "\u{a0}".as_bytes()].concat()),
        ("transport/trailing-ideographic-space", "http", "trailing U+3000: trimmed from a stdio line only", [shutdown.as_slice(), "\u{3000}".as_bytes()].concat()),
        ("transport/trailing-vertical-tab", "http", "a trailing vertical tab: Unicode whitespace, not JSON whitespace", [shutdown.as_slice(), b"\x0b"].concat()),
    ];
    for (id, source, description, bytes) in both {
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
