//! Code generation for cgp-schema: everything under `generated/`.
//!
//! - [`rust`]: the typify crate generated from the interop bundle.
//! - [`docs`]: the human docs, rendered with minijinja.

pub mod docs;
pub mod rust;
