//! Signed evidence about served frames: [`FrameAttestation`],
//! [`ProvenanceAttestation`], [`InclusionProof`] and [`InclusionStep`].
//!
//! These types only carry the evidence. Checking a signature or a proof is
//! out of scope for this crate.

use serde::{Deserialize, Serialize};

use crate::verify::FrameId;

/// A signature over a commitment (SPEC.md
/// [§ProvenanceAttestation](../../SPEC.md#type-provenanceattestation)).
///
/// All six members are required. None of their formats is checked when
/// decoding.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ProvenanceAttestation {
    /// The signed commitment, expected as `sha256:<64 lowercase hex>`.
    pub signed_commitment: String,

    /// The id of the signing key, as announced in an
    /// [`AttesterKey`](crate::AttesterKey).
    pub key_id: String,

    /// The signature scheme, an open string such as `ed25519`.
    pub algorithm: String,

    /// Who signed.
    pub attester_id: String,

    /// The signature in lowercase hex.
    pub signature: String,

    /// When the signature was made, as a protocol timestamp (SPEC.md
    /// [rule F4](../../SPEC.md#rule-f4)).
    pub issued_at: String,
}

/// The evidence a result carries for one of its frames (SPEC.md
/// [§FrameAttestation](../../SPEC.md#type-frameattestation)).
///
/// An entry with neither `attestation` nor `inclusion_proof` is valid on the
/// wire but proves nothing.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FrameAttestation {
    /// The frame this entry is about, named in full.
    pub frame: FrameId,

    /// A signature for this frame alone. Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attestation: Option<ProvenanceAttestation>,

    /// A proof that the frame is covered by the result's signed root.
    /// Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inclusion_proof: Option<InclusionProof>,
}

/// A Merkle inclusion proof for one leaf (SPEC.md
/// [§InclusionProof](../../SPEC.md#type-inclusionproof)).
///
/// `leaf_index` and `leaf_count` are `u64`, so the wire range is
/// `0..=2^64-1`. (The reference implementation uses `usize`, which is the
/// same on 64-bit targets.)
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct InclusionProof {
    /// The leaf's position, counting from zero.
    pub leaf_index: u64,

    /// How many leaves the tree has.
    pub leaf_count: u64,

    /// The sibling hashes from the leaf up to the root. Required, though it
    /// may be empty.
    pub path: Vec<InclusionStep>,
}

/// One step of an [`InclusionProof`] (SPEC.md
/// [§InclusionStep](../../SPEC.md#type-inclusionstep)).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct InclusionStep {
    /// The sibling node's hash, expected as `sha256:<hex>`.
    pub sibling: String,

    /// Whether the sibling is the left operand when hashing.
    pub sibling_is_left: bool,
}
