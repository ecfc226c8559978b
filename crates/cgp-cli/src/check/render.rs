//! The human and GitHub formats of a report.

use super::*;

pub(super) fn human(
    out: &mut impl Write,
    style: Style,
    checked: &str,
    report: &Report,
    judged: &Judged,
    verbosity: Verbosity,
) -> io::Result<()> {
    if verbosity == Verbosity::Quiet {
        return quiet_summary(out, style, report, judged);
    }
    writeln!(out, "cgp check: {}", printable(checked))?;
    let width = report
        .steps
        .iter()
        .map(|step| step.name.chars().count())
        .max()
        .unwrap_or(0);
    for (index, step) in report.steps.iter().enumerate() {
        let outcome = judged.outcome(index, step);
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
        for (message_index, message) in step.messages.iter().enumerate() {
            let accepted =
                |finding: usize| judged.is_accepted(index, At::Finding(message_index, finding));
            message_lines(out, style, message, &accepted, verbosity)?;
        }
        for (problem_index, problem) in step.problems.iter().enumerate() {
            let rule = problem
                .rule
                .map(|rule| format!(" ({})", style.dim(&format!("rule {rule}"))))
                .unwrap_or_default();
            let at = problem
                .sequence
                .map(|sequence| format!(" at #{sequence}"))
                .unwrap_or_default();
            let accepted = if judged.is_accepted(index, At::Problem(problem_index)) {
                format!(" {}", style.dim("(in the baseline)"))
            } else {
                String::new()
            };
            writeln!(
                out,
                "      {} {}{at}: {}{rule}{accepted}",
                severity(style, problem.severity),
                problem.side,
                printable(&problem.message),
            )?;
        }
    }
    for entry in judged.stale.iter().flatten() {
        writeln!(
            out,
            "{}  {}",
            style.bad("stale"),
            printable(&entry.stale_text(Command::Check))
        )?;
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
    quiet_summary(out, style, report, judged)
}

/// The summary line alone.
pub(super) fn quiet_summary(
    out: &mut impl Write,
    style: Style,
    report: &Report,
    judged: &Judged,
) -> io::Result<()> {
    let summary = summary(report, judged);
    let summary = if judged.passed() {
        style.good(&summary)
    } else {
        style.bad(&summary)
    };
    writeln!(out, "{summary}")
}

/// `N lines exchanged: E error(s) (host …, provider …), W warning(s) (…)`,
/// and with a baseline `; A accepted by the baseline, S stale`.
pub(super) fn summary(report: &Report, judged: &Judged) -> String {
    let baseline = match &judged.stale {
        Some(stale) => format!(
            "; {} accepted by the baseline, {} stale",
            judged.accepted,
            stale.len()
        ),
        None => String::new(),
    };
    format!(
        "{} lines exchanged: {} error(s) (host {}, provider {}), {} warning(s) (host {}, provider {})",
        report.lines(),
        report.errors(),
        report.count(Severity::Error, Side::Host),
        report.count(Severity::Error, Side::Provider),
        report.warnings(),
        report.count(Severity::Warning, Side::Host),
        report.count(Severity::Warning, Side::Provider),
    ) + &baseline
}

/// One annotation per counted finding and problem, titled with its step, then
/// the summary as a plain line. A live check has no file to point at.
pub(super) fn github(
    out: &mut impl Write,
    report: &Report,
    judged: &Judged,
    verbosity: Verbosity,
) -> io::Result<()> {
    let plain = Style::plain();
    if verbosity == Verbosity::Quiet {
        return writeln!(out, "{}", summary(report, judged));
    }
    for entry in judged.stale.iter().flatten() {
        let annotation = Annotation {
            level: Level::Error,
            file: None,
            line: None,
            column: None,
            title: "cgp check: stale baseline entry",
            message: &entry.stale_text(Command::Check),
        };
        writeln!(out, "{annotation}")?;
    }
    for (index, step) in report.steps.iter().enumerate() {
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
        for (message_index, message) in step.messages.iter().enumerate() {
            if message.probe {
                continue;
            }
            for (finding_index, (severity, finding)) in message.findings.iter().enumerate() {
                if judged.is_accepted(index, At::Finding(message_index, finding_index)) {
                    continue;
                }
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
        for (problem_index, problem) in step.problems.iter().enumerate() {
            if judged.is_accepted(index, At::Problem(problem_index)) {
                continue;
            }
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
    writeln!(out, "{}", summary(report, judged))
}

pub(super) fn severity(style: Style, severity: Severity) -> String {
    match severity {
        Severity::Error => style.bad("error:"),
        Severity::Warning => style.warn("warning:"),
    }
}

pub(super) fn message_lines(
    out: &mut impl Write,
    style: Style,
    message: &Message,
    accepted: &dyn Fn(usize) -> bool,
    verbosity: Verbosity,
) -> io::Result<()> {
    if message.findings.is_empty() || message.probe {
        // A probe is invalid on purpose: the step's name says what it probes.
        if verbosity == Verbosity::Verbose {
            let shown: String = message.text.chars().take(160).collect();
            writeln!(
                out,
                "      {} #{} {}",
                message.side,
                message.sequence,
                style.dim(&printable(&shown))
            )?;
        }
        return Ok(());
    }
    for (index, (level, finding)) in message.findings.iter().enumerate() {
        let column = finding.position.map_or(1, |position| position.column);
        let note = if accepted(index) {
            format!(" {}", style.dim("(in the baseline)"))
        } else {
            String::new()
        };
        writeln!(
            out,
            "      {} {} #{}:{column}: {}{note}",
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
