//! `cgp check`: starting or reaching the provider, and rendering the
//! conformance report. This module runs the conversation and shows its
//! progress; `connect` starts the program or reaches the endpoint, `interrupt`
//! ends the provider on a signal, `judged` turns the report into errors,
//! baseline entries and JUnit, and `render` writes the human and GitHub
//! formats.

mod connect;
mod interrupt;
mod judged;
mod render;

use connect::connect;
use judged::*;
use render::*;

use crate::exit::Exit;
use crate::github::{Annotation, Level};
use crate::progress::{self, Progress, Verbosity};
use crate::render::{Format, finding_text, json_pretty};
use crate::style::{Style, printable};
use cgp_check::Validator;
use cgp_conformance::http::{Bearer, Endpoint, Header, HttpProvider, Roots, shown_url};
use cgp_conformance::stdio::{ChildProvider, Launch};
use cgp_conformance::{
    self as conformance, Event, Message, Outcome, Peer, Report, Severity, Side, Step,
};
use cgp_report::baseline::{self, Baseline, Command, Entry, Matcher};
use cgp_report::check::{BaselineUse, CheckReport, Target};
use cgp_report::junit::{self, Case, Failure, Suite};
use std::ffi::OsString;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Which provider to check.
#[derive(Debug, Clone)]
pub enum Provider {
    /// A stdio provider: its command line and extra environment variables.
    Command {
        /// The program and its arguments.
        command: Vec<OsString>,
        /// Variables to set besides the inherited PATH, HOME and LANG.
        env: Vec<(OsString, OsString)>,
    },
    /// An HTTP endpoint, the credentials and headers to send it, and the
    /// roots to verify its certificate against.
    Http {
        /// The endpoint URL.
        url: String,
        /// The name of the environment variable with the token.
        bearer_env: Option<String>,
        /// Plain headers, `Name: value`.
        headers: Vec<String>,
        /// Secret headers, `Name=VAR`: the value is in the variable VAR.
        header_env: Vec<String>,
        /// A PEM file of the only certificate authorities to trust.
        ca_cert: Option<std::path::PathBuf>,
    },
}

/// What `cgp check` was asked to do.
#[derive(Debug, Clone)]
pub struct Options {
    /// How the report is written.
    pub format: Format,
    /// Seconds to wait for each reply and for the exit after `shutdown`.
    pub timeout: Duration,
    /// Seconds to wait for a reply the protocol does not require (a SHOULD).
    pub should_wait: Duration,
    /// The provider.
    pub provider: Provider,
    /// The baseline to apply.
    pub baseline: Option<PathBuf>,
    /// Where to write a baseline of this run's errors.
    pub write_baseline: Option<PathBuf>,
    /// How much to say.
    pub verbosity: Verbosity,
}

/// What the report says it checked: a stdio provider's command line, or an
/// HTTP provider's endpoint.
enum CheckedProvider {
    /// The command line's words.
    Command(Vec<String>),
    /// The endpoint's URL.
    Endpoint(String),
}

impl CheckedProvider {
    fn target(&self) -> Target<'_> {
        match self {
            CheckedProvider::Command(words) => Target::Command(words),
            CheckedProvider::Endpoint(url) => Target::Url(url),
        }
    }

    /// The first line of the human report: the command line, or `POST <url>`.
    fn text(&self) -> String {
        match self {
            CheckedProvider::Command(words) => words.join(" "),
            CheckedProvider::Endpoint(url) => format!("POST {url}"),
        }
    }
}

/// A provider ready for the conversation.
struct Connected {
    peer: Box<dyn Peer>,
    checked: CheckedProvider,
    /// The stdio provider's process group.
    group: Option<u32>,
}

/// Runs `cgp check`: 0 when no error was found, 1 when one was, 2 when the
/// provider cannot be started or reached as configured.
pub fn run(options: &Options, interop: &Validator, strict: &Validator) -> ExitCode {
    let matcher = match read_baseline(options) {
        Ok(matcher) => matcher,
        Err(code) => return code,
    };
    // Watching before the provider starts, and starting it with the watcher
    // held off until its group is armed, leaves no moment when an interrupt
    // would end cgp check and leave the provider running.
    let interrupt = interrupt::watch();
    let connected = match options.provider {
        Provider::Command { .. } => interrupt::starting(&interrupt, || connect(options)),
        Provider::Http { .. } => connect(options),
    };
    let Connected {
        mut peer, checked, ..
    } = match connected {
        Ok(connected) => connected,
        Err(message) => {
            eprintln!("cgp check: {message}");
            return ExitCode::from(Exit::Trouble);
        }
    };
    // A stdio provider that dies is replaced by a new one, so that what
    // killed it hides none of the later probes.
    let mut respawn = || {
        interrupt::starting(&interrupt, || connect(options))
            .ok()
            .map(|connected| connected.peer)
    };
    let respawn: Option<conformance::Respawn<'_>> = match options.provider {
        Provider::Command { .. } => Some(&mut respawn),
        Provider::Http { .. } => None,
    };
    let live = if progress::wanted(options.format, options.verbosity) {
        Progress::spinner()
    } else {
        Progress::none()
    };
    let mut so_far = (0, 0);
    let report = conformance::run_observed(
        peer.as_mut(),
        respawn,
        interop,
        strict,
        conformance::Options {
            timeout: options.timeout,
            should_wait: options.should_wait,
        },
        &mut |event| show(&live, &mut so_far, event),
    );
    live.clear();
    drop(peer);
    interrupt::disarm(&interrupt);
    if let Some(path) = &options.write_baseline {
        if let Err(code) = write_baseline(path, &report, options.verbosity) {
            return code;
        }
    }
    let judged = Judged::new(&report, matcher);
    let written = write_report(options, &checked, &report, &judged);
    if let Err(error) = written {
        if error.kind() != io::ErrorKind::BrokenPipe {
            eprintln!("cgp check: writing the report: {error}");
        }
        return ExitCode::from(Exit::Trouble);
    }
    if options.write_baseline.is_some() || judged.passed() {
        ExitCode::from(Exit::Valid)
    } else {
        ExitCode::from(Exit::Invalid)
    }
}

/// The baseline `--baseline` names, read; the exit code when it cannot be.
fn read_baseline(options: &Options) -> Result<Option<Matcher>, ExitCode> {
    match &options.baseline {
        None => Ok(None),
        Some(path) => match baseline::read(path, Command::Check) {
            Ok(baseline) => Ok(Some(Matcher::new(baseline))),
            Err(error) => {
                eprintln!("cgp check: {error}");
                Err(ExitCode::from(Exit::Trouble))
            }
        },
    }
}

/// Writes every error of `report` to the baseline at `path`; the exit code
/// when it cannot.
fn write_baseline(path: &Path, report: &Report, verbosity: Verbosity) -> Result<(), ExitCode> {
    let entries = errors(report);
    let count = entries.len();
    let text = Baseline::new(Command::Check, entries).to_text();
    if let Err(error) = std::fs::write(path, text) {
        eprintln!(
            "cgp check: writing the baseline {}: {error}",
            path.display()
        );
        return Err(ExitCode::from(Exit::Trouble));
    }
    if verbosity != Verbosity::Quiet {
        eprintln!(
            "cgp check: wrote {count} error(s) to the baseline {}",
            path.display()
        );
    }
    Ok(())
}

/// Writes the report to standard output in the chosen format.
fn write_report(
    options: &Options,
    checked: &CheckedProvider,
    report: &Report,
    judged: &Judged,
) -> io::Result<()> {
    let stdout = io::stdout();
    match options.format {
        Format::Json => {
            let mut json = CheckReport::new(checked.target(), report);
            if let Some(stale) = &judged.stale {
                json.passed = judged.passed();
                json.baseline = Some(BaselineUse {
                    accepted: judged.accepted,
                    stale: stale.iter().collect(),
                });
            }
            json_pretty(&mut stdout.lock(), &json)
        }
        Format::Human => {
            let style = Style::detect(&stdout);
            let mut out = stdout.lock();
            human(
                &mut out,
                style,
                &checked.text(),
                report,
                judged,
                options.verbosity,
            )
        }
        Format::Github => github(&mut stdout.lock(), report, judged, options.verbosity),
        Format::Junit => stdout
            .lock()
            .write_all(junit_report(report, judged).as_bytes()),
    }
}

/// Draws one event of the conversation on the progress line; `so_far` counts
/// the errors and warnings of the lines judged so far.
fn show(live: &Progress, so_far: &mut (usize, usize), event: Event<'_>) {
    if !live.is_shown() {
        return;
    }
    match event {
        Event::Started(name) => live.message(format!("{}…", printable(name))),
        Event::Line(message) => {
            if !message.probe {
                for (severity, _) in &message.findings {
                    match severity {
                        Severity::Error => so_far.0 += 1,
                        Severity::Warning => so_far.1 += 1,
                    }
                }
            }
            live.message(format!(
                "#{} {} {} answered; {} error(s), {} warning(s) so far",
                message.sequence,
                message.side,
                message.variant.map_or("-", |variant| variant.as_str()),
                so_far.0,
                so_far.1
            ));
        }
        Event::Finished(step) => {
            let severities = step
                .messages
                .iter()
                .filter(|message| !message.probe)
                .flat_map(|message| message.findings.iter().map(|(severity, _)| *severity))
                .chain(step.problems.iter().map(|problem| problem.severity));
            let (errors, warnings) = severities.fold((0, 0), |(e, w), severity| match severity {
                Severity::Error => (e + 1, w),
                Severity::Warning => (e, w + 1),
            });
            live.println(&format!(
                "{:4}  {}  ({} line(s), {errors} error(s), {warnings} warning(s))",
                label(step.outcome()),
                printable(&step.name),
                step.messages.len()
            ));
        }
    }
}

fn label(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Passed => "ok",
        Outcome::Warned => "warn",
        Outcome::Failed => "FAIL",
        Outcome::Skipped => "skip",
    }
}
