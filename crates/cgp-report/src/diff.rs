//! `cgp diff --format json`: the classifier's comparison as one object.

use cgp_classify::{Bump, Change, Comparison};
use schemars::JsonSchema;
use serde::Serialize;

/// The comparison.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct DiffReport<'a> {
    /// The largest bump any change requires.
    pub required_bump: Bump,
    /// Every change, in the order of the new schema's files.
    pub changes: Vec<ChangeReport<'a>>,
}

/// One change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ChangeReport<'a> {
    /// The classifier rule's id, e.g. `FIELD_REMOVED`.
    pub rule: &'static str,
    /// A JSON pointer to the type or member changed, e.g. `/ContextQuery/goal`.
    pub pointer: &'a str,
    /// `file:line:col` of it in the old version, when it is there.
    #[schemars(required, extend("type" = ["string", "null"]))]
    pub old: Option<String>,
    /// `file:line:col` of it in the new version, when it is there.
    #[schemars(required, extend("type" = ["string", "null"]))]
    pub new: Option<String>,
    /// The directions the part travels in (`host-to-provider`,
    /// `provider-to-host`).
    pub directions: Vec<&'static str>,
    /// The bump this change requires.
    pub required_bump: Bump,
    /// What changed, for a reader.
    pub message: &'a str,
}

impl<'a> DiffReport<'a> {
    /// The report on `comparison`.
    pub fn new(comparison: &'a Comparison) -> Self {
        DiffReport {
            required_bump: comparison.required_bump,
            changes: comparison.changes.iter().map(ChangeReport::new).collect(),
        }
    }
}

impl<'a> ChangeReport<'a> {
    /// The report on one change.
    pub fn new(change: &'a Change) -> Self {
        ChangeReport {
            rule: change.rule.id(),
            pointer: &change.pointer,
            old: change.old.as_ref().map(ToString::to_string),
            new: change.new.as_ref().map(ToString::to_string),
            directions: change
                .directions
                .iter()
                .map(|direction| direction.as_str())
                .collect(),
            required_bump: change.required_bump,
            message: &change.message,
        }
    }
}
