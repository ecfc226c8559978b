//! `cgp validate`: reading the inputs, checking them with the library
//! ([`cgp_check::stream`]), writing baselines; [`output`] renders the verdicts.

mod output;

use output::Output;

use crate::exit::Exit;
use crate::progress::{self, Progress, Verbosity};
use crate::render::Format;
use crate::style::Style;
use cgp_check::Validator;
use cgp_check::stream::{LineVerdict, StreamError, StreamOptions, check_stream};
use cgp_check::transcript::{Checked, Finding, TranscriptChecker};
use cgp_report::baseline::{self, Baseline, Command, Entry, Matcher};
use cgp_report::validate::Totals;
use cgp_types::MAX_LINE_BYTES;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
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

/// How much of an input is read at a time. Lines are checked where they lie
/// in this buffer, and one that crosses its end is copied out first. 256 KiB
/// was tried: no faster on any transcript (`--jobs 1` and 2, the binaries
/// taking turns, best of 30), so the buffer stays at 64 KiB.
const READ_BUFFER_BYTES: usize = 64 << 10;

/// How standard input is named in the report.
const STDIN: &str = "<stdin>";

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
        let (shown, reader, size) = match open_input(path) {
            Ok(input) => input,
            Err(error) => {
                let _ = output.out.flush();
                eprintln!("cgp: {path}: {error}");
                io_failed = true;
                continue;
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
        return write_baseline(path, entries, options.verbosity, io_failed);
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

/// An input to read: its name in the report, its reader and, for a file, its
/// size.
type Input<'p> = (&'p str, Box<dyn BufRead + Send>, Option<u64>);

/// Opens `path` (`-`: standard input).
fn open_input(path: &str) -> io::Result<Input<'_>> {
    if path == "-" {
        return Ok((
            STDIN,
            Box::new(BufReader::with_capacity(READ_BUFFER_BYTES, io::stdin())),
            None,
        ));
    }
    let file = File::open(path)?;
    let size = file.metadata().ok().map(|metadata| metadata.len());
    Ok((
        path,
        Box::new(BufReader::with_capacity(1 << 20, file)),
        size,
    ))
}

/// Writes every finding to the baseline at `path`: 0 once written (2 when an
/// input could not be read), 2 when it cannot be written.
fn write_baseline(
    path: &Path,
    entries: Vec<Entry>,
    verbosity: Verbosity,
    io_failed: bool,
) -> ExitCode {
    let count = entries.len();
    let text = Baseline::new(Command::Validate, entries).to_text();
    if let Err(error) = std::fs::write(path, text) {
        eprintln!("cgp: writing the baseline {}: {error}", path.display());
        return ExitCode::from(Exit::Trouble);
    }
    if verbosity != Verbosity::Quiet {
        eprintln!(
            "cgp: wrote {count} finding(s) to the baseline {}",
            path.display()
        );
    }
    ExitCode::from(if io_failed {
        Exit::Trouble
    } else {
        Exit::Valid
    })
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
