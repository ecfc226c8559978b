//! The harness protocol (SPEC.md §Conformance vectors): the runner starts the
//! program once, writes one case per line to its standard input (id,
//! transport, input) and reads one answer line per case, in order, before it
//! writes the next. Every read has a timeout and the program's process group
//! is killed on every path, so a broken program ends the run with a
//! [`Failure`] naming the case, never a hang.

use crate::case::{Case, Transport};
use crate::report::{Answer, Disagreement, Failure, Report};
use cgp_conformance::stdio::{ChildProvider, Launch};
use cgp_conformance::{Peer, Received};
use serde_json::Value;
use std::ffi::OsString;
use std::time::Duration;

/// How a run goes.
#[derive(Debug, Clone)]
pub struct Options {
    /// The protocol version the cases belong to, for the report.
    pub version: String,
    /// How long to wait for each answer, and for the exit at the end.
    pub timeout: Duration,
    /// How many disagreements the report shows in full.
    pub shown: usize,
    /// Variables to pass besides `PATH`, `HOME` and `LANG`.
    pub env: Vec<(OsString, OsString)>,
}

/// The longest piece of a program's line a report repeats.
const SHOWN_CHARS: usize = 300;

/// Runs `program` with `args` through every case, in order.
pub fn run(cases: &[Case], program: &OsString, args: &[OsString], options: &Options) -> Report {
    let mut shown_program = vec![program.to_string_lossy().into_owned()];
    shown_program.extend(args.iter().map(|arg| arg.to_string_lossy().into_owned()));
    let mut report = Report::new(&options.version, shown_program, cases);
    let launch = Launch {
        program: program.clone(),
        args: args.to_vec(),
        env: options.env.clone(),
    };
    let mut agreed = Vec::with_capacity(cases.len());
    match ChildProvider::spawn(&launch) {
        Err(error) => {
            report.failure = Some(Failure::Start {
                message: error.to_string(),
            });
        }
        Ok(mut child) => {
            report.failure = drive(&mut child, cases, options, &mut report, &mut agreed);
            child.kill();
        }
    }
    report.answered = agreed.len();
    report.tally(cases, &agreed);
    report.outcomes = agreed;
    report
}

fn drive(
    child: &mut ChildProvider,
    cases: &[Case],
    options: &Options,
    report: &mut Report,
    agreed: &mut Vec<bool>,
) -> Option<Failure> {
    for case in cases {
        let answer = match exchange(child, &case.id, &case.request(), options.timeout) {
            Ok(answer) => answer,
            Err(failure) => return Some(failure),
        };
        let expected = Answer {
            accept: case.decode.accept,
            canonical: case.decode.canonical.clone(),
            reason: case.decode.reason.map(|reason| reason.as_str().to_owned()),
        };
        let same = answer.accept == expected.accept
            && (!answer.accept || answer.canonical == expected.canonical);
        agreed.push(same);
        if !same {
            report.disagreement_count += 1;
            if report.disagreements.len() < options.shown {
                report.disagreements.push(Disagreement {
                    id: case.id.clone(),
                    description: case.description.clone(),
                    transport: case.transport.as_str().to_owned(),
                    input: match (&case.input, &case.input_base64) {
                        (Some(text), _) => text.clone(),
                        (None, Some(coded)) => format!("base64:{coded}"),
                        (None, None) => String::new(),
                    },
                    expected,
                    actual: answer,
                });
            }
        }
    }
    finish(child, options.timeout)
}

/// Closes the program's input; a line it writes after that is a failure.
fn finish(child: &mut ChildProvider, timeout: Duration) -> Option<Failure> {
    child.close_input();
    match child.receive(timeout) {
        Received::Line { bytes, .. } => Some(Failure::Extra {
            line: shown(&bytes),
        }),
        _ => None,
    }
}

/// Writes one request line and reads its answer.
fn exchange(
    child: &mut ChildProvider,
    id: &str,
    request: &str,
    timeout: Duration,
) -> Result<Answer, Failure> {
    // A write error means the program is gone; the read below says how.
    let _ = child.send(request.as_bytes());
    match child.receive(timeout) {
        Received::Line { bytes, .. } => parse_answer(id, &bytes),
        Received::TooLong { length } => Err(Failure::Garbage {
            case: id.to_owned(),
            line: format!("<a line of {length} bytes>"),
            problem: "the line is too long".into(),
        }),
        Received::Timeout => Err(Failure::Timeout {
            case: id.to_owned(),
            seconds: timeout.as_secs_f64(),
        }),
        Received::Closed | Received::Failed(_) | Received::NoReply(_) | Received::Refused(_) => {
            let status = child
                .wait_exit(timeout)
                .unwrap_or_else(|| "still running, output closed".into());
            Err(Failure::Exited {
                case: id.to_owned(),
                status,
                stderr: last_words(child),
            })
        }
    }
}

/// The last lines of a program's standard error once it has ended: its
/// reader may still be catching up, so wait for it a little (at most a
/// second, less when something has arrived).
fn last_words(child: &ChildProvider) -> Vec<String> {
    let deadline = cgp_conformance::deadline(Duration::from_secs(1));
    loop {
        let lines = child.diagnostics();
        if !lines.is_empty() || std::time::Instant::now() >= deadline {
            return lines;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// One request of [`ask`]: an id, a transport and the bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The id the answer must repeat.
    pub id: String,
    /// How the bytes travel.
    pub transport: Transport,
    /// The input.
    pub bytes: Vec<u8>,
}

/// Sends `requests` to `program` through the harness protocol and returns its
/// answers in order, or the failure that ended the exchange: the harness
/// protocol without cases to compare with, for tests that hold their own
/// expectations.
pub fn ask(
    requests: &[Request],
    program: &OsString,
    args: &[OsString],
    options: &Options,
) -> Result<Vec<Answer>, Failure> {
    let launch = Launch {
        program: program.clone(),
        args: args.to_vec(),
        env: options.env.clone(),
    };
    let mut child = ChildProvider::spawn(&launch).map_err(|error| Failure::Start {
        message: error.to_string(),
    })?;
    let mut answers = Vec::with_capacity(requests.len());
    for request in requests {
        let (input, input_base64) = Case::input_fields(&request.bytes);
        let mut line = serde_json::Map::new();
        line.insert("id".into(), request.id.clone().into());
        line.insert("transport".into(), request.transport.as_str().into());
        if let Some(text) = input {
            line.insert("input".into(), text.into());
        }
        if let Some(coded) = input_base64 {
            line.insert("input_base64".into(), coded.into());
        }
        let line = Value::Object(line).to_string();
        answers.push(exchange(&mut child, &request.id, &line, options.timeout)?);
    }
    let failure = finish(&mut child, options.timeout);
    child.kill();
    match failure {
        Some(failure) => Err(failure),
        None => Ok(answers),
    }
}

/// The program's answer to case `id`, or why the line is not one.
fn parse_answer(id: &str, bytes: &[u8]) -> Result<Answer, Failure> {
    let garbage = |problem: &str| Failure::Garbage {
        case: id.to_owned(),
        line: shown(bytes),
        problem: problem.to_owned(),
    };
    let value: Value =
        serde_json::from_slice(bytes).map_err(|error| garbage(&format!("not JSON ({error})")))?;
    let Value::Object(members) = value else {
        return Err(garbage("not a JSON object"));
    };
    let Some(Value::String(answered)) = members.get("id") else {
        return Err(garbage("no string member id"));
    };
    if answered != id {
        return Err(Failure::OutOfOrder {
            case: id.to_owned(),
            answered: answered.chars().take(SHOWN_CHARS).collect(),
        });
    }
    match (members.get("accept"), members.get("canonical")) {
        (Some(Value::Bool(true)), Some(Value::String(canonical))) => Ok(Answer {
            accept: true,
            canonical: Some(canonical.clone()),
            reason: None,
        }),
        (Some(Value::Bool(true)), _) => {
            Err(garbage("accept is true but canonical is not a string"))
        }
        (Some(Value::Bool(false)), _) => Ok(Answer {
            accept: false,
            canonical: None,
            reason: None,
        }),
        _ => Err(garbage("no boolean member accept")),
    }
}

fn shown(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut cut: String = text.chars().take(SHOWN_CHARS).collect();
    if cut.len() < text.len() {
        cut.push('…');
    }
    cut
}
