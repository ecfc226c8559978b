//! Compatibility between protocol versions: what changed and the bump it needs
//! (the classifier), the released versions the drift gate holds to, and whether
//! new bundle bytes keep a released version's verdicts (re-issue).

pub mod classify;
pub mod reissue;
pub mod release;
