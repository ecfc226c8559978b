//! The semantic rules of SPEC.md §Semantic rules: what a message must satisfy
//! beyond its wire shape.
//!
//! A message that breaks one of these rules is still wire-valid: the schemas
//! accept it and the reference decoder reads it. The rules work on decoded
//! [`cgp_types`] values and report each violation with its stable [`Rule`] id
//! and the JSON pointer of the offending member.
//!
//! Two kinds of checks live here:
//!
//! - per-message rules ([`check_envelope`] and the per-type functions it calls):
//!   B3, F1–F5, F11–F15, D1, E1, P1–P3, P5, C5, G1, G2, H3;
//! - exchange rules, which need both sides of a conversation ([`Session`]): the
//!   budget sum B1, the frame limit B4, the `id` echo H4, the `kinds` filter Q1,
//!   the `as_of` pin Q2, anchored ranking G4 and the embedding dimension E1.
//!
//! Every rule is a MUST or a SHOULD of SPEC.md ([`Rule::requirement`]).

pub mod attestation;

use cgp_types::{
    AttesterKey, Capabilities, ContextFrame, ContextQueryResult, DataFlow, Envelope,
    FrameAttestation, InclusionProof, PROTOCOL_VERSION, Provenance, ProvenanceAttestation,
    Relation, Representation, protocol_family, versions_compatible,
};
use std::collections::VecDeque;
use std::fmt;

/// A rule id of SPEC.md §Semantic rules (and the H3/H4 rules of §Handshake).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    /// Σ `token_cost` ≤ the query's `max_tokens`.
    B1,
    /// `token_cost` = ⌈UTF-8 bytes of `content` ÷ 4⌉.
    B3,
    /// Frame count ≤ the query's `max_frames`.
    B4,
    /// `content_digest`, when present, is `sha256:` + 64 lowercase hex.
    D1,
    /// A file provenance digest is the sha256 of the bytes it addresses.
    D2,
    /// `score` lies in `[0, 1]`.
    F1,
    /// `title` is not empty.
    F2,
    /// `citation_label` is present and not blank.
    F3,
    /// Frame and attestation timestamps are protocol timestamps.
    F4,
    /// File provenance carries a well-formed digest.
    F5,
    /// No attestation names a frame outside its result.
    F11,
    /// `result_attestation` signs the Merkle root of the result's frames.
    F12,
    /// Inclusion proofs have at most 64 steps and `leaf_index < leaf_count`.
    F13,
    /// An attestation signs the commitment of the frame it names.
    F14,
    /// Signatures verify under the keys published at the handshake.
    F15,
    /// A `full` frame carries `content`.
    P1,
    /// A `compact` frame carries content, digest, hash, transform and reference.
    P2,
    /// A `reference` frame carries a reference and hash, and no inline content.
    P3,
    /// Offering `compact` or `reference` requires `resolve: true`.
    P5,
    /// Egress scopes are well-formed, and off-machine ones need `egress: true`.
    C5,
    /// A graph provider's relations have a non-blank `display_name`.
    G1,
    /// Every relation's `target_uri` is non-blank.
    G2,
    /// A graph provider returns a frame anchored on a query anchor it serves.
    G3,
    /// Anchored frames are ranked before unanchored ones (SHOULD).
    G4,
    /// A query embedding of the wrong dimension is refused (SHOULD).
    E1,
    /// No frame outside a non-empty `kinds` filter.
    Q1,
    /// No frame that became valid after the query's `as_of`.
    Q2,
    /// The acknowledged version is in the major family the host speaks.
    H3,
    /// Replies echo the `id` of the request they answer.
    H4,
    /// A provider answers an undecodable line with `error` and keeps serving.
    R1,
    /// A `verify` verdict never vouches for a digest the provider does not serve.
    V1,
    /// A host sends `verify` only to providers that declare it.
    V3,
    /// A verifying provider answers `valid` for what it serves unchanged.
    V4,
}

impl Rule {
    /// Every rule, in declaration order.
    pub const ALL: [Rule; 33] = [
        Rule::B1,
        Rule::B3,
        Rule::B4,
        Rule::D1,
        Rule::D2,
        Rule::F1,
        Rule::F2,
        Rule::F3,
        Rule::F4,
        Rule::F5,
        Rule::F11,
        Rule::F12,
        Rule::F13,
        Rule::F14,
        Rule::F15,
        Rule::P1,
        Rule::P2,
        Rule::P3,
        Rule::P5,
        Rule::C5,
        Rule::G1,
        Rule::G2,
        Rule::G3,
        Rule::G4,
        Rule::E1,
        Rule::Q1,
        Rule::Q2,
        Rule::H3,
        Rule::H4,
        Rule::R1,
        Rule::V1,
        Rule::V3,
        Rule::V4,
    ];

    /// The rule id as SPEC.md writes it, e.g. `"B3"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::B1 => "B1",
            Rule::B3 => "B3",
            Rule::B4 => "B4",
            Rule::D1 => "D1",
            Rule::D2 => "D2",
            Rule::F1 => "F1",
            Rule::F2 => "F2",
            Rule::F3 => "F3",
            Rule::F4 => "F4",
            Rule::F5 => "F5",
            Rule::F11 => "F11",
            Rule::F12 => "F12",
            Rule::F13 => "F13",
            Rule::F14 => "F14",
            Rule::F15 => "F15",
            Rule::P1 => "P1",
            Rule::P2 => "P2",
            Rule::P3 => "P3",
            Rule::P5 => "P5",
            Rule::C5 => "C5",
            Rule::G1 => "G1",
            Rule::G2 => "G2",
            Rule::G3 => "G3",
            Rule::G4 => "G4",
            Rule::E1 => "E1",
            Rule::Q1 => "Q1",
            Rule::Q2 => "Q2",
            Rule::H3 => "H3",
            Rule::H4 => "H4",
            Rule::R1 => "R1",
            Rule::V1 => "V1",
            Rule::V3 => "V3",
            Rule::V4 => "V4",
        }
    }

    /// Whether SPEC.md states the rule as a MUST or as a SHOULD.
    pub fn requirement(self) -> Requirement {
        match self {
            Rule::G4 | Rule::E1 => Requirement::Should,
            _ => Requirement::Must,
        }
    }

    /// The anchor of the rule in SPEC.md, e.g. `"SPEC.md#rule-b3"`.
    pub fn spec_anchor(self) -> String {
        format!("SPEC.md#rule-{}", self.as_str().to_ascii_lowercase())
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How binding a rule is: a broken MUST is an error, a broken SHOULD a warning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Requirement {
    /// The rule says MUST (or MUST NOT).
    Must,
    /// The rule says SHOULD (or SHOULD NOT).
    Should,
}

/// One broken semantic rule.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct SemanticViolation {
    /// Which rule.
    pub rule: Rule,
    /// Where in the message, as a JSON pointer.
    pub instance_path: String,
    /// What is wrong.
    pub message: String,
}

/// What the rules know about the provider, from its `handshake_ack`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Context {
    /// The provider declared `capabilities.graph: true` (G1 applies).
    pub graph: bool,
    /// The provider's `name`: the `provider_id` its attestations must carry (F11).
    pub provider_name: Option<String>,
    /// The dimension of the provider's `embeddings_fingerprint`, when it
    /// declares one with a decimal dimension (E1).
    pub embedding_dimension: Option<usize>,
    /// The keys the provider published to check its attestations (F15).
    pub attester_keys: Vec<AttesterKey>,
    /// The version the host speaks, which an acknowledged version must share a
    /// family with (H3); `None` is [`PROTOCOL_VERSION`], the working version.
    pub host_version: Option<String>,
}

/// The dimension an embedding fingerprint `<model-id>/<dimensions>[/<normalization>]`
/// states, when its second part is a decimal integer (SPEC.md E1).
pub fn fingerprint_dimension(fingerprint: &str) -> Option<usize> {
    let part = fingerprint.split('/').nth(1)?;
    if part.is_empty() || !part.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    part.parse().ok()
}

struct Out<'a>(&'a mut Vec<SemanticViolation>);

impl Out<'_> {
    fn push(&mut self, rule: Rule, instance_path: String, message: String) {
        self.0.push(SemanticViolation {
            rule,
            instance_path,
            message,
        });
    }
}

/// Whether `digest` is `sha256:` followed by exactly 64 lowercase hex digits
/// (SPEC.md D1 and F5).
pub fn is_well_formed_digest(digest: &str) -> bool {
    digest.strip_prefix("sha256:").is_some_and(|hex| {
        hex.len() == 64
            && hex
                .bytes()
                .all(|byte| byte.is_ascii_digit() || (b'a'..=b'f').contains(&byte))
    })
}

/// Whether `text` is a protocol timestamp, `YYYY-MM-DDTHH:MM:SS[.F]Z` in UTC
/// with calendar-valid fields (SPEC.md F4).
pub fn is_protocol_timestamp(text: &str) -> bool {
    let bytes = text.as_bytes();
    let Some(head) = bytes.get(..19) else {
        return false;
    };
    let digits = |range: std::ops::Range<usize>| -> Option<u32> {
        let part = head.get(range)?;
        if !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        part.iter()
            .try_fold(0u32, |acc, digit| Some(acc * 10 + u32::from(digit - b'0')))
    };
    let separators = [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')];
    if separators
        .iter()
        .any(|&(index, expected)| head.get(index) != Some(&expected))
    {
        return false;
    }
    let (Some(year), Some(month), Some(day), Some(hour), Some(minute), Some(second)) = (
        digits(0..4),
        digits(5..7),
        digits(8..10),
        digits(11..13),
        digits(14..16),
        digits(17..19),
    ) else {
        return false;
    };
    let rest = bytes.get(19..).unwrap_or_default();
    let rest_ok = match rest {
        [b'Z'] => true,
        [b'.', fraction @ .., b'Z'] => {
            !fraction.is_empty() && fraction.iter().all(u8::is_ascii_digit)
        }
        _ => false,
    };
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let month_days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    rest_ok && (1..=month_days).contains(&day) && hour <= 23 && minute <= 59 && second <= 60
}

/// Whether protocol timestamp `a` names a later instant than `b`; `None` when
/// either is not a protocol timestamp (SPEC.md F4, Q2). The profile spells every
/// instant one way, so the date and time compare as text; the fractions compare
/// digit by digit, a missing one being the smallest.
pub fn is_later(a: &str, b: &str) -> Option<bool> {
    fn parts(text: &str) -> Option<(&str, &str)> {
        if !is_protocol_timestamp(text) {
            return None;
        }
        let head = text.get(..19)?;
        let fraction = text
            .get(19..)?
            .trim_start_matches('.')
            .trim_end_matches('Z')
            .trim_end_matches('0');
        Some((head, fraction))
    }
    Some(parts(a)? > parts(b)?)
}

/// The budget cost of `content`: ⌈UTF-8 bytes ÷ 4⌉, and 0 without content
/// (SPEC.md B3).
pub fn budget_tokens(content: Option<&str>) -> u64 {
    content.map_or(0, |text| (text.len() as u64).div_ceil(4))
}

fn is_blank(text: &str) -> bool {
    text.trim().is_empty()
}

/// The semantic violations of one envelope, given what is known about the
/// provider. Exchange rules (B1, B4, H4) need a [`Session`].
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
                    Rule::H3,
                    "/protocol_version".into(),
                    format!(
                        "the acknowledged version \"{protocol_version}\" is in the family \"{}\", not \"{}\"; a {host} host refuses this provider",
                        protocol_family(protocol_version),
                        protocol_family(host)
                    ),
                );
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

/// P5 (capability consistency) on a `Capabilities` object at `pointer`.
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
                Rule::P5,
                format!("{pointer}/representations/{index}"),
                format!(
                    "offering `{representation}` hands the host a handle to resolve, so capabilities.resolve must be true"
                ),
            );
        }
    }
}

/// C5 on a `DataFlow` object at `pointer`.
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
                Rule::C5,
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

/// F12, F14 and F15: recomputes what each attestation of `result` claims to
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
                     signed: &attestation::Hash,
                     at: String,
                     out: &mut Out<'_>| {
        if let Err(problem) = attestation::verify_signature(attestation, signed, keys) {
            out.push(Rule::F15, at, problem.describe(attestation));
        }
    };
    let root = result.result_attestation.as_ref().map(|attestation| {
        let at = format!("{pointer}/result_attestation");
        let expected = attestation::result_root(provider, &result.frames);
        match attestation::parse_digest(&attestation.signed_commitment) {
            Some(signed) if signed == expected => signature(attestation, &signed, at, out),
            signed => out.push(
                Rule::F12,
                format!("{at}/signed_commitment"),
                format!(
                    "result_attestation signs {}, but the Merkle root of the result's {} frame(s) is {}",
                    quoted(&attestation.signed_commitment),
                    result.frames.len(),
                    attestation::digest_text(&expected)
                ) + if signed.is_none() { " (and it is not a well-formed digest)" } else { "" },
            ),
        }
        attestation::parse_digest(&attestation.signed_commitment)
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
        let expected = attestation::digest_text(&commitment);
        if let Some(signed_by_frame) = &entry.attestation {
            let at = format!("{at}/attestation");
            if signed_by_frame.signed_commitment == expected {
                signature(signed_by_frame, &commitment, at, out);
            } else {
                out.push(
                    Rule::F14,
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
                        attestation::digest_text(&reached)
                    ))
                }
                _ => None,
            };
            if let Some(message) = message {
                out.push(Rule::F14, at, message);
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

/// The frame rules (B3, F1–F5, D1, E1, P1–P3, G1, G2) on a `ContextFrame` at `pointer`.
pub fn check_frame(
    frame: &ContextFrame,
    pointer: &str,
    context: &Context,
) -> Vec<SemanticViolation> {
    let mut found = Vec::new();
    frame_rules(frame, pointer, context, &mut Out(&mut found));
    found
}

fn frame_rules(frame: &ContextFrame, pointer: &str, context: &Context, out: &mut Out<'_>) {
    let honest = budget_tokens(frame.content.as_deref());
    if u64::from(frame.token_cost) != honest {
        let why = match &frame.content {
            Some(content) => format!("{} bytes of content cost {honest}", content.len()),
            None => "a frame without content costs 0".to_owned(),
        };
        out.push(
            Rule::B3,
            format!("{pointer}/token_cost"),
            format!(
                "token_cost is {}, but {why} (ceil(bytes / 4))",
                frame.token_cost
            ),
        );
    }
    if !(0.0..=1.0).contains(&frame.score) {
        out.push(
            Rule::F1,
            format!("{pointer}/score"),
            format!("score {} is outside [0, 1]", frame.score),
        );
    }
    if frame.title.is_empty() {
        out.push(
            Rule::F2,
            format!("{pointer}/title"),
            "title is empty; a host renders it with the frame".into(),
        );
    }
    match frame.citation_label.as_deref() {
        None => out.push(
            Rule::F3,
            pointer.to_owned(),
            "the frame has no citation_label; every frame must carry a non-blank one".into(),
        ),
        Some(label) if is_blank(label) => out.push(
            Rule::F3,
            format!("{pointer}/citation_label"),
            "citation_label is blank".into(),
        ),
        Some(_) => {}
    }
    for (member, value) in [
        ("valid_from", &frame.valid_from),
        ("valid_to", &frame.valid_to),
        ("recorded_at", &frame.recorded_at),
    ] {
        if value.is_some() {
            timestamp(value.as_ref(), &format!("{pointer}/{member}"), out);
        }
    }
    if let Some(digest) = &frame.content_digest {
        if !is_well_formed_digest(digest) {
            out.push(
                Rule::D1,
                format!("{pointer}/content_digest"),
                format!(
                    "{} is not `sha256:` followed by 64 lowercase hex digits",
                    quoted(digest)
                ),
            );
        }
    }
    for (index, link) in frame.provenance.iter().enumerate() {
        provenance(link, &format!("{pointer}/provenance/{index}"), out);
    }
    if let Some(embedding) = &frame.embedding {
        let dimension = fingerprint_dimension(&embedding.fingerprint);
        if let (Some(vector), Some(dimension)) = (&embedding.vector, dimension) {
            if vector.len() != dimension {
                out.push(
                    Rule::E1,
                    format!("{pointer}/embedding/vector"),
                    format!(
                        "the vector has {} components, but its fingerprint {} states {dimension}",
                        vector.len(),
                        quoted(&embedding.fingerprint)
                    ),
                );
            }
        }
    }
    representation(frame, pointer, out);
    for (index, relation) in frame.relations.iter().enumerate() {
        relation_rules(
            relation,
            &format!("{pointer}/relations/{index}"),
            context,
            out,
        );
    }
}

fn quoted(text: &str) -> String {
    crate::validate::short(&serde_json::Value::String(text.to_owned()))
}

fn timestamp(value: Option<&String>, pointer: &str, out: &mut Out<'_>) {
    let Some(text) = value else { return };
    if !is_protocol_timestamp(text) {
        out.push(
            Rule::F4,
            pointer.to_owned(),
            format!(
                "{} is not a protocol timestamp (YYYY-MM-DDTHH:MM:SS[.F]Z, UTC, a real calendar date)",
                quoted(text)
            ),
        );
    }
}

/// F5 on a `Provenance` link at `pointer`.
pub fn check_provenance(link: &Provenance, pointer: &str) -> Vec<SemanticViolation> {
    let mut found = Vec::new();
    provenance(link, pointer, &mut Out(&mut found));
    found
}

fn provenance(link: &Provenance, pointer: &str, out: &mut Out<'_>) {
    if link.kind != "file" {
        return;
    }
    match &link.digest {
        None => out.push(
            Rule::F5,
            pointer.to_owned(),
            "file provenance must carry a digest (`sha256:` + 64 lowercase hex)".into(),
        ),
        Some(digest) if !is_well_formed_digest(digest) => out.push(
            Rule::F5,
            format!("{pointer}/digest"),
            format!(
                "{} is not `sha256:` followed by 64 lowercase hex digits",
                quoted(digest)
            ),
        ),
        Some(_) => {}
    }
}

fn representation(frame: &ContextFrame, pointer: &str, out: &mut Out<'_>) {
    let present = [
        ("content", frame.content.is_some()),
        ("content_digest", frame.content_digest.is_some()),
        (
            "canonical_content_hash",
            frame.canonical_content_hash.is_some(),
        ),
        ("transform", frame.transform.is_some()),
        ("content_ref", frame.content_ref.is_some()),
    ];
    let has = |name: &str| present.iter().any(|&(member, here)| member == name && here);
    let (rule, needs, forbids): (Rule, &[&str], &[&str]) = match frame.representation {
        Representation::Full => (Rule::P1, &["content"], &[]),
        Representation::Compact => (
            Rule::P2,
            &[
                "content",
                "content_digest",
                "canonical_content_hash",
                "transform",
                "content_ref",
            ],
            &[],
        ),
        Representation::Reference => (
            Rule::P3,
            &["content_ref", "canonical_content_hash"],
            &["content", "content_digest", "transform"],
        ),
    };
    let missing: Vec<&str> = needs.iter().copied().filter(|name| !has(name)).collect();
    if !missing.is_empty() {
        out.push(
            rule,
            pointer.to_owned(),
            format!(
                "a `{}` frame must carry {}; missing: {}",
                frame.representation,
                needs.join(", "),
                missing.join(", ")
            ),
        );
    }
    for name in forbids.iter().filter(|name| has(name)) {
        let even = if *name == "content" {
            " (not even \"\")"
        } else {
            ""
        };
        out.push(
            rule,
            format!("{pointer}/{name}"),
            format!(
                "a `{}` frame must not carry {name}{even}",
                frame.representation
            ),
        );
    }
}

/// G1 (for a graph provider) and G2 on a `Relation` at `pointer`.
pub fn check_relation(
    relation: &Relation,
    pointer: &str,
    context: &Context,
) -> Vec<SemanticViolation> {
    let mut found = Vec::new();
    relation_rules(relation, pointer, context, &mut Out(&mut found));
    found
}

fn relation_rules(relation: &Relation, pointer: &str, context: &Context, out: &mut Out<'_>) {
    if context.graph {
        match relation.display_name.as_deref() {
            None => out.push(
                Rule::G1,
                pointer.to_owned(),
                "a graph provider's relation must carry a non-blank display_name".into(),
            ),
            Some(name) if is_blank(name) => out.push(
                Rule::G1,
                format!("{pointer}/display_name"),
                "display_name is blank".into(),
            ),
            Some(_) => {}
        }
    }
    if is_blank(&relation.target_uri) {
        out.push(
            Rule::G2,
            format!("{pointer}/target_uri"),
            "target_uri is blank; a relation must point somewhere".into(),
        );
    }
}

/// A query waiting for its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Pending {
    id: Option<String>,
    max_tokens: u32,
    max_frames: u32,
    kinds: Vec<String>,
    anchors: Vec<String>,
    as_of: Option<String>,
    embedding_length: Option<usize>,
    origin: String,
}

impl Pending {
    /// The bytes of the query's own text a [`Session`] keeps: its id, kinds,
    /// anchors and `as_of`.
    fn remembered_bytes(&self) -> usize {
        let strings = |list: &[String]| list.iter().map(String::len).sum::<usize>();
        self.id.as_ref().map_or(0, String::len)
            + strings(&self.kinds)
            + strings(&self.anchors)
            + self.as_of.as_ref().map_or(0, String::len)
    }
}

/// The exchange rules over a conversation: feed it every envelope of both sides
/// in order ([`Session::observe`]).
///
/// It remembers the provider's `handshake_ack` (for [`Context`] and H4) and the
/// queries in flight, and checks each `frames` or `error` reply against the
/// query it answers: the `id` echo (H4), the budget sum (B1) and the frame
/// limit (B4). A query is answered by the reply that echoes its `id`; replies
/// without an `id` answer the oldest query in flight (lock step).
#[derive(Debug, Clone, Default)]
pub struct Session {
    context: Context,
    correlation: Option<bool>,
    pending: VecDeque<Pending>,
    /// The bytes `pending` remembers ([`Pending::remembered_bytes`]).
    pending_id_bytes: usize,
    queries_seen: bool,
}

/// How many unanswered queries a [`Session`] remembers; older ones are
/// forgotten so a one-sided transcript cannot grow memory without bound.
pub const MAX_PENDING_QUERIES: usize = 4096;

/// An id as a message shows it: at most 80 bytes of it.
fn shown_id(id: &str) -> String {
    crate::validate::cut(id, 80)
}

/// How many bytes of query ids, kinds, anchors and `as_of` a [`Session`]
/// remembers at most: an id may be megabytes long, and 4096 of them must not
/// take gigabytes. The oldest queries are forgotten first.
pub const MAX_PENDING_ID_BYTES: usize = 16 * 1024 * 1024;

impl Session {
    /// A session that has seen nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// What is known about the provider so far.
    pub fn context(&self) -> &Context {
        &self.context
    }

    /// A session whose host speaks `version` (H3 holds acknowledgements to its
    /// family) instead of the working version.
    pub fn speaking(version: Option<&str>) -> Self {
        let mut session = Self::default();
        session.context.host_version = version.map(str::to_owned);
        session
    }

    /// Observes one envelope. `origin` names it in later messages about it (such
    /// as `line 3`). Returns the exchange-rule violations this envelope commits.
    pub fn observe(&mut self, envelope: &Envelope, origin: &str) -> Vec<SemanticViolation> {
        let mut found = Vec::new();
        let mut out = Out(&mut found);
        match envelope {
            Envelope::HandshakeAck {
                provider,
                capabilities,
                attester_keys,
                ..
            } => {
                self.context = Context {
                    attester_keys: attester_keys.clone(),
                    graph: capabilities.graph,
                    provider_name: Some(provider.name.clone()),
                    embedding_dimension: capabilities
                        .embeddings_fingerprint
                        .as_deref()
                        .and_then(fingerprint_dimension),
                    host_version: self.context.host_version.take(),
                };
                self.correlation = Some(capabilities.correlation);
            }
            Envelope::Query { id, query } => {
                self.queries_seen = true;
                if let (Some(id), Some(false)) = (id, self.correlation) {
                    out.push(
                        Rule::H4,
                        "/id".into(),
                        format!(
                            "the query carries id \"{}\", but the provider did not declare capabilities.correlation; a host sends ids only to correlating providers",
                            shown_id(id)
                        ),
                    );
                }
                let pending = Pending {
                    id: id.clone(),
                    max_tokens: query.max_tokens,
                    max_frames: query.max_frames,
                    kinds: query.kinds.iter().map(|k| k.as_str().to_owned()).collect(),
                    anchors: query.anchors.clone(),
                    as_of: query.as_of.clone(),
                    embedding_length: query.embedding.as_ref().map(Vec::len),
                    origin: origin.to_owned(),
                };
                let id_bytes = pending.remembered_bytes();
                while !self.pending.is_empty()
                    && (self.pending.len() >= MAX_PENDING_QUERIES
                        || self.pending_id_bytes + id_bytes > MAX_PENDING_ID_BYTES)
                {
                    self.take_oldest();
                }
                self.pending_id_bytes += id_bytes;
                self.pending.push_back(pending);
            }
            Envelope::Frames { id, result } => {
                if let Some(query) = self.answer(id.as_deref(), true, &mut out) {
                    answer_rules(result, &query, &self.context, &mut out);
                }
            }
            Envelope::Error { id, .. } => {
                self.answer(id.as_deref(), false, &mut out);
            }
            _ => {}
        }
        found
    }

    fn take_at(&mut self, index: usize) -> Option<Pending> {
        let taken = self.pending.remove(index)?;
        self.pending_id_bytes -= taken.remembered_bytes();
        Some(taken)
    }

    fn take_oldest(&mut self) -> Option<Pending> {
        self.take_at(0)
    }

    /// Finds and removes the query a reply answers, reporting H4 problems.
    fn answer(
        &mut self,
        id: Option<&str>,
        always_reply: bool,
        out: &mut Out<'_>,
    ) -> Option<Pending> {
        let what = if always_reply { "frames" } else { "error" };
        match id {
            Some(id) => {
                if let Some(index) = self
                    .pending
                    .iter()
                    .position(|p| p.id.as_deref() == Some(id))
                {
                    return self.take_at(index);
                }
                if !self.queries_seen {
                    return None;
                }
                let oldest = self.take_oldest();
                let expected = match &oldest {
                    Some(Pending {
                        id: Some(sent),
                        origin,
                        ..
                    }) => {
                        format!(
                            "the query in flight ({origin}) carries \"{}\"",
                            shown_id(sent)
                        )
                    }
                    Some(Pending {
                        id: None, origin, ..
                    }) => {
                        format!("the query in flight ({origin}) carries no id")
                    }
                    None => "no query is in flight".to_owned(),
                };
                out.push(
                    Rule::H4,
                    "/id".into(),
                    format!(
                        "the {what} reply carries id \"{}\", which answers no query in flight; {expected}",
                        shown_id(id)
                    ),
                );
                oldest
            }
            None => match self.pending.front() {
                Some(Pending {
                    id: Some(sent),
                    origin,
                    ..
                }) if self.correlation == Some(true) => {
                    if !always_reply {
                        // An error without an id may be a notification.
                        return None;
                    }
                    out.push(
                        Rule::H4,
                        String::new(),
                        format!(
                            "the frames reply carries no id, but the query it answers ({origin}) carries \"{}\"; a correlating provider must echo it",
                            shown_id(sent)
                        ),
                    );
                    self.take_oldest()
                }
                // Lock step: the reply answers the oldest query.
                Some(_) => self.take_oldest(),
                None => {
                    if always_reply && self.queries_seen {
                        out.push(
                            Rule::H4,
                            String::new(),
                            "an unsolicited frames reply: no query is waiting for an answer".into(),
                        );
                    }
                    None
                }
            },
        }
    }
}

/// Whether `frame` is anchored on one of `anchors`: its own `uri`, or the
/// `target_uri` of one of its relations, is one of them (SPEC.md G3).
pub fn is_anchored(frame: &ContextFrame, anchors: &[String]) -> bool {
    frame.uri.as_ref().is_some_and(|uri| anchors.contains(uri))
        || frame
            .relations
            .iter()
            .any(|relation| anchors.contains(&relation.target_uri))
}

/// The rules on a `frames` reply that need the query it answers: B1, B4, Q1,
/// Q2, G4 and E1.
fn answer_rules(
    result: &ContextQueryResult,
    query: &Pending,
    context: &Context,
    out: &mut Out<'_>,
) {
    budget(result, query, out);
    for (index, frame) in result.frames.iter().enumerate() {
        let at = format!("/result/frames/{index}");
        let kind = frame.kind.as_str();
        if !query.kinds.is_empty() && !query.kinds.iter().any(|k| k == kind) {
            out.push(
                Rule::Q1,
                format!("{at}/kind"),
                format!(
                    "the frame is of kind \"{kind}\", but the query of {} asked only for [{}]",
                    query.origin,
                    query.kinds.join(", ")
                ),
            );
        }
        if let (Some(as_of), Some(valid_from)) = (&query.as_of, &frame.valid_from) {
            if is_later(valid_from, as_of) == Some(true) {
                out.push(
                    Rule::Q2,
                    format!("{at}/valid_from"),
                    format!(
                        "the frame became valid at {valid_from}, after the as_of {as_of} of the query of {}",
                        query.origin
                    ),
                );
            }
        }
    }
    if context.graph && !query.anchors.is_empty() {
        let first_unanchored = result
            .frames
            .iter()
            .position(|frame| !is_anchored(frame, &query.anchors));
        let last_anchored = result
            .frames
            .iter()
            .rposition(|frame| is_anchored(frame, &query.anchors));
        if let (Some(unanchored), Some(anchored)) = (first_unanchored, last_anchored) {
            if unanchored < anchored {
                out.push(
                    Rule::G4,
                    format!("/result/frames/{anchored}"),
                    format!(
                        "frame {anchored} is anchored on the query's anchors but ranked after frame {unanchored}, which is not (the query of {})",
                        query.origin
                    ),
                );
            }
        }
    }
    if let (Some(length), Some(dimension)) = (query.embedding_length, context.embedding_dimension) {
        if length != dimension {
            out.push(
                Rule::E1,
                "/result".into(),
                format!(
                    "the query of {} carries a {length}-dimensional embedding, but the provider's fingerprint states {dimension} dimensions; it should be refused with bad_request, not scored",
                    query.origin
                ),
            );
        }
    }
}

fn budget(result: &ContextQueryResult, query: &Pending, out: &mut Out<'_>) {
    let total: u64 = result
        .frames
        .iter()
        .map(|frame| u64::from(frame.token_cost))
        .sum();
    if total > u64::from(query.max_tokens) {
        out.push(
            Rule::B1,
            "/result/frames".into(),
            format!(
                "the frames cost {total} budget tokens in total, over the query's max_tokens {} (the query of {})",
                query.max_tokens, query.origin
            ),
        );
    }
    if result.frames.len() as u64 > u64::from(query.max_frames) {
        out.push(
            Rule::B4,
            "/result/frames".into(),
            format!(
                "{} frames, over the query's max_frames {} (the query of {})",
                result.frames.len(),
                query.max_frames,
                query.origin
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_grammar() {
        let good = format!("sha256:{}", "0123456789abcdef".repeat(4));
        assert!(is_well_formed_digest(&good));
        assert!(!is_well_formed_digest(&good.to_uppercase()));
        assert!(!is_well_formed_digest("sha256:abc"));
        assert!(!is_well_formed_digest(&good.replace("sha256", "sha512")));
        assert!(!is_well_formed_digest(&format!("{good}0")));
        assert!(!is_well_formed_digest(""));
    }

    #[test]
    fn timestamp_profile_follows_spec_examples() {
        for good in [
            "2026-03-01T12:00:00Z",
            "2026-03-01T12:00:00.250Z",
            "2024-02-29T00:00:00Z",
            "2016-12-31T23:59:60Z",
            "0000-01-01T00:00:00Z",
            "2000-02-29T00:00:00Z",
        ] {
            assert!(is_protocol_timestamp(good), "{good}");
        }
        for bad in [
            "2026-03-01T12:00:00+00:00",
            "2026-03-01 12:00:00Z",
            "2026-03-01t12:00:00z",
            "2026-03-01T12:00:00.Z",
            "2026-02-29T00:00:00Z",
            "1900-02-29T00:00:00Z",
            "2026-03-01",
            "last tuesday",
            "2026-13-01T00:00:00Z",
            "2026-04-31T00:00:00Z",
            "2026-03-01T24:00:00Z",
            "2026-03-01T12:60:00Z",
            "2026-03-01T12:00:61Z",
            "2026-03-01T12:00:00ZZ",
            "2026-03-01T12:00:00",
            "２026-03-01T12:00:00Z",
            "",
        ] {
            assert!(!is_protocol_timestamp(bad), "{bad}");
        }
    }

    #[test]
    fn budget_tokens_examples() {
        assert_eq!(budget_tokens(Some("")), 0);
        assert_eq!(budget_tokens(Some("abcd")), 1);
        assert_eq!(budget_tokens(Some("abcde")), 2);
        assert_eq!(budget_tokens(Some("é")), 1);
        assert_eq!(budget_tokens(None), 0);
    }

    fn line(text: &str) -> Envelope {
        cgp_types::decode_line(text).expect("decodes")
    }

    fn rules(found: &[SemanticViolation]) -> Vec<(&'static str, &str)> {
        found
            .iter()
            .map(|v| (v.rule.as_str(), v.instance_path.as_str()))
            .collect()
    }

    #[test]
    fn session_checks_budget_and_id_echo() {
        let mut session = Session::new();
        let ack = line(
            r#"{"type":"handshake_ack","protocol_version":"demo/1.0","provider":{"name":"p","version":"1","data_flow":{}},"capabilities":{"correlation":true}}"#,
        );
        assert!(session.observe(&ack, "line 2").is_empty());
        let query = line(
            r#"{"type":"query","id":"q1","query":{"goal":"g","max_frames":1,"max_tokens":1}}"#,
        );
        assert!(session.observe(&query, "line 3").is_empty());
        let frames = line(
            r#"{"type":"frames","id":"q2","result":{"frames":[{"id":"a","kind":"doc","title":"t","content":"abcdefgh","score":0.5,"token_cost":2},{"id":"b","kind":"doc","title":"t","score":0.5,"token_cost":0}],"truncated":false}}"#,
        );
        let found = session.observe(&frames, "line 4");
        assert_eq!(
            rules(&found),
            vec![
                ("H4", "/id"),
                ("B1", "/result/frames"),
                ("B4", "/result/frames")
            ]
        );
        assert!(found[0].message.contains("\"q1\""), "{}", found[0].message);
        // The query was answered (badly); a second reply is unsolicited.
        let again = session.observe(&frames, "line 5");
        assert_eq!(rules(&again), vec![("H4", "/id")]);
    }

    /// Unanswered queries with megabyte ids: the session keeps at most
    /// MAX_PENDING_ID_BYTES of them, forgetting the oldest.
    #[test]
    fn long_ids_of_unanswered_queries_are_bounded() {
        let mut session = Session::new();
        let id = "x".repeat(MAX_PENDING_ID_BYTES / 4 + 1);
        for index in 0..10 {
            let query = line(&format!(
                r#"{{"type":"query","id":"{index}{id}","query":{{"goal":"g","max_frames":1,"max_tokens":1}}}}"#
            ));
            session.observe(&query, &format!("line {index}"));
            assert!(session.pending_id_bytes <= MAX_PENDING_ID_BYTES);
        }
        assert_eq!(session.pending.len(), 3);
        let kept: usize = session
            .pending
            .iter()
            .filter_map(|p| p.id.as_ref())
            .map(String::len)
            .sum();
        assert_eq!(kept, session.pending_id_bytes);
        // The newest is still answered by its id.
        let frames = line(&format!(
            r#"{{"type":"frames","id":"9{id}","result":{{"frames":[],"truncated":false}}}}"#
        ));
        assert!(session.observe(&frames, "line 10").is_empty());
        assert_eq!(session.pending.len(), 2);
    }

    #[test]
    fn ids_on_queries_need_correlation() {
        let mut session = Session::new();
        let ack = line(
            r#"{"type":"handshake_ack","protocol_version":"demo/1.0","provider":{"name":"p","version":"1","data_flow":{}},"capabilities":{}}"#,
        );
        session.observe(&ack, "line 1");
        let query = line(
            r#"{"type":"query","id":"q1","query":{"goal":"g","max_frames":1,"max_tokens":1}}"#,
        );
        assert_eq!(
            rules(&session.observe(&query, "line 2")),
            vec![("H4", "/id")]
        );
        // A lock-step error without an id answers the oldest query.
        let error = line(r#"{"type":"error","message":"no"}"#);
        assert!(session.observe(&error, "line 3").is_empty());
        assert!(session.pending.is_empty());
    }

    /// The SPEC.md corpus: an example whose reason says it breaks a rule is
    /// flagged with exactly that rule; every other valid example is clean.
    #[test]
    fn the_corpus_rule_examples() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../SPEC.md");
        let markdown = std::fs::read_to_string(path).expect("SPEC.md");
        let examples = crate::corpus::extract("SPEC.md", &markdown).expect("corpus");
        let mut breaking = 0;
        for example in examples
            .iter()
            .filter(|e| e.expect == crate::corpus::Expect::Valid)
        {
            let reason = example.reason.as_deref().unwrap_or_default();
            let context = Context {
                graph: reason.contains("graph provider"),
                ..Context::default()
            };
            let json = example.json.as_str();
            fn de<T: serde::de::DeserializeOwned>(json: &str) -> T {
                serde_json::from_str(json).expect("decodes")
            }
            let found = match example.target.as_str() {
                "Envelope" => check_envelope(&de(json), &context),
                "ContextFrame" => check_frame(&de(json), "", &context),
                "ContextQueryResult" => check_result(&de(json), "", &context),
                "Provenance" => check_provenance(&de(json), ""),
                "Capabilities" => check_capabilities(&de(json), ""),
                "DataFlow" => check_data_flow(&de(json), ""),
                "Relation" => check_relation(&de(json), "", &context),
                "InclusionProof" => check_inclusion_proof(&de(json), ""),
                _ => continue,
            };
            let expected = reason
                .strip_prefix("breaks ")
                .or_else(|| reason.strip_prefix("fails verification under "))
                .and_then(|rest| rest.split([':', ' ']).next());
            let ids: Vec<&str> = found.iter().map(|v| v.rule.as_str()).collect();
            match expected {
                Some(rule) => {
                    breaking += 1;
                    assert!(
                        !ids.is_empty() && ids.iter().all(|id| *id == rule),
                        "{}: expected only {rule}, got {found:?}",
                        example.name
                    );
                }
                None => assert!(found.is_empty(), "{}: {found:?}", example.name),
            }
        }
        assert_eq!(breaking, 17, "the corpus has 17 rule-breaking examples");
    }

    /// Every rule has its anchor in SPEC.md, and its paragraph says MUST when
    /// the rule is a MUST and SHOULD (and no MUST) when it is a SHOULD.
    #[test]
    fn every_rule_is_written_in_the_spec_with_its_strength() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../SPEC.md");
        let markdown = std::fs::read_to_string(path).expect("SPEC.md");
        for rule in Rule::ALL {
            let anchor = format!("<a id=\"rule-{}\"></a>", rule.as_str().to_ascii_lowercase());
            let start = markdown
                .find(&anchor)
                .unwrap_or_else(|| panic!("{rule}: no {anchor}"));
            let rest = &markdown[start + anchor.len()..];
            // The rule's text runs to the next rule's anchor after some text of
            // its own (P1–P3 share one paragraph), or to the next heading.
            let own = rest.trim_start_matches(|c: char| c.is_whitespace());
            let own = own
                .strip_prefix("<a id=")
                .map_or(own, |_| &own[own.find("**").unwrap_or(0)..]);
            let end = ["\n<a id=\"rule-", "\n### ", "\n## "]
                .iter()
                .filter_map(|marker| own.find(marker))
                .min()
                .unwrap_or(own.len());
            let text = &own[..end];
            match rule.requirement() {
                Requirement::Must => assert!(text.contains("MUST"), "{rule}: {text}"),
                Requirement::Should => assert!(
                    text.contains("SHOULD") && !text.contains("MUST"),
                    "{rule}: {text}"
                ),
            }
        }
    }

    #[test]
    fn instants_compare_with_their_fractions() {
        assert_eq!(
            is_later("2026-09-01T00:00:00Z", "2026-07-01T00:00:00Z"),
            Some(true)
        );
        assert_eq!(
            is_later("2026-07-01T00:00:00Z", "2026-07-01T00:00:00Z"),
            Some(false)
        );
        assert_eq!(
            is_later("2026-07-01T00:00:00.5Z", "2026-07-01T00:00:00Z"),
            Some(true)
        );
        assert_eq!(
            is_later("2026-07-01T00:00:00.5Z", "2026-07-01T00:00:00.25Z"),
            Some(true)
        );
        assert_eq!(
            is_later("2026-07-01T00:00:00.500Z", "2026-07-01T00:00:00.5Z"),
            Some(false)
        );
        assert_eq!(
            is_later("2026-07-01T00:00:00Z", "2026-07-01T00:00:00.000Z"),
            Some(false)
        );
        assert_eq!(is_later("last tuesday", "2026-07-01T00:00:00Z"), None);
        assert_eq!(fingerprint_dimension("bge-small-en-v1.5/384/l2"), Some(384));
        assert_eq!(fingerprint_dimension("model/4"), Some(4));
        assert_eq!(fingerprint_dimension("model"), None);
        assert_eq!(fingerprint_dimension("model/+4/l2"), None);
    }

    /// Q1, Q2, G4 and E1 judge a `frames` reply against the query it answers.
    #[test]
    fn session_checks_kinds_as_of_anchors_and_embedding() {
        let mut session = Session::new();
        let ack = line(&format!(
            r#"{{"type":"handshake_ack","protocol_version":"{PROTOCOL_VERSION}","provider":{{"name":"p","version":"1","data_flow":{{}}}},"capabilities":{{"graph":true,"embeddings_fingerprint":"m/3/l2"}}}}"#
        ));
        assert!(session.observe(&ack, "line 1").is_empty());
        let frame = |id: &str, kind: &str, valid_from: &str, uri: &str| {
            format!(
                r#"{{"id":"{id}","kind":"{kind}","title":"t","content":"abcd","score":0.5,"token_cost":1,"valid_from":"{valid_from}","uri":"{uri}"}}"#
            )
        };
        let query = line(
            r#"{"type":"query","query":{"goal":"g","kinds":["doc"],"anchors":["file:///a"],"as_of":"2026-07-01T00:00:00Z","embedding":[0.5],"max_frames":5,"max_tokens":50}}"#,
        );
        assert!(session.observe(&query, "line 2").is_empty());
        let frames = line(&format!(
            r#"{{"type":"frames","result":{{"frames":[{},{}],"truncated":false}}}}"#,
            frame("x", "snippet", "2026-09-01T00:00:00Z", "file:///b"),
            frame("y", "doc", "2026-01-01T00:00:00Z", "file:///a"),
        ));
        assert_eq!(
            rules(&session.observe(&frames, "line 3")),
            vec![
                ("Q1", "/result/frames/0/kind"),
                ("Q2", "/result/frames/0/valid_from"),
                ("G4", "/result/frames/1"),
                ("E1", "/result"),
            ]
        );
        // The same answer to an unrestricted query breaks nothing.
        let open = line(r#"{"type":"query","query":{"goal":"g","max_frames":5,"max_tokens":50}}"#);
        session.observe(&open, "line 4");
        assert!(session.observe(&frames, "line 5").is_empty());
        assert_eq!(Rule::G4.requirement(), Requirement::Should);
        assert_eq!(Rule::Q1.requirement(), Requirement::Must);
    }

    #[test]
    fn version_family_is_h3() {
        let ack = line(
            r#"{"type":"handshake_ack","protocol_version":"demo/10.0","provider":{"name":"p","version":"1","data_flow":{"egress_scopes":["acme"]}},"capabilities":{"representations":["compact"]}}"#,
        );
        // A host speaking the acknowledged family has no H3 to report.
        let demo_host = Context {
            host_version: Some("demo/10.3".into()),
            ..Context::default()
        };
        assert!(!rules(&check_envelope(&ack, &demo_host)).contains(&("H3", "/protocol_version")));
        let found = check_envelope(&ack, &Context::default());
        assert_eq!(
            rules(&found),
            vec![
                ("H3", "/protocol_version"),
                ("C5", "/provider/data_flow/egress_scopes/0"),
                ("C5", "/provider/data_flow/egress_scopes/0"),
                ("P5", "/capabilities/representations/0"),
            ]
        );
    }
}
