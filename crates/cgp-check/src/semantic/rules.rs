//! The rule catalogue: every rule id `cgp` checks, its requirement level, and
//! the violation a broken rule reports.
//!
//! Ids are the protocol's own (its SPEC.md, see SPEC.md §Rule ids) wherever
//! the protocol states the rule, with the protocol's meaning and level. A rule
//! the protocol does not state has an id of ours, `CGP-` and a name, which
//! cannot collide with the protocol's letter-and-number ids.

use std::fmt;

/// A rule id of SPEC.md §Rule ids.
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
    /// An inclusion proof is bounded and leads to the signed result root.
    F13,
    /// A `full` frame carries `content`.
    P1,
    /// A `compact` frame carries content, digest, hash, transform and reference.
    P2,
    /// A `reference` frame carries a reference and hash, and no inline content.
    P3,
    /// An off-machine egress scope is not declared with `egress: false`.
    C5,
    /// A custom egress scope is namespaced `vendor:name`.
    U3,
    /// A graph provider's relations have a non-blank `display_name`.
    G1,
    /// Every relation's `target_uri` is non-blank.
    G2,
    /// A graph provider ranks anchored frames first (SHOULD).
    G3,
    /// A graph provider returns an anchored frame when it has one.
    G4,
    /// A query embedding of the wrong dimension is refused (SHOULD).
    E1,
    /// ... and a host sends an embedding only to a provider whose fingerprint
    /// is its own (E1's MUST clause, the host's).
    E1Host,
    /// No frame outside a non-empty `kinds` filter.
    Q1,
    /// The provider acknowledges a version in the host's major family.
    H1,
    /// `provider.name` and `provider.version` are not empty.
    H2,
    /// Replies echo the `id` of the request they answer.
    H4,
    /// A provider survives a malformed line or bad request and keeps serving.
    R1,
    /// ... and answers it with `error` / `bad_request` (R1's SHOULD clause).
    R1Reply,
    /// A provider ends cleanly on `shutdown`.
    R2,
    /// A verifying provider answers `verify` honestly: `valid` exactly for
    /// what it serves unchanged.
    V2,
    /// Ours: a file provenance digest is the sha256 of the bytes it addresses.
    FileBytes,
    /// Ours: an attestation signs the commitment of the frame it names.
    AttestSigns,
    /// Ours: signatures verify under the keys published at the handshake.
    AttestKey,
    /// Ours: offering `compact` or `reference` requires `resolve: true`.
    Resolve,
    /// Ours: no frame that became valid after the query's `as_of` (SHOULD).
    AsOf,
    /// Ours: a frame's embedding vector has its fingerprint's length (SHOULD).
    FrameVector,
    /// Ours: a host sends `verify` only to providers that declare it.
    VerifyOptIn,
    /// Ours: every query gets one reply, and nothing comes unasked.
    Answer,
    /// Ours: over HTTP, a reply to a request a host sends comes with a 2xx
    /// status (SHOULD).
    HttpStatus,
}

impl Rule {
    /// Every rule, in declaration order.
    pub const ALL: [Rule; 40] = [
        Rule::B1,
        Rule::B3,
        Rule::B4,
        Rule::D1,
        Rule::F1,
        Rule::F2,
        Rule::F3,
        Rule::F4,
        Rule::F5,
        Rule::F11,
        Rule::F12,
        Rule::F13,
        Rule::P1,
        Rule::P2,
        Rule::P3,
        Rule::C5,
        Rule::U3,
        Rule::G1,
        Rule::G2,
        Rule::G3,
        Rule::G4,
        Rule::E1,
        Rule::E1Host,
        Rule::Q1,
        Rule::H1,
        Rule::H2,
        Rule::H4,
        Rule::R1,
        Rule::R1Reply,
        Rule::R2,
        Rule::V2,
        Rule::FileBytes,
        Rule::AttestSigns,
        Rule::AttestKey,
        Rule::Resolve,
        Rule::AsOf,
        Rule::FrameVector,
        Rule::VerifyOptIn,
        Rule::Answer,
        Rule::HttpStatus,
    ];

    /// The rule id as SPEC.md writes it, e.g. `"B3"` or `"CGP-FILE-BYTES"`.
    /// R1's MUST and SHOULD clauses share the protocol's id `"R1"`, and E1's
    /// (the host's MUST, the provider's SHOULD) share `"E1"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::B1 => "B1",
            Rule::B3 => "B3",
            Rule::B4 => "B4",
            Rule::D1 => "D1",
            Rule::F1 => "F1",
            Rule::F2 => "F2",
            Rule::F3 => "F3",
            Rule::F4 => "F4",
            Rule::F5 => "F5",
            Rule::F11 => "F11",
            Rule::F12 => "F12",
            Rule::F13 => "F13",
            Rule::P1 => "P1",
            Rule::P2 => "P2",
            Rule::P3 => "P3",
            Rule::C5 => "C5",
            Rule::U3 => "U3",
            Rule::G1 => "G1",
            Rule::G2 => "G2",
            Rule::G3 => "G3",
            Rule::G4 => "G4",
            Rule::E1 | Rule::E1Host => "E1",
            Rule::Q1 => "Q1",
            Rule::H1 => "H1",
            Rule::H2 => "H2",
            Rule::H4 => "H4",
            Rule::R1 | Rule::R1Reply => "R1",
            Rule::R2 => "R2",
            Rule::V2 => "V2",
            Rule::FileBytes => "CGP-FILE-BYTES",
            Rule::AttestSigns => "CGP-ATTEST-SIGNS",
            Rule::AttestKey => "CGP-ATTEST-KEY",
            Rule::Resolve => "CGP-RESOLVE",
            Rule::AsOf => "CGP-AS-OF",
            Rule::FrameVector => "CGP-FRAME-VECTOR",
            Rule::VerifyOptIn => "CGP-VERIFY-OPTIN",
            Rule::Answer => "CGP-ANSWER",
            Rule::HttpStatus => "CGP-HTTP-STATUS",
        }
    }

    /// Whether the rule is the protocol's (`false`: one of ours, `CGP-…`).
    pub fn is_upstream(self) -> bool {
        !self.as_str().starts_with("CGP-")
    }

    /// The rule's requirement level: the protocol's for its rules, ours for ours.
    pub fn requirement(self) -> Requirement {
        match self {
            Rule::G3
            | Rule::E1
            | Rule::R1Reply
            | Rule::AsOf
            | Rule::FrameVector
            | Rule::HttpStatus => Requirement::Should,
            _ => Requirement::Must,
        }
    }

    /// Whether a transcript can show the rule kept or broken: it is checked
    /// per message or across a conversation's messages (`cgp validate
    /// --semantic`, and every line of `cgp check`). The others are judged only
    /// by steps of `cgp check`'s own conversation (a reply that never came,
    /// an exit, a file re-read, an anchored frame the provider holds).
    pub fn in_transcript(self) -> bool {
        !matches!(
            self,
            Rule::G4
                | Rule::R1
                | Rule::R1Reply
                | Rule::R2
                | Rule::V2
                | Rule::FileBytes
                | Rule::Answer
                | Rule::HttpStatus
        )
    }

    /// The ids of the rules a transcript can show ([`Rule::in_transcript`]),
    /// each once, in catalogue order: what `cgp validate --semantic` checks.
    pub fn transcript_ids() -> Vec<&'static str> {
        let mut ids: Vec<&'static str> = Vec::new();
        for rule in Rule::ALL {
            if rule.in_transcript() && !ids.contains(&rule.as_str()) {
                ids.push(rule.as_str());
            }
        }
        ids
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

/// How binding a rule is: a broken MUST is an error, a broken SHOULD a
/// warning. (A MAY allows a choice; no checked rule is one, so there is no
/// third level.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Requirement {
    /// The rule says MUST (or MUST NOT).
    Must,
    /// The rule says SHOULD (or SHOULD NOT).
    Should,
}

impl Requirement {
    /// `"MUST"` or `"SHOULD"`, as the specifications write them.
    pub fn as_str(self) -> &'static str {
        match self {
            Requirement::Must => "MUST",
            Requirement::Should => "SHOULD",
        }
    }
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
