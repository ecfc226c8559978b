//! Checking CGP messages: what `cgp validate` and `cgp check` judge a line by.
//!
//! - [`validate`]: one JSON value against a bundle ([`Validator`]), with the
//!   instance and schema pointers of every violation.
//! - [`transcript`]: NDJSON messages line by line, in layers (text, schema,
//!   the reference decoder's rules, then the semantic rules).
//! - [`stream`]: whole streams, split into blocks of lines and checked on
//!   several threads, findings in line order.
//! - [`semantic`]: the rules a schema cannot state (budgets, identities,
//!   provenance, attestation, sessions), each with its rule id and requirement
//!   level.
//!
//! Built on `cgp-schema`; used by `cgp`, `cgp-conformance`, `cgp-report`, the
//! generated single-pass validator and the maintainers' gates.

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

pub mod semantic;
pub mod stream;
pub mod transcript;
pub mod validate;

pub use validate::{Validator, Violation};
