//! The body of a `query` ([`ContextQuery`]) and of its `frames` answer
//! ([`ContextQueryResult`]) (SPEC.md [§query](../../SPEC.md#variant-query),
//! [§frames](../../SPEC.md#variant-frames)).

use serde::{Deserialize, Serialize};

use crate::attestation::{FrameAttestation, ProvenanceAttestation};
use crate::frame::{ContextFrame, Representation};
use crate::vocab::FrameKind;

/// What a host asks a provider for, and within what budget (SPEC.md
/// [§ContextQuery](../../SPEC.md#type-contextquery),
/// [rules B1–B4](../../SPEC.md#rule-b1)).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ContextQuery {
    /// What the caller is trying to do, in natural language. May be empty.
    pub goal: String,

    /// A search string, if the caller has one. Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query_text: Option<String>,

    /// A query embedding whose length should match the provider's
    /// fingerprint (SPEC.md [rule E1](../../SPEC.md#rule-e1)). Omitted when
    /// `None`; an empty vector is still written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub embedding: Option<Vec<f32>>,

    /// Only frames of these kinds are wanted; empty means any. Omitted when
    /// empty; `null` is rejected.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<FrameKind>,

    /// URIs the answer should be anchored on. Omitted when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub anchors: Vec<String>,

    /// The most frames the answer may hold (SPEC.md
    /// [rule B4](../../SPEC.md#rule-b4)).
    pub max_frames: u32,

    /// The most tokens the frames may cost in total (SPEC.md
    /// [rule B1](../../SPEC.md#rule-b1)).
    pub max_tokens: u32,

    /// Answer as things stood at this time. Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub as_of: Option<String>,

    /// Representations the host prefers, best first. Empty means `[full]`.
    /// Omitted when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub representation_preferences: Vec<Representation>,
}

impl ContextQuery {
    /// A query with a goal and a budget and nothing else.
    pub fn new(goal: impl Into<String>, max_frames: u32, max_tokens: u32) -> Self {
        ContextQuery {
            goal: goal.into(),
            query_text: None,
            embedding: None,
            kinds: Vec::new(),
            anchors: Vec::new(),
            max_frames,
            max_tokens,
            as_of: None,
            representation_preferences: Vec::new(),
        }
    }
}

/// A provider's answer to a query (SPEC.md
/// [§ContextQueryResult](../../SPEC.md#type-contextqueryresult)).
///
/// `frames` and `truncated` are required when decoding even though the Rust
/// type has a [`Default`] (an empty, complete answer).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ContextQueryResult {
    /// The frames, in the provider's order. Always written.
    pub frames: Vec<ContextFrame>,

    /// Whether the provider left out frames to stay within the budget.
    pub truncated: bool,

    /// Roughly how many frames were left out. Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dropped_estimate: Option<u32>,

    /// Per-frame attestations, each naming its frame in full. Omitted when
    /// empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub frame_attestations: Vec<FrameAttestation>,

    /// A signature over the whole set of frames. Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_attestation: Option<ProvenanceAttestation>,
}

impl ContextQueryResult {
    /// An unattested answer holding `frames`.
    pub fn new(frames: Vec<ContextFrame>, truncated: bool) -> Self {
        ContextQueryResult {
            frames,
            truncated,
            ..ContextQueryResult::default()
        }
    }
}
