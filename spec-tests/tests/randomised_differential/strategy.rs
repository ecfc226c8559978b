//! The proptest strategies: envelopes generated from the hand-written types,
//! with every variant, every optional member, unknown vocabulary values and
//! edge numbers.

use cgp_types::*;
use proptest::collection::vec;
use proptest::prelude::*;

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

/// Every variant the reference crates know (a variant added since is not
/// theirs to decode, so it has no branch here).
pub fn envelope() -> impl Strategy<Value = Envelope> {
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
