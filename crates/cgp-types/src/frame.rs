//! Context frames, the unit a provider returns, and everything nested in one:
//! [`ContentRef`], [`Transform`], [`Provenance`], [`FrameEmbedding`],
//! [`Relation`] and the closed enums [`Representation`], [`ContentFidelity`]
//! and [`InlineContentRequirement`].
//!
//! Only serde's rules apply when these types are decoded. The conformance
//! rules of SPEC.md (score range, honest token cost, digest and timestamp
//! grammars, the representation invariants) are not checked here.

use serde::{Deserialize, Serialize};

use crate::vocab::FrameKind;

spelled! {
    /// How a frame carries its content (SPEC.md
    /// [§Representation](../../SPEC.md#type-representation),
    /// [rules P1–P3](../../SPEC.md#rule-p1)).
    ///
    /// A closed set written as a snake_case string. The default is
    /// [`Full`](Self::Full), and a frame whose representation is `full` leaves
    /// the member out of its output altogether.
    ///
    /// Like every closed unit enum here, decoding also accepts the one-key object
    /// form `{"compact": null}`, which is written back as the plain string
    /// (SPEC.md [§Leniency](../../SPEC.md#leniency)).
    #[derive(
        Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
    )]
    #[serde(rename_all = "snake_case")]
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
    #[cfg_attr(
        feature = "schema",
        schemars(transform = crate::schema_support::plain_string_enum)
    )]
    pub enum Representation {
        /// `"full"`: the whole content is inline.
        #[default]
        Full => "full",
        /// `"compact"`: a transformed, shorter rendering is inline, with a
        /// reference to the canonical content.
        Compact => "compact",
        /// `"reference"`: no inline content, only a reference and a hash.
        Reference => "reference",
    }
}

impl Representation {
    /// Returns `true` for [`Full`](Self::Full), the value that is omitted
    /// from a frame's output.
    pub fn is_full(&self) -> bool {
        matches!(self, Self::Full)
    }
}

spelled! {
    /// How faithful inline content is to its source (SPEC.md
    /// [§ContentFidelity](../../SPEC.md#type-contentfidelity)).
    ///
    /// A closed set written as a snake_case string. A frame without a fidelity
    /// is read as exact.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
    #[cfg_attr(
        feature = "schema",
        schemars(transform = crate::schema_support::plain_string_enum)
    )]
    pub enum ContentFidelity {
        /// `"exact"`: byte for byte the source.
        Exact => "exact",
        /// `"normalized"`: the source with formatting normalised.
        Normalized => "normalized",
        /// `"summarized"`: a summary of the source.
        Summarized => "summarized",
        /// `"omitted"`: no content is carried.
        Omitted => "omitted",
    }
}

spelled! {
    /// Whether a frame's content must be inline or may be fetched later (SPEC.md
    /// [§InlineContentRequirement](../../SPEC.md#type-inlinecontentrequirement)).
    ///
    /// A closed set written as a snake_case string.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
    #[cfg_attr(
        feature = "schema",
        schemars(transform = crate::schema_support::plain_string_enum)
    )]
    pub enum InlineContentRequirement {
        /// `"required"`: the content must be inline.
        Required => "required",
        /// `"resolvable_reference_allowed"`: a reference that can be resolved is
        /// enough.
        ResolvableReferenceAllowed => "resolvable_reference_allowed",
    }
}

macro_rules! closed_enum_display {
    ($($name:ident),+) => {$(
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    )+};
}

closed_enum_display!(Representation, ContentFidelity, InlineContentRequirement);

/// Where the canonical content of a `compact` or `reference` frame can be
/// fetched (SPEC.md [§ContentRef](../../SPEC.md#type-contentref)).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ContentRef {
    /// The provider that can resolve [`uri`](Self::uri).
    pub provider_id: String,

    /// An opaque handle the provider resolves. Not the same thing as the
    /// frame's own [`uri`](ContextFrame::uri).
    pub uri: String,

    /// When the handle stops working; a timestamp is intended but nothing
    /// checks it. Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
}

/// The transformation that produced a `compact` frame's inline content
/// (SPEC.md [§Transform](../../SPEC.md#type-transform)).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Transform {
    /// What was done, for example `extractive_summary`.
    pub method: String,

    /// Which implementation did it.
    pub implementation: String,

    /// The implementation's version.
    pub version: String,
}

/// One step in the history of where a frame's content came from (SPEC.md
/// [§Provenance](../../SPEC.md#type-provenance),
/// [rule F5](../../SPEC.md#rule-f5)).
///
/// The Rust field [`kind`](Self::kind) is the JSON member `"type"`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Provenance {
    /// The sort of source, serialized as `"type"`: an open string such as
    /// `file`, `derivation` or `episode`.
    #[serde(rename = "type")]
    pub kind: String,

    /// Where the source lives. Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,

    /// The part of the source used, for example `L120-160`. Omitted when
    /// `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<String>,

    /// A digest of the source; rule F5 requires a well-formed one for
    /// `file` sources. Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,

    /// How the content was derived from the source. Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,

    /// Who or what performed the step. Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
}

impl Provenance {
    /// A provenance entry of the given `type` with no other members set.
    pub fn new(kind: impl Into<String>) -> Self {
        Provenance {
            kind: kind.into(),
            uri: None,
            range: None,
            digest: None,
            method: None,
            by: None,
        }
    }
}

/// An embedding attached to a frame (SPEC.md
/// [§FrameEmbedding](../../SPEC.md#type-frameembedding),
/// [rule E1](../../SPEC.md#rule-e1)).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FrameEmbedding {
    /// Which model produced the vector, as `<model>/<dimensions>[/<norm>]`.
    pub fingerprint: String,

    /// The vector. Omitted when `None`; an empty vector is still written.
    /// Values are `f32`, so they re-encode in their shortest `f32` spelling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vector: Option<Vec<f32>>,
}

/// A typed edge from a frame to something else (SPEC.md
/// [§Relation](../../SPEC.md#type-relation),
/// [rules G1](../../SPEC.md#rule-g1) and [G2](../../SPEC.md#rule-g2)).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Relation {
    /// The edge type, an open string such as `code.calls`.
    pub rel: String,

    /// What the edge points to. Rule G2 wants it non-blank; decoding accepts
    /// `""`.
    pub target_uri: String,

    /// A label for the target. Rule G1 wants it non-blank when present.
    /// Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
}

/// One piece of context returned by a provider (SPEC.md
/// [§ContextFrame](../../SPEC.md#type-contextframe)).
///
/// Members are written in declaration order. Optional members are omitted
/// when `None` or empty, and [`representation`](Self::representation) is
/// omitted when it is `full`. A frame carries no attestation of its own:
/// attestations travel on the [`ContextQueryResult`](crate::ContextQueryResult).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ContextFrame {
    /// The frame's id, unique within its provider.
    pub id: String,

    /// What sort of thing the frame holds.
    pub kind: FrameKind,

    /// A short title. Conformance wants it non-empty; decoding does not.
    pub title: String,

    /// The inline content. `None` for `reference` frames. Omitted when
    /// `None`; `Some("")` is written as `""`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,

    /// Digest of the inline content (SPEC.md [rule D1](../../SPEC.md#rule-d1)).
    /// Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_digest: Option<String>,

    /// Where the content comes from. Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,

    /// How the content is carried. Defaults to `full` when absent, and is
    /// omitted from the output when `full`. `null` is rejected.
    #[serde(default, skip_serializing_if = "Representation::is_full")]
    pub representation: Representation,

    /// How faithful the inline content is. Omitted when `None` (read as
    /// exact).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_fidelity: Option<ContentFidelity>,

    /// Hash of the canonical content, which `compact` and `reference` frames
    /// need. Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub canonical_content_hash: Option<String>,

    /// Where the canonical content can be fetched. Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_ref: Option<ContentRef>,

    /// How a `compact` frame's content was produced. Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transform: Option<Transform>,

    /// The lowest fidelity the provider considers acceptable for this frame.
    /// Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum_content_fidelity: Option<ContentFidelity>,

    /// Whether the content must be inline. Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inline_content_requirement: Option<InlineContentRequirement>,

    /// Relevance to the query; rule [F1](../../SPEC.md#rule-f1) wants it in
    /// `[0, 1]`. An `f32`, so it re-encodes in its shortest `f32` spelling.
    pub score: f32,

    /// What the frame costs against the token budget (SPEC.md
    /// [rule B3](../../SPEC.md#rule-b3)).
    pub token_cost: u32,

    /// What the canonical content would cost. Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub canonical_token_cost: Option<u32>,

    /// The tokenizer a cost was measured with, such as `openai:o200k_base`.
    /// Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokenizer_ref: Option<String>,

    /// Start of the period the content is true for (SPEC.md
    /// [rule F4](../../SPEC.md#rule-f4)). Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valid_from: Option<String>,

    /// End of the period the content is true for. Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valid_to: Option<String>,

    /// When the provider recorded the content. Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recorded_at: Option<String>,

    /// Where the content came from, closest to the source first. Omitted
    /// when empty; `null` is rejected.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub provenance: Vec<Provenance>,

    /// The label a host cites the frame by. Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub citation_label: Option<String>,

    /// An embedding of the content. Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub embedding: Option<FrameEmbedding>,

    /// Edges to other things. Omitted when empty; `null` is rejected.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub relations: Vec<Relation>,
}

impl ContextFrame {
    /// A `full` frame with the required members set, `content` as given, and
    /// every other member empty.
    pub fn new(
        id: impl Into<String>,
        kind: FrameKind,
        title: impl Into<String>,
        content: Option<String>,
        score: f32,
        token_cost: u32,
    ) -> Self {
        ContextFrame {
            id: id.into(),
            kind,
            title: title.into(),
            content,
            content_digest: None,
            uri: None,
            representation: Representation::Full,
            content_fidelity: None,
            canonical_content_hash: None,
            content_ref: None,
            transform: None,
            minimum_content_fidelity: None,
            inline_content_requirement: None,
            score,
            token_cost,
            canonical_token_cost: None,
            tokenizer_ref: None,
            valid_from: None,
            valid_to: None,
            recorded_at: None,
            provenance: Vec::new(),
            citation_label: None,
            embedding: None,
            relations: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_enum_strings_match_serde() {
        for r in Representation::ALL {
            assert_eq!(
                serde_json::to_string(&r).unwrap(),
                format!("\"{}\"", r.as_str())
            );
        }
        for f in ContentFidelity::ALL {
            assert_eq!(
                serde_json::to_string(&f).unwrap(),
                format!("\"{}\"", f.as_str())
            );
        }
        for i in InlineContentRequirement::ALL {
            assert_eq!(serde_json::to_string(&i).unwrap(), format!("\"{i}\""));
        }
    }

    #[test]
    fn provenance_kind_is_the_type_member() {
        let p = Provenance::new("file");
        assert_eq!(serde_json::to_string(&p).unwrap(), r#"{"type":"file"}"#);
        let err = serde_json::from_str::<Provenance>(r#"{"kind":"file"}"#).unwrap_err();
        assert!(err.to_string().contains("missing field `type`"), "{err}");
    }

    #[test]
    fn a_full_frame_omits_representation() {
        let frame = ContextFrame::new("f", FrameKind::Doc, "t", Some(String::new()), 0.5, 0);
        assert_eq!(
            serde_json::to_string(&frame).unwrap(),
            r#"{"id":"f","kind":"doc","title":"t","content":"","score":0.5,"token_cost":0}"#
        );
    }
}
