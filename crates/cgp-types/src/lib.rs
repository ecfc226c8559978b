//! Serde types for the Context Graph Protocol (CGP) wire, at the version
//! [`PROTOCOL_VERSION`] names (the one `schema/` declares).
//!
//! Every message is an [`Envelope`]: a JSON object tagged by its `"type"`
//! member, sent one per line over stdio (see [`ndjson`]) or one per body
//! over HTTP (SPEC.md [§Transport](../../SPEC.md#transport),
//! [§Envelope](../../SPEC.md#envelope)).
//!
//! The types serialize exactly like the reference implementation: the same
//! member order, the same defaults, the same members left out when empty, and
//! the same leniencies when decoding (SPEC.md
//! [§Leniency](../../SPEC.md#leniency)). Unknown members are ignored
//! everywhere (SPEC.md [§Unknown members](../../SPEC.md#unknown-members)).
//! Decoding applies serde's rules only; the conformance rules of SPEC.md are
//! not checked.
//!
//! # Modules
//!
//! - [`envelope`]: [`Envelope`] and its [`Variant`] and [`Direction`].
//! - [`handshake`]: what a provider declares in `handshake_ack`.
//! - [`query`]: the bodies of `query` and `frames`.
//! - [`frame`]: [`ContextFrame`] and what it contains.
//! - [`attestation`]: signatures and inclusion proofs over served frames.
//! - [`verify`]: frame identities and the bodies of `verify` and `verified`.
//! - [`vocab`]: the open string vocabularies [`FrameKind`], [`ErrorCode`]
//!   and [`EgressScope`].
//! - [`ndjson`]: line framing, [`encode_line`] and [`decode_line`].
//!
//! # Features
//!
//! - `schema`: derives `schemars::JsonSchema` (schemars 1.x) for every wire
//!   type. Off by default.
//!
//! # Example
//!
//! ```
//! use cgp_types::{ContextQuery, Envelope, Variant, decode_line, encode_line};
//!
//! let query = Envelope::Query {
//!     id: Some("q1".into()),
//!     query: ContextQuery::new("fix the failing test", 5, 2000),
//! };
//! let line = encode_line(&query)?;
//! assert_eq!(
//!     line,
//!     "{\"type\":\"query\",\"id\":\"q1\",\"query\":{\"goal\":\"fix the failing test\",\"max_frames\":5,\"max_tokens\":2000}}\n"
//! );
//! let back = decode_line(&line)?;
//! assert_eq!(back.variant(), Variant::Query);
//! assert_eq!(back.correlation_id(), Some("q1"));
//! # Ok::<(), cgp_types::WireError>(())
//! ```

// Input-derived data never panics the library: no unwrap/expect/panic and no
// unchecked indexing outside tests (SECURITY.md). Tests may assert freely.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::indexing_slicing,
        clippy::panic
    )
)]

/// Declares an enum once with the spelling of each value: the macro writes
/// the enum, `ALL` (every value in declaration order, its length computed) and
/// `as_str`, so adding a value is one line and the compiler catches the rest.
/// Exported (hidden) so `cgp-schema`, `cgp-classify` and `cgp-report` declare
/// their tables with this one macro.
#[doc(hidden)]
#[macro_export]
macro_rules! spelled {
    ($(#[$meta:meta])* pub enum $name:ident {
        $($(#[$variant_meta:meta])* $variant:ident => $text:literal,)*
    }) => {
        $(#[$meta])*
        pub enum $name {
            $($(#[$variant_meta])* $variant,)*
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: [$name; [$($text),*].len()] = [$($name::$variant,)*];

            /// The value's spelling.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }
        }
    };
}

pub mod attestation;
pub mod envelope;
pub mod frame;
pub mod handshake;
pub mod ndjson;
pub mod query;
pub mod verify;
pub mod vocab;

#[cfg(feature = "schema")]
pub mod schema_support;

pub use attestation::{FrameAttestation, InclusionProof, InclusionStep, ProvenanceAttestation};
pub use envelope::{Direction, Envelope, Variant};
pub use frame::{
    ContentFidelity, ContentRef, ContextFrame, FrameEmbedding, InlineContentRequirement,
    Provenance, Relation, Representation, Transform,
};
pub use handshake::{AttesterKey, Capabilities, DataFlow, ProviderInfo, QueryCapability};
pub use ndjson::{MAX_LINE_BYTES, WireError, decode_line, encode_line};
pub use query::{ContextQuery, ContextQueryResult};
pub use verify::{FrameId, FrameVerdict, Verdict, VerifyRequest, VerifyResponse};
pub use vocab::{EgressScope, ErrorCode, FrameKind};

// `PROTOCOL_VERSION`, written by `cargo xtask codegen` from the schemas.
include!("../generated/protocol_version.rs");

/// The family of a protocol version: everything before the first `.`, or
/// the whole string if it has none (SPEC.md
/// [§Version rule](../../SPEC.md#version-rule)).
///
/// ```
/// assert_eq!(cgp_types::protocol_family("demo/1.0-draft"), "demo/1");
/// assert_eq!(cgp_types::protocol_family("demo/1"), "demo/1");
/// ```
pub fn protocol_family(version: &str) -> &str {
    match version.split_once('.') {
        Some((family, _)) => family,
        None => version,
    }
}

/// Returns `true` if two protocol versions are in the same family and so
/// interoperate (SPEC.md [§Version rule](../../SPEC.md#version-rule), rule
/// H3).
///
/// No version grammar is enforced: any two strings can be compared.
///
/// ```
/// use cgp_types::versions_compatible;
///
/// assert!(versions_compatible("demo/1.0", "demo/1.9"));
/// assert!(!versions_compatible("demo/1.0", "demo/10.0"));
/// ```
pub fn versions_compatible(a: &str, b: &str) -> bool {
    protocol_family(a) == protocol_family(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_family_table() {
        // Derived from the working version, so the table holds across bumps.
        let family = protocol_family(PROTOCOL_VERSION);
        let (name, major) = family.split_once('/').expect("name/major");
        let major: u64 = major.parse().expect("numeric major");
        let table = [
            (PROTOCOL_VERSION.to_owned(), true),
            (format!("{family}.0-draft"), true),
            (format!("{family}.9"), true),
            (format!("{family}.banana.x"), true),
            (family.to_owned(), true),
            (format!("{name}/{}.0", major + 1), false),
            (format!("{name}/{major}0.0"), false),
            (format!("{name}/{major}-0"), false),
            ("mcp/1.0".to_owned(), false),
            (String::new(), false),
        ];
        for (version, ok) in table {
            assert_eq!(
                versions_compatible(PROTOCOL_VERSION, &version),
                ok,
                "{version:?}"
            );
            assert_eq!(
                versions_compatible(&version, PROTOCOL_VERSION),
                ok,
                "{version:?}"
            );
        }
        assert_eq!(protocol_family(""), "");
        assert_eq!(protocol_family(".x"), "");
        assert!(versions_compatible("", ""));
    }
}
