//! What a run of the vectors found: plain data (serde) that each front end
//! renders in its own format.

use crate::case::Case;
use serde::Serialize;
use std::collections::BTreeMap;

/// One answer: the reference's (from the case) or the program's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Answer {
    /// Whether the bytes decode.
    pub accept: bool,
    /// The canonical line, when accepted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub canonical: Option<String>,
    /// The reference's rejection category (the program does not give one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// One case the program answered otherwise than the reference.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Disagreement {
    /// The case's id.
    pub id: String,
    /// What the case shows.
    pub description: String,
    /// How its bytes travel.
    pub transport: String,
    /// The input as the case holds it (`input`, or `base64:` and `input_base64`).
    pub input: String,
    /// The reference's answer.
    pub expected: Answer,
    /// The program's answer.
    pub actual: Answer,
}

/// Cases and agreements in one group (a rejection category, a variant, a
/// transport).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// The group's name: a category (`accept` for accepted inputs), a variant
    /// (`-` for inputs that name none) or a transport.
    pub name: String,
    /// Cases in the group.
    pub cases: usize,
    /// Cases the program answered as the reference.
    pub agreed: usize,
}

/// Why the run stopped before the last case: the program is broken as a
/// harness, whatever its answers.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Failure {
    /// The program could not be started.
    Start {
        /// Why.
        message: String,
    },
    /// The program closed its output or exited before answering `case`.
    Exited {
        /// The case left unanswered.
        case: String,
        /// How it ended (`exit status: 3`, `signal: 9`, …).
        status: String,
        /// The last lines of its standard error.
        stderr: Vec<String>,
    },
    /// No answer to `case` within the timeout.
    Timeout {
        /// The case left unanswered.
        case: String,
        /// The timeout, in seconds.
        seconds: f64,
    },
    /// The answer to `case` names another id.
    OutOfOrder {
        /// The case expected.
        case: String,
        /// The id the program answered with.
        answered: String,
    },
    /// The answer to `case` is not an answer line.
    Garbage {
        /// The case expected.
        case: String,
        /// The line, cut to a readable length.
        line: String,
        /// What is wrong with it.
        problem: String,
    },
    /// The program wrote more after answering the last case.
    Extra {
        /// The line, cut to a readable length.
        line: String,
    },
}

impl Failure {
    /// One sentence naming the case and what went wrong.
    pub fn message(&self) -> String {
        match self {
            Failure::Start { message } => format!("cannot start the program: {message}"),
            Failure::Exited {
                case,
                status,
                stderr,
            } => {
                let mut text =
                    format!("the program ended ({status}) without answering case {case}");
                if !stderr.is_empty() {
                    text.push_str("; its standard error ended with:\n  ");
                    text.push_str(&stderr.join("\n  "));
                }
                text
            }
            Failure::Timeout { case, seconds } => {
                format!(
                    "no answer to case {case} within {seconds} s (timeout); the program was killed"
                )
            }
            Failure::OutOfOrder { case, answered } => {
                format!("out of order: case {case} was due, the program answered id {answered}")
            }
            Failure::Garbage {
                case,
                line,
                problem,
            } => format!("garbage instead of the answer to case {case}: {problem}: {line}"),
            Failure::Extra { line } => {
                format!("the program wrote a line after answering the last case: {line}")
            }
        }
    }
}

/// The result of one run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The protocol version whose vectors ran.
    pub version: String,
    /// The program and its arguments.
    pub program: Vec<String>,
    /// Cases in the run.
    pub cases: usize,
    /// Cases the program answered (in order) before the run ended.
    pub answered: usize,
    /// Cases answered as the reference answers them.
    pub agreed: usize,
    /// Per rejection category (`accept` for accepted inputs), in
    /// documentation order.
    pub categories: Vec<Tally>,
    /// Per envelope variant, by name (`-`: the input names none).
    pub variants: Vec<Tally>,
    /// Per transport.
    pub transports: Vec<Tally>,
    /// How many cases the program answered otherwise.
    pub disagreement_count: usize,
    /// The first of them, in case order.
    pub disagreements: Vec<Disagreement>,
    /// Why the run stopped early, if it did.
    pub failure: Option<Failure>,
    /// Whether each answered case agreed, in case order (a front end's
    /// per-case output, e.g. JUnit; the JSON report gives the tallies).
    #[serde(skip)]
    pub outcomes: Vec<bool>,
}

impl Report {
    /// Whether every case was answered as the reference answers it.
    pub fn passed(&self) -> bool {
        self.failure.is_none() && self.agreed == self.cases
    }

    /// An empty report over `cases`, before anything ran.
    pub(crate) fn new(version: &str, program: Vec<String>, cases: &[Case]) -> Self {
        Report {
            version: version.to_owned(),
            program,
            cases: cases.len(),
            answered: 0,
            agreed: 0,
            categories: Vec::new(),
            variants: Vec::new(),
            transports: Vec::new(),
            disagreement_count: 0,
            disagreements: Vec::new(),
            failure: None,
            outcomes: Vec::new(),
        }
    }

    /// Fills in the tallies from which cases agreed (`agreed[i]` for
    /// `cases[i]`; cases past its end were not answered).
    pub(crate) fn tally(&mut self, cases: &[Case], agreed: &[bool]) {
        let mut categories: BTreeMap<(usize, &str), (usize, usize)> = BTreeMap::new();
        let mut variants: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        let mut transports: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        for (index, case) in cases.iter().enumerate() {
            let ok = usize::from(agreed.get(index).copied().unwrap_or(false));
            let order = match case.decode.reason {
                Some(reason) if !case.decode.accept => crate::reason::Reason::ALL
                    .iter()
                    .position(|known| *known == reason)
                    .map_or(usize::MAX, |position| position + 1),
                _ => 0,
            };
            for slot in [
                categories.entry((order, case.category())).or_default(),
                variants
                    .entry(case.variant.as_deref().unwrap_or("-"))
                    .or_default(),
                transports.entry(case.transport.as_str()).or_default(),
            ] {
                slot.0 += 1;
                slot.1 += ok;
            }
        }
        let tallies = |entries: Vec<(&str, (usize, usize))>| -> Vec<Tally> {
            entries
                .into_iter()
                .map(|(name, (cases, agreed))| Tally {
                    name: name.to_owned(),
                    cases,
                    agreed,
                })
                .collect()
        };
        self.categories = tallies(
            categories
                .into_iter()
                .map(|((_, name), counts)| (name, counts))
                .collect(),
        );
        self.variants = tallies(variants.into_iter().collect());
        self.transports = tallies(transports.into_iter().collect());
        self.agreed = agreed.iter().filter(|ok| **ok).count();
    }
}
