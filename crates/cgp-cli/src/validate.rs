//! `cgp validate`: rendering the library's verdicts on transcripts.

use crate::exit::Exit;
use crate::github::{Annotation, Level};
use crate::render::{Format, absolute, finding_json, finding_text};
use crate::style::{Style, printable};
use cgp_schema::Validator;
use cgp_schema::stream::{LineVerdict, StreamError, StreamOptions, check_stream};
use cgp_schema::transcript::{Checked, Finding, TranscriptChecker};
use cgp_types::{MAX_LINE_BYTES, Variant};
use serde_json::{Value, json};
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::process::ExitCode;

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
}

/// The largest JSON document `--json-document` reads: the 16 MiB the HTTP
/// transport allows a body.
pub const MAX_DOCUMENT_BYTES: usize = MAX_LINE_BYTES;

/// How standard input is named in the report.
const STDIN: &str = "<stdin>";

#[derive(Debug, Default)]
struct Totals {
    passed: u64,
    failed: u64,
}

struct Output<W: Write> {
    out: W,
    format: Format,
    style: Style,
    totals: Totals,
    /// The file last reported, and its name as a JSON string.
    file_json: (String, String),
}

impl<W: Write> Output<W> {
    /// Renders the verdict on the message that starts on `line` of `file`.
    fn message(&mut self, file: &str, line: usize, checked: &Checked) -> io::Result<()> {
        if checked.is_valid() {
            self.totals.passed += 1;
        } else {
            self.totals.failed += 1;
        }
        match self.format {
            Format::Human => {
                for finding in &checked.findings {
                    self.human(file, line, checked.variant, finding)?;
                }
                Ok(())
            }
            Format::Github => {
                for finding in &checked.findings {
                    let (line, column) = absolute(line, finding);
                    let annotation = Annotation {
                        level: Level::Error,
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
                // `{"file", "line", "valid", "type", "errors"}`, written member by
                // member: building a `Value` for every valid line cost as much
                // as checking it.
                if self.file_json.0 != file {
                    self.file_json = (file.to_owned(), Value::from(file).to_string());
                }
                let errors: Vec<Value> = checked
                    .findings
                    .iter()
                    .map(|finding| finding_json(finding, Some(line)))
                    .collect();
                write!(
                    self.out,
                    "{{\"file\":{},\"line\":{line},\"valid\":{},\"type\":",
                    self.file_json.1,
                    checked.is_valid()
                )?;
                match checked.variant {
                    Some(variant) => serde_json::to_writer(&mut self.out, variant.as_str())?,
                    None => self.out.write_all(b"null")?,
                }
                self.out.write_all(b",\"errors\":")?;
                serde_json::to_writer(&mut self.out, &errors)?;
                self.out.write_all(b"}\n")
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

    fn summary(&mut self) -> io::Result<()> {
        let Totals { passed, failed } = self.totals;
        match self.format {
            Format::Human | Format::Github => {
                let style = self.style;
                let passed_text = format!("{passed} passed");
                let failed_text = format!("{failed} failed");
                let failed_text = if failed > 0 {
                    style.bad(&failed_text)
                } else {
                    failed_text
                };
                let passed_text = if failed == 0 {
                    style.good(&passed_text)
                } else {
                    passed_text
                };
                writeln!(self.out, "{passed_text}, {failed_text}")
            }
            Format::Json => {
                let object = json!({"summary": {"passed": passed, "failed": failed}});
                serde_json::to_writer(&mut self.out, &object)?;
                self.out.write_all(b"\n")
            }
        }
    }
}

/// Runs `cgp validate`: 0 when every message is valid, 1 when one is not, 2 on
/// an I/O error (the other inputs are still checked).
pub fn run(options: &Options, validator: &Validator) -> ExitCode {
    let stdout = io::stdout();
    let style = match options.format {
        Format::Human => Style::detect(&stdout),
        Format::Json | Format::Github => Style::plain(),
    };
    let mut output = Output {
        out: BufWriter::with_capacity(1 << 16, stdout.lock()),
        format: options.format,
        style,
        totals: Totals::default(),
        file_json: (String::new(), "\"\"".to_owned()),
    };
    let paths = if options.paths.is_empty() {
        vec!["-".to_owned()]
    } else {
        options.paths.clone()
    };
    let mut io_failed = false;
    for path in &paths {
        let (shown, reader): (&str, Box<dyn BufRead + Send>) = if path == "-" {
            (
                STDIN,
                Box::new(BufReader::with_capacity(1 << 16, io::stdin())),
            )
        } else {
            match File::open(path) {
                Ok(file) => (
                    path.as_str(),
                    Box::new(BufReader::with_capacity(1 << 16, file)),
                ),
                Err(error) => {
                    let _ = output.out.flush();
                    eprintln!("cgp: {path}: {error}");
                    io_failed = true;
                    continue;
                }
            }
        };
        let result = if options.json_document {
            document(reader, shown, options.semantic, validator, &mut output)
        } else {
            lines(reader, shown, options, validator, &mut output)
        };
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
    if io_failed {
        ExitCode::from(Exit::Trouble)
    } else if output.totals.failed > 0 {
        ExitCode::from(Exit::Invalid)
    } else {
        ExitCode::from(Exit::Valid)
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
) -> Result<(), Failure> {
    let options = StreamOptions {
        semantic: options.semantic,
        threads: options.jobs,
    };
    check_stream(reader, validator, options, |verdict: &LineVerdict| {
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
