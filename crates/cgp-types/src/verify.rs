//! Revalidating frames a host already holds: the [`FrameId`] that names a
//! frame, the `verify` body ([`VerifyRequest`]) and the `verified` body
//! ([`VerifyResponse`] of [`FrameVerdict`]s) (SPEC.md
//! [§verify](../../SPEC.md#variant-verify),
//! [§verified](../../SPEC.md#variant-verified)).

use serde::{Deserialize, Serialize};

/// The full identity of a served frame (SPEC.md
/// [§FrameId](../../SPEC.md#type-frameid)).
///
/// Verdicts and attestations are matched on all three members, not on the
/// frame id alone.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FrameId {
    /// The provider that served the frame.
    pub provider_id: String,

    /// The frame's [`id`](crate::ContextFrame::id).
    pub frame_id: String,

    /// The content digest the frame was served with. Without it the frame
    /// cannot be verified. Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_digest: Option<String>,
}

impl FrameId {
    /// A frame identity from its three parts.
    pub fn new(
        provider_id: impl Into<String>,
        frame_id: impl Into<String>,
        content_digest: Option<String>,
    ) -> Self {
        FrameId {
            provider_id: provider_id.into(),
            frame_id: frame_id.into(),
            content_digest,
        }
    }
}

/// The body of a `verify` envelope: the frames to recheck (SPEC.md
/// [§VerifyRequest](../../SPEC.md#type-verifyrequest)).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct VerifyRequest {
    /// The identities to check. Defaults to empty, and is always written.
    #[serde(default)]
    pub frames: Vec<FrameId>,
}

/// The body of a `verified` envelope (SPEC.md
/// [§VerifyResponse](../../SPEC.md#type-verifyresponse)).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct VerifyResponse {
    /// One verdict per identity. Defaults to empty, and is always written.
    #[serde(default)]
    pub verdicts: Vec<FrameVerdict>,
}

/// A verdict about one frame (SPEC.md
/// [§FrameVerdict](../../SPEC.md#type-frameverdict)).
///
/// The [`Verdict`] is flattened into the same object, so the wire form is
/// `{"frame":{…},"status":"stale","replacement_digest":"…"}`.
///
/// Because serde buffers flattened members, `status` is also accepted as the
/// variant index `0`–`3`, and a `replacement_digest` that comes with any
/// status other than `stale` is ignored (SPEC.md
/// [§Leniency](../../SPEC.md#leniency)).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FrameVerdict {
    /// The frame this verdict is about, as a nested object.
    pub frame: FrameId,

    /// The verdict, written as `status` (and `replacement_digest`).
    #[serde(flatten)]
    pub verdict: Verdict,
}

impl FrameVerdict {
    /// A verdict about `frame`.
    pub fn new(frame: FrameId, verdict: Verdict) -> Self {
        FrameVerdict { frame, verdict }
    }
}

/// Whether a held frame may still be used (SPEC.md
/// [§Verdict](../../SPEC.md#type-verdict)).
///
/// Tagged by the `status` member. The set is closed: any other status is
/// rejected.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Verdict {
    /// `"valid"`: unchanged; the held content may be reused.
    Valid,
    /// `"stale"`: the frame changed; the held content must not be reused.
    Stale {
        /// The frame's current digest, if the provider knows it. Omitted
        /// when `None`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        replacement_digest: Option<String>,
    },
    /// `"gone"`: the frame no longer exists.
    Gone,
    /// `"unknown"`: the provider cannot tell; not a sign of validity.
    Unknown,
}

impl Verdict {
    /// The `status` string this verdict is written with.
    pub fn status(&self) -> &'static str {
        match self {
            Verdict::Valid => "valid",
            Verdict::Stale { .. } => "stale",
            Verdict::Gone => "gone",
            Verdict::Unknown => "unknown",
        }
    }

    /// Returns `true` only for [`Valid`](Self::Valid), the one verdict that
    /// lets a host keep using what it holds.
    pub fn permits_reuse(&self) -> bool {
        matches!(self, Verdict::Valid)
    }
}
