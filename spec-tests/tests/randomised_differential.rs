//! Randomised differential: at least 10,000 envelopes per run, generated from the
//! hand-written types (every variant, every optional member, unknown vocabulary
//! values, edge numbers such as 0 and 4294967295). Each one is encoded, validated
//! against both profiles, decoded by the generated types and the reference
//! crates, re-encoded, and compared; it and its mutations (verdicts/mod.rs)
//! get the same verdict from the generated single-pass check as from the
//! jsonschema path. A failing case is shrunk by proptest and printed as the one
//! NDJSON line that fails. Afterwards every line goes, in one batch, through
//! the generated Python package, which must re-encode each byte for byte.

mod support;
mod verdicts;

use cgp_schema::{Profile, Validator};
use cgp_types::*;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use spec_tests::{bundle, hand_written, same_value};
use std::sync::{Mutex, OnceLock};
use support::generated;

fn validators() -> &'static (Validator, Validator) {
    static VALIDATORS: OnceLock<(Validator, Validator)> = OnceLock::new();
    VALIDATORS.get_or_init(|| {
        (
            Validator::new(&bundle(Profile::Interop)).expect("interop validator"),
            Validator::new(&bundle(Profile::Strict)).expect("strict validator"),
        )
    })
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-z0-9:/._-]{0,12}",
        1 => Just(String::new()),
        1 => ".{0,6}",
        1 => "[\"\\\\\u{0}-\u{1f}é漢😀]{1,4}",
    ]
}

fn u32_edge() -> impl Strategy<Value = u32> {
    prop_oneof![
        Just(0u32),
        Just(1),
        Just(u32::MAX),
        Just(u32::MAX - 1),
        any::<u32>()
    ]
}

fn u64_edge() -> impl Strategy<Value = u64> {
    prop_oneof![
        Just(0u64),
        Just(u64::MAX),
        Just(u64::from(u32::MAX) + 1),
        any::<u64>()
    ]
}

fn f32_finite() -> impl Strategy<Value = f32> {
    prop_oneof![
        Just(0.0f32),
        Just(1.0),
        Just(0.5),
        Just(-0.0),
        Just(f32::MAX),
        Just(f32::MIN_POSITIVE),
        any::<f32>().prop_filter("finite", |value| value.is_finite()),
    ]
}

fn vocabulary<T: From<String> + std::fmt::Debug>(
    known: &'static [&'static str],
) -> impl Strategy<Value = T> {
    prop_oneof![
        3 => proptest::sample::select(known).prop_map(|value| T::from(value.to_owned())),
        1 => text().prop_map(T::from),
        1 => proptest::sample::select(known).prop_map(|value| T::from(value.to_uppercase())),
    ]
}

fn representation() -> impl Strategy<Value = Representation> {
    prop_oneof![
        Just(Representation::Full),
        Just(Representation::Compact),
        Just(Representation::Reference)
    ]
}

fn fidelity() -> impl Strategy<Value = ContentFidelity> {
    proptest::sample::select(ContentFidelity::ALL.to_vec())
}

fn frame_id() -> impl Strategy<Value = FrameId> {
    (text(), text(), proptest::option::of(text())).prop_map(
        |(provider_id, frame_id, content_digest)| FrameId {
            provider_id,
            frame_id,
            content_digest,
        },
    )
}

fn attestation() -> impl Strategy<Value = ProvenanceAttestation> {
    (text(), text(), text(), text(), text(), text()).prop_map(
        |(signed_commitment, key_id, algorithm, attester_id, signature, issued_at)| {
            ProvenanceAttestation {
                signed_commitment,
                key_id,
                algorithm,
                attester_id,
                signature,
                issued_at,
            }
        },
    )
}

fn frame_attestation() -> impl Strategy<Value = FrameAttestation> {
    let step = (text(), any::<bool>()).prop_map(|(sibling, sibling_is_left)| InclusionStep {
        sibling,
        sibling_is_left,
    });
    let proof =
        (u64_edge(), u64_edge(), vec(step, 0..3)).prop_map(|(leaf_index, leaf_count, path)| {
            InclusionProof {
                leaf_index,
                leaf_count,
                path,
            }
        });
    (
        frame_id(),
        proptest::option::of(attestation()),
        proptest::option::of(proof),
    )
        .prop_map(|(frame, attestation, inclusion_proof)| FrameAttestation {
            frame,
            attestation,
            inclusion_proof,
        })
}

fn frame() -> impl Strategy<Value = ContextFrame> {
    let identity = (
        text(),
        vocabulary::<FrameKind>(FrameKind::KNOWN),
        text(),
        proptest::option::of(text()),
        proptest::option::of(text()),
        proptest::option::of(text()),
    );
    let representation_part = (
        representation(),
        proptest::option::of(fidelity()),
        proptest::option::of(text()),
        proptest::option::of((text(), text(), proptest::option::of(text())).prop_map(
            |(provider_id, uri, expires_at)| ContentRef {
                provider_id,
                uri,
                expires_at,
            },
        )),
        proptest::option::of((text(), text(), text()).prop_map(
            |(method, implementation, version)| Transform {
                method,
                implementation,
                version,
            },
        )),
        proptest::option::of(fidelity()),
        proptest::option::of(prop_oneof![
            Just(InlineContentRequirement::Required),
            Just(InlineContentRequirement::ResolvableReferenceAllowed)
        ]),
    );
    let costs = (
        f32_finite(),
        u32_edge(),
        proptest::option::of(u32_edge()),
        proptest::option::of(text()),
        proptest::option::of(text()),
        proptest::option::of(text()),
        proptest::option::of(text()),
    );
    let provenance = (
        text(),
        proptest::option::of(text()),
        proptest::option::of(text()),
        proptest::option::of(text()),
        proptest::option::of(text()),
        proptest::option::of(text()),
    )
        .prop_map(|(kind, uri, range, digest, method, by)| Provenance {
            kind,
            uri,
            range,
            digest,
            method,
            by,
        });
    let relation = (text(), text(), proptest::option::of(text())).prop_map(
        |(rel, target_uri, display_name)| Relation {
            rel,
            target_uri,
            display_name,
        },
    );
    let embedding = (text(), proptest::option::of(vec(f32_finite(), 0..3))).prop_map(
        |(fingerprint, vector)| FrameEmbedding {
            fingerprint,
            vector,
        },
    );
    let links = (
        vec(provenance, 0..3),
        proptest::option::of(text()),
        proptest::option::of(embedding),
        vec(relation, 0..3),
    );
    (identity, representation_part, costs, links).prop_map(
        |(
            (id, kind, title, content, content_digest, uri),
            (
                representation,
                content_fidelity,
                canonical_content_hash,
                content_ref,
                transform,
                minimum_content_fidelity,
                inline_content_requirement,
            ),
            (
                score,
                token_cost,
                canonical_token_cost,
                tokenizer_ref,
                valid_from,
                valid_to,
                recorded_at,
            ),
            (provenance, citation_label, embedding, relations),
        )| {
            let mut frame = ContextFrame::new(id, kind, title, content, score, token_cost);
            frame.content_digest = content_digest;
            frame.uri = uri;
            frame.representation = representation;
            frame.content_fidelity = content_fidelity;
            frame.canonical_content_hash = canonical_content_hash;
            frame.content_ref = content_ref;
            frame.transform = transform;
            frame.minimum_content_fidelity = minimum_content_fidelity;
            frame.inline_content_requirement = inline_content_requirement;
            frame.canonical_token_cost = canonical_token_cost;
            frame.tokenizer_ref = tokenizer_ref;
            frame.valid_from = valid_from;
            frame.valid_to = valid_to;
            frame.recorded_at = recorded_at;
            frame.provenance = provenance;
            frame.citation_label = citation_label;
            frame.embedding = embedding;
            frame.relations = relations;
            frame
        },
    )
}

fn handshake_ack() -> impl Strategy<Value = Envelope> {
    let data_flow = (
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        vec(vocabulary::<EgressScope>(EgressScope::KNOWN), 0..3),
    )
        .prop_map(|(reads, writes, egress, egress_scopes)| DataFlow {
            reads,
            writes,
            egress,
            egress_scopes,
        });
    let capabilities = (
        vec(text(), 0..3),
        any::<bool>(),
        any::<bool>(),
        proptest::option::of(text()),
        any::<bool>(),
        vec(representation(), 0..3),
        any::<bool>(),
    )
        .prop_map(
            |(
                kinds,
                correlation,
                graph,
                embeddings_fingerprint,
                verify,
                representations,
                resolve,
            )| Capabilities {
                query: QueryCapability { kinds },
                correlation,
                graph,
                embeddings_fingerprint,
                verify,
                representations,
                resolve,
            },
        );
    let key = (text(), text(), text()).prop_map(|(key_id, algorithm, public_key)| AttesterKey {
        key_id,
        algorithm,
        public_key,
    });
    (
        text(),
        text(),
        text(),
        data_flow,
        capabilities,
        vec(key, 0..3),
    )
        .prop_map(
            |(protocol_version, name, version, data_flow, capabilities, attester_keys)| {
                Envelope::HandshakeAck {
                    protocol_version,
                    provider: ProviderInfo {
                        name,
                        version,
                        data_flow,
                    },
                    capabilities,
                    attester_keys,
                }
            },
        )
}

fn query() -> impl Strategy<Value = Envelope> {
    (
        proptest::option::of(text()),
        text(),
        proptest::option::of(text()),
        proptest::option::of(vec(f32_finite(), 0..4)),
        vec(vocabulary::<FrameKind>(FrameKind::KNOWN), 0..3),
        vec(text(), 0..3),
        (u32_edge(), u32_edge()),
        proptest::option::of(text()),
        vec(representation(), 0..3),
    )
        .prop_map(
            |(
                id,
                goal,
                query_text,
                embedding,
                kinds,
                anchors,
                (max_frames, max_tokens),
                as_of,
                representation_preferences,
            )| {
                let mut query = ContextQuery::new(goal, max_frames, max_tokens);
                query.query_text = query_text;
                query.embedding = embedding;
                query.kinds = kinds;
                query.anchors = anchors;
                query.as_of = as_of;
                query.representation_preferences = representation_preferences;
                Envelope::Query { id, query }
            },
        )
}

fn frames() -> impl Strategy<Value = Envelope> {
    (
        proptest::option::of(text()),
        vec(frame(), 0..3),
        any::<bool>(),
        proptest::option::of(u32_edge()),
        vec(frame_attestation(), 0..2),
        proptest::option::of(attestation()),
    )
        .prop_map(
            |(id, frames, truncated, dropped_estimate, frame_attestations, result_attestation)| {
                let mut result = ContextQueryResult::new(frames, truncated);
                result.dropped_estimate = dropped_estimate;
                result.frame_attestations = frame_attestations;
                result.result_attestation = result_attestation;
                Envelope::Frames { id, result }
            },
        )
}

fn verdict() -> impl Strategy<Value = FrameVerdict> {
    let status = prop_oneof![
        Just(Verdict::Valid),
        proptest::option::of(text())
            .prop_map(|replacement_digest| Verdict::Stale { replacement_digest }),
        Just(Verdict::Gone),
        Just(Verdict::Unknown),
    ];
    (frame_id(), status).prop_map(|(frame, verdict)| FrameVerdict { frame, verdict })
}

fn envelope() -> impl Strategy<Value = Envelope> {
    prop_oneof![
        text().prop_map(|protocol_version| Envelope::Handshake { protocol_version }),
        handshake_ack(),
        query(),
        frames(),
        vec(frame_id(), 0..3).prop_map(|frames| Envelope::Verify {
            request: VerifyRequest { frames }
        }),
        vec(verdict(), 0..3).prop_map(|verdicts| Envelope::Verified {
            response: VerifyResponse { verdicts }
        }),
        Just(Envelope::Shutdown),
        (
            proptest::option::of(text()),
            proptest::option::of(vocabulary::<ErrorCode>(ErrorCode::KNOWN)),
            text()
        )
            .prop_map(|(id, code, message)| Envelope::Error { id, code, message }),
    ]
}

/// How many envelopes one run checks.
const CASES: u32 = 10_000;

/// The deeply nested strategies need more stack than a test thread has in a
/// debug build, so the runner gets a thread of its own.
#[test]
fn every_generated_envelope_travels_the_same_way_through_every_decoder() {
    let outcome = on_a_big_stack(|| {
        let config = ProptestConfig {
            cases: CASES,
            failure_persistence: None,
            ..ProptestConfig::default()
        };
        let mut runner = proptest::test_runner::TestRunner::new(config);
        runner
            .run(&envelope(), check_one)
            .map_err(|failure| failure.to_string())
    });
    if let Err(failure) = outcome {
        panic!("{failure}");
    }
    let lines = std::mem::take(&mut *CHECKED_LINES.lock().expect("lines"));
    assert!(lines.len() >= CASES as usize, "only {} lines", lines.len());
    let cases: Vec<(String, String)> = lines
        .iter()
        .map(|line| ("Envelope".to_owned(), line.clone()))
        .collect();
    let outcomes = spec_tests::python_package::round_trips(&cases)
        .unwrap_or_else(|problem| panic!("{problem}"));
    let failures: Vec<String> = lines
        .iter()
        .zip(&outcomes)
        .filter(|(line, outcome)| outcome.as_deref() != Ok(line.as_str()))
        .map(|(line, outcome)| format!("{line}\n  cgp_types: {outcome:?}"))
        .take(5)
        .collect();
    assert!(
        failures.is_empty(),
        "the Python package differs on generated lines:\n{}",
        failures.join("\n")
    );
}

/// Every line `check_one` passed, for the batch through the Python package.
static CHECKED_LINES: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Runs `work` on a thread with room for the nested strategies.
fn on_a_big_stack<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(work)
        .expect("spawn the runner")
        .join()
        .unwrap_or_else(|_| panic!("the runner panicked"))
}

fn check_one(envelope: Envelope) -> Result<(), TestCaseError> {
    let line = encode_line(&envelope).expect("finite values always encode");
    let line = line.trim_end();
    let value: serde_json::Value = serde_json::from_str(line).expect("our own output parses");
    let (interop, strict) = validators();
    let interop_errors = interop.validate_envelope(&value);
    prop_assert!(
        interop_errors.is_empty(),
        "interop rejects {}\n{:?}",
        line,
        interop_errors
    );
    let strict_errors = strict.validate_envelope(&value);
    prop_assert!(
        strict_errors.is_empty(),
        "strict rejects our canonical output {}\n{:?}",
        line,
        strict_errors
    );

    let reference = support::reference("Envelope", line).expect("known target");
    prop_assert_eq!(
        reference.as_deref(),
        Ok(line),
        "reference re-encodes differently: {}",
        line
    );
    let ours = hand_written("Envelope", line).expect("known target");
    prop_assert_eq!(
        ours.as_deref(),
        Ok(line),
        "hand-written types re-encode differently: {}",
        line
    );
    prop_assert_eq!(
        decode_line(line).ok(),
        Some(envelope.clone()),
        "decoding gives another value: {}",
        line
    );
    match generated("Envelope", line).expect("known target") {
        Ok(text) => {
            let byte_identical = text == line;
            let contains_verdict = line.contains("\"verdicts\":[{");
            prop_assert!(
                byte_identical || (contains_verdict && same_value(&text, line)),
                "generated types re-encode differently: {}\n  generated: {}",
                line,
                text
            );
        }
        Err(error) => prop_assert!(false, "generated types reject {}: {}", line, error),
    }
    CHECKED_LINES.lock().expect("lines").push(line.to_owned());
    for mutated in verdicts::mutations(line, MUTATED_PLACES) {
        let disagreements = verdicts::disagreements(&mutated);
        prop_assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    }
    Ok(())
}

/// How many places of each envelope get a value of another type, for the
/// verdict comparison.
const MUTATED_PLACES: usize = 4;

/// A byte-level change to a canonical line, picked by `seed`: most give a line
/// the reference rejects, some one it reads differently.
fn mutate(line: &str, seed: u64) -> String {
    const PIECES: [&str; 16] = [
        "\"", ",", "}", "]", "{", "[", "1", ".0", "e5", "-", "\\", " ", "null", "\\u0000", "0", ":",
    ];
    let chars: Vec<char> = line.chars().collect();
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound.max(1) as u64) as usize
    };
    let at = next(chars.len());
    let piece = PIECES[next(PIECES.len())];
    let (head, tail) = chars.split_at(at);
    let head: String = head.iter().collect();
    let tail: String = tail.iter().collect();
    match next(4) {
        0 => format!("{head}{}", tail.chars().skip(1).collect::<String>()),
        1 => format!("{head}{piece}{tail}"),
        2 => format!("{head}{piece}{}", tail.chars().skip(1).collect::<String>()),
        // The first member again: a duplicate when it is a named one.
        _ => match line.find(',') {
            Some(comma) => format!("{},{}", &line[..comma], &line[1..]),
            None => head,
        },
    }
}

/// How many generated envelopes go through the TypeScript package per run; each
/// also goes through once mutated.
const TYPESCRIPT_CASES: u32 = 10_000;

/// Generated envelopes and mutations of them, through the generated TypeScript
/// package under node in one batch: the reference decoder's verdict on every
/// line, and byte-identical re-encoding of every line it accepts.
#[test]
fn generated_typescript_package_agrees_with_the_reference_on_generated_and_mutated_lines() {
    let lines = on_a_big_stack(|| {
        let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
            failure_persistence: None,
            ..ProptestConfig::default()
        });
        let strategy = envelope();
        let mut lines = Vec::new();
        for case in 0..TYPESCRIPT_CASES {
            let tree = strategy.new_tree(&mut runner).expect("a value");
            let line = encode_line(&tree.current()).expect("finite values always encode");
            let line = line.trim_end().to_owned();
            lines.push(mutate(&line, u64::from(case)));
            lines.push(line);
        }
        lines
    });
    let outcomes =
        spec_tests::typescript::decode_lines(&lines).unwrap_or_else(|error| panic!("{error}"));
    let mut failures = Vec::new();
    let mut rejected = 0;
    for (line, theirs) in lines.iter().zip(&outcomes) {
        let reference = support::reference("Envelope", line).expect("known target");
        match (&reference, theirs) {
            (Ok(a), Ok(b)) if a == b => {}
            (Err(_), Err(_)) => rejected += 1,
            _ => failures.push(format!(
                "{line}\n  reference:  {reference:?}\n  typescript: {theirs:?}"
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} lines differ:\n{}",
        failures.len(),
        lines.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        rejected > lines.len() / 4,
        "only {rejected} of {} lines rejected: the mutations do not bite",
        lines.len()
    );
}

/// Every `f32` the TypeScript package writes is spelled as the reference
/// encoder spells it: 100,000 random bit patterns and values halfway between
/// two shortest spellings, as `embedding` items of query lines.
#[test]
fn generated_typescript_package_spells_every_f32_like_the_reference_encoder() {
    let mut values = Vec::new();
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    while values.len() < 100_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let value = f32::from_bits((state >> 32) as u32);
        if value.is_finite() {
            values.push(value);
        }
    }
    for whole in [1u32, 7, 123, 4567, 26796, 324546, 1162792, 3772544, 8388607] {
        for eighths in 1..8 {
            let value = f64::from(whole) + f64::from(eighths) / 8.0;
            for scale in [1.0, 0.5, 2.0, 1e-3, 1e3] {
                values.push((value * scale) as f32);
            }
        }
    }
    let lines: Vec<String> = values
        .chunks(1000)
        .map(|chunk| {
            let items: Vec<String> = chunk.iter().map(|value| format!("{value:e}")).collect();
            format!(
                r#"{{"type":"query","query":{{"goal":"g","embedding":[{}],"max_frames":0,"max_tokens":0}}}}"#,
                items.join(",")
            )
        })
        .collect();
    let outcomes =
        spec_tests::typescript::decode_lines(&lines).unwrap_or_else(|error| panic!("{error}"));
    for (line, theirs) in lines.iter().zip(&outcomes) {
        let reference = support::reference("Envelope", line).expect("known target");
        let (Ok(expected), Ok(actual)) = (&reference, theirs) else {
            panic!("{line}\n  reference:  {reference:?}\n  typescript: {theirs:?}");
        };
        if expected != actual {
            let differing: Vec<String> = expected
                .split(',')
                .zip(actual.split(','))
                .filter(|(a, b)| a != b)
                .take(10)
                .map(|(a, b)| format!("reference {a}, typescript {b}"))
                .collect();
            panic!("f32 spellings differ: {}", differing.join("; "));
        }
    }
}
