//! `cgp check`: starting or reaching the provider, and rendering the
//! conformance report.

use crate::exit::Exit;
use crate::github::{Annotation, Level};
use crate::render::{Format, finding_json, finding_text};
use crate::style::{Style, printable};
use cgp_schema::Validator;
use cgp_schema::conformance::http::{Bearer, Endpoint, HttpProvider};
use cgp_schema::conformance::stdio::{ChildProvider, Launch};
use cgp_schema::conformance::{self, Message, Outcome, Peer, Report, Severity, Side, Step};
use serde_json::{Value, json};
use std::ffi::OsString;
use std::io::{self, Write};
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
    /// An HTTP endpoint, and the variable holding its bearer token.
    Http {
        /// The endpoint URL.
        url: String,
        /// The name of the environment variable with the token.
        bearer_env: Option<String>,
    },
}

/// What `cgp check` was asked to do.
#[derive(Debug, Clone)]
pub struct Options {
    /// How the report is written.
    pub format: Format,
    /// Seconds to wait for each reply and for the exit after `shutdown`.
    pub timeout: Duration,
    /// The provider.
    pub provider: Provider,
}

/// What the report says it checked: the command line, or the URL.
struct Checked {
    /// `command` or `url`, the member of the JSON report.
    member: &'static str,
    value: Value,
    text: String,
}

/// A provider ready for the conversation.
struct Connected {
    peer: Box<dyn Peer>,
    checked: Checked,
    /// The stdio provider's process group.
    group: Option<u32>,
}

/// Runs `cgp check`: 0 when no error was found, 1 when one was, 2 when the
/// provider cannot be started or reached as configured.
pub fn run(options: &Options, interop: &Validator, strict: &Validator) -> ExitCode {
    // Watching before the provider starts leaves no moment when an interrupt
    // would end cgp check and leave the provider running.
    let interrupt = interrupt::watch();
    let Connected {
        mut peer,
        checked,
        group,
    } = match connect(options) {
        Ok(connected) => connected,
        Err(message) => {
            eprintln!("cgp check: {message}");
            return ExitCode::from(Exit::Trouble);
        }
    };
    if let Some(group) = group {
        interrupt::arm(&interrupt, group);
    }
    let report = conformance::run(
        peer.as_mut(),
        interop,
        strict,
        conformance::Options {
            timeout: options.timeout,
        },
    );
    drop(peer);
    interrupt::disarm(&interrupt);
    let stdout = io::stdout();
    let written = match options.format {
        Format::Json => {
            let mut out = stdout.lock();
            serde_json::to_writer_pretty(&mut out, &report_json(&checked, &report))
                .map_err(io::Error::from)
                .and_then(|()| writeln!(out))
        }
        Format::Human => {
            let style = Style::detect(&stdout);
            let mut out = stdout.lock();
            human(&mut out, style, &checked.text, &report)
        }
        Format::Github => github(&mut stdout.lock(), &report),
    };
    if let Err(error) = written {
        if error.kind() != io::ErrorKind::BrokenPipe {
            eprintln!("cgp check: writing the report: {error}");
        }
        return ExitCode::from(Exit::Trouble);
    }
    if report.errors() > 0 {
        ExitCode::from(Exit::Invalid)
    } else {
        ExitCode::from(Exit::Valid)
    }
}

/// Starts the stdio provider, or sets up the HTTP one (nothing is sent yet);
/// the stdio provider's process group comes with it.
fn connect(options: &Options) -> Result<Connected, String> {
    match &options.provider {
        Provider::Command { command, env } => {
            let Some((program, args)) = command.split_first() else {
                return Err("no provider command given (cgp check -- PROGRAM [ARGS...])".into());
            };
            let shown: Vec<String> = command
                .iter()
                .map(|part| part.to_string_lossy().into_owned())
                .collect();
            let launch = Launch {
                program: program.clone(),
                args: args.to_vec(),
                env: env.clone(),
            };
            let provider = ChildProvider::spawn(&launch)
                .map_err(|error| format!("cannot start `{}`: {error}", shown.join(" ")))?;
            let checked = Checked {
                member: "command",
                text: shown.join(" "),
                value: json!(shown),
            };
            let group = provider.process_group();
            Ok(Connected {
                peer: Box::new(provider),
                checked,
                group: Some(group),
            })
        }
        Provider::Http { url, bearer_env } => {
            let endpoint =
                Endpoint::parse(url).map_err(|error| format!("--http {url}: {error}"))?;
            let bearer = match bearer_env {
                None => None,
                Some(name) => {
                    let token = std::env::var(name).map_err(|error| {
                        format!(
                            "--bearer-env {name}: the variable is {}",
                            match error {
                                std::env::VarError::NotPresent => "not set",
                                std::env::VarError::NotUnicode(_) => "not valid Unicode",
                            }
                        )
                    })?;
                    Some(
                        Bearer::new(token)
                            .map_err(|error| format!("--bearer-env {name}: {error}"))?,
                    )
                }
            };
            let provider = HttpProvider::new(endpoint, bearer, options.timeout);
            let checked = Checked {
                member: "url",
                text: format!("POST {url}"),
                value: json!(url),
            };
            Ok(Connected {
                peer: Box::new(provider),
                checked,
                group: None,
            })
        }
    }
}

/// Ending the provider when `cgp check` is interrupted. The provider leads a
/// process group of its own, so the terminal's Ctrl-C does not reach it; on
/// SIGINT, SIGTERM or SIGHUP `cgp check` kills that group and exits with
/// 128 + the signal.
mod interrupt {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU32, Ordering};

    /// Watches for the signals from now on; the group to kill is set with
    /// [`arm`] (none yet: zero).
    pub fn watch() -> Arc<AtomicU32> {
        let armed = Arc::new(AtomicU32::new(0));
        #[cfg(unix)]
        {
            use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
            // Without the handler the signals keep their default: cgp ends,
            // and the provider ends when it finds its input closed.
            if let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
            {
                let watched = Arc::clone(&armed);
                let _ = std::thread::Builder::new()
                    .name("cgp-check-signals".into())
                    .spawn(move || {
                        if let Some(signal) = signals.forever().next() {
                            let group = watched.load(Ordering::SeqCst);
                            if group != 0 {
                                cgp_schema::conformance::stdio::kill_process_group(group);
                            }
                            std::process::exit(128 + signal);
                        }
                    });
            }
        }
        armed
    }

    /// The provider's group is to be killed on a signal.
    pub fn arm(armed: &AtomicU32, group: u32) {
        armed.store(group, Ordering::SeqCst);
    }

    /// The provider has been reaped: its group id may name another group now.
    pub fn disarm(armed: &AtomicU32) {
        armed.store(0, Ordering::SeqCst);
    }
}

fn human(out: &mut impl Write, style: Style, checked: &str, report: &Report) -> io::Result<()> {
    writeln!(out, "cgp check: {}", printable(checked))?;
    let width = report
        .steps
        .iter()
        .map(|step| step.name.chars().count())
        .max()
        .unwrap_or(0);
    for step in &report.steps {
        let outcome = step.outcome();
        let label = match outcome {
            Outcome::Passed => style.good("ok  "),
            Outcome::Warned => style.warn("warn"),
            Outcome::Failed => style.bad("FAIL"),
            Outcome::Skipped => style.dim("skip"),
        };
        let detail = step.skipped.as_deref().unwrap_or(&step.detail);
        writeln!(
            out,
            "{label}  {:width$}  {}",
            printable(&step.name),
            printable(detail)
        )?;
        for message in &step.messages {
            message_lines(out, style, message)?;
        }
        for problem in &step.problems {
            let rule = problem
                .rule
                .map(|rule| format!(" ({})", style.dim(&format!("rule {rule}"))))
                .unwrap_or_default();
            let at = problem
                .sequence
                .map(|sequence| format!(" at #{sequence}"))
                .unwrap_or_default();
            writeln!(
                out,
                "      {} {}{at}: {}{rule}",
                severity(style, problem.severity),
                problem.side,
                printable(&problem.message),
            )?;
        }
    }
    writeln!(out, "provider exit: {}", report.exit)?;
    if !report.diagnostics.is_empty() && report.errors() > 0 {
        writeln!(
            out,
            "provider stderr (last {} lines):",
            report.diagnostics.len()
        )?;
        for line in &report.diagnostics {
            writeln!(out, "  | {}", printable(line))?;
        }
    }
    let summary = summary(report);
    let summary = if report.errors() > 0 {
        style.bad(&summary)
    } else {
        style.good(&summary)
    };
    writeln!(out, "{summary}")
}

/// `N lines exchanged: E error(s) (host …, provider …), W warning(s) (…)`.
fn summary(report: &Report) -> String {
    format!(
        "{} lines exchanged: {} error(s) (host {}, provider {}), {} warning(s) (host {}, provider {})",
        report.lines(),
        report.errors(),
        report.count(Severity::Error, Side::Host),
        report.count(Severity::Error, Side::Provider),
        report.warnings(),
        report.count(Severity::Warning, Side::Host),
        report.count(Severity::Warning, Side::Provider),
    )
}

/// One annotation per counted finding and problem, titled with its step, then
/// the summary as a plain line. A live check has no file to point at.
fn github(out: &mut impl Write, report: &Report) -> io::Result<()> {
    let plain = Style::plain();
    for step in &report.steps {
        let title = format!("cgp check: {}", step.name);
        let mut annotate = |severity: Severity, message: &str| {
            let annotation = Annotation {
                level: Level::from(severity),
                file: None,
                line: None,
                column: None,
                title: &title,
                message,
            };
            writeln!(out, "{annotation}")
        };
        for message in step.messages.iter().filter(|message| !message.probe) {
            for (severity, finding) in &message.findings {
                let column = finding.position.map_or(1, |position| position.column);
                annotate(
                    *severity,
                    &format!(
                        "{} #{}:{column}: {}",
                        message.side,
                        message.sequence,
                        finding_text(plain, message.variant, finding)
                    ),
                )?;
            }
        }
        for problem in &step.problems {
            let at = problem
                .sequence
                .map(|sequence| format!(" at #{sequence}"))
                .unwrap_or_default();
            let rule = problem
                .rule
                .map(|rule| format!(" (rule {rule})"))
                .unwrap_or_default();
            annotate(
                problem.severity,
                &format!("{}{at}: {}{rule}", problem.side, problem.message),
            )?;
        }
    }
    writeln!(out, "{}", summary(report))
}

fn severity(style: Style, severity: Severity) -> String {
    match severity {
        Severity::Error => style.bad("error:"),
        Severity::Warning => style.warn("warning:"),
    }
}

fn message_lines(out: &mut impl Write, style: Style, message: &Message) -> io::Result<()> {
    if message.findings.is_empty() {
        return Ok(());
    }
    if message.probe {
        // Invalid on purpose: the step's name says what it probes.
        return Ok(());
    }
    for (level, finding) in &message.findings {
        let column = finding.position.map_or(1, |position| position.column);
        writeln!(
            out,
            "      {} {} #{}:{column}: {}",
            severity(style, *level),
            message.side,
            message.sequence,
            finding_text(style, message.variant, finding),
        )?;
    }
    let shown: String = message.text.chars().take(160).collect();
    let cut = if shown.len() < message.text.len() {
        "…"
    } else {
        ""
    };
    writeln!(out, "        {} {}{cut}", style.dim(">"), printable(&shown))
}

fn step_json(step: &Step) -> Value {
    let messages: Vec<Value> = step
        .messages
        .iter()
        .map(|message| {
            let findings: Vec<Value> = message
                .findings
                .iter()
                .map(|(level, finding)| {
                    let mut object = finding_json(finding, None);
                    if let Some(map) = object.as_object_mut() {
                        map.insert("severity".into(), Value::String(level.as_str().into()));
                    }
                    object
                })
                .collect();
            json!({
                "sequence": message.sequence,
                "side": message.side.as_str(),
                "type": message.variant.map(|variant| variant.as_str()),
                "probe": message.probe,
                "length": message.length,
                "text": message.text,
                "findings": findings,
            })
        })
        .collect();
    let problems: Vec<Value> = step
        .problems
        .iter()
        .map(|problem| {
            json!({
                "severity": problem.severity.as_str(),
                "side": problem.side.as_str(),
                "rule": problem.rule.map(|rule| rule.as_str()),
                "message": problem.message,
                "sequence": problem.sequence,
            })
        })
        .collect();
    json!({
        "name": step.name,
        "outcome": step.outcome().as_str(),
        "detail": step.detail,
        "skipped": step.skipped,
        "problems": problems,
        "messages": messages,
    })
}

fn report_json(checked: &Checked, report: &Report) -> Value {
    let count = |level, side| report.count(level, side);
    json!({
        checked.member: checked.value,
        "passed": report.errors() == 0,
        "summary": {
            "lines": report.lines(),
            "errors": {
                "host": count(Severity::Error, Side::Host),
                "provider": count(Severity::Error, Side::Provider),
            },
            "warnings": {
                "host": count(Severity::Warning, Side::Host),
                "provider": count(Severity::Warning, Side::Provider),
            },
        },
        "steps": report.steps.iter().map(step_json).collect::<Vec<_>>(),
        "exit": report.exit,
        "stderr": report.diagnostics,
    })
}
