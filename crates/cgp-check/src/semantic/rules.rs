//! The rule catalogue: every rule id `cgp` checks, its requirement level, and
//! the violation a broken rule reports.
//!
//! Ids are the protocol's own (its SPEC.md, see SPEC.md §Rule ids) wherever
//! the protocol states the rule, with the protocol's meaning and level. A rule
//! the protocol does not state has an id of ours, `CGP-` and a name, which
//! cannot collide with the protocol's letter-and-number ids.

use std::fmt;

/// Declares the rule catalogue once: each rule's variant with its doc, then
/// its id, requirement level and where it can be seen. The macro writes
/// [`Rule`], [`Rule::ALL`] and the accessors, so adding a rule is one entry
/// here (plus its check).
macro_rules! rules {
    ($($(#[doc = $doc:literal])* $variant:ident => $id:literal, $level:ident, $seen:ident;)*) => {
        /// A rule id of SPEC.md §Rule ids.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Rule {
            $($(#[doc = $doc])* $variant,)*
        }

        impl Rule {
            /// Every rule, in declaration order.
            pub const ALL: [Rule; [$($id),*].len()] = [$(Rule::$variant,)*];

            /// The rule id as SPEC.md writes it, e.g. `"B3"` or `"CGP-FILE-BYTES"`.
            /// R1's MUST and SHOULD clauses share the protocol's id `"R1"`, and E1's
            /// (the host's MUST, the provider's SHOULD) share `"E1"`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Rule::$variant => $id,)*
                }
            }

            /// The rule's requirement level: the protocol's for its rules, ours for ours.
            pub fn requirement(self) -> Requirement {
                match self {
                    $(Rule::$variant => Requirement::$level,)*
                }
            }

            /// Whether a transcript can show the rule kept or broken: it is checked
            /// per message or across a conversation's messages (`cgp validate
            /// --semantic`, and every line of `cgp check`). The others
            /// (`Conversation` in the table) are judged only by steps of `cgp
            /// check`'s own conversation (a reply that never came, an exit, a file
            /// re-read, an anchored frame the provider holds).
            pub fn in_transcript(self) -> bool {
                match self {
                    $(Rule::$variant => matches!(Seen::$seen, Seen::Transcript),)*
                }
            }
        }
    };
}

/// Where a rule can be seen kept or broken: the `rules!` table's last column.
enum Seen {
    /// In a transcript: per message or across a conversation's messages.
    Transcript,
    /// Only in `cgp check`'s own conversation.
    Conversation,
}

rules! {
    /// Σ `token_cost` ≤ the query's `max_tokens`.
    B1 => "B1", Must, Transcript;
    /// `token_cost` = ⌈UTF-8 bytes of `content` ÷ 4⌉.
    B3 => "B3", Must, Transcript;
    /// Frame count ≤ the query's `max_frames`.
    B4 => "B4", Must, Transcript;
    /// `content_digest`, when present, is `sha256:` + 64 lowercase hex.
    D1 => "D1", Must, Transcript;
    /// `score` lies in `[0, 1]`.
    F1 => "F1", Must, Transcript;
    /// `title` is not empty.
    F2 => "F2", Must, Transcript;
    /// `citation_label` is present and not blank.
    F3 => "F3", Must, Transcript;
    /// Frame and attestation timestamps are protocol timestamps.
    F4 => "F4", Must, Transcript;
    /// File provenance carries a well-formed digest.
    F5 => "F5", Must, Transcript;
    /// No attestation names a frame outside its result.
    F11 => "F11", Must, Transcript;
    /// `result_attestation` signs the Merkle root of the result's frames.
    F12 => "F12", Must, Transcript;
    /// An inclusion proof is bounded and leads to the signed result root.
    F13 => "F13", Must, Transcript;
    /// A `full` frame carries `content`.
    P1 => "P1", Must, Transcript;
    /// A `compact` frame carries content, digest, hash, transform and reference.
    P2 => "P2", Must, Transcript;
    /// A `reference` frame carries a reference and hash, and no inline content.
    P3 => "P3", Must, Transcript;
    /// An off-machine egress scope is not declared with `egress: false`.
    C5 => "C5", Must, Transcript;
    /// A custom egress scope is namespaced `vendor:name`.
    U3 => "U3", Must, Transcript;
    /// A graph provider's relations have a non-blank `display_name`.
    G1 => "G1", Must, Transcript;
    /// Every relation's `target_uri` is non-blank.
    G2 => "G2", Must, Transcript;
    /// A graph provider ranks anchored frames first (SHOULD).
    G3 => "G3", Should, Transcript;
    /// A graph provider returns an anchored frame when it has one.
    G4 => "G4", Must, Conversation;
    /// A query embedding of the wrong dimension is refused (SHOULD).
    E1 => "E1", Should, Transcript;
    /// ... and a host sends an embedding only to a provider whose fingerprint
    /// is its own (E1's MUST clause, the host's).
    E1Host => "E1", Must, Transcript;
    /// No frame outside a non-empty `kinds` filter.
    Q1 => "Q1", Must, Transcript;
    /// The provider acknowledges a version in the host's major family.
    H1 => "H1", Must, Transcript;
    /// `provider.name` and `provider.version` are not empty.
    H2 => "H2", Must, Transcript;
    /// Replies echo the `id` of the request they answer.
    H4 => "H4", Must, Transcript;
    /// A provider survives a malformed line or bad request and keeps serving.
    R1 => "R1", Must, Conversation;
    /// ... and answers it with `error` / `bad_request` (R1's SHOULD clause).
    R1Reply => "R1", Should, Conversation;
    /// A provider ends cleanly on `shutdown`.
    R2 => "R2", Must, Conversation;
    /// A verifying provider answers `verify` honestly: `valid` exactly for
    /// what it serves unchanged.
    V2 => "V2", Must, Conversation;
    /// Ours: a file provenance digest is the sha256 of the bytes it addresses.
    FileBytes => "CGP-FILE-BYTES", Must, Conversation;
    /// Ours: an attestation signs the commitment of the frame it names.
    AttestSigns => "CGP-ATTEST-SIGNS", Must, Transcript;
    /// Ours: signatures verify under the keys published at the handshake.
    AttestKey => "CGP-ATTEST-KEY", Must, Transcript;
    /// Ours: offering `compact` or `reference` requires `resolve: true`.
    Resolve => "CGP-RESOLVE", Must, Transcript;
    /// Ours: no frame that became valid after the query's `as_of` (SHOULD).
    AsOf => "CGP-AS-OF", Should, Transcript;
    /// Ours: a frame's embedding vector has its fingerprint's length (SHOULD).
    FrameVector => "CGP-FRAME-VECTOR", Should, Transcript;
    /// Ours: a host sends `verify` only to providers that declare it.
    VerifyOptIn => "CGP-VERIFY-OPTIN", Must, Transcript;
    /// Ours: every query gets one reply, and nothing comes unasked.
    Answer => "CGP-ANSWER", Must, Conversation;
    /// Ours: over HTTP, a reply to a request a host sends comes with a 2xx
    /// status (SHOULD).
    HttpStatus => "CGP-HTTP-STATUS", Should, Conversation;
}

impl Rule {
    /// Whether the rule is the protocol's (`false`: one of ours, `CGP-…`).
    pub fn is_upstream(self) -> bool {
        !self.as_str().starts_with("CGP-")
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
