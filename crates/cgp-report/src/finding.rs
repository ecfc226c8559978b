//! One finding on a message, as `cgp validate` and `cgp check` report it.

use cgp_check::transcript::{Finding, Layer};
use cgp_conformance::Severity;
use schemars::JsonSchema;
use serde::Serialize;

/// One thing wrong with a message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct FindingReport<'a> {
    /// A JSON pointer to the offending part of the message (`""`: the whole).
    pub instance_path: &'a str,
    /// A JSON pointer into the bundle to the keyword that failed, for a schema
    /// finding; `null` otherwise.
    #[schemars(required, extend("type" = ["string", "null"]))]
    pub schema_path: Option<&'a str>,
    /// What is wrong, for a reader.
    pub message: &'a str,
    /// Which check found it.
    pub layer: Layer,
    /// The input line it is on, from 1 (`cgp validate` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The column on that line, from 1.
    pub column: usize,
    /// The SPEC.md rule broken, for a semantic finding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<&'static str>,
    /// The rule's requirement level (`MUST` or `SHOULD`), for a semantic finding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<&'static str>,
    /// How much it counts: an interop or MUST problem is an error, a
    /// strict-profile (`cgp check`) or SHOULD one a warning.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub severity: Option<Severity>,
}

impl<'a> FindingReport<'a> {
    /// The finding of a message that starts on input `line` (when known), with
    /// its `severity` (when it has one).
    pub fn new(finding: &'a Finding, line: Option<usize>, severity: Option<Severity>) -> Self {
        let (absolute, column) = absolute(line.unwrap_or(1), finding);
        FindingReport {
            instance_path: &finding.instance_path,
            schema_path: finding.schema_path.as_deref(),
            message: &finding.message,
            layer: finding.layer,
            line: line.map(|_| absolute),
            column,
            rule: finding.rule.map(|rule| rule.as_str()),
            level: finding.rule.map(|rule| rule.requirement().as_str()),
            severity,
        }
    }
}

/// The input line and column of a finding in a message that starts on `line`.
pub fn absolute(line: usize, finding: &Finding) -> (usize, usize) {
    match finding.position {
        Some(position) => (line + position.line.saturating_sub(1), position.column),
        None => (line, 1),
    }
}
