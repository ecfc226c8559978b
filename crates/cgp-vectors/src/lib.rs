//! Conformance vectors: cases any implementation of the wire, in any language,
//! can run against the reference's answers (SPEC.md §Conformance vectors).
//!
//! - [`case`]: the case format (one JSON object per NDJSON line) and reading it.
//! - [`reason`]: the documented list of rejection categories.
//! - [`decode`]: what the reference decoder does with the bytes of one case on
//!   each transport, through the hand-written types.
//! - [`format`](mod@format): the JSON Schema of the case format.
//! - [`harness`]: the harness protocol: driving a program through every case
//!   and comparing its answers, with a [`report::Report`] as the result.

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

pub mod case;
pub mod decode;
pub mod format;
pub mod harness;
pub mod reason;
pub mod report;

pub use case::{Case, CaseError, CaseProblem, Decode, InputError, Transport, Verdict, read_cases};
pub use reason::Reason;
pub use report::Report;
