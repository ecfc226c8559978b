//! `cgp check`: starting or reaching the provider, and rendering the
//! conformance report.

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
use std::path::PathBuf;
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

/// What the report says it checked: the command line, or the URL.
struct Checked {
    /// The command line's words, for a stdio provider.
    command: Option<Vec<String>>,
    /// The endpoint, for an HTTP provider.
    url: Option<String>,
    text: String,
}

impl Checked {
    fn target(&self) -> Target<'_> {
        match (&self.command, &self.url) {
            (Some(command), _) => Target::Command(command),
            (None, url) => Target::Url(url.as_deref().unwrap_or_default()),
        }
    }
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
    let matcher = match &options.baseline {
        None => None,
        Some(path) => match baseline::read(path, Command::Check) {
            Ok(baseline) => Some(Matcher::new(baseline)),
            Err(error) => {
                eprintln!("cgp check: {error}");
                return ExitCode::from(Exit::Trouble);
            }
        },
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
        let entries = errors(&report);
        let count = entries.len();
        let text = Baseline::new(Command::Check, entries).to_text();
        if let Err(error) = std::fs::write(path, text) {
            eprintln!(
                "cgp check: writing the baseline {}: {error}",
                path.display()
            );
            return ExitCode::from(Exit::Trouble);
        }
        if options.verbosity != Verbosity::Quiet {
            eprintln!(
                "cgp check: wrote {count} error(s) to the baseline {}",
                path.display()
            );
        }
    }
    let judged = Judged::new(&report, matcher);
    let stdout = io::stdout();
    let written = match options.format {
        Format::Json => {
            let mut json = CheckReport::new(checked.target(), &report);
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
                &checked.text,
                &report,
                &judged,
                options.verbosity,
            )
        }
        Format::Github => github(&mut stdout.lock(), &report, &judged, options.verbosity),
        Format::Junit => stdout
            .lock()
            .write_all(junit_report(&report, &judged).as_bytes()),
    };
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

/// Every error of the report as a baseline entry, in the report's order, with
/// the step it is in.
fn errors(report: &Report) -> Vec<Entry> {
    let mut entries = Vec::new();
    for step in &report.steps {
        for (_, entry) in step_errors(step) {
            entries.push(entry);
        }
    }
    entries
}

/// Where an error is in its step: the message and finding, or the problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum At {
    Finding(usize, usize),
    Problem(usize),
}

/// The errors of one step that count, as baseline entries.
fn step_errors(step: &Step) -> Vec<(At, Entry)> {
    let mut entries = Vec::new();
    for (index, message) in step.messages.iter().enumerate() {
        if message.probe {
            continue;
        }
        for (finding_index, (severity, finding)) in message.findings.iter().enumerate() {
            if *severity != Severity::Error {
                continue;
            }
            entries.push((
                At::Finding(index, finding_index),
                Entry {
                    step: Some(step.name.clone()),
                    file: None,
                    line: None,
                    layer: finding.layer.as_str().to_owned(),
                    rule: finding.rule.map(|rule| rule.as_str().to_owned()),
                    side: Some(message.side.as_str().to_owned()),
                    pointer: finding.instance_path.clone(),
                    message: finding.message.clone(),
                },
            ));
        }
    }
    for (index, problem) in step.problems.iter().enumerate() {
        if problem.severity != Severity::Error {
            continue;
        }
        entries.push((
            At::Problem(index),
            Entry {
                step: Some(step.name.clone()),
                file: None,
                line: None,
                layer: "behaviour".to_owned(),
                rule: problem.rule.map(|rule| rule.as_str().to_owned()),
                side: Some(problem.side.as_str().to_owned()),
                pointer: String::new(),
                message: problem.message.clone(),
            },
        ));
    }
    entries
}

/// The report judged with the baseline, when there is one.
struct Judged {
    /// The errors the baseline accepts, by step.
    accepted_at: Vec<Vec<At>>,
    /// How many errors it accepts.
    accepted: usize,
    /// The entries nothing matched (`None`: no baseline).
    stale: Option<Vec<Entry>>,
    /// The errors left.
    errors: usize,
}

impl Judged {
    fn new(report: &Report, matcher: Option<Matcher>) -> Self {
        let Some(mut matcher) = matcher else {
            return Judged {
                accepted_at: vec![Vec::new(); report.steps.len()],
                accepted: 0,
                stale: None,
                errors: report.errors(),
            };
        };
        let mut accepted_at = Vec::new();
        let mut accepted = 0;
        for step in &report.steps {
            let mut here = Vec::new();
            for (at, entry) in step_errors(step) {
                if matcher.accept(&entry) {
                    here.push(at);
                    accepted += 1;
                }
            }
            accepted_at.push(here);
        }
        Judged {
            accepted_at,
            accepted,
            stale: Some(matcher.stale().into_iter().cloned().collect()),
            errors: report.errors().saturating_sub(accepted),
        }
    }

    fn passed(&self) -> bool {
        self.errors == 0 && self.stale.as_ref().is_none_or(Vec::is_empty)
    }

    fn is_accepted(&self, step: usize, at: At) -> bool {
        self.accepted_at
            .get(step)
            .is_some_and(|accepted| accepted.contains(&at))
    }

    /// A step's outcome once the baseline's errors are set aside.
    fn outcome(&self, index: usize, step: &Step) -> Outcome {
        match step.outcome() {
            Outcome::Failed => {
                let left = step_errors(step)
                    .iter()
                    .filter(|(at, _)| !self.is_accepted(index, *at))
                    .count();
                if left > 0 {
                    Outcome::Failed
                } else {
                    Outcome::Warned
                }
            }
            outcome => outcome,
        }
    }

    fn stale_text(entry: &Entry) -> String {
        let rule = entry
            .rule
            .as_ref()
            .map(|rule| format!(" rule {rule}"))
            .unwrap_or_default();
        format!(
            "stale baseline entry in step `{}` ({} {}{rule}), no longer found: {}",
            entry.step.as_deref().unwrap_or_default(),
            entry.side.as_deref().unwrap_or_default(),
            entry.layer,
            entry.message
        )
    }
}

/// One test case per step: failed when it has an error the baseline does not
/// accept, skipped when skipped, its warnings as output; one more for stale
/// baseline entries.
fn junit_report(report: &Report, judged: &Judged) -> String {
    let plain = Style::plain();
    let mut cases = Vec::new();
    for (index, step) in report.steps.iter().enumerate() {
        let mut case = Case::passed("cgp.check", &step.name);
        let mut errors = Vec::new();
        let mut warnings = Vec::new();
        for (message_index, message) in step.messages.iter().enumerate() {
            if message.probe {
                continue;
            }
            for (finding_index, (severity, finding)) in message.findings.iter().enumerate() {
                let column = finding.position.map_or(1, |position| position.column);
                let text = format!(
                    "{} #{}:{column}: {}",
                    message.side,
                    message.sequence,
                    finding_text(plain, message.variant, finding)
                );
                match severity {
                    Severity::Error
                        if !judged
                            .is_accepted(index, At::Finding(message_index, finding_index)) =>
                    {
                        errors.push(text)
                    }
                    _ => warnings.push(text),
                }
            }
        }
        for (problem_index, problem) in step.problems.iter().enumerate() {
            let at = problem
                .sequence
                .map(|sequence| format!(" at #{sequence}"))
                .unwrap_or_default();
            let rule = problem
                .rule
                .map(|rule| format!(" (rule {rule})"))
                .unwrap_or_default();
            let text = format!("{}{at}: {}{rule}", problem.side, problem.message);
            match problem.severity {
                Severity::Error if !judged.is_accepted(index, At::Problem(problem_index)) => {
                    errors.push(text)
                }
                _ => warnings.push(text),
            }
        }
        if let Some(reason) = &step.skipped {
            case.skipped = Some(reason.clone());
        }
        if let Some(first) = errors.first() {
            case.failure = Some(Failure {
                message: first.clone(),
                kind: "error".into(),
                text: errors.join("\n"),
            });
        }
        let mut output = Vec::new();
        if !step.detail.is_empty() {
            output.push(step.detail.clone());
        }
        output.extend(warnings);
        if !output.is_empty() {
            case.output = Some(output.join("\n"));
        }
        cases.push(case);
    }
    if let Some(stale) = judged.stale.as_ref().filter(|stale| !stale.is_empty()) {
        let mut case = Case::passed("cgp.check", "baseline");
        case.failure = Some(Failure {
            message: format!("{} stale baseline entries", stale.len()),
            kind: "stale".into(),
            text: stale
                .iter()
                .map(Judged::stale_text)
                .collect::<Vec<_>>()
                .join("\n"),
        });
        cases.push(case);
    }
    junit::render(
        "cgp check",
        &[Suite {
            name: "cgp check".into(),
            cases,
        }],
    )
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
                text: shown.join(" "),
                command: Some(shown),
                url: None,
            };
            let group = provider.process_group();
            Ok(Connected {
                peer: Box::new(provider),
                checked,
                group: Some(group),
            })
        }
        Provider::Http {
            url,
            bearer_env,
            headers,
            header_env,
            ca_cert,
        } => {
            let endpoint = Endpoint::parse(url)
                .map_err(|error| format!("--http {}: {error}", shown_url(url)))?;
            let bearer = match bearer_env {
                None => None,
                Some(name) => Some(
                    Bearer::new(variable("--bearer-env", name)?)
                        .map_err(|error| format!("--bearer-env {name}: {error}"))?,
                ),
            };
            let mut sent = Vec::new();
            for text in headers {
                let header = Header::plain(text).map_err(|error| format!("--header: {error}"))?;
                sent.push(header);
            }
            for text in header_env {
                let Some((name, var)) = text.split_once('=').filter(|(_, var)| !var.is_empty())
                else {
                    return Err(format!("--header-env {text}: not Name=VAR"));
                };
                let value = variable("--header-env", var)?;
                let header = Header::secret(name.trim(), &value)
                    .map_err(|error| format!("--header-env {name}: {error}"))?;
                sent.push(header);
            }
            for (index, header) in sent.iter().enumerate() {
                let again = sent[..index]
                    .iter()
                    .any(|earlier| earlier.name().eq_ignore_ascii_case(header.name()));
                let authorization = header.name().eq_ignore_ascii_case("authorization");
                if again || (authorization && bearer.is_some()) {
                    return Err(format!("the header `{}` is given twice", header.name()));
                }
            }
            let roots = match ca_cert {
                None => Roots::default(),
                Some(path) => {
                    Roots::from_pem_file(path).map_err(|error| format!("--ca-cert: {error}"))?
                }
            };
            if ca_cert.is_some() && !endpoint.is_tls() {
                return Err("--ca-cert needs an https:// endpoint".into());
            }
            let endpoint_url = endpoint.url().to_owned();
            let provider = HttpProvider::new(endpoint, bearer, options.timeout)
                .with_headers(sent)
                .with_roots(&roots);
            let checked = Checked {
                command: None,
                text: format!("POST {}", endpoint_url),
                url: Some(endpoint_url),
            };
            Ok(Connected {
                peer: Box::new(provider),
                checked,
                group: None,
            })
        }
    }
}

/// The value of the environment variable `name`, for `flag`. The error names
/// the variable, never a value.
fn variable(flag: &str, name: &str) -> Result<String, String> {
    std::env::var(name).map_err(|error| {
        format!(
            "{flag} {name}: the variable is {}",
            match error {
                std::env::VarError::NotPresent => "not set",
                std::env::VarError::NotUnicode(_) => "not valid Unicode",
            }
        )
    })
}

/// Ending the provider when `cgp check` is interrupted. The provider leads a
/// process group of its own, so the terminal's Ctrl-C does not reach it; on
/// SIGINT, SIGTERM or SIGHUP `cgp check` kills that group and exits with
/// 128 + the signal.
mod interrupt {
    use super::Connected;
    use std::sync::{Arc, Mutex, PoisonError};

    /// The process group to kill on a signal (zero: none), behind a lock that
    /// [`starting`] holds while a provider starts.
    pub type Armed = Arc<Mutex<u32>>;

    /// Watches for the signals from now on; no group is armed yet.
    pub fn watch() -> Armed {
        let armed: Armed = Arc::new(Mutex::new(0));
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
                            // Waits for a provider being started to be armed.
                            let group = *watched.lock().unwrap_or_else(PoisonError::into_inner);
                            if group != 0 {
                                cgp_conformance::stdio::kill_process_group(group);
                            }
                            std::process::exit(128 + signal);
                        }
                    });
            }
        }
        armed
    }

    /// Starts a stdio provider with `start` and arms its group, the signal
    /// watcher waiting meanwhile: a signal that arrives while the provider
    /// starts kills it once it has started, instead of leaving it behind.
    pub fn starting(
        armed: &Mutex<u32>,
        start: impl FnOnce() -> Result<Connected, String>,
    ) -> Result<Connected, String> {
        let mut group = armed.lock().unwrap_or_else(PoisonError::into_inner);
        let connected = start();
        if let Ok(Connected {
            group: Some(started),
            ..
        }) = &connected
        {
            *group = *started;
        }
        connected
    }

    /// The provider has been reaped: its group id may name another group now.
    pub fn disarm(armed: &Mutex<u32>) {
        *armed.lock().unwrap_or_else(PoisonError::into_inner) = 0;
    }
}

fn human(
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
            printable(&Judged::stale_text(entry))
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
fn quiet_summary(
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
fn summary(report: &Report, judged: &Judged) -> String {
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
fn github(
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
            message: &Judged::stale_text(entry),
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

fn severity(style: Style, severity: Severity) -> String {
    match severity {
        Severity::Error => style.bad("error:"),
        Severity::Warning => style.warn("warning:"),
    }
}

fn message_lines(
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
