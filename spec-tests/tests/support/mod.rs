//! The reference crates' half of the differential tests (they are
//! dev-dependencies, so this lives under `tests/`).

use spec_tests::{Outcome, round_trip};

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
