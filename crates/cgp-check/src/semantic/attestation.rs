//! Checking provenance attestations (SPEC.md §Attestations): the commitment of
//! a frame, the Merkle root of a result, inclusion proofs, and Ed25519
//! signatures against the keys a provider published at the handshake.
//!
//! Everything here is recomputed from the frames as served; nothing is trusted
//! from the attestation but the claim it makes.

use cgp_schema::digest::{Hash, decode_hex, sha256};
use cgp_types::{
    AttesterKey, ContextFrame, FrameId, InclusionProof, Provenance, ProvenanceAttestation,
};

/// The signature scheme this version defines.
pub const ED25519: &str = "ed25519";

const GENESIS: &[u8] = b"contextgraph/attest/1/genesis";
const LINK: &[u8] = b"contextgraph/attest/1/link";
const FRAME: &[u8] = b"contextgraph/attest/1/frame";
const MERKLE_EMPTY: &[u8] = b"contextgraph/attest/1/merkle-empty";
const MERKLE_LEAF: &[u8] = &[0x00];
const MERKLE_NODE: &[u8] = &[0x01];

/// Appends `text` with its length: 4 bytes big-endian, then the UTF-8 bytes.
fn put(out: &mut Vec<u8>, text: &str) {
    let length = u32::try_from(text.len()).unwrap_or(u32::MAX);
    out.extend_from_slice(&length.to_be_bytes());
    out.extend_from_slice(text.as_bytes());
}

/// Appends an optional string: `0x00` when absent, `0x01` and [`put`] when present.
fn put_optional(out: &mut Vec<u8>, text: Option<&str>) {
    match text {
        None => out.push(0x00),
        Some(text) => {
            out.push(0x01);
            put(out, text);
        }
    }
}

/// The encoding of one provenance link: `type`, then `uri`, `range`, `digest`,
/// `method` and `by` as optional strings.
pub fn encode_link(link: &Provenance) -> Vec<u8> {
    let mut out = Vec::new();
    put(&mut out, &link.kind);
    for member in [&link.uri, &link.range, &link.digest, &link.method, &link.by] {
        put_optional(&mut out, member.as_deref());
    }
    out
}

/// The head of the hash chain over a frame's provenance, folded from the link
/// closest to the source.
pub fn chain_head(links: &[Provenance]) -> Hash {
    links.iter().fold(sha256(&[GENESIS]), |head, link| {
        sha256(&[LINK, &head, &encode_link(link)])
    })
}

/// The commitment of `frame` as served by the provider named `provider_id`:
/// its identity bound to its provenance chain.
pub fn frame_commitment(provider_id: &str, frame: &ContextFrame) -> Hash {
    let mut identity = Vec::new();
    put(&mut identity, provider_id);
    put(&mut identity, &frame.id);
    put_optional(&mut identity, frame.content_digest.as_deref());
    sha256(&[FRAME, &identity, &chain_head(&frame.provenance)])
}

/// The RFC 6962 Merkle root over `leaves` (frame commitments, in order).
pub fn merkle_root(leaves: &[Hash]) -> Hash {
    match leaves {
        [] => sha256(&[MERKLE_EMPTY]),
        [leaf] => sha256(&[MERKLE_LEAF, leaf]),
        _ => {
            let mut split = 1;
            while split * 2 < leaves.len() {
                split *= 2;
            }
            let (left, right) = leaves.split_at(split);
            sha256(&[MERKLE_NODE, &merkle_root(left), &merkle_root(right)])
        }
    }
}

/// The root a `result_attestation` signs: the Merkle root over the commitments
/// of all of `frames`, in canonical [`FrameId`] order.
pub fn result_root(provider_id: &str, frames: &[ContextFrame]) -> Hash {
    let mut ordered: Vec<(FrameId, Hash)> = frames
        .iter()
        .map(|frame| {
            let identity =
                FrameId::new(provider_id, frame.id.clone(), frame.content_digest.clone());
            (identity, frame_commitment(provider_id, frame))
        })
        .collect();
    ordered.sort_by(|(a, _), (b, _)| {
        (&a.provider_id, &a.frame_id, &a.content_digest).cmp(&(
            &b.provider_id,
            &b.frame_id,
            &b.content_digest,
        ))
    });
    let leaves: Vec<Hash> = ordered.into_iter().map(|(_, leaf)| leaf).collect();
    merkle_root(&leaves)
}

/// The root an inclusion proof leads to from `commitment`; `None` when a
/// sibling is not a well-formed digest or `leaf_index` is not below
/// `leaf_count`.
pub fn root_from_proof(commitment: &Hash, proof: &InclusionProof) -> Option<Hash> {
    if proof.leaf_index >= proof.leaf_count
        || proof.path.len() > crate::semantic::MAX_INCLUSION_PATH_STEPS
    {
        return None;
    }
    let mut node = sha256(&[MERKLE_LEAF, commitment]);
    for step in &proof.path {
        let sibling = cgp_schema::digest::parse(&step.sibling)?;
        node = if step.sibling_is_left {
            sha256(&[MERKLE_NODE, &sibling, &node])
        } else {
            sha256(&[MERKLE_NODE, &node, &sibling])
        };
    }
    Some(node)
}

/// Why a signature does not verify.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignatureProblem {
    /// No key with the attestation's `key_id` was published at the handshake.
    UnpublishedKey,
    /// The published key is not 64 lowercase hex digits of an Ed25519 point.
    MalformedKey,
    /// The signature is not 128 lowercase hex digits.
    MalformedSignature,
    /// The signature does not verify under the key.
    BadSignature,
}

impl SignatureProblem {
    /// What the problem means, for a report.
    pub fn describe(&self, attestation: &ProvenanceAttestation) -> String {
        let key = &attestation.key_id;
        match self {
            SignatureProblem::UnpublishedKey => {
                format!("it is signed with key \"{key}\", which the handshake_ack does not publish")
            }
            SignatureProblem::MalformedKey => {
                format!("the published key \"{key}\" is not an Ed25519 public key in lowercase hex")
            }
            SignatureProblem::MalformedSignature => {
                "the signature is not 128 lowercase hex digits".to_owned()
            }
            SignatureProblem::BadSignature => format!(
                "the signature does not verify under the published key \"{key}\": forged, or made with another key"
            ),
        }
    }
}

/// Checks the signature of `attestation` over its own `signed_commitment`
/// against the published `keys`. `Ok(false)`: the algorithm is not
/// [`ED25519`], so it cannot be checked here (which is not a failure).
pub fn verify_signature(
    attestation: &ProvenanceAttestation,
    signed: &Hash,
    keys: &[AttesterKey],
) -> Result<bool, SignatureProblem> {
    if attestation.algorithm != ED25519 {
        return Ok(false);
    }
    let key = keys
        .iter()
        .find(|key| key.key_id == attestation.key_id)
        .ok_or(SignatureProblem::UnpublishedKey)?;
    if key.algorithm != ED25519 {
        return Ok(false);
    }
    let key_bytes: [u8; 32] = decode_hex(&key.public_key)
        .and_then(|bytes| bytes.try_into().ok())
        .ok_or(SignatureProblem::MalformedKey)?;
    let key = ed25519_dalek::VerifyingKey::from_bytes(&key_bytes)
        .map_err(|_| SignatureProblem::MalformedKey)?;
    let signature: [u8; 64] = decode_hex(&attestation.signature)
        .and_then(|bytes| bytes.try_into().ok())
        .ok_or(SignatureProblem::MalformedSignature)?;
    let signature = ed25519_dalek::Signature::from_bytes(&signature);
    key.verify_strict(signed, &signature)
        .map(|()| true)
        .map_err(|_| SignatureProblem::BadSignature)
}
