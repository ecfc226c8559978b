//! Code generation for cgp-schema: everything under `generated/`, and the
//! copies of it the crates embed.
//!
//! - [`plan`]: compute every generated file in memory from `schema/` and SPEC.md.
//! - [`targets`]: the one seam of the package targets and their list
//!   ([`targets::Language::ALL`]); the plan, the vectors, the tests and the
//!   bench iterate it.
//! - [`packages`]: which generator is each language's, and every package
//!   rendered from one input.
//! - [`published`]: where the published bundles live.
//! - [`output`]: the one atomic writer of `generated/`, and the comparison
//!   `check` uses instead.
//! - The targets: [`rust`] (the typify crate generated from the interop
//!   bundle), [`python`] (the package `cgp_types`), [`typescript`] (the npm
//!   package) and [`go`] (the Go module), the last three rendered with
//!   minijinja.
//! - [`naming`]: the one naming of types, branches, members and constants
//!   every target uses.
//! - [`docs`]: the human docs, rendered with minijinja.
//! - [`unsupported`]: why the Go or TypeScript generator refuses a shape.
//! - [`validator`]: the single-pass validator crate, one module per bundle.
//! - [`vectors`]: the conformance vectors and the copy `cgp` embeds.
//! - [`site`]: the protocol as a static site (`cargo xtask site`).
//! - [`embed`]: the copies inside the crates that compile them in.
//! - [`home`]: the project's public home, read from the workspace manifest.
//! - [`gates`]: the gates of `cargo xtask check`, with typed problems, apart
//!   from the generators: they read a [`Generation`] and never feed [`plan`].
//!   Beneath them, [`gates::release`] (the release manifest and frozen
//!   bundles on disk), [`gates::changelog`] (CHANGELOG.md's sections, derived)
//!   and [`gates::releasing`] (the decisions of `cargo xtask release`).
//!
//! What the valid SPEC.md examples cover and the offline link check live in
//! `cgp-gates` ([`cgp_gates::coverage`], [`cgp_gates::links`]), which the
//! [`gates`] run.

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

pub mod docs;
pub mod embed;
pub mod gates;
pub mod go;
pub mod home;
pub mod java;
pub mod naming;
pub mod output;
pub mod packages;
pub mod plan;
pub mod published;
pub mod python;
pub mod rust;
pub mod site;
#[cfg(test)]
mod snapshots;
pub mod targets;
#[cfg(test)]
mod test_model;
pub mod typescript;
pub mod unsupported;
pub mod validator;
pub mod vectors;

pub use plan::{Generation, generate};

/// Generated files in memory: path relative to the repository root, and
/// contents, sorted by path.
pub type Files = std::collections::BTreeMap<String, String>;
