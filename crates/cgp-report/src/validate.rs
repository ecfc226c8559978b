//! `cgp validate --format json`: one object per message, then a summary line
//! (and, with `--baseline`, one line per stale baseline entry before it).

use super::baseline::Entry;
use super::finding::FindingReport;
use schemars::JsonSchema;
use serde::Serialize;

/// The verdict on one message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct MessageVerdict<'a> {
    /// The input, as given (`<stdin>` for standard input).
    pub file: &'a str,
    /// The line the message starts on, from 1.
    pub line: usize,
    /// No finding at all.
    pub valid: bool,
    /// The envelope's `type`, when it could be read.
    #[serde(rename = "type")]
    #[schemars(required, extend("type" = ["string", "null"]))]
    pub variant: Option<&'static str>,
    /// What is wrong with it.
    pub errors: Vec<FindingReport<'a>>,
    /// With `--baseline`: every finding is in the baseline, so the message
    /// does not fail the run.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[schemars(default)]
    pub baselined: bool,
}

/// The counts of the whole run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Totals {
    /// Messages without an error (a broken SHOULD is a warning, not an error).
    pub passed: u64,
    /// Messages with one (baselined ones included).
    pub failed: u64,
    /// Broken SHOULDs: warnings, which fail no message.
    pub warnings: u64,
    /// With `--baseline`: failed messages whose findings are all in the baseline.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baselined: Option<u64>,
    /// With `--baseline`: baseline entries no longer found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stale: Option<u64>,
}

/// The last line: `{"summary": {...}}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Summary {
    /// The counts.
    pub summary: Totals,
}

/// A baseline entry that no finding matched any more: `{"stale": {...}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Stale<'a> {
    /// The entry, as the baseline file has it.
    pub stale: &'a Entry,
}

/// One line of the output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Record<'a> {
    /// A message's verdict.
    Message(MessageVerdict<'a>),
    /// A stale baseline entry.
    Stale(Stale<'a>),
    /// The summary, always last.
    Summary(Summary),
}
