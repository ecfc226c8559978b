//! Per-message rules: a handshake's capabilities and data flow, a result's
//! attestations and inclusion proofs; [`check_envelope`] is the
//! entry point and calls the others.

use super::frame::{frame_rules, quoted, timestamp};
use super::{Context, Out, Rule, SemanticViolation, attestation};
use cgp_types::{
    AttesterKey, Capabilities, ContextQueryResult, DataFlow, Envelope, FrameAttestation,
    InclusionProof, PROTOCOL_VERSION, ProvenanceAttestation, Representation, protocol_family,
    versions_compatible,
};

/// The semantic violations of one envelope, given what is known about the
/// provider. Exchange rules (B1, B4, H4) need a [`Session`](super::Session).
pub fn check_envelope(envelope: &Envelope, context: &Context) -> Vec<SemanticViolation> {
    let mut found = Vec::new();
    let mut out = Out(&mut found);
    match envelope {
        Envelope::HandshakeAck {
            protocol_version,
            provider,
            capabilities,
            ..
        } => {
            let host = context.host_version.as_deref().unwrap_or(PROTOCOL_VERSION);
            if !versions_compatible(host, protocol_version) {
                out.push(
                    Rule::H1,
                    "/protocol_version".into(),
                    format!(
                        "the acknowledged version \"{protocol_version}\" is in the family \"{}\", not \"{}\"; a {host} host refuses this provider",
                        protocol_family(protocol_version),
                        protocol_family(host)
                    ),
                );
            }
            for (member, value) in [("name", &provider.name), ("version", &provider.version)] {
                if value.is_empty() {
                    out.push(
                        Rule::H2,
                        format!("/provider/{member}"),
                        format!("provider.{member} is empty"),
                    );
                }
            }
            data_flow(&provider.data_flow, "/provider/data_flow", &mut out);
            capabilities_rules(capabilities, "/capabilities", &mut out);
        }
        Envelope::Frames { result, .. } => {
            result_rules(result, "/result", context, &mut out);
        }
        _ => {}
    }
    found
}

/// CGP-RESOLVE (capability consistency) on a `Capabilities` object at `pointer`.
pub fn check_capabilities(capabilities: &Capabilities, pointer: &str) -> Vec<SemanticViolation> {
    let mut found = Vec::new();
    capabilities_rules(capabilities, pointer, &mut Out(&mut found));
    found
}

fn capabilities_rules(capabilities: &Capabilities, pointer: &str, out: &mut Out<'_>) {
    if capabilities.resolve {
        return;
    }
    for (index, representation) in capabilities.representations.iter().enumerate() {
        if *representation != Representation::Full {
            out.push(
                Rule::Resolve,
                format!("{pointer}/representations/{index}"),
                format!(
                    "offering `{representation}` hands the host a handle to resolve, so capabilities.resolve must be true"
                ),
            );
        }
    }
}

/// C5 and U3 on a `DataFlow` object at `pointer`.
pub fn check_data_flow(flow: &DataFlow, pointer: &str) -> Vec<SemanticViolation> {
    let mut found = Vec::new();
    data_flow(flow, pointer, &mut Out(&mut found));
    found
}

fn data_flow(flow: &DataFlow, pointer: &str, out: &mut Out<'_>) {
    for (index, scope) in flow.egress_scopes.iter().enumerate() {
        let at = format!("{pointer}/egress_scopes/{index}");
        let name = scope.as_str();
        if !scope.is_well_formed() {
            out.push(
                Rule::U3,
                at.clone(),
                format!(
                    "\"{name}\" is neither a base scope (local-only, org-tenant, third-party-index, third-party-model) nor a namespaced custom scope `vendor:name`"
                ),
            );
        }
        if scope.is_off_machine() && !flow.egress {
            out.push(
                Rule::C5,
                at,
                format!("\"{name}\" sends data off the machine, but data_flow.egress is false"),
            );
        }
    }
}

/// The per-frame rules, F11 and F13 on a `ContextQueryResult` at `pointer`.
pub fn check_result(
    result: &ContextQueryResult,
    pointer: &str,
    context: &Context,
) -> Vec<SemanticViolation> {
    let mut found = Vec::new();
    result_rules(result, pointer, context, &mut Out(&mut found));
    found
}

fn result_rules(result: &ContextQueryResult, pointer: &str, context: &Context, out: &mut Out<'_>) {
    for (index, frame) in result.frames.iter().enumerate() {
        frame_rules(frame, &format!("{pointer}/frames/{index}"), context, out);
    }
    for (index, entry) in result.frame_attestations.iter().enumerate() {
        let at = format!("{pointer}/frame_attestations/{index}");
        frame_attestation(entry, &at, out);
        let identity = &entry.frame;
        let provider_matches =
            |name: &str| context.provider_name.as_deref().is_none_or(|p| p == name);
        let named = result.frames.iter().any(|frame| {
            frame.id == identity.frame_id
                && frame.content_digest == identity.content_digest
                && provider_matches(&identity.provider_id)
        });
        if !named {
            out.push(
                Rule::F11,
                format!("{at}/frame"),
                format!(
                    "the attestation names frame \"{}\" of provider \"{}\"{}, which is not among this result's frames",
                    identity.frame_id,
                    identity.provider_id,
                    identity
                        .content_digest
                        .as_deref()
                        .map(|digest| format!(" with digest {digest}"))
                        .unwrap_or_default()
                ),
            );
        }
    }
    if let Some(attestation) = &result.result_attestation {
        provenance_attestation(attestation, &format!("{pointer}/result_attestation"), out);
    }
    if let Some(provider) = &context.provider_name {
        attestations_verify(result, pointer, provider, &context.attester_keys, out);
    }
}

/// F12, F13, CGP-ATTEST-SIGNS and CGP-ATTEST-KEY: recomputes what each attestation of `result` claims to
/// sign, from the frames as served by `provider`, and checks each signature
/// against `keys`.
fn attestations_verify(
    result: &ContextQueryResult,
    pointer: &str,
    provider: &str,
    keys: &[AttesterKey],
    out: &mut Out<'_>,
) {
    let signature = |attestation: &ProvenanceAttestation,
                     signed: &cgp_schema::digest::Hash,
                     at: String,
                     out: &mut Out<'_>| {
        if let Err(problem) = attestation::verify_signature(attestation, signed, keys) {
            out.push(Rule::AttestKey, at, problem.describe(attestation));
        }
    };
    let root = result.result_attestation.as_ref().map(|attestation| {
        let at = format!("{pointer}/result_attestation");
        let expected = attestation::result_root(provider, &result.frames);
        match cgp_schema::digest::parse(&attestation.signed_commitment) {
            Some(signed) if signed == expected => signature(attestation, &signed, at, out),
            signed => out.push(
                Rule::F12,
                format!("{at}/signed_commitment"),
                format!(
                    "result_attestation signs {}, but the Merkle root of the result's {} frame(s) is {}",
                    quoted(&attestation.signed_commitment),
                    result.frames.len(),
                    cgp_schema::digest::text(&expected)
                ) + if signed.is_none() { " (and it is not a well-formed digest)" } else { "" },
            ),
        }
        cgp_schema::digest::parse(&attestation.signed_commitment)
    });
    for (index, entry) in result.frame_attestations.iter().enumerate() {
        let at = format!("{pointer}/frame_attestations/{index}");
        let named = &entry.frame;
        let Some(frame) = result.frames.iter().find(|frame| {
            named.provider_id == provider
                && frame.id == named.frame_id
                && frame.content_digest == named.content_digest
        }) else {
            continue; // An orphan: F11.
        };
        let commitment = attestation::frame_commitment(provider, frame);
        let expected = cgp_schema::digest::text(&commitment);
        if let Some(signed_by_frame) = &entry.attestation {
            let at = format!("{at}/attestation");
            if signed_by_frame.signed_commitment == expected {
                signature(signed_by_frame, &commitment, at, out);
            } else {
                out.push(
                    Rule::AttestSigns,
                    format!("{at}/signed_commitment"),
                    format!(
                        "the attestation of frame \"{}\" signs {}, but the frame as served commits to {expected}: its id, content_digest or provenance is not what was signed",
                        frame.id,
                        quoted(&signed_by_frame.signed_commitment)
                    ),
                );
            }
        }
        if let Some(proof) = &entry.inclusion_proof {
            let at = format!("{at}/inclusion_proof");
            let reached = attestation::root_from_proof(&commitment, proof);
            let message = match (&root, reached) {
                (None, _) => Some(format!(
                    "the inclusion proof of frame \"{}\" proves membership of a root, but the result has no result_attestation",
                    frame.id
                )),
                (Some(_), None) => Some(format!(
                    "the inclusion proof of frame \"{}\" has a malformed sibling or leaf_index, and leads to no root",
                    frame.id
                )),
                (Some(signed), Some(reached)) if signed.as_ref() != Some(&reached) => {
                    Some(format!(
                        "the inclusion proof of frame \"{}\" leads from its commitment {expected} to {}, not to the root result_attestation signs",
                        frame.id,
                        cgp_schema::digest::text(&reached)
                    ))
                }
                _ => None,
            };
            if let Some(message) = message {
                out.push(Rule::F13, at, message);
            }
        }
    }
}

fn frame_attestation(entry: &FrameAttestation, pointer: &str, out: &mut Out<'_>) {
    if let Some(attestation) = &entry.attestation {
        provenance_attestation(attestation, &format!("{pointer}/attestation"), out);
    }
    if let Some(proof) = &entry.inclusion_proof {
        inclusion_proof(proof, &format!("{pointer}/inclusion_proof"), out);
    }
}

fn provenance_attestation(attestation: &ProvenanceAttestation, pointer: &str, out: &mut Out<'_>) {
    timestamp(
        Some(&attestation.issued_at),
        &format!("{pointer}/issued_at"),
        out,
    );
}

/// F13 on an `InclusionProof` at `pointer`.
pub fn check_inclusion_proof(proof: &InclusionProof, pointer: &str) -> Vec<SemanticViolation> {
    let mut found = Vec::new();
    inclusion_proof(proof, pointer, &mut Out(&mut found));
    found
}

/// The longest inclusion path a verifier accepts (SPEC.md F13).
pub const MAX_INCLUSION_PATH_STEPS: usize = 64;

fn inclusion_proof(proof: &InclusionProof, pointer: &str, out: &mut Out<'_>) {
    if proof.path.len() > MAX_INCLUSION_PATH_STEPS {
        out.push(
            Rule::F13,
            format!("{pointer}/path"),
            format!(
                "the inclusion path has {} steps; a verifier refuses more than {MAX_INCLUSION_PATH_STEPS}",
                proof.path.len()
            ),
        );
    }
    if proof.leaf_index >= proof.leaf_count {
        out.push(
            Rule::F13,
            format!("{pointer}/leaf_index"),
            format!(
                "leaf_index {} is not below leaf_count {}",
                proof.leaf_index, proof.leaf_count
            ),
        );
    }
}
