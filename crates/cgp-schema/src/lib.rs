//! The contextgraph schema library.
//!
//! Everything the toolchain knows about the protocol's schemas lives here, and
//! nothing here prints or writes files: front ends (`cargo xtask`, `cgp`) render
//! what these functions return.
//!
//! The source is grouped by layer, each depending only on those above it
//! (`tests/layers.rs` holds the crate to that order); the public modules are the
//! leaves, all at the crate root:
//!
//! - text: JSON text with positions ([`json_text`]) and [`diagnostic`]s.
//! - schema: loading ([`source`]), bundling ([`bundle`](mod@bundle)),
//!   [`keywords`], [`version`]s and the protocol [`model`] every gate and
//!   generator reads.
//! - [`semantic`]: the semantic rules of SPEC.md (B1, B3, F1, D1, P1–P3, H4, …).
//! - wire: checking messages: one value ([`validate`]), NDJSON lines
//!   ([`transcript`], which applies the semantic rules) and whole streams
//!   ([`stream`]).
//! - gates: the SPEC.md [`corpus`] and the [`sync`] gate.
//! - compat: what changed between versions ([`classify`]) and the released
//!   versions ([`release`], [`reissue`], which replays the corpus).
//! - [`conformance`]: drive a live provider as a host would and judge both sides.
//! - [`report`]: what `cgp` reports, as serialisable types with JSON Schemas,
//!   and the CI formats (JUnit XML, baselines, changelogs).

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

mod compat;
pub mod conformance;
mod gates;
pub mod report;
mod schema;
pub mod semantic;
mod text;
mod wire;

pub use compat::{classify, reissue, release};
pub use gates::{corpus, sync};
pub use schema::{bundle, keywords, model, source, version};
pub use semantic::attestation;
pub use text::{diagnostic, json_text, mutate};
pub use wire::{stream, transcript, validate};

pub use bundle::{Bundle, Profile, bundle};
pub use diagnostic::{Diagnostic, Diagnostics};
pub use source::SchemaSet;
pub use validate::{Validator, Violation};
pub use version::ProtocolVersion;
