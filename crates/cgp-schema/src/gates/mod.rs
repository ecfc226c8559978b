//! The checks `cargo xtask check` runs that live in the library: the SPEC.md
//! corpus and the sync gate between the hand-written types and the bundles.

pub mod corpus;
pub mod sync;
