//! Compatibility between protocol versions: what changed and the bump it needs
//! (the classifier), and the released versions the drift gate holds to.

pub mod classify;
pub mod release;
