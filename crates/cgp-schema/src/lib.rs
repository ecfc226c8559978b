//! The protocol's schemas as data: the ground every other cgp crate stands on.
//!
//! It reads the hand-authored schema directory ([`source`]), bundles it per
//! profile ([`bundle`](mod@bundle)), names the protocol [`version`]s, and reads a bundle
//! into the protocol [`model`] that every checker, gate and generator consults.
//! Beneath that, the text layer: JSON text with a position for every pointer
//! ([`json_text`]), the [`diagnostic`]s every problem becomes, the one [`digest`] text, how values are
//! [`shown`] in messages, and the [`mutate`]d texts tests and vectors derive.
//!
//! Used by `cgp-check`, `cgp-classify`, `cgp-conformance`, `cgp-report`,
//! `cgp-codegen`, `cgp-gates` and `cgp`. Nothing here prints or writes files.

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

/// The one table macro of the wire crates, shared from `cgp-types`.
#[doc(hidden)]
pub use cgp_types::spelled;

mod schema;
mod text;

pub use schema::{bundle, keywords, model, source, version};
pub use text::{diagnostic, digest, json_text, mutate, shown};

pub use bundle::{Bundle, Profile, PublishedBundleError, UnknownProfile};
pub use diagnostic::{Diagnostic, Diagnostics};
pub use source::SchemaSet;
pub use version::ProtocolVersion;
