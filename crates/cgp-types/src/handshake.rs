//! What a provider declares about itself in its `handshake_ack`:
//! [`ProviderInfo`] with its [`DataFlow`], the [`Capabilities`] it offers,
//! and the [`AttesterKey`]s it signs with (SPEC.md
//! [§Handshake](../../SPEC.md#handshake)).

use serde::{Deserialize, Serialize};

use crate::frame::Representation;
use crate::vocab::EgressScope;

/// A public key a provider announces in its `handshake_ack`, for checking
/// the attestations it later serves (SPEC.md
/// [§AttesterKey](../../SPEC.md#type-attesterkey)).
///
/// All three members are required. Nothing about their format is checked
/// when decoding.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct AttesterKey {
    /// The key's id, as named by
    /// [`ProvenanceAttestation::key_id`](crate::ProvenanceAttestation::key_id).
    pub key_id: String,

    /// The signature scheme, an open string such as `ed25519`.
    pub algorithm: String,

    /// The raw public key in lowercase hex.
    pub public_key: String,
}

/// Who the provider is (SPEC.md
/// [§ProviderInfo](../../SPEC.md#type-providerinfo)).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ProviderInfo {
    /// The provider's name. Attestations use it as the provider id.
    pub name: String,

    /// The provider's own version, free-form.
    pub version: String,

    /// Which way data flows through the provider. Required, though `{}` is
    /// enough.
    pub data_flow: DataFlow,
}

/// Whether a provider reads, writes, or sends data off the machine (SPEC.md
/// [§DataFlow](../../SPEC.md#type-dataflow), [rule C5](../../SPEC.md#rule-c5)).
///
/// Every member has a default, so `{}` decodes. The three flags are always
/// written; `null` is rejected for all four members.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DataFlow {
    /// The provider reads data on the user's behalf. Defaults to `false`.
    #[serde(default)]
    pub reads: bool,

    /// The provider changes data. Defaults to `false`.
    #[serde(default)]
    pub writes: bool,

    /// Content may leave the machine. Defaults to `false`.
    #[serde(default)]
    pub egress: bool,

    /// Where content may go when it leaves. Omitted when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub egress_scopes: Vec<EgressScope>,
}

/// What a provider can do (SPEC.md
/// [§Capabilities](../../SPEC.md#type-capabilities)).
///
/// Every member has a default, so `{}` decodes. `query`, `correlation`,
/// `graph`, `verify` and `resolve` are always written, even when they hold
/// their defaults.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Capabilities {
    /// What the provider can be queried for. Defaults to `{"kinds":[]}`.
    #[serde(default)]
    pub query: QueryCapability,

    /// The provider echoes correlation ids, so the host may send them
    /// (SPEC.md [§Correlation](../../SPEC.md#correlation)). Defaults to
    /// `false`.
    #[serde(default)]
    pub correlation: bool,

    /// The provider serves graph frames with relations (SPEC.md
    /// [rules G1](../../SPEC.md#rule-g1) and [G2](../../SPEC.md#rule-g2)).
    /// Defaults to `false`.
    #[serde(default)]
    pub graph: bool,

    /// The embedding model the provider uses, as
    /// `<model>/<dimensions>[/<norm>]` (SPEC.md
    /// [rule E1](../../SPEC.md#rule-e1)). Omitted when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub embeddings_fingerprint: Option<String>,

    /// The provider answers `verify` requests (SPEC.md
    /// [§verify](../../SPEC.md#variant-verify)). Defaults to `false`.
    #[serde(default)]
    pub verify: bool,

    /// The representations the provider can serve. Empty means only `full`.
    /// Omitted when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub representations: Vec<Representation>,

    /// The provider can resolve content references. Defaults to `false`.
    #[serde(default)]
    pub resolve: bool,
}

/// What a provider can be queried for (SPEC.md
/// [§QueryCapability](../../SPEC.md#type-querycapability)).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct QueryCapability {
    /// The frame kinds served, as plain strings (not
    /// [`FrameKind`](crate::FrameKind)): any string is accepted. Defaults to
    /// empty, and is always written, even when empty.
    #[serde(default)]
    pub kinds: Vec<String>,
}

impl Capabilities {
    /// The representations on offer, with an empty list read as `[full]`.
    pub fn offered_representations(&self) -> Vec<Representation> {
        if self.representations.is_empty() {
            vec![Representation::Full]
        } else {
            self.representations.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_capabilities_write_their_flags() {
        let caps: Capabilities = serde_json::from_str("{}").unwrap();
        assert_eq!(caps, Capabilities::default());
        assert_eq!(
            serde_json::to_string(&caps).unwrap(),
            r#"{"query":{"kinds":[]},"correlation":false,"graph":false,"verify":false,"resolve":false}"#
        );
        assert_eq!(caps.offered_representations(), [Representation::Full]);
    }

    #[test]
    fn data_flow_defaults() {
        let flow: DataFlow = serde_json::from_str("{}").unwrap();
        assert_eq!(
            serde_json::to_string(&flow).unwrap(),
            r#"{"reads":false,"writes":false,"egress":false}"#
        );
        assert!(serde_json::from_str::<DataFlow>(r#"{"reads":null}"#).is_err());
    }
}
