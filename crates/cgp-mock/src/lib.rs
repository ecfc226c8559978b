//! `cgp mock`: a Context Graph Protocol provider built from the protocol model
//! and the SPEC.md corpus, for host authors to develop and test against.
//!
//! - [`Mock`]: the provider's answers, one incoming line at a time, with no
//!   I/O of its own: a `handshake_ack` declaring every capability it honours
//!   (correlation, verify, graph, an embeddings fingerprint, the kinds its
//!   corpus holds), `frames` drawn from the corpus that honour `kinds`, the
//!   budgets, `as_of` and anchors, `verified` verdicts, coded `error`s.
//! - [`Behaviour`]: the faults it injects on request, each with the rule it
//!   breaks; [`Without`]: the capabilities it withholds.
//! - [`serve`]: the mock over stdio and over HTTP.
//!
//! Its frames are codegen's copy of the corpus (`corpus/corpus.json`); the
//! same seed gives the same output.

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

mod behaviour;
mod corpus;
mod mock;
pub mod serve;
#[cfg(test)]
mod tests;

pub use behaviour::{Behaviour, Without};
pub use corpus::{Corpus, embedded};
pub use mock::{Answer, End, Mock, Options, PROVIDER_NAME, UNKNOWN_KIND};
