//! The schema layer: loading the hand-authored schemas, bundling them per
//! profile, protocol versions, and the protocol model every gate and generator
//! reads.

pub mod bundle;
pub mod keywords;
pub mod model;
pub mod source;
pub mod version;
