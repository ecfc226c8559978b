//! Conformance checking of a live provider: drive it as a host would and judge
//! every line both sides send.
//!
//! - [`driver`]: the host's side of the conversation (handshake, queries, budget
//!   probes, verify, garbage, shutdown) over any [`Peer`], and the [`Report`].
//! - [`provenance`]: re-reading the local files of `file` provenance (CGP-FILE-BYTES).
//! - [`stdio`]: a provider run as a child process, spoken to over stdio, with a
//!   timeout on every read and its process group always killed and reaped.
//! - [`http`]: a provider behind a loopback HTTP endpoint, one `POST` per
//!   envelope.
//!
//! Built on `cgp-check`; `cgp check` ships it, and the vectors harness runs
//! implementations through its stdio peer.

// Input-derived data never panics the library: no unwrap/expect/panic and no
// unchecked indexing outside tests (SECURITY.md). Tests may assert freely.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::indexing_slicing,
        clippy::panic
    )
)]

pub mod driver;
pub mod http;
pub mod provenance;
pub mod stdio;

use cgp_check::semantic::{Requirement, Rule};
use cgp_check::transcript::Finding;
use cgp_types::Variant;
use std::fmt;
use std::io;
use std::time::{Duration, Instant};

pub use driver::{Event, Options, Respawn, run, run_observed};

/// The instant `timeout` from now, or a year from now when that overflows.
pub fn deadline(timeout: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(timeout)
        .or_else(|| now.checked_add(Duration::from_secs(365 * 24 * 3600)))
        .unwrap_or(now)
}

/// What a read from the provider produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Received {
    /// One line of output, without its line feed. `terminated` is false when the
    /// output ended in the middle of the line.
    Line {
        /// The line's bytes.
        bytes: Vec<u8>,
        /// Whether a line feed ended it.
        terminated: bool,
    },
    /// A line over `MAX_LINE_BYTES`, skipped unread.
    TooLong {
        /// Its length in bytes.
        length: u64,
    },
    /// Nothing arrived in time.
    Timeout,
    /// The provider closed its output.
    Closed,
    /// Reading failed.
    Failed(String),
    /// The transport said that no reply comes (an HTTP `202` or `204` with an
    /// empty body); what it said. Only a transport with one response per
    /// request produces it ([`Peer::one_response_per_request`]).
    NoReply(String),
    /// The transport answered this one request with a failure and no
    /// envelope (an HTTP status without an envelope body); what it said. The
    /// provider still serves the next request.
    Refused(String),
}

/// The provider, as the driver sees it: lines in, lines out, and a process
/// that ends.
pub trait Peer {
    /// Sends one line; the line feed is added.
    fn send(&mut self, line: &[u8]) -> io::Result<()>;
    /// The next line of output, waiting at most `timeout` (zero: only what has
    /// already arrived).
    fn receive(&mut self, timeout: Duration) -> Received;
    /// Waits at most `timeout` for the provider to end by itself; how it ended,
    /// or `None` if it is still running.
    fn wait_exit(&mut self, timeout: Duration) -> Option<String>;
    /// Ends the provider now and reaps it; how it ended.
    fn kill(&mut self) -> String;
    /// The last lines the provider wrote to its diagnostics stream, if any.
    fn diagnostics(&self) -> Vec<String> {
        Vec::new()
    }
    /// Whether every request gets exactly one response of the transport, in
    /// order, by the time [`Peer::send`] returns (HTTP): a reply, a
    /// [`Received::NoReply`] or a failure. Then nothing needs to be waited for
    /// to tell a missing reply from a late one.
    fn one_response_per_request(&self) -> bool {
        false
    }
    /// The status the line [`Peer::receive`] returned last came with, when
    /// the transport has statuses and it was not a success (an HTTP error
    /// response whose body is an envelope).
    fn reply_status(&self) -> Option<String> {
        None
    }
}

/// Who sent a line, or whose behaviour a problem is about.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// `cgp check`, playing the host.
    Host,
    /// The provider under test.
    Provider,
}

impl Side {
    /// `"host"` or `"provider"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Host => "host",
            Side::Provider => "provider",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How bad a problem is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Breaks the protocol (interop profile, semantic rules, behaviour).
    Error,
    /// Worth fixing but interoperable (strict profile, advice).
    Warning,
}

impl Severity {
    /// `"error"` or `"warning"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

impl From<Requirement> for Severity {
    /// A broken MUST is an error, a broken SHOULD a warning.
    fn from(requirement: Requirement) -> Self {
        match requirement {
            Requirement::Must => Severity::Error,
            Requirement::Should => Severity::Warning,
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One line that crossed the wire, and what is wrong with it.
#[derive(Debug, Clone)]
pub struct Message {
    /// Its place in the conversation, from 1.
    pub sequence: usize,
    /// Who sent it.
    pub side: Side,
    /// The line, decoded lossily and cut to [`SHOWN_LINE_CHARS`] characters.
    pub text: String,
    /// The line's length in bytes.
    pub length: u64,
    /// The variant its `type` names, when it names one.
    pub variant: Option<Variant>,
    /// A deliberately invalid line the host sends to test robustness (R1); its
    /// findings are expected and not counted.
    pub probe: bool,
    /// What is wrong with it: interop findings and broken MUSTs are errors,
    /// strict findings and broken SHOULDs warnings.
    pub findings: Vec<(Severity, Finding)>,
}

/// How much of a line a report keeps.
pub const SHOWN_LINE_CHARS: usize = 2000;

/// A problem with how a side behaved (a missing reply, a wrong variant, a flood)
/// rather than with one line's content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// How bad it is.
    pub severity: Severity,
    /// Whose behaviour it is.
    pub side: Side,
    /// The rule it breaks, when SPEC.md names one.
    pub rule: Option<Rule>,
    /// What happened and what was expected.
    pub message: String,
    /// The message it is about, when there is one.
    pub sequence: Option<usize>,
}

/// How a step went.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// No problem.
    Passed,
    /// Only warnings.
    Warned,
    /// At least one error.
    Failed,
    /// Not run (it does not apply, or an earlier step ended the conversation).
    Skipped,
}

impl Outcome {
    /// `"passed"`, `"warned"`, `"failed"` or `"skipped"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Passed => "passed",
            Outcome::Warned => "warned",
            Outcome::Failed => "failed",
            Outcome::Skipped => "skipped",
        }
    }
}

/// One step of the script: what the host did and what came back.
#[derive(Debug, Clone)]
pub struct Step {
    /// Its name, e.g. `query kind=doc`.
    pub name: String,
    /// What was learnt (the provider's identity, the reply), for the report.
    pub detail: String,
    /// Why it was skipped, when it was.
    pub skipped: Option<String>,
    /// The lines sent and received during it.
    pub messages: Vec<Message>,
    /// Behavioural problems.
    pub problems: Vec<Problem>,
}

impl Step {
    fn new(name: impl Into<String>) -> Self {
        Step {
            name: name.into(),
            detail: String::new(),
            skipped: None,
            messages: Vec::new(),
            problems: Vec::new(),
        }
    }

    /// Every counted problem of the step, as (severity, side).
    pub(crate) fn tally(&self) -> impl Iterator<Item = (Severity, Side)> + '_ {
        let lines = self
            .messages
            .iter()
            .filter(|message| !message.probe)
            .flat_map(|message| {
                message
                    .findings
                    .iter()
                    .map(move |(severity, _)| (*severity, message.side))
            });
        lines.chain(
            self.problems
                .iter()
                .map(|problem| (problem.severity, problem.side)),
        )
    }

    /// How the step went.
    pub fn outcome(&self) -> Outcome {
        if self.skipped.is_some() {
            return Outcome::Skipped;
        }
        let mut outcome = Outcome::Passed;
        for (severity, _) in self.tally() {
            match severity {
                Severity::Error => return Outcome::Failed,
                Severity::Warning => outcome = Outcome::Warned,
            }
        }
        outcome
    }
}

/// Everything `cgp check` found.
#[derive(Debug, Clone)]
pub struct Report {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// How the provider ended (`exit status: 0`, `killed by cgp: …`).
    pub exit: String,
    /// The last lines the provider wrote to its diagnostics stream.
    pub diagnostics: Vec<String>,
}

impl Report {
    /// The number of problems of `severity` sent or caused by `side`.
    pub fn count(&self, severity: Severity, side: Side) -> usize {
        self.steps
            .iter()
            .flat_map(Step::tally)
            .filter(|&(s, d)| s == severity && d == side)
            .count()
    }

    /// The number of errors, both sides.
    pub fn errors(&self) -> usize {
        self.count(Severity::Error, Side::Host) + self.count(Severity::Error, Side::Provider)
    }

    /// The number of warnings, both sides.
    pub fn warnings(&self) -> usize {
        self.count(Severity::Warning, Side::Host) + self.count(Severity::Warning, Side::Provider)
    }

    /// The number of lines exchanged.
    pub fn lines(&self) -> usize {
        self.steps.iter().map(|step| step.messages.len()).sum()
    }
}
