//! Code generation.
