//! The text layer: JSON text with a position for every pointer, the
//! diagnostics every problem becomes, and how values are shown in messages.

pub mod diagnostic;
pub mod digest;
pub mod json_text;
pub mod mutate;
pub mod shown;
