//! The contextgraph schema library.
//!
//! Everything the toolchain knows about the protocol's schemas lives here, and
//! nothing here prints or writes files: front ends (`cargo xtask`, `cgp`) render
//! what these functions return.
//!
//! - [`source`]: load and check the hand-authored schemas under `schema/`.
//! - [`bundle`]: build the self-contained `interop` and `strict` bundles.
//! - [`corpus`]: extract the example corpus from SPEC.md.
//! - [`validate`]: validate JSON against a bundle with precise errors.
//! - [`json_text`]: JSON text with line/column positions for every pointer.
//! - [`version`]: protocol versions.
//! - [`classify`]: what changed between two schema versions, and the bump it needs.
//! - [`release`]: released versions (the frozen-bundle manifest) and the drift gate.
//! - [`reissue`]: whether new bundle bytes keep a released version's verdicts.
//! - [`transcript`]: check messages as they travel (NDJSON lines, documents).
//! - [`stream`]: check a whole NDJSON stream in order, on several threads.
//! - [`conformance`]: drive a live provider as a host would and judge both sides.
//! - [`semantic`]: the semantic rules of SPEC.md (B1, B3, F1, D1, P1–P3, H4, …).

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

pub mod bundle;
pub mod classify;
pub mod conformance;
pub mod corpus;
pub mod diagnostic;
pub mod graph;
pub mod json_text;
pub mod keywords;
pub mod reissue;
pub mod release;
pub mod semantic;
pub mod source;
pub mod stream;
pub mod sync;
pub mod transcript;
pub mod validate;
pub mod version;

pub use bundle::{Bundle, Profile, bundle};
pub use diagnostic::{Diagnostic, Diagnostics};
pub use source::SchemaSet;
pub use validate::{Validator, Violation};
pub use version::ProtocolVersion;
