//! The reference crates' and the generated crate's halves of the differential
//! tests (both are dev-dependencies, so this lives under `tests/`).

use spec_tests::{Outcome, round_trip};

/// Round-trips `text` through the generated type named `target`; `None` for an
/// unknown name.
pub fn generated(target: &str, text: &str) -> Option<Outcome> {
    use cgp_generated as g;
    Some(match target {
        "Envelope" => round_trip::<g::Envelope>(text),
        "AttesterKey" => round_trip::<g::AttesterKey>(text),
        "Capabilities" => round_trip::<g::Capabilities>(text),
        "ContentFidelity" => round_trip::<g::ContentFidelity>(text),
        "ContentRef" => round_trip::<g::ContentRef>(text),
        "ContextFrame" => round_trip::<g::ContextFrame>(text),
        "ContextQuery" => round_trip::<g::ContextQuery>(text),
        "ContextQueryResult" => round_trip::<g::ContextQueryResult>(text),
        "DataFlow" => round_trip::<g::DataFlow>(text),
        "EgressScope" => round_trip::<g::EgressScope>(text),
        "ErrorCode" => round_trip::<g::ErrorCode>(text),
        "FrameAttestation" => round_trip::<g::FrameAttestation>(text),
        "FrameEmbedding" => round_trip::<g::FrameEmbedding>(text),
        "FrameId" => round_trip::<g::FrameId>(text),
        "FrameKind" => round_trip::<g::FrameKind>(text),
        "FrameVerdict" => round_trip::<g::FrameVerdict>(text),
        "InclusionProof" => round_trip::<g::InclusionProof>(text),
        "InclusionStep" => round_trip::<g::InclusionStep>(text),
        "InlineContentRequirement" => round_trip::<g::InlineContentRequirement>(text),
        "Provenance" => round_trip::<g::Provenance>(text),
        "ProvenanceAttestation" => round_trip::<g::ProvenanceAttestation>(text),
        "ProviderInfo" => round_trip::<g::ProviderInfo>(text),
        "QueryCapability" => round_trip::<g::QueryCapability>(text),
        "Relation" => round_trip::<g::Relation>(text),
        "Representation" => round_trip::<g::Representation>(text),
        "Transform" => round_trip::<g::Transform>(text),
        "VerifyRequest" => round_trip::<g::VerifyRequest>(text),
        "VerifyResponse" => round_trip::<g::VerifyResponse>(text),
        _ => return None,
    })
}

/// Round-trips `text` through the reference type named `target`, the way the
/// reference host reads a line; `None` for an unknown name.
pub fn reference(target: &str, text: &str) -> Option<Outcome> {
    use contextgraph_host::wire;
    use contextgraph_types as r;
    Some(match target {
        "Envelope" => wire::decode_line(text)
            .map_err(|error| error.to_string())
            .and_then(|envelope| {
                wire::encode_line(&envelope)
                    .map(|line| line.trim_end().to_owned())
                    .map_err(|error| error.to_string())
            }),
        "AttesterKey" => round_trip::<wire::AttesterKey>(text),
        "Capabilities" => round_trip::<r::Capabilities>(text),
        "ContentFidelity" => round_trip::<r::ContentFidelity>(text),
        "ContentRef" => round_trip::<r::ContentRef>(text),
        "ContextFrame" => round_trip::<r::ContextFrame>(text),
        "ContextQuery" => round_trip::<r::ContextQuery>(text),
        "ContextQueryResult" => round_trip::<r::ContextQueryResult>(text),
        "DataFlow" => round_trip::<r::DataFlow>(text),
        "EgressScope" => round_trip::<r::EgressScope>(text),
        "ErrorCode" => round_trip::<r::ErrorCode>(text),
        "FrameAttestation" => round_trip::<r::FrameAttestation>(text),
        "FrameEmbedding" => round_trip::<r::FrameEmbedding>(text),
        "FrameId" => round_trip::<r::FrameId>(text),
        "FrameKind" => round_trip::<r::FrameKind>(text),
        "FrameVerdict" => round_trip::<r::FrameVerdict>(text),
        "InclusionProof" => round_trip::<r::InclusionProof>(text),
        "InclusionStep" => round_trip::<r::InclusionStep>(text),
        "InlineContentRequirement" => round_trip::<r::InlineContentRequirement>(text),
        "Provenance" => round_trip::<r::Provenance>(text),
        "ProvenanceAttestation" => round_trip::<r::ProvenanceAttestation>(text),
        "ProviderInfo" => round_trip::<r::ProviderInfo>(text),
        "QueryCapability" => round_trip::<r::QueryCapability>(text),
        "Relation" => round_trip::<r::Relation>(text),
        "Representation" => round_trip::<r::Representation>(text),
        "Transform" => round_trip::<r::Transform>(text),
        "VerifyRequest" => round_trip::<r::VerifyRequest>(text),
        "VerifyResponse" => round_trip::<r::VerifyResponse>(text),
        _ => return None,
    })
}
