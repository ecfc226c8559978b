//! `cgp check --format json`: the conformance report as one object.

use super::baseline::Entry;
use super::finding::FindingReport;
use cgp_conformance::{Message, Outcome, Problem, Report, Severity, Side, Step};
use schemars::JsonSchema;
use serde::Serialize;

/// The whole report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct CheckReport<'a> {
    /// The stdio provider's command line (absent for an HTTP provider).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<&'a [String]>,
    /// The HTTP provider's endpoint (absent for a stdio provider).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<&'a str>,
    /// No error was found (with `--baseline`: none outside the baseline, and
    /// no stale entry).
    pub passed: bool,
    /// The counts.
    pub summary: CheckSummary,
    /// Every step, in the order run.
    pub steps: Vec<StepReport<'a>>,
    /// How the provider ended.
    pub exit: &'a str,
    /// The last lines the provider wrote to its standard error.
    pub stderr: &'a [String],
    /// With `--baseline`: what the baseline did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<BaselineUse<'a>>,
}

/// What `--baseline` matched and what it no longer matches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct BaselineUse<'a> {
    /// Errors found that the baseline accepts.
    pub accepted: usize,
    /// Entries no finding matched: each fails the run.
    pub stale: Vec<&'a Entry>,
}

/// Problems counted by side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct BySide {
    /// Lines the host (`cgp check`) sent.
    pub host: usize,
    /// The provider's lines and behaviour.
    pub provider: usize,
}

/// The counts of the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct CheckSummary {
    /// Lines exchanged, both ways.
    pub lines: usize,
    /// Errors.
    pub errors: BySide,
    /// Warnings.
    pub warnings: BySide,
}

/// One step of the conversation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct StepReport<'a> {
    /// What the step does.
    pub name: &'a str,
    /// How it went.
    pub outcome: Outcome,
    /// What the provider said, in a few words.
    pub detail: &'a str,
    /// Why it was skipped, when it was.
    #[schemars(required, extend("type" = ["string", "null"]))]
    pub skipped: Option<&'a str>,
    /// Problems of behaviour (not of one line's content).
    pub problems: Vec<ProblemReport<'a>>,
    /// The lines exchanged.
    pub messages: Vec<MessageReport<'a>>,
}

/// A problem of behaviour.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ProblemReport<'a> {
    /// How much it counts.
    pub severity: Severity,
    /// Whose behaviour.
    pub side: Side,
    /// The SPEC.md rule broken, when one is.
    #[schemars(required, extend("type" = ["string", "null"]))]
    pub rule: Option<&'static str>,
    /// That rule's requirement level (`MUST` or `SHOULD`), when there is a rule.
    #[schemars(required, extend("type" = ["string", "null"]))]
    pub level: Option<&'static str>,
    /// What went wrong.
    pub message: &'a str,
    /// The line it is about, when there is one.
    #[schemars(required, extend("type" = ["integer", "null"]))]
    pub sequence: Option<usize>,
}

/// One line exchanged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct MessageReport<'a> {
    /// Its number in the conversation, from 1.
    pub sequence: usize,
    /// Who sent it.
    pub side: Side,
    /// The envelope's `type`, when it could be read.
    #[serde(rename = "type")]
    #[schemars(required, extend("type" = ["string", "null"]))]
    pub variant: Option<&'static str>,
    /// Invalid on purpose (a probe the host sends); its findings do not count.
    pub probe: bool,
    /// Its length in bytes.
    pub length: u64,
    /// The line, cut after a few thousand characters.
    pub text: &'a str,
    /// What is wrong with it.
    pub findings: Vec<FindingReport<'a>>,
}

impl<'a> CheckReport<'a> {
    /// The report on `report`, run against the provider named by `target`.
    pub fn new(target: Target<'a>, report: &'a Report) -> Self {
        let (command, url) = match target {
            Target::Command(command) => (Some(command), None),
            Target::Url(url) => (None, Some(url)),
        };
        let count = |severity, side| report.count(severity, side);
        CheckReport {
            command,
            url,
            passed: report.errors() == 0,
            summary: CheckSummary {
                lines: report.lines(),
                errors: BySide {
                    host: count(Severity::Error, Side::Host),
                    provider: count(Severity::Error, Side::Provider),
                },
                warnings: BySide {
                    host: count(Severity::Warning, Side::Host),
                    provider: count(Severity::Warning, Side::Provider),
                },
            },
            steps: report.steps.iter().map(StepReport::new).collect(),
            exit: &report.exit,
            stderr: &report.diagnostics,
            baseline: None,
        }
    }
}

/// Which provider a report is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target<'a> {
    /// A stdio provider's command line.
    Command(&'a [String]),
    /// An HTTP endpoint.
    Url(&'a str),
}

impl<'a> StepReport<'a> {
    fn new(step: &'a Step) -> Self {
        StepReport {
            name: &step.name,
            outcome: step.outcome(),
            detail: &step.detail,
            skipped: step.skipped.as_deref(),
            problems: step.problems.iter().map(ProblemReport::new).collect(),
            messages: step.messages.iter().map(MessageReport::new).collect(),
        }
    }
}

impl<'a> ProblemReport<'a> {
    fn new(problem: &'a Problem) -> Self {
        ProblemReport {
            severity: problem.severity,
            side: problem.side,
            rule: problem.rule.map(|rule| rule.as_str()),
            level: problem.rule.map(|rule| rule.requirement().as_str()),
            message: &problem.message,
            sequence: problem.sequence,
        }
    }
}

impl<'a> MessageReport<'a> {
    fn new(message: &'a Message) -> Self {
        MessageReport {
            sequence: message.sequence,
            side: message.side,
            variant: message.variant.map(|variant| variant.as_str()),
            probe: message.probe,
            length: message.length,
            text: &message.text,
            findings: message
                .findings
                .iter()
                .map(|(severity, finding)| FindingReport::new(finding, None, Some(*severity)))
                .collect(),
        }
    }
}
