//! The classifier, rule by rule: one fixture pair (old, new) per rule, plus pairs
//! that must report no change. Each pair is a small in-memory schema set (a demo
//! protocol with one variant per direction, a type shared by both, a closed and an
//! open vocabulary and a tagged union) and one edit of it; every expectation names
//! the exact rule id, pointer, directions, bump and message.

mod bundles;
mod every_rule;
mod fixture;
mod no_change;
mod versions;
