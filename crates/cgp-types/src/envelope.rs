//! The [`Envelope`], the one message type of the protocol, and the small
//! [`Variant`] and [`Direction`] enums that describe it without its payload
//! (SPEC.md [§Envelope](../../SPEC.md#envelope)).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::handshake::{AttesterKey, Capabilities, ProviderInfo};
use crate::query::{ContextQuery, ContextQueryResult};
use crate::verify::{VerifyRequest, VerifyResponse};
use crate::vocab::ErrorCode;

/// One protocol message (SPEC.md [§Envelope](../../SPEC.md#envelope)).
///
/// A JSON object tagged by its `"type"` member, which holds the snake_case
/// name of the variant and is written first. The set of variants is closed:
/// an unknown, missing or non-string `type` is rejected. Unknown members are
/// ignored (SPEC.md [§Unknown members](../../SPEC.md#unknown-members)).
///
/// Over stdio each envelope is one line of JSON; see [`crate::ndjson`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Envelope {
    /// `"handshake"`, host to provider: the first message, naming the
    /// protocol version the host speaks (SPEC.md
    /// [§handshake](../../SPEC.md#variant-handshake)).
    Handshake {
        /// The host's protocol version, normally
        /// [`PROTOCOL_VERSION`](crate::PROTOCOL_VERSION).
        protocol_version: String,
    },

    /// `"handshake_ack"`, provider to host: the provider's version, identity
    /// and capabilities (SPEC.md
    /// [§handshake_ack](../../SPEC.md#variant-handshake_ack)).
    HandshakeAck {
        /// The provider's protocol version; it must be in the host's family
        /// (SPEC.md [§Version rule](../../SPEC.md#version-rule)).
        protocol_version: String,

        /// Who the provider is.
        provider: ProviderInfo,

        /// What the provider can do. Required, though `{}` is enough.
        capabilities: Capabilities,

        /// The keys the provider signs attestations with. Omitted when
        /// empty; `null` is rejected.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        attester_keys: Vec<AttesterKey>,
    },

    /// `"query"`, host to provider: a request for context (SPEC.md
    /// [§query](../../SPEC.md#variant-query)).
    Query {
        /// A correlation id the answer must echo (SPEC.md
        /// [§Correlation](../../SPEC.md#correlation)). Omitted when `None`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,

        /// The request.
        query: ContextQuery,
    },

    /// `"frames"`, provider to host: the answer to a query (SPEC.md
    /// [§frames](../../SPEC.md#variant-frames)).
    Frames {
        /// The id of the query answered, echoed as sent. Omitted when `None`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,

        /// The answer.
        result: ContextQueryResult,
    },

    /// `"verify"`, host to provider: asks whether held frames are still
    /// valid (SPEC.md [§verify](../../SPEC.md#variant-verify)).
    ///
    /// Has no `id`: an `id` sent with it is ignored and not written back.
    Verify {
        /// The identities to check.
        request: VerifyRequest,
    },

    /// `"verified"`, provider to host: one verdict per identity asked about
    /// (SPEC.md [§verified](../../SPEC.md#variant-verified)). Has no `id`.
    Verified {
        /// The verdicts.
        response: VerifyResponse,
    },

    /// `"shutdown"`, host to provider: the provider should exit. Written as
    /// `{"type":"shutdown"}`; other members are ignored (SPEC.md
    /// [§shutdown](../../SPEC.md#variant-shutdown)).
    Shutdown,

    /// `"error"`, provider to host: a request failed, and the provider
    /// carries on (SPEC.md [§error](../../SPEC.md#variant-error)).
    Error {
        /// The id of the request that failed, if there is one. Omitted when
        /// `None`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,

        /// Why it failed. `None` reads as
        /// [`ErrorCode::Internal`]; see [`Envelope::error_code`]. Omitted
        /// when `None`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code: Option<ErrorCode>,

        /// A description for people. Required, though it may be empty.
        message: String,
    },
}

impl Envelope {
    /// A `handshake` naming [`PROTOCOL_VERSION`](crate::PROTOCOL_VERSION).
    pub fn handshake() -> Self {
        Envelope::Handshake {
            protocol_version: crate::PROTOCOL_VERSION.to_owned(),
        }
    }

    /// Which variant this is.
    pub fn variant(&self) -> Variant {
        match self {
            Envelope::Handshake { .. } => Variant::Handshake,
            Envelope::HandshakeAck { .. } => Variant::HandshakeAck,
            Envelope::Query { .. } => Variant::Query,
            Envelope::Frames { .. } => Variant::Frames,
            Envelope::Verify { .. } => Variant::Verify,
            Envelope::Verified { .. } => Variant::Verified,
            Envelope::Shutdown => Variant::Shutdown,
            Envelope::Error { .. } => Variant::Error,
        }
    }

    /// Who sends this envelope.
    pub fn direction(&self) -> Direction {
        self.variant().direction()
    }

    /// The correlation id of a `query`, `frames` or `error` envelope, if it
    /// has one (SPEC.md [§Correlation](../../SPEC.md#correlation)). `None`
    /// for the other variants, which never carry one.
    pub fn correlation_id(&self) -> Option<&str> {
        match self {
            Envelope::Query { id, .. }
            | Envelope::Frames { id, .. }
            | Envelope::Error { id, .. } => id.as_deref(),
            _ => None,
        }
    }

    /// The code of an `error` envelope, with an absent code read as
    /// [`ErrorCode::Internal`]. `None` for every other variant.
    pub fn error_code(&self) -> Option<ErrorCode> {
        match self {
            Envelope::Error { code, .. } => Some(code.clone().unwrap_or(ErrorCode::Internal)),
            _ => None,
        }
    }
}

/// Declares the variants once: each with its tag and who sends it. The macro
/// writes [`Variant`], [`Variant::ALL`], [`Variant::as_str`] and
/// [`Variant::direction`]; [`Envelope`] itself stays a plain serde enum.
macro_rules! variants {
    ($($(#[doc = $doc:literal])* $variant:ident => $tag:literal, $direction:ident;)*) => {
        /// The kinds of [`Envelope`], without their payloads (SPEC.md
        /// [§Envelope](../../SPEC.md#envelope)).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Variant {
            $($(#[doc = $doc])* $variant,)*
        }

        impl Variant {
            /// Every variant, in declaration order.
            pub const ALL: [Variant; [$($tag),*].len()] = [$(Variant::$variant,)*];

            /// The value of the envelope's `type` member.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Variant::$variant => $tag,)*
                }
            }

            /// Who sends envelopes of this variant.
            pub fn direction(self) -> Direction {
                match self {
                    $(Variant::$variant => Direction::$direction,)*
                }
            }
        }
    };
}

variants! {
    /// `handshake`
    Handshake => "handshake", HostToProvider;
    /// `handshake_ack`
    HandshakeAck => "handshake_ack", ProviderToHost;
    /// `query`
    Query => "query", HostToProvider;
    /// `frames`
    Frames => "frames", ProviderToHost;
    /// `verify`
    Verify => "verify", HostToProvider;
    /// `verified`
    Verified => "verified", ProviderToHost;
    /// `shutdown`
    Shutdown => "shutdown", HostToProvider;
    /// `error`
    Error => "error", ProviderToHost;
}

impl Variant {
    /// The variant whose `type` is exactly `tag`, if any. Case-sensitive.
    pub fn from_tag(tag: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.as_str() == tag)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which way an envelope travels (SPEC.md [§Envelope](../../SPEC.md#envelope)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// Sent by the host, read by the provider.
    HostToProvider,
    /// Sent by the provider, read by the host.
    ProviderToHost,
}

impl Direction {
    /// `"host-to-provider"` or `"provider-to-host"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::HostToProvider => "host-to-provider",
            Direction::ProviderToHost => "provider-to-host",
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_tags_round_trip() {
        for v in Variant::ALL {
            assert_eq!(Variant::from_tag(v.as_str()), Some(v));
        }
        assert_eq!(Variant::from_tag("Handshake"), None);
        assert_eq!(Variant::from_tag("handshake "), None);
    }

    /// Each variant's direction is the `x-cgp-direction` its schema in the
    /// repository's `schema/variants/` declares, and every schema has its
    /// variant here: read from the schemas, so that the protocol may grow.
    #[test]
    fn directions() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schema/variants");
        let mut declared = Vec::new();
        for entry in std::fs::read_dir(&dir).expect("schema/variants") {
            let path = entry.expect("entry").path();
            let text = std::fs::read_to_string(&path).expect("read");
            let schema: serde_json::Value = serde_json::from_str(&text).expect("json");
            let tag = schema["properties"]["type"]["const"]
                .as_str()
                .unwrap_or_else(|| panic!("{}: no type const", path.display()));
            let variant = Variant::from_tag(tag).unwrap_or_else(|| {
                panic!(
                    "{}: variant `{tag}` is missing from cgp_types::Variant \
                     (ARCHITECTURE.md, recipe \"Add an envelope variant\": the hand-written types)",
                    path.display()
                )
            });
            assert_eq!(
                Some(variant.direction().as_str()),
                schema["x-cgp-direction"].as_str(),
                "{}",
                path.display()
            );
            declared.push(variant);
        }
        declared.sort();
        let mut all = Variant::ALL.to_vec();
        all.sort();
        assert_eq!(
            declared,
            all,
            "a Variant without a schema in {}",
            dir.display()
        );
        assert_eq!(Direction::HostToProvider.as_str(), "host-to-provider");
        assert_eq!(Direction::ProviderToHost.to_string(), "provider-to-host");
    }

    #[test]
    fn variant_matches_serialized_tag() {
        let samples = [
            Envelope::handshake(),
            Envelope::Shutdown,
            Envelope::Verify {
                request: VerifyRequest::default(),
            },
            Envelope::Error {
                id: None,
                code: None,
                message: String::new(),
            },
        ];
        for env in samples {
            let value = serde_json::to_value(&env).unwrap();
            assert_eq!(value["type"], env.variant().as_str());
        }
    }
}
