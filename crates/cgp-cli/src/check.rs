//! `cgp check`: rendering the conformance report of a live provider.

use crate::render::{finding_json, finding_text};
use crate::style::{Style, printable};
use cgp_schema::Validator;
use cgp_schema::conformance::stdio::{ChildProvider, Launch};
use cgp_schema::conformance::{self, Message, Outcome, Report, Severity, Side, Step};
use serde_json::{Value, json};
use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Duration;

/// What `cgp check` was asked to do.
#[derive(Debug, Clone)]
pub struct Options {
    /// Write the report as one JSON object.
    pub json: bool,
    /// Seconds to wait for each reply and for the exit after `shutdown`.
    pub timeout: Duration,
    /// Extra environment variables for the provider.
    pub env: Vec<(OsString, OsString)>,
    /// The provider's command line.
    pub command: Vec<OsString>,
}

/// Runs `cgp check`: 0 when no error was found, 1 when one was, 2 when the
/// provider cannot be started.
pub fn run(options: &Options, interop: &Validator, strict: &Validator) -> ExitCode {
    let Some((program, args)) = options.command.split_first() else {
        eprintln!("cgp check: no provider command given (cgp check -- PROGRAM [ARGS...])");
        return ExitCode::from(2);
    };
    let launch = Launch {
        program: program.clone(),
        args: args.to_vec(),
        env: options.env.clone(),
    };
    let shown: Vec<String> = options
        .command
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    let mut provider = match ChildProvider::spawn(&launch) {
        Ok(provider) => provider,
        Err(error) => {
            eprintln!("cgp check: cannot start `{}`: {error}", shown.join(" "));
            return ExitCode::from(2);
        }
    };
    let report = conformance::run(
        &mut provider,
        interop,
        strict,
        conformance::Options {
            timeout: options.timeout,
        },
    );
    drop(provider);
    let stdout = io::stdout();
    let written = if options.json {
        let mut out = stdout.lock();
        serde_json::to_writer_pretty(&mut out, &report_json(&shown, &report))
            .map_err(io::Error::from)
            .and_then(|()| writeln!(out))
    } else {
        let style = Style::detect(&stdout);
        let mut out = stdout.lock();
        human(&mut out, style, &shown, &report)
    };
    if let Err(error) = written {
        if error.kind() != io::ErrorKind::BrokenPipe {
            eprintln!("cgp check: writing the report: {error}");
        }
        return ExitCode::from(2);
    }
    if report.errors() > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn human(
    out: &mut impl Write,
    style: Style,
    command: &[String],
    report: &Report,
) -> io::Result<()> {
    writeln!(out, "cgp check: {}", command.join(" "))?;
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
    let errors = report.errors();
    let warnings = report.warnings();
    let summary = format!(
        "{} lines exchanged: {errors} error(s) (host {}, provider {}), {warnings} warning(s) (host {}, provider {})",
        report.lines(),
        report.count(Severity::Error, Side::Host),
        report.count(Severity::Error, Side::Provider),
        report.count(Severity::Warning, Side::Host),
        report.count(Severity::Warning, Side::Provider),
    );
    let summary = if errors > 0 {
        style.bad(&summary)
    } else {
        style.good(&summary)
    };
    writeln!(out, "{summary}")
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

fn report_json(command: &[String], report: &Report) -> Value {
    let count = |level, side| report.count(level, side);
    json!({
        "command": command,
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
