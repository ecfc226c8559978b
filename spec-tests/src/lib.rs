//! Shared helpers for the spec tests.
