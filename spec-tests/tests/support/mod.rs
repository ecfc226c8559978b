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

/// The SPEC.md examples a comparison with the reference crates may judge, and
/// how many it leaves out. The reference crates speak one protocol version
/// (`contextgraph_types::PROTOCOL_VERSION`) and do not move with ours: while
/// the working version is that one, every example; once the working version
/// has moved on, only the examples whose target that version's published
/// interop bundle has and that its interop and strict bundles judge as the
/// example declares (strict refuses a member it does not name, which interop
/// ignores). A variant, type, member or value added since is not the
/// reference's to decode, so a new one in the working version cannot break the
/// comparison.
#[allow(dead_code)]
pub fn examples_the_reference_knows() -> (Vec<cgp_gates::corpus::Example>, usize) {
    use cgp_check::Validator;
    use cgp_schema::{Bundle, Profile, ProtocolVersion};
    let all = spec_tests::examples();
    let reference = contextgraph_types::PROTOCOL_VERSION;
    if cgp_types::PROTOCOL_VERSION == reference {
        return (all, 0);
    }
    let version: ProtocolVersion = reference.parse().expect("the reference's version");
    let path = cgp_test_support::repo().join(cgp_codegen::plan::published_path(
        &version,
        Profile::Interop,
    ));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    let bundle = Bundle::from_published(&text).expect("the reference's bundle");
    let validator = Validator::new(&bundle).expect("the reference's validator");
    let path =
        cgp_test_support::repo().join(cgp_codegen::plan::published_path(&version, Profile::Strict));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    let strict = Bundle::from_published(&text).expect("the reference's strict bundle");
    let strict = Validator::new(&strict).expect("the reference's strict validator");
    let total = all.len();
    let known: Vec<_> = all
        .into_iter()
        .filter(|example| {
            let Ok(document) = example.parse() else {
                // Text no decoder reads is rejected in every version.
                return true;
            };
            let judges = |validator: &Validator, profile: Profile| {
                let valid = if example.target == "Envelope" {
                    Some(validator.is_valid_envelope(&document.value))
                } else {
                    validator
                        .validate(&example.target, &document.value)
                        .map(|violations| violations.is_empty())
                };
                valid == Some(example.expect.valid_under(profile))
            };
            judges(&validator, Profile::Interop) && judges(&strict, Profile::Strict)
        })
        .collect();
    let left_out = total - known.len();
    (known, left_out)
}
