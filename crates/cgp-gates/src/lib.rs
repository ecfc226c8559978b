//! The maintainers' gates: what `cargo xtask check` holds the repository to, and
//! the released versions it guards. Not published; `cgp-codegen`, `xtask` and
//! the spec tests use it.
//!
//! - [`corpus`]: the examples SPEC.md writes, each with its expected verdict.
//! - [`coverage`]: which parts of the protocol the valid examples use.
//! - [`links`]: relative links and anchors in Markdown, checked offline.
//! - [`sync`]: the hand-written Rust types and the bundles describe one wire.
//! - [`release`]: the released versions (the [`release::Manifest`], which
//!   codegen keeps at `generated/schema/releases.json`), their frozen bundles,
//!   the bump a change needs (the bump gate), and `set-version`.
//! - [`reissue`]: whether new bundle bytes keep a released version's verdicts,
//!   replayed on the corpus and on randomised messages.

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

pub mod corpus;
pub mod coverage;
pub mod links;
pub mod reissue;
pub mod release;
pub mod sync;
