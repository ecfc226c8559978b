//! Code generation for cgp-schema: everything under `generated/`.
//!
//! - [`rust`]: the typify crate generated from the interop bundle.

pub mod rust;
