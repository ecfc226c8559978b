//! `cgp validate`: rendering the library's verdicts on transcripts, applying
//! and writing baselines.

use crate::exit::Exit;
use crate::github::{Annotation, Level};
use crate::progress::{self, Progress, Verbosity};
use crate::render::{Format, absolute, finding_text, json_line};
use crate::style::{Style, printable};
use cgp_check::Validator;
use cgp_check::stream::{LineVerdict, StreamError, StreamOptions, check_stream};
use cgp_check::transcript::{Checked, Finding, TranscriptChecker};
use cgp_conformance::Severity;
use cgp_report::baseline::{self, Baseline, Command, Entry, Matcher};
use cgp_report::finding::FindingReport;
use cgp_report::junit::{self, Case, Suite};
use cgp_report::validate::{MessageVerdict, Record, Stale, Summary, Totals};
use cgp_types::{MAX_LINE_BYTES, Variant};
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// What `cgp validate` was asked to do.
#[derive(Debug, Clone)]
pub struct Options {
    /// The output format.
    pub format: Format,
    /// Add the semantic rules.
    pub semantic: bool,
    /// Each input is one JSON document, not NDJSON.
    pub json_document: bool,
    /// Threads that check lines (1: the main thread alone).
    pub jobs: usize,
    /// The inputs; `-` is standard input.
    pub paths: Vec<String>,
    /// The baseline to apply.
    pub baseline: Option<PathBuf>,
    /// Where to write a baseline of this run's findings.
    pub write_baseline: Option<PathBuf>,
    /// How much to say.
    pub verbosity: Verbosity,
}

/// The largest JSON document `--json-document` reads: the 16 MiB the HTTP
/// transport allows a body.
pub const MAX_DOCUMENT_BYTES: usize = MAX_LINE_BYTES;

/// How standard input is named in the report.
const STDIN: &str = "<stdin>";

/// At most this many findings are listed in one file's JUnit failure.
const JUNIT_FINDINGS: usize = 1000;

/// One input file's JUnit case, as it is built.
#[derive(Debug, Default)]
struct FileCase {
    file: String,
    messages: u64,
    failed: u64,
    findings: Vec<String>,
    more: u64,
}

struct Output<W: Write> {
    out: W,
    format: Format,
    style: Style,
    verbosity: Verbosity,
    totals: Totals,
    /// The baseline applied, when one is.
    matcher: Option<Matcher>,
    /// The findings for `--write-baseline`, when one is to be written.
    recorded: Option<Vec<Entry>>,
    /// The working directory, to name files in baseline entries.
    cwd: Option<PathBuf>,
    /// The JUnit case of each file so far.
    cases: Vec<FileCase>,
}

impl<W: Write> Output<W> {
    /// The baseline entry of a finding of the message on `line` of `file`.
    fn entry(&self, file: &str, line: usize, finding: &Finding) -> Entry {
        Entry {
            step: None,
            file: Some(baseline::portable_path(file, self.cwd.as_deref())),
            line: Some(absolute(line, finding).0 as u64),
            layer: finding.layer.as_str().to_owned(),
            rule: finding.rule.map(|rule| rule.as_str().to_owned()),
            side: None,
            pointer: finding.instance_path.clone(),
            message: finding.message.clone(),
        }
    }

    /// Renders the verdict on the message that starts on `line` of `file`.
    fn message(&mut self, file: &str, line: usize, checked: &Checked) -> io::Result<()> {
        // Which findings the baseline accepts (none without one).
        let mut accepted = vec![false; checked.findings.len()];
        if self.matcher.is_some() || self.recorded.is_some() {
            for (index, finding) in checked.findings.iter().enumerate() {
                let entry = self.entry(file, line, finding);
                if let Some(matcher) = &mut self.matcher {
                    accepted[index] = matcher.accept(&entry);
                }
                if let Some(recorded) = &mut self.recorded {
                    recorded.push(entry);
                }
            }
        }
        let baselined = !checked.findings.is_empty() && accepted.iter().all(|&yes| yes);
        if !checked.has_errors() {
            self.totals.passed += 1;
        } else if baselined {
            *self.totals.baselined.get_or_insert(0) += 1;
        } else {
            self.totals.failed += 1;
        }
        self.totals.warnings += checked
            .findings
            .iter()
            .filter(|finding| !finding.is_error())
            .count() as u64;
        let open = |finding: &(usize, &Finding)| !accepted[finding.0];
        match self.format {
            Format::Human => {
                if self.verbosity == Verbosity::Quiet {
                    return Ok(());
                }
                for (_, finding) in checked.findings.iter().enumerate().filter(open) {
                    self.human(file, line, checked.variant, finding)?;
                }
                if self.verbosity == Verbosity::Verbose {
                    let verdict = if !checked.has_errors() {
                        self.style.good("valid")
                    } else if baselined {
                        self.style.dim("invalid, in the baseline")
                    } else {
                        self.style.bad("invalid")
                    };
                    writeln!(
                        self.out,
                        "{} {} {verdict}",
                        self.style.location(&format!("{}:{line}:", printable(file))),
                        self.style
                            .variant(checked.variant.map_or("-", Variant::as_str)),
                    )?;
                }
                Ok(())
            }
            Format::Github => {
                if self.verbosity == Verbosity::Quiet {
                    return Ok(());
                }
                for (_, finding) in checked.findings.iter().enumerate().filter(open) {
                    let (line, column) = absolute(line, finding);
                    let annotation = Annotation {
                        level: if finding.is_error() {
                            Level::Error
                        } else {
                            Level::Warning
                        },
                        // Standard input is no file of the repository.
                        file: Some(file).filter(|&file| file != STDIN),
                        line: Some(line),
                        column: Some(column),
                        title: "cgp validate",
                        message: &finding_text(self.style, checked.variant, finding),
                    };
                    writeln!(self.out, "{annotation}")?;
                }
                Ok(())
            }
            Format::Json => {
                let verdict = MessageVerdict {
                    file,
                    line,
                    valid: !checked.has_errors(),
                    variant: checked.variant.map(Variant::as_str),
                    errors: checked
                        .findings
                        .iter()
                        .map(|finding| {
                            let severity = if finding.is_error() {
                                Severity::Error
                            } else {
                                Severity::Warning
                            };
                            FindingReport::new(finding, Some(line), Some(severity))
                        })
                        .collect(),
                    baselined,
                };
                json_line(&mut self.out, &Record::Message(verdict))
            }
            Format::Junit => {
                if self.cases.last().is_none_or(|case| case.file != file) {
                    self.cases.push(FileCase {
                        file: file.to_owned(),
                        ..FileCase::default()
                    });
                }
                let style = self.style;
                if let Some(case) = self.cases.last_mut() {
                    case.messages += 1;
                    if checked.has_errors() && !baselined {
                        case.failed += 1;
                    }
                    for (_, finding) in checked.findings.iter().enumerate().filter(open) {
                        if case.findings.len() < JUNIT_FINDINGS {
                            let (line, column) = absolute(line, finding);
                            case.findings.push(format!(
                                "{file}:{line}:{column}: {}",
                                finding_text(style, checked.variant, finding)
                            ));
                        } else {
                            case.more += 1;
                        }
                    }
                }
                Ok(())
            }
        }
    }

    fn human(
        &mut self,
        file: &str,
        line: usize,
        variant: Option<Variant>,
        finding: &Finding,
    ) -> io::Result<()> {
        let (line, column) = absolute(line, finding);
        let style = self.style;
        writeln!(
            self.out,
            "{} {}",
            style.location(&format!("{}:{line}:{column}:", printable(file))),
            finding_text(style, variant, finding),
        )
    }

    /// The baseline entries nothing matched, then the summary.
    fn summary(&mut self) -> io::Result<()> {
        let stale: Vec<Entry> = self
            .matcher
            .as_ref()
            .map(|matcher| matcher.stale().into_iter().cloned().collect())
            .unwrap_or_default();
        if self.matcher.is_some() {
            self.totals.stale = Some(stale.len() as u64);
            self.totals.baselined.get_or_insert(0);
        }
        let stale_text = |entry: &Entry| {
            let rule = entry
                .rule
                .as_ref()
                .map(|rule| format!(" rule {rule}"))
                .unwrap_or_default();
            let pointer = if entry.pointer.is_empty() {
                "/"
            } else {
                &entry.pointer
            };
            format!(
                "stale baseline entry ({}{rule} at {pointer}), no longer found: {}",
                entry.layer, entry.message
            )
        };
        let Totals {
            passed,
            failed,
            warnings,
            baselined,
            stale: stale_count,
        } = self.totals;
        match self.format {
            Format::Human | Format::Github => {
                for entry in &stale {
                    let at = format!(
                        "{}:{}",
                        entry.file.as_deref().unwrap_or_default(),
                        entry.line.unwrap_or(1)
                    );
                    if self.format == Format::Github {
                        let line = entry.line.map(|line| line as usize);
                        let annotation = Annotation {
                            level: Level::Error,
                            file: entry.file.as_deref().filter(|&file| file != STDIN),
                            line,
                            column: None,
                            title: "cgp validate: stale baseline entry",
                            message: &stale_text(entry),
                        };
                        writeln!(self.out, "{annotation}")?;
                    } else {
                        writeln!(
                            self.out,
                            "{} {}",
                            self.style.location(&format!("{}:", printable(&at))),
                            printable(&stale_text(entry))
                        )?;
                    }
                }
                let style = self.style;
                let passed_text = format!("{passed} passed");
                let failed_text = format!("{failed} failed");
                let failed_text = if failed > 0 {
                    style.bad(&failed_text)
                } else {
                    failed_text
                };
                let passed_text = if failed == 0 && stale.is_empty() {
                    style.good(&passed_text)
                } else {
                    passed_text
                };
                let baseline_text = match (baselined, stale_count) {
                    (Some(baselined), Some(stale)) => {
                        let stale_text = format!("{stale} stale");
                        format!(
                            ", {baselined} baselined, {}",
                            if stale > 0 {
                                style.bad(&stale_text)
                            } else {
                                stale_text
                            }
                        )
                    }
                    _ => String::new(),
                };
                let warnings_text = match warnings {
                    0 => String::new(),
                    1 => ", 1 warning (a broken SHOULD)".to_owned(),
                    _ => format!(", {warnings} warnings (broken SHOULDs)"),
                };
                writeln!(
                    self.out,
                    "{passed_text}, {failed_text}{warnings_text}{baseline_text}"
                )
            }
            Format::Json => {
                for entry in &stale {
                    json_line(&mut self.out, &Record::Stale(Stale { stale: entry }))?;
                }
                json_line(
                    &mut self.out,
                    &Record::Summary(Summary {
                        summary: self.totals,
                    }),
                )
            }
            Format::Junit => {
                let mut cases: Vec<Case> = self
                    .cases
                    .iter()
                    .map(|file| {
                        let mut case = Case::passed("cgp.validate", &file.file);
                        if file.failed > 0 {
                            let mut text = file.findings.join("\n");
                            if file.more > 0 {
                                text.push_str(&format!("\n… and {} more", file.more));
                            }
                            case.failure = Some(junit::Failure {
                                message: format!(
                                    "{} of {} messages are invalid",
                                    file.failed, file.messages
                                ),
                                kind: "invalid".into(),
                                text,
                            });
                        }
                        case
                    })
                    .collect();
                if !stale.is_empty() {
                    let mut case = Case::passed("cgp.validate", "baseline");
                    case.failure = Some(junit::Failure {
                        message: format!("{} stale baseline entries", stale.len()),
                        kind: "stale".into(),
                        text: stale
                            .iter()
                            .map(|entry| {
                                format!(
                                    "{}:{}: {}",
                                    entry.file.as_deref().unwrap_or_default(),
                                    entry.line.unwrap_or(1),
                                    stale_text(entry)
                                )
                            })
                            .collect::<Vec<_>>()
                            .join("\n"),
                    });
                    cases.push(case);
                }
                let suite = Suite {
                    name: "cgp validate".into(),
                    cases,
                };
                self.out
                    .write_all(junit::render("cgp validate", &[suite]).as_bytes())
            }
        }
    }
}

/// Runs `cgp validate`: 0 when every message is valid (or its findings are in
/// the baseline, and no entry is stale), 1 when one is not, 2 on an I/O error
/// (the other inputs are still checked) or an unusable baseline.
pub fn run(options: &Options, validator: &Validator) -> ExitCode {
    let matcher = match &options.baseline {
        None => None,
        Some(path) => match baseline::read(path, Command::Validate) {
            Ok(baseline) => Some(Matcher::new(baseline)),
            Err(error) => {
                eprintln!("cgp: {error}");
                return ExitCode::from(Exit::Trouble);
            }
        },
    };
    let stdout = io::stdout();
    let style = match options.format {
        Format::Human => Style::detect(&stdout),
        Format::Json | Format::Github | Format::Junit => Style::plain(),
    };
    let mut output = Output {
        out: BufWriter::with_capacity(1 << 16, stdout.lock()),
        format: options.format,
        style,
        verbosity: options.verbosity,
        totals: Totals::default(),
        matcher,
        recorded: options.write_baseline.as_ref().map(|_| Vec::new()),
        cwd: std::env::current_dir().ok(),
        cases: Vec::new(),
    };
    let paths = if options.paths.is_empty() {
        vec!["-".to_owned()]
    } else {
        options.paths.clone()
    };
    let show_progress = progress::wanted(options.format, options.verbosity);
    let mut io_failed = false;
    for path in &paths {
        let (shown, reader, size): (&str, Box<dyn BufRead + Send>, Option<u64>) = if path == "-" {
            (
                STDIN,
                Box::new(BufReader::with_capacity(1 << 16, io::stdin())),
                None,
            )
        } else {
            match File::open(path) {
                Ok(file) => {
                    let size = file.metadata().ok().map(|metadata| metadata.len());
                    (
                        path.as_str(),
                        Box::new(BufReader::with_capacity(1 << 16, file)),
                        size,
                    )
                }
                Err(error) => {
                    let _ = output.out.flush();
                    eprintln!("cgp: {path}: {error}");
                    io_failed = true;
                    continue;
                }
            }
        };
        // A bar for a large file, a spinner for standard input.
        let large = size.is_none_or(|size| size >= progress::LARGE_INPUT_BYTES);
        let bar = if show_progress && large && !options.json_document {
            Progress::bytes(shown, size)
        } else {
            Progress::none()
        };
        let read = Arc::new(AtomicU64::new(0));
        let reader = Counted {
            inner: reader,
            read: Arc::clone(&read),
        };
        let result = if options.json_document {
            document(reader, shown, options.semantic, validator, &mut output)
        } else {
            lines(reader, shown, options, validator, &mut output, &bar, &read)
        };
        bar.clear();
        match result {
            Ok(()) => {}
            Err(Failure::Output(error)) => return output_failed(&error),
            Err(Failure::Input(error)) => {
                let _ = output.out.flush();
                eprintln!("cgp: {shown}: {error}");
                io_failed = true;
            }
        }
    }
    if let Err(error) = output.summary().and_then(|()| output.out.flush()) {
        return output_failed(&error);
    }
    if let (Some(path), Some(entries)) = (&options.write_baseline, output.recorded.take()) {
        let count = entries.len();
        let text = Baseline::new(Command::Validate, entries).to_text();
        if let Err(error) = std::fs::write(path, text) {
            eprintln!("cgp: writing the baseline {}: {error}", path.display());
            return ExitCode::from(Exit::Trouble);
        }
        if options.verbosity != Verbosity::Quiet {
            eprintln!(
                "cgp: wrote {count} finding(s) to the baseline {}",
                path.display()
            );
        }
        return ExitCode::from(if io_failed {
            Exit::Trouble
        } else {
            Exit::Valid
        });
    }
    let stale = output.totals.stale.unwrap_or(0);
    if io_failed {
        ExitCode::from(Exit::Trouble)
    } else if output.totals.failed > 0 || stale > 0 {
        ExitCode::from(Exit::Invalid)
    } else {
        ExitCode::from(Exit::Valid)
    }
}

/// A reader that counts the bytes taken from it, for the progress bar.
struct Counted {
    inner: Box<dyn BufRead + Send>,
    read: Arc<AtomicU64>,
}

impl Read for Counted {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let count = self.inner.read(buffer)?;
        self.read.fetch_add(count as u64, Ordering::Relaxed);
        Ok(count)
    }
}

impl BufRead for Counted {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.read.fetch_add(amount as u64, Ordering::Relaxed);
        self.inner.consume(amount);
    }
}

fn output_failed(error: &io::Error) -> ExitCode {
    if error.kind() == io::ErrorKind::BrokenPipe {
        // The reader went away (`cgp validate … | head`); nothing left to say.
        return ExitCode::from(Exit::Trouble);
    }
    eprintln!("cgp: writing the report: {error}");
    ExitCode::from(Exit::Trouble)
}

enum Failure {
    Input(io::Error),
    Output(io::Error),
}

fn lines<W: Write>(
    reader: impl BufRead + Send,
    shown: &str,
    options: &Options,
    validator: &Validator,
    output: &mut Output<W>,
    bar: &Progress,
    read: &AtomicU64,
) -> Result<(), Failure> {
    let options = StreamOptions {
        semantic: options.semantic,
        threads: options.jobs,
    };
    let shown_progress = bar.is_shown();
    check_stream(reader, validator, options, |verdict: &LineVerdict| {
        if shown_progress && verdict.number % 1024 == 0 {
            bar.set_position(read.load(Ordering::Relaxed));
            bar.message(format!("{shown}: {} lines", verdict.number));
        }
        output.message(shown, verdict.number, &verdict.checked)
    })
    .map_err(|error| match error {
        StreamError::Input(error) => Failure::Input(error),
        StreamError::Sink(error) => Failure::Output(error),
    })
}

/// The default of `--jobs`: one thread per core, at most 8.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |count| count.get().min(8))
}

fn document<W: Write>(
    reader: impl BufRead,
    shown: &str,
    semantic: bool,
    validator: &Validator,
    output: &mut Output<W>,
) -> Result<(), Failure> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_DOCUMENT_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(Failure::Input)?;
    let checked = if bytes.len() > MAX_DOCUMENT_BYTES {
        let mut finding = Finding::line_too_long(bytes.len() as u64);
        finding.message = format!(
            "the document is over the {MAX_DOCUMENT_BYTES}-byte limit a CGP message may have; it was not read"
        );
        Checked {
            variant: None,
            findings: vec![finding],
            value: None,
            envelope: None,
        }
    } else {
        TranscriptChecker::new(validator, semantic).check(&bytes, "the document")
    };
    output.message(shown, 1, &checked).map_err(Failure::Output)
}
