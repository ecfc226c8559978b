//! The semantic rules of SPEC.md §Semantic rules: what a message must satisfy
//! beyond its wire shape.
//!
//! A message that breaks one of these rules is still wire-valid: the schemas
//! accept it and the reference decoder reads it. The rules work on decoded
//! [`cgp_types`] values and report each violation with its stable [`Rule`] id
//! and the JSON pointer of the offending member.
//!
//! Two kinds of checks live here: per-message rules ([`check_envelope`] and
//! the per-type functions it calls), and exchange rules, which need both sides
//! of a conversation ([`Session`]). Which rules there are, each with its id,
//! level and whether a transcript can show it, is the catalogue's to say:
//! [`Rule`] (its `rules!` table in `rules.rs`).
//!
//! Ids and levels are the protocol's where it states the rule, ours (`CGP-…`)
//! where it does not (SPEC.md §Rule ids); every rule is a MUST or a SHOULD
//! ([`Rule::requirement`]).
//!
//! The catalogue is in `rules`, the string grammars in `values`, the
//! per-message rules in `envelope_rules` and `frame`, the exchange rules in `session`,
//! and the attestation arithmetic in [`attestation`].

pub mod attestation;

mod envelope_rules;
mod frame;
mod rules;
mod session;
#[cfg(test)]
mod tests;
mod values;

pub use envelope_rules::MAX_INCLUSION_PATH_STEPS;
pub use envelope_rules::{
    check_capabilities, check_data_flow, check_envelope, check_inclusion_proof, check_result,
};
pub use frame::{check_frame, check_provenance, check_relation};
pub use rules::{Requirement, Rule, SemanticViolation};
pub use session::{MAX_PENDING_ID_BYTES, MAX_PENDING_QUERIES, Session, is_anchored};
pub use values::{budget_tokens, fingerprint_dimension, is_later, is_protocol_timestamp};

use cgp_types::AttesterKey;

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
    /// The keys the provider published to check its attestations (CGP-ATTEST-KEY).
    pub attester_keys: Vec<AttesterKey>,
    /// The version the host speaks, which an acknowledged version must share a
    /// family with (H1); `None` is [`cgp_types::PROTOCOL_VERSION`], the working version.
    pub host_version: Option<String>,
}

/// Where the rule functions put what they find.
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
