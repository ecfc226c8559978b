//! The rule catalogue: every rule id, whether SPEC.md says MUST or SHOULD, and
//! the violation a broken rule reports.

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
