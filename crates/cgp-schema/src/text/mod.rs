//! The text layer: JSON text with a position for every pointer, and the
//! diagnostics every problem becomes.

pub mod diagnostic;
pub mod json_text;
