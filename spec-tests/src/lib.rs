//! Shared helpers for the cross-checks in `tests/`: where the repository is,
//! the SPEC.md corpus, the bundles, and a decoder that turns one JSON text into
//! "accepted, re-encoded as …" or "rejected" for our hand-written types. The
//! reference crates and the generated crate are dev-dependencies (so nothing that
//! depends on this library, xtask included, needs the generated code to build),
//! and their halves of each comparison live in `tests/support`.

pub mod go;
pub mod harness;
pub mod java;
pub mod peers;
pub mod python_package;
pub mod rng;
pub mod sdk_spelling;
pub mod typescript;

use cgp_gates::corpus::{self, Example};
use cgp_schema::{Bundle, Profile, SchemaSet};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::path::Path;

/// The SPEC.md corpus.
pub fn examples() -> Vec<Example> {
    let text = std::fs::read_to_string(cgp_test_support::repo().join("SPEC.md"))
        .expect("SPEC.md is readable");
    corpus::extract("SPEC.md", &text)
        .unwrap_or_else(|problems| panic!("SPEC.md corpus: {problems}"))
}

/// Writes `examples` to `path` as the JSON array the peer scripts under
/// `spec-tests/peers` read: `{"name", "target", "json"}` each.
pub fn write_cases(examples: &[Example], path: &Path) {
    let cases: Vec<serde_json::Value> = examples
        .iter()
        .map(|example| serde_json::json!({"name": example.name, "target": example.target, "json": example.json}))
        .collect();
    std::fs::write(path, serde_json::to_vec(&cases).expect("cases")).expect("write cases");
}

/// The checked schemas.
pub fn schema_set() -> SchemaSet {
    SchemaSet::load(&cgp_test_support::repo().join("schema"), "schema")
        .unwrap_or_else(|problems| panic!("{problems}"))
}

/// The bundle of `profile`, built from `schema/`.
pub fn bundle(profile: Profile) -> Bundle {
    schema_set()
        .bundle(profile)
        .unwrap_or_else(|problems| panic!("{problems}"))
}

/// What a decoder made of one JSON text.
pub type Outcome = Result<String, String>;

/// Decodes `text` as `T` and re-encodes it compactly.
pub fn round_trip<T: DeserializeOwned + Serialize>(text: &str) -> Outcome {
    let value: T = serde_json::from_str(text.trim_end()).map_err(|error| error.to_string())?;
    serde_json::to_string(&value).map_err(|error| error.to_string())
}

/// Round-trips `text` through the hand-written type named `target`; `None` for
/// an unknown name.
pub fn hand_written(target: &str, text: &str) -> Option<Outcome> {
    use cgp_types as t;
    Some(match target {
        "Envelope" => t::decode_line(text)
            .map_err(|error| error.to_string())
            .and_then(|envelope| {
                t::encode_line(&envelope)
                    .map(|line| line.trim_end().to_owned())
                    .map_err(|error| error.to_string())
            }),
        "AttesterKey" => round_trip::<t::AttesterKey>(text),
        "Capabilities" => round_trip::<t::Capabilities>(text),
        "ContentFidelity" => round_trip::<t::ContentFidelity>(text),
        "ContentRef" => round_trip::<t::ContentRef>(text),
        "ContextFrame" => round_trip::<t::ContextFrame>(text),
        "ContextQuery" => round_trip::<t::ContextQuery>(text),
        "ContextQueryResult" => round_trip::<t::ContextQueryResult>(text),
        "DataFlow" => round_trip::<t::DataFlow>(text),
        "EgressScope" => round_trip::<t::EgressScope>(text),
        "ErrorCode" => round_trip::<t::ErrorCode>(text),
        "FrameAttestation" => round_trip::<t::FrameAttestation>(text),
        "FrameEmbedding" => round_trip::<t::FrameEmbedding>(text),
        "FrameId" => round_trip::<t::FrameId>(text),
        "FrameKind" => round_trip::<t::FrameKind>(text),
        "FrameVerdict" => round_trip::<t::FrameVerdict>(text),
        "InclusionProof" => round_trip::<t::InclusionProof>(text),
        "InclusionStep" => round_trip::<t::InclusionStep>(text),
        "InlineContentRequirement" => round_trip::<t::InlineContentRequirement>(text),
        "Provenance" => round_trip::<t::Provenance>(text),
        "ProvenanceAttestation" => round_trip::<t::ProvenanceAttestation>(text),
        "ProviderInfo" => round_trip::<t::ProviderInfo>(text),
        "QueryCapability" => round_trip::<t::QueryCapability>(text),
        "Relation" => round_trip::<t::Relation>(text),
        "Representation" => round_trip::<t::Representation>(text),
        "Transform" => round_trip::<t::Transform>(text),
        "VerifyRequest" => round_trip::<t::VerifyRequest>(text),
        "VerifyResponse" => round_trip::<t::VerifyResponse>(text),
        _ => return None,
    })
}

/// Whether two re-encodings carry the same JSON value (member order aside).
pub fn same_value(a: &str, b: &str) -> bool {
    let parse = |text: &str| serde_json::from_str::<serde_json::Value>(text).ok();
    matches!((parse(a), parse(b)), (Some(x), Some(y)) if x == y)
}
