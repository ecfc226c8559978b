//! Wire checking: one JSON value against a bundle, NDJSON messages line by line
//! (text, schema and decoder layers), and whole streams on several threads.

pub mod stream;
pub mod transcript;
pub mod validate;
