//! `cgp proxy`: goes in place of a provider in a host's configuration, passes
//! every byte both ways unchanged, and judges every line as it passes with the
//! checker of `cgp validate --semantic`, for the host's rules and the
//! provider's.
//!
//! - [`stdio`]: the provider as a child process group; bytes pass as they
//!   arrive; the exit status passes back; signals are forwarded.
//! - [`http`]: a reverse proxy from a loopback listener to an HTTP(S)
//!   endpoint, with `cgp check --http`'s TLS rules and credentials.
//! - [`judge`]: the judge thread behind a bounded queue: a slow reader of the
//!   findings loses findings, never bytes.

// Input-derived data never panics the library (SECURITY.md).
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::indexing_slicing,
        clippy::panic
    )
)]

pub mod http;
pub mod judge;
pub mod stdio;

pub use judge::{Format, Judge, Side, Verdict};
