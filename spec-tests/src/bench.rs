//! The measurements behind `cargo xtask bench`: validation throughput against
//! the parse it sits on, the decoders, the peer validators, and how codegen and
//! check grow with the schema.
//!
//! Everything runs on one reproducible transcript ([`crate::transcript`]) and
//! the published interop bundle. [`run`] measures and returns a [`Report`];
//! [`Report::render`] turns it into the Markdown table of `BENCHMARKS.md`, with
//! every ratio taken from figures of the same run. The reference crates are
//! dev-dependencies of this crate, so their decoder is handed in by the caller
//! (`benches/throughput.rs`, `tests/bench_smoke.rs`).
//!
//! In-process figures are the best of several rounds, the candidates taking
//! turns within each round, so a busy neighbour on the machine slows them all
//! alike instead of skewing one ratio. Nothing here asserts a timing: the report
//! says which targets are met, and a smoke test only checks that the machinery
//! runs.

use cgp_schema::stream::{LineVerdict, StreamOptions, check_stream};
use cgp_schema::transcript::check_verdict;
use cgp_schema::{Bundle, SchemaSet, Validator};
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// The published bundle every validator here uses, relative to the repository:
/// the working version's interop bundle.
pub fn interop_bundle() -> Result<String, String> {
    let version: cgp_schema::ProtocolVersion = cgp_types::PROTOCOL_VERSION
        .parse()
        .map_err(|error| format!("{error}"))?;
    Ok(cgp_codegen::plan::published_path(
        &version,
        cgp_schema::Profile::Interop,
    ))
}

/// A transcript held in memory, split into lines (blank lines dropped).
#[derive(Debug, Clone)]
pub struct Corpus {
    bytes: Vec<u8>,
    lines: Vec<(usize, usize)>,
}

impl Corpus {
    /// Splits `bytes` on line feeds.
    pub fn new(bytes: Vec<u8>) -> Self {
        let mut lines = Vec::new();
        let mut start = 0;
        for (index, byte) in bytes.iter().enumerate() {
            if *byte == b'\n' {
                if index > start {
                    lines.push((start, index));
                }
                start = index + 1;
            }
        }
        if bytes.len() > start {
            lines.push((start, bytes.len()));
        }
        Corpus { bytes, lines }
    }

    /// The whole text.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Every line, without its line feed.
    pub fn lines(&self) -> impl Iterator<Item = &[u8]> {
        self.lines
            .iter()
            .map(|(start, end)| &self.bytes[*start..*end])
    }

    /// The number of lines.
    pub fn line_count(&self) -> u64 {
        self.lines.len() as u64
    }

    /// The size in bytes, line feeds included.
    pub fn size(&self) -> u64 {
        self.bytes.len() as u64
    }

    /// The first whole lines, at most `max_bytes` of them (at least one line).
    pub fn prefix(&self, max_bytes: u64) -> Corpus {
        let mut end = 0;
        for (index, (_, line_end)) in self.lines.iter().enumerate() {
            let next = (*line_end + 1).min(self.bytes.len());
            if next as u64 > max_bytes && index > 0 {
                break;
            }
            end = next;
        }
        Corpus::new(self.bytes[..end].to_vec())
    }

    /// Only the lines shorter than `max_line` bytes.
    pub fn short_lines(&self, max_line: usize) -> Corpus {
        let mut bytes = Vec::new();
        for line in self.lines().filter(|line| line.len() < max_line) {
            bytes.extend_from_slice(line);
            bytes.push(b'\n');
        }
        Corpus::new(bytes)
    }

    /// How line lengths are spread.
    pub fn mix(&self) -> Mix {
        let mut mix = Mix {
            lines: self.line_count(),
            bytes: self.size(),
            ..Mix::default()
        };
        for line in self.lines() {
            let length = line.len() as u64 + 1;
            mix.longest = mix.longest.max(length);
            if line.len() < SHORT_LINE {
                mix.short_lines += 1;
                mix.short_bytes += length;
            }
        }
        mix
    }
}

/// Lines shorter than this many bytes count as short.
pub const SHORT_LINE: usize = 4096;

/// How a corpus's line lengths are spread.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Mix {
    /// Lines.
    pub lines: u64,
    /// Bytes, line feeds included.
    pub bytes: u64,
    /// Lines shorter than [`SHORT_LINE`].
    pub short_lines: u64,
    /// The bytes of those lines.
    pub short_bytes: u64,
    /// The longest line, with its line feed.
    pub longest: u64,
}

/// What one candidate achieved on a corpus.
#[derive(Debug, Clone, PartialEq)]
pub struct Throughput {
    /// Bytes processed, line feeds included.
    pub bytes: u64,
    /// Lines processed.
    pub lines: u64,
    /// The best wall time, in seconds.
    pub seconds: f64,
}

impl Throughput {
    /// Megabytes (10^6 bytes) per second.
    pub fn mb_per_s(&self) -> f64 {
        self.bytes as f64 / 1e6 / self.seconds.max(1e-9)
    }

    /// Lines per second.
    pub fn lines_per_s(&self) -> f64 {
        self.lines as f64 / self.seconds.max(1e-9)
    }
}

/// Every figure the report shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Measure {
    /// `serde_json::from_slice::<Value>` on each line: the baseline.
    ParseValue,
    /// `serde_json::from_str::<Value>` on lines already checked as UTF-8.
    ParseValueFromStr,
    /// `cgp_types::decode_line`.
    DecodeHandWritten,
    /// `serde_json::from_str::<cgp_generated::Envelope>`.
    DecodeGenerated,
    /// `contextgraph_host::wire::decode_line`, the reference crate.
    DecodeReference,
    /// `check_verdict` on each line, in process, one thread.
    VerdictInProcess,
    /// `check_stream` on the whole text, in process, two worker threads.
    StreamTwoThreads,
    /// The baseline parse on two threads, each taking half the lines: what two
    /// threads of this machine can do at the time of the run, the ceiling of
    /// any two-thread figure.
    ParseValueTwoThreads,
    /// The `cgp validate --profile interop --jobs 1` binary.
    CliOneJob,
    /// The `cgp validate --profile interop --jobs 2` binary.
    CliTwoJobs,
    /// Node Ajv, 2020 mode, compiled once; UTF-8 decoding and `JSON.parse`
    /// included.
    Ajv,
    /// The same, on lines decoded to strings beforehand.
    AjvPredecoded,
    /// Python `jsonschema`, validator built once, `json.loads` included.
    PythonJsonschema,
}

/// Which file a figure was measured on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Sample {
    /// The whole transcript.
    Mixed,
    /// Its lines under [`SHORT_LINE`] bytes, as a file of their own.
    Short,
}

impl Sample {
    /// Both, in report order.
    pub const ALL: [Sample; 2] = [Sample::Mixed, Sample::Short];

    fn file_name(self, seed: u64) -> String {
        match self {
            Sample::Mixed => format!("transcript-seed{seed}.ndjson"),
            Sample::Short => format!("transcript-seed{seed}-short.ndjson"),
        }
    }
}

impl Measure {
    fn label(self) -> &'static str {
        match self {
            Measure::ParseValue => "serde_json parse into `Value` (`from_slice`): **the baseline**",
            Measure::ParseValueFromStr => {
                "serde_json parse into `Value` (`from_str`, UTF-8 check not counted)"
            }
            Measure::DecodeHandWritten => "decode, hand-written types (`cgp_types::decode_line`)",
            Measure::DecodeGenerated => "decode, generated types (`cgp_generated::Envelope`)",
            Measure::DecodeReference => {
                "decode, reference crate (`contextgraph_host::wire::decode_line`)"
            }
            Measure::VerdictInProcess => "validation in process (`check_verdict`), 1 thread",
            Measure::StreamTwoThreads => "validation in process (`check_stream`), 2 workers",
            Measure::ParseValueTwoThreads => {
                "serde_json parse into `Value` (`from_slice`), 2 threads, half the lines each"
            }
            Measure::CliOneJob => "`cgp validate --profile interop --jobs 1`",
            Measure::CliTwoJobs => "`cgp validate --profile interop --jobs 2`",
            Measure::Ajv => {
                "Node Ajv 8 (2020 mode, compiled once; decoding and `JSON.parse` included)"
            }
            Measure::AjvPredecoded => "Node Ajv 8, lines decoded to strings beforehand",
            Measure::PythonJsonschema => {
                "Python jsonschema 4 (validator built once, `json.loads` included)"
            }
        }
    }
}

/// One measured figure.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// On which file.
    pub sample: Sample,
    /// What was measured.
    pub measure: Measure,
    /// How fast.
    pub throughput: Throughput,
    /// How it was measured, when it differs from the rest.
    pub note: String,
}

/// codegen and check on one schema tree.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaRun {
    /// How many copies of every schema file the tree holds (1: the real schema).
    pub factor: usize,
    /// Schema files.
    pub files: usize,
    /// Their size in bytes.
    pub bytes: u64,
    /// `cargo xtask codegen`, best wall time in seconds.
    pub codegen: f64,
    /// `cargo xtask check`, best wall time in seconds.
    pub check: f64,
    /// Whether check passed (on a synthetic tree the sync gate cannot: the
    /// hand-written types do not have the copies).
    pub check_passed: bool,
}

/// The machine a report was measured on.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Machine {
    /// The CPU model.
    pub cpu: String,
    /// Cores available to the process.
    pub cores: usize,
    /// Memory, in GiB.
    pub memory_gib: f64,
    /// `rustc --version`.
    pub rustc: String,
    /// The date, `YYYY-MM-DD` (UTC).
    pub date: String,
    /// The 1-minute load average before and after the run.
    pub load: (f64, f64),
}

impl Machine {
    /// Reads what the system says about itself (Linux; unknown elsewhere).
    pub fn detect() -> Self {
        let read = |path: &str| std::fs::read_to_string(path).unwrap_or_default();
        let cpu = read("/proc/cpuinfo")
            .lines()
            .find_map(|line| {
                let (key, value) = line.split_once(':')?;
                (key.trim() == "model name").then(|| value.trim().to_owned())
            })
            .unwrap_or_else(|| "unknown".into());
        let memory_gib = read("/proc/meminfo")
            .lines()
            .find_map(|line| {
                let rest = line.strip_prefix("MemTotal:")?;
                rest.trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<f64>()
                    .ok()
            })
            .map_or(0.0, |kib| kib / (1024.0 * 1024.0));
        let rustc = Command::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
            .arg("--version")
            .output()
            .ok()
            .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_owned())
            .unwrap_or_else(|| "unknown".into());
        let seconds = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_secs());
        Machine {
            cpu,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            memory_gib,
            rustc,
            date: civil_date(seconds / 86_400),
            load: (load_average(), 0.0),
        }
    }
}

fn load_average() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|text| text.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0)
}

/// `YYYY-MM-DD` of a day counted from 1970-01-01 (H. Hinnant's algorithm).
fn civil_date(days: u64) -> String {
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// What to measure and with what.
#[derive(Debug, Clone)]
pub struct Config {
    /// The repository root (schemas, SPEC.md, the bundle, the peer scripts).
    pub repo: PathBuf,
    /// A scratch directory; the transcript and the schema trees go there.
    pub work: PathBuf,
    /// The transcript's size in bytes (at least).
    pub transcript_bytes: u64,
    /// The transcript's seed.
    pub seed: u64,
    /// Rounds per in-process figure and per command (the best counts).
    pub rounds: usize,
    /// The prefix of the transcript Python validates, in bytes.
    pub python_bytes: u64,
    /// The `cgp` binary; `None` skips the command-line figures.
    pub cgp: Option<PathBuf>,
    /// The already-built xtask binary; `None` skips the schema figures.
    pub xtask: Option<PathBuf>,
    /// Where `cargo xtask peers` installed the peers; `None` skips them.
    pub peers: Option<PathBuf>,
    /// The schema sizes to time codegen and check on (1 is the real schema).
    pub schema_factors: Vec<usize>,
}

/// A decoder of one line: whether it accepted it.
pub type LineDecoder = Box<dyn FnMut(&[u8]) -> bool>;

/// The decoders that live outside this library: the generated crate and the
/// reference crate are dev-dependencies, so the caller hands them in.
pub struct Decoders {
    /// `serde_json::from_str::<cgp_generated::Envelope>`.
    pub generated: LineDecoder,
    /// `contextgraph_host::wire::decode_line`.
    pub reference: LineDecoder,
}

/// Wraps a decoder of `&str` lines: the line is checked as UTF-8 with the
/// standard library first, as a host reading `String` lines does.
pub fn decoder<T, E>(decode: impl Fn(&str) -> Result<T, E> + 'static) -> LineDecoder {
    Box::new(move |line| std::str::from_utf8(line).is_ok_and(|text| decode(text).is_ok()))
}

/// Everything one run measured.
#[derive(Debug, Clone)]
pub struct Report {
    /// Where.
    pub machine: Machine,
    /// The transcript's seed.
    pub seed: u64,
    /// The transcript.
    pub mix: Mix,
    /// Its short lines.
    pub short_mix: Mix,
    /// In-process rounds.
    pub rounds: usize,
    /// The throughput figures.
    pub rows: Vec<Row>,
    /// codegen and check, by schema size.
    pub schema: Vec<SchemaRun>,
    /// What was skipped, and why.
    pub skipped: Vec<String>,
}

impl Report {
    /// The figure of `measure` on `sample`, when it was measured.
    pub fn get(&self, sample: Sample, measure: Measure) -> Option<&Throughput> {
        self.rows
            .iter()
            .find(|row| row.sample == sample && row.measure == measure)
            .map(|row| &row.throughput)
    }
}

/// Generates the transcript and measures everything `config` asks for.
pub fn run(config: &Config, mut decoders: Decoders) -> Result<Report, String> {
    let mut machine = Machine::detect();
    std::fs::create_dir_all(&config.work).map_err(|e| io_error(&config.work, &e))?;
    let mut text = Vec::new();
    crate::transcript::write(&mut text, config.transcript_bytes, config.seed)
        .map_err(|error| format!("generating the transcript: {error}"))?;
    let mixed = Corpus::new(text);
    let short = mixed.short_lines(SHORT_LINE);
    let bundle_path = config.repo.join(interop_bundle()?);
    let bundle_text =
        std::fs::read_to_string(&bundle_path).map_err(|e| io_error(&bundle_path, &e))?;
    let bundle = Bundle::from_published(&bundle_text)?;
    let validator = Validator::new(&bundle).map_err(|problems| problems.to_string())?;
    let rounds = config.rounds.max(1);
    let mut rows = Vec::new();
    let mut skipped = Vec::new();
    for (sample, corpus) in [(Sample::Mixed, &mixed), (Sample::Short, &short)] {
        let path = config.work.join(sample.file_name(config.seed));
        std::fs::write(&path, corpus.bytes()).map_err(|e| io_error(&path, &e))?;
        let tag = |measure, throughput, note: String| Row {
            sample,
            measure,
            throughput,
            note,
        };
        for (measure, throughput, note) in in_process(corpus, &validator, rounds, &mut decoders)? {
            rows.push(tag(measure, throughput, note));
        }
        if let Some(cgp) = &config.cgp {
            for (measure, jobs) in [(Measure::CliOneJob, "1"), (Measure::CliTwoJobs, "2")] {
                let throughput = cgp_validate(cgp, jobs, &path, corpus, 2 * rounds)?;
                let note = "the whole process: start-up, reading the file".into();
                rows.push(tag(measure, throughput, note));
            }
        }
        if let Some(peers) = &config.peers {
            for (measure, throughput, note) in peers_on(config, peers, &bundle_path, corpus, &path)?
            {
                rows.push(tag(measure, throughput, note));
            }
        }
    }
    if config.cgp.is_none() {
        skipped.push("`cgp validate`: no cgp binary given".into());
    }
    if config.peers.is_none() {
        skipped.push("the peer validators: not installed".into());
    }
    let schema = match &config.xtask {
        Some(xtask) => schema_scaling(
            &config.repo,
            &config.work,
            xtask,
            &config.schema_factors,
            rounds,
        )?,
        None => {
            skipped.push("codegen and check: no xtask binary given".into());
            Vec::new()
        }
    };
    machine.load.1 = load_average();
    Ok(Report {
        machine,
        seed: config.seed,
        mix: mixed.mix(),
        short_mix: short.mix(),
        rounds,
        rows,
        schema,
        skipped,
    })
}

fn io_error(path: &Path, error: &std::io::Error) -> String {
    format!("{}: {error}", path.display())
}

/// One candidate of an in-process comparison: processes the whole corpus and
/// says what went wrong, if anything did.
type Candidate<'a> = (Measure, Box<dyn FnMut(&Corpus) -> Result<(), String> + 'a>);

/// Wraps a per-line function; every line must be accepted.
fn per_line<'a>(measure: Measure, mut accept: impl FnMut(&[u8]) -> bool + 'a) -> Candidate<'a> {
    (
        measure,
        Box::new(move |corpus: &Corpus| {
            for (index, line) in corpus.lines().enumerate() {
                if !accept(line) {
                    return Err(format!(
                        "{measure:?} rejected line {} of the transcript",
                        index + 1
                    ));
                }
            }
            Ok(())
        }),
    )
}

/// Runs every candidate `rounds` times, taking turns, and keeps each one's best.
/// Each round starts with the next candidate, so none always follows the same
/// one (what a candidate leaves behind, such as freed memory, affects the next).
fn compare(
    corpus: &Corpus,
    rounds: usize,
    candidates: Vec<Candidate<'_>>,
) -> Result<Vec<Figure>, String> {
    let mut candidates = candidates;
    let count = candidates.len();
    let mut best = vec![f64::INFINITY; count];
    for round in 0..rounds {
        for turn in 0..count {
            let slot = (round + turn) % count;
            let start = Instant::now();
            (candidates[slot].1)(corpus)?;
            best[slot] = best[slot].min(start.elapsed().as_secs_f64());
        }
    }
    Ok(candidates
        .iter()
        .zip(best)
        .map(|((measure, _), seconds)| {
            let throughput = Throughput {
                bytes: corpus.size(),
                lines: corpus.line_count(),
                seconds,
            };
            (*measure, throughput, String::new())
        })
        .collect())
}

/// A figure before it knows its sample: what, how fast, and a note.
type Figure = (Measure, Throughput, String);

fn in_process(
    corpus: &Corpus,
    validator: &Validator,
    rounds: usize,
    decoders: &mut Decoders,
) -> Result<Vec<Figure>, String> {
    let texts: Vec<&str> = corpus
        .lines()
        .map(|line| std::str::from_utf8(line).unwrap_or_default())
        .collect();
    let candidates: Vec<Candidate<'_>> = vec![
        per_line(Measure::ParseValue, |line| {
            serde_json::from_slice::<Value>(line).is_ok()
        }),
        (
            Measure::ParseValueFromStr,
            // Checked as UTF-8 once, outside the timed part, like a reader that
            // hands out `&str` lines.
            Box::new(move |_: &Corpus| {
                match texts
                    .iter()
                    .position(|text| serde_json::from_str::<Value>(text).is_err())
                {
                    Some(index) => Err(format!("from_str rejected line {}", index + 1)),
                    None => Ok(()),
                }
            }),
        ),
        per_line(Measure::DecodeHandWritten, decoder(cgp_types::decode_line)),
        per_line(Measure::DecodeGenerated, &mut decoders.generated),
        per_line(Measure::DecodeReference, &mut decoders.reference),
        per_line(Measure::VerdictInProcess, |line| {
            check_verdict(validator, line).is_valid()
        }),
        (
            Measure::StreamTwoThreads,
            Box::new(|corpus: &Corpus| stream(validator, corpus, 2)),
        ),
        (
            Measure::ParseValueTwoThreads,
            Box::new(|corpus: &Corpus| parse_on_two_threads(corpus)),
        ),
    ];
    let mut figures = compare(corpus, rounds, candidates)?;
    for (measure, _, note) in &mut figures {
        *note = match measure {
            Measure::ParseValueFromStr => "the UTF-8 check is excluded".into(),
            Measure::DecodeHandWritten | Measure::DecodeGenerated | Measure::DecodeReference => {
                "std UTF-8 check, then `from_str`".into()
            }
            Measure::StreamTwoThreads => "reader, 2 workers, in-order collector".into(),
            Measure::ParseValueTwoThreads => {
                "no coordination at all: the most two threads give on this machine now".into()
            }
            _ => String::new(),
        };
    }
    Ok(figures)
}

fn parse_on_two_threads(corpus: &Corpus) -> Result<(), String> {
    let lines: Vec<&[u8]> = corpus.lines().collect();
    let (first, second) = lines.split_at(lines.len() / 2);
    let parse_all = |half: &[&[u8]]| {
        half.iter()
            .all(|line| serde_json::from_slice::<Value>(line).is_ok())
    };
    let (a, b) = std::thread::scope(|scope| {
        let other = scope.spawn(|| parse_all(second));
        (parse_all(first), other.join().unwrap_or(false))
    });
    if a && b {
        Ok(())
    } else {
        Err("the two-thread parse rejected a line".into())
    }
}

fn stream(validator: &Validator, corpus: &Corpus, threads: usize) -> Result<(), String> {
    let mut failed = 0u64;
    let mut seen = 0u64;
    check_stream(
        corpus.bytes(),
        validator,
        StreamOptions {
            semantic: false,
            threads,
        },
        |verdict: &LineVerdict| -> Result<(), ()> {
            seen += 1;
            failed += u64::from(!verdict.checked.is_valid());
            Ok(())
        },
    )
    .map_err(|error| format!("check_stream: {error:?}"))?;
    if failed > 0 || seen != corpus.line_count() {
        return Err(format!(
            "check_stream: {failed} of {seen} lines failed ({} expected, all valid)",
            corpus.line_count()
        ));
    }
    Ok(())
}

/// Runs a command `rounds` times; the best wall time and the last output.
fn timed(command: &mut Command, rounds: usize) -> Result<(f64, std::process::Output), String> {
    let mut best = f64::INFINITY;
    let mut last = None;
    for _ in 0..rounds.max(1) {
        let start = Instant::now();
        let output = command
            .stdin(Stdio::null())
            .output()
            .map_err(|error| format!("cannot run {command:?}: {error}"))?;
        best = best.min(start.elapsed().as_secs_f64());
        last = Some(output);
    }
    last.map(|output| (best, output))
        .ok_or_else(|| "no round ran".into())
}

/// Times `cgp validate --profile interop --jobs <jobs>` on `transcript` (whose
/// lines `corpus` holds): the best of `rounds` runs. Every line must pass.
pub fn cgp_validate(
    cgp: &Path,
    jobs: &str,
    transcript: &Path,
    corpus: &Corpus,
    rounds: usize,
) -> Result<Throughput, String> {
    let mut command = Command::new(cgp);
    command
        .args(["validate", "--profile", "interop", "--jobs", jobs])
        .arg(transcript);
    let (seconds, output) = timed(&mut command, rounds)?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let expected = format!("{} passed, 0 failed", corpus.line_count());
    if !output.status.success() || stdout.trim_end() != expected {
        return Err(format!(
            "cgp validate --jobs {jobs} did not pass the transcript ({}): {}{}",
            output.status,
            cut(&stdout),
            cut(&String::from_utf8_lossy(&output.stderr))
        ));
    }
    Ok(Throughput {
        bytes: corpus.size(),
        lines: corpus.line_count(),
        seconds,
    })
}

fn cut(text: &str) -> String {
    text.chars().take(400).collect()
}

/// What a peer script printed.
#[derive(Debug)]
struct PeerResult {
    lines: u64,
    invalid: u64,
    seconds: f64,
    /// Ajv's figure with the decoding not counted.
    seconds_predecoded: Option<f64>,
}

fn run_peer(command: &mut Command) -> Result<PeerResult, String> {
    let output = command
        .stdin(Stdio::null())
        .output()
        .map_err(|error| format!("cannot run {command:?}: {error}"))?;
    if !output.status.success() {
        return Err(format!(
            "{command:?} failed ({}): {}",
            output.status,
            cut(&String::from_utf8_lossy(&output.stderr))
        ));
    }
    let value: Value = serde_json::from_slice(&output.stdout)
        .map_err(|error| format!("{command:?} printed no result: {error}"))?;
    let number = |key: &str| value.get(key).and_then(Value::as_f64);
    match (number("lines"), number("invalid"), number("seconds")) {
        (Some(lines), Some(invalid), Some(seconds)) => Ok(PeerResult {
            lines: lines as u64,
            invalid: invalid as u64,
            seconds,
            seconds_predecoded: number("seconds_predecoded"),
        }),
        _ => Err(format!("{command:?} printed {value}")),
    }
}

/// Ajv on the whole file, Python jsonschema on its first
/// [`Config::python_bytes`].
fn peers_on(
    config: &Config,
    peers: &Path,
    bundle: &Path,
    corpus: &Corpus,
    path: &Path,
) -> Result<Vec<Figure>, String> {
    let scripts = config.repo.join("spec-tests/peers");
    let rounds = config.rounds.max(1);
    let mut ajv = Command::new("node");
    ajv.arg(scripts.join("throughput.mjs"))
        .arg(bundle)
        .arg(path)
        .arg(rounds.to_string())
        .env("NODE_PATH", crate::peers::node_path(peers));
    let node = run_peer(&mut ajv)?;
    let predecoded = node.seconds_predecoded;
    let prefix = corpus.prefix(config.python_bytes);
    let prefix_path = path.with_extension("python.ndjson");
    std::fs::write(&prefix_path, prefix.bytes()).map_err(|e| io_error(&prefix_path, &e))?;
    let mut python = Command::new("python3");
    python
        .arg(scripts.join("throughput.py"))
        .arg(bundle)
        .arg(&prefix_path)
        .env("PYTHONPATH", crate::peers::python_path(peers));
    let py = run_peer(&mut python)?;
    let whole = prefix.size() == corpus.size();
    let mut figures = Vec::new();
    for (measure, result, sample, note) in [
        (
            Measure::Ajv,
            node,
            corpus,
            format!(
                "the line's bytes decoded in the timed part, as a stream reader does; best of {rounds} passes in one process"
            ),
        ),
        (
            Measure::PythonJsonschema,
            py,
            &prefix,
            if whole {
                "one pass".to_owned()
            } else {
                format!(
                    "one pass, on the first {:.1} MB of the same file",
                    prefix.size() as f64 / 1e6
                )
            },
        ),
    ] {
        if result.lines != sample.line_count() || result.invalid > 0 {
            return Err(format!(
                "{measure:?}: {} of {} lines invalid ({} lines expected, all valid)",
                result.invalid,
                result.lines,
                sample.line_count()
            ));
        }
        let throughput = Throughput {
            bytes: sample.size(),
            lines: sample.line_count(),
            seconds: result.seconds,
        };
        figures.push((measure, throughput, note));
    }
    if let Some(seconds) = predecoded {
        let throughput = Throughput {
            bytes: corpus.size(),
            lines: corpus.line_count(),
            seconds,
        };
        let note = "decoding not counted (like `from_str` above); not what targets compare".into();
        figures.insert(1, (Measure::AjvPredecoded, throughput, note));
    }
    Ok(figures)
}

/// Times the `xtask` binary's codegen, then check, on a [`scaled_tree`] of each
/// factor under `work`: the best of `rounds` runs each.
pub fn schema_scaling(
    repo: &Path,
    work: &Path,
    xtask: &Path,
    factors: &[usize],
    rounds: usize,
) -> Result<Vec<SchemaRun>, String> {
    let mut runs = Vec::new();
    for &factor in factors {
        let tree = work.join(format!("schema-x{factor}"));
        let _ = std::fs::remove_dir_all(&tree);
        let (files, bytes) = scaled_tree(repo, &tree, factor)?;
        let mut codegen = Command::new(xtask);
        codegen.arg("--root").arg(&tree).arg("codegen");
        let (codegen_seconds, output) = timed(&mut codegen, rounds)?;
        if !output.status.success() {
            return Err(format!(
                "xtask codegen on the {factor}x schema failed: {}",
                cut(&String::from_utf8_lossy(&output.stderr))
            ));
        }
        let mut check = Command::new(xtask);
        check.arg("--root").arg(&tree).arg("check");
        let (check_seconds, output) = timed(&mut check, rounds)?;
        runs.push(SchemaRun {
            factor,
            files,
            bytes,
            codegen: codegen_seconds,
            check: check_seconds,
            check_passed: output.status.success(),
        });
        let _ = std::fs::remove_dir_all(&tree);
    }
    Ok(runs)
}

/// Writes a tree `xtask --root` accepts under `dest`: SPEC.md, the hand-written
/// types' sources, and `schema/` with `factor` copies of every file but the
/// envelope. Copy `k` (from 2) of `types/frame-id.schema.json` is
/// `types/frame-id-x<k>.schema.json`, titled `FrameIdX<k>`, its `$ref`s and
/// `$defs` renamed to match; copy `k` of each variant has the tag `<tag>_x<k>`
/// and is listed by the envelope, so every copy is reached and the loader's
/// lints hold. Factor 1 is the real tree, with `generated/` and its release
/// manifest. Returns the schema files and their size in bytes.
pub fn scaled_tree(repo: &Path, dest: &Path, factor: usize) -> Result<(usize, u64), String> {
    copy_dir(
        &repo.join("crates/cgp-types/src"),
        &dest.join("crates/cgp-types/src"),
    )?;
    std::fs::copy(repo.join("SPEC.md"), dest.join("SPEC.md"))
        .map_err(|e| io_error(&repo.join("SPEC.md"), &e))?;
    if factor <= 1 {
        for owned in cgp_codegen::output::OWNED_DIRS {
            copy_dir(&repo.join(owned), &dest.join(owned))?;
        }
        copy_dir(&repo.join("schema"), &dest.join("schema"))?;
    } else {
        let sources = cgp_schema::source::read_schema_dir(&repo.join("schema"), "schema")
            .map_err(|problems| problems.to_string())?;
        let mut files: Vec<(String, Value)> = Vec::new();
        for (path, text) in &sources {
            let value: Value =
                serde_json::from_str(text).map_err(|error| format!("schema/{path}: {error}"))?;
            files.push((path.clone(), value));
        }
        let mut out: Vec<(String, Value)> = files.clone();
        for copy in 2..=factor {
            for (path, value) in &files {
                if path == ENVELOPE {
                    continue;
                }
                out.push((suffixed_path(path, copy), suffixed(value, copy, path)));
            }
        }
        if let Some((_, envelope)) = out.iter_mut().find(|(path, _)| path == ENVELOPE) {
            let variants: Vec<Value> = envelope
                .get("oneOf")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let mut all = variants.clone();
            for copy in 2..=factor {
                for variant in &variants {
                    let mut variant = variant.clone();
                    if let Some(Value::String(reference)) = variant.get_mut("$ref") {
                        *reference = suffixed_reference(reference, copy);
                    }
                    all.push(variant);
                }
            }
            if let Some(map) = envelope.as_object_mut() {
                map.insert("oneOf".into(), Value::Array(all));
            }
        }
        for (path, value) in &out {
            let target = dest.join("schema").join(path);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent).map_err(|e| io_error(parent, &e))?;
            }
            let text = serde_json::to_string_pretty(value).unwrap_or_default() + "\n";
            std::fs::write(&target, text).map_err(|e| io_error(&target, &e))?;
        }
    }
    let written = cgp_schema::source::read_schema_dir(&dest.join("schema"), "schema")
        .map_err(|problems| problems.to_string())?;
    let bytes = written.iter().map(|(_, text)| text.len() as u64).sum();
    Ok((written.len(), bytes))
}

const ENVELOPE: &str = "envelope.schema.json";
const SUFFIX: &str = ".schema.json";

fn suffixed_path(path: &str, copy: usize) -> String {
    match path.strip_suffix(SUFFIX) {
        Some(stem) => format!("{stem}-x{copy}{SUFFIX}"),
        None => path.to_owned(),
    }
}

fn suffixed_reference(reference: &str, copy: usize) -> String {
    let (file, fragment) = reference.split_once('#').unwrap_or((reference, ""));
    let file = if file.is_empty() {
        String::new()
    } else {
        suffixed_path(file, copy)
    };
    let fragment = match fragment.strip_prefix("/$defs/") {
        Some(name) => format!("#/$defs/{name}X{copy}"),
        None if reference.contains('#') => format!("#{fragment}"),
        None => String::new(),
    };
    format!("{file}{fragment}")
}

fn suffixed(value: &Value, copy: usize, path: &str) -> Value {
    let mut value = value.clone();
    rename(&mut value, copy);
    if let Some(root) = value.as_object_mut() {
        if let Some(Value::String(id)) = root.get_mut("$id") {
            if let Some(base) = id.strip_suffix(path) {
                *id = format!("{base}{}", suffixed_path(path, copy));
            }
        }
        if let Some(Value::String(title)) = root.get_mut("title") {
            title.push_str(&format!("X{copy}"));
        }
        if let Some(Value::String(tag)) = root
            .get_mut("properties")
            .and_then(|properties| properties.get_mut("type"))
            .and_then(|tag| tag.get_mut("const"))
        {
            tag.push_str(&format!("_x{copy}"));
        }
    }
    value
}

/// Renames every `$ref` and `$defs` entry of a copy.
fn rename(value: &mut Value, copy: usize) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get_mut("$ref") {
                *reference = suffixed_reference(reference, copy);
            }
            if let Some(Value::Object(defs)) = map.get_mut("$defs") {
                let renamed = std::mem::take(defs)
                    .into_iter()
                    .map(|(name, def)| (format!("{name}X{copy}"), def))
                    .collect();
                *defs = renamed;
            }
            for member in map.values_mut() {
                rename(member, copy);
            }
        }
        Value::Array(items) => {
            for item in items {
                rename(item, copy);
            }
        }
        _ => {}
    }
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| io_error(to, &e))?;
    for entry in std::fs::read_dir(from).map_err(|e| io_error(from, &e))? {
        let entry = entry.map_err(|e| io_error(from, &e))?;
        let target = to.join(entry.file_name());
        if entry
            .file_type()
            .map_err(|e| io_error(&entry.path(), &e))?
            .is_dir()
        {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target).map_err(|e| io_error(&entry.path(), &e))?;
        }
    }
    Ok(())
}

/// Loads and bundles a scaled tree: what `scaled_tree` wrote must pass the
/// loader's lints. Returns the number of envelope variants.
pub fn load_scaled(tree: &Path) -> Result<usize, String> {
    let set = SchemaSet::load(&tree.join("schema"), "schema").map_err(|p| p.to_string())?;
    let bundle =
        cgp_schema::bundle(&set, cgp_schema::Profile::Interop).map_err(|p| p.to_string())?;
    Validator::new(&bundle).map_err(|p| p.to_string())?;
    Ok(set.variants.len())
}

/// A target of the issue, measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    /// What is aimed at.
    pub goal: String,
    /// On the mixed transcript, then on its short lines (when it applies):
    /// the measured value, e.g. `0.93×`, and whether it is met (`None`: not
    /// measured).
    pub results: Vec<(String, Option<bool>)>,
}

/// The most the time of codegen + check may grow per step of schema size, as
/// an exponent of the size ratio: 1 is linear; the 0.1 above is for noise.
pub const LINEAR_GROWTH: f64 = 1.1;

impl Report {
    fn speed(&self, sample: Sample, measure: Measure) -> Option<f64> {
        self.get(sample, measure).map(Throughput::mb_per_s)
    }

    fn ratio(&self, sample: Sample, a: Measure, b: Measure) -> Option<f64> {
        Some(self.speed(sample, a)? / self.speed(sample, b)?)
    }

    /// The targets, each with its measured ratio on each file.
    pub fn targets(&self) -> Vec<Target> {
        let mut targets = Vec::new();
        for (goal, a, b, min) in [
            (
                "`cgp validate --jobs 1` ≥ 0.8× parse-only",
                Measure::CliOneJob,
                Measure::ParseValue,
                0.8,
            ),
            (
                "`cgp validate --jobs 2` ≥ 1.4× parse-only (1 thread)",
                Measure::CliTwoJobs,
                Measure::ParseValue,
                1.4,
            ),
            (
                "`cgp validate --jobs 1` ≥ 1.2× Ajv",
                Measure::CliOneJob,
                Measure::Ajv,
                1.2,
            ),
            (
                "`cgp validate --jobs 2` ≥ 2× Ajv",
                Measure::CliTwoJobs,
                Measure::Ajv,
                2.0,
            ),
            (
                "`cgp validate --jobs 1` ≥ 100× Python jsonschema",
                Measure::CliOneJob,
                Measure::PythonJsonschema,
                100.0,
            ),
        ] {
            let results = Sample::ALL
                .iter()
                .map(|sample| match self.ratio(*sample, a, b) {
                    Some(ratio) => (format!("{ratio:.2}×"), Some(ratio >= min)),
                    None => ("not measured".into(), None),
                })
                .collect();
            targets.push(Target {
                goal: goal.into(),
                results,
            });
        }
        targets.push(Target {
            goal: "for scale, not a target: parse-only on 2 independent threads, × 1 thread (what two threads of this machine gave during the run)".into(),
            results: Sample::ALL
                .iter()
                .map(|sample| {
                    match self.ratio(*sample, Measure::ParseValueTwoThreads, Measure::ParseValue) {
                        Some(ratio) => (format!("{ratio:.2}×"), None),
                        None => ("not measured".into(), None),
                    }
                })
                .collect(),
        });
        for (goal, other) in [
            (
                "generated decode within 10% of hand-written",
                Measure::DecodeHandWritten,
            ),
            (
                "generated decode within 10% of the reference crate",
                Measure::DecodeReference,
            ),
        ] {
            let results = Sample::ALL
                .iter()
                .map(
                    |sample| match self.ratio(*sample, Measure::DecodeGenerated, other) {
                        Some(ratio) => (format!("{ratio:.2}×"), Some((ratio - 1.0).abs() <= 0.10)),
                        None => ("not measured".into(), None),
                    },
                )
                .collect();
            targets.push(Target {
                goal: goal.into(),
                results,
            });
        }
        let real = self.schema.iter().find(|run| run.factor == 1);
        targets.push(Target {
            goal: "codegen + check warm < 2 s on the real schema".into(),
            results: vec![real.map_or(("not measured".into(), None), |run| {
                let total = run.codegen + run.check;
                (format!("{total:.2} s"), Some(total < 2.0))
            })],
        });
        let steps = self.growth();
        targets.push(Target {
            goal: format!(
                "codegen + check grow no worse than linearly (time ∝ size^b, b ≤ {LINEAR_GROWTH} for noise, at each step)"
            ),
            results: vec![if steps.is_empty() {
                ("not measured".into(), None)
            } else {
                let shown: Vec<String> = steps
                    .iter()
                    .map(|(from, to, b)| format!("{from}→{to}: b = {b:.2}"))
                    .collect();
                (
                    shown.join("; "),
                    Some(steps.iter().all(|(_, _, b)| *b <= LINEAR_GROWTH)),
                )
            }],
        });
        targets
    }

    /// For each step between consecutive schema sizes: the sizes (`real`, `10×`)
    /// and `b` in `time ∝ size^b`.
    pub fn growth(&self) -> Vec<(String, String, f64)> {
        let mut runs: Vec<&SchemaRun> = self.schema.iter().collect();
        runs.sort_by_key(|run| run.factor);
        runs.windows(2)
            .filter_map(|pair| {
                let [small, large] = pair else { return None };
                let time = (large.codegen + large.check) / (small.codegen + small.check);
                let size = large.bytes as f64 / small.bytes as f64;
                (size > 1.0).then(|| {
                    (
                        scale(small.factor),
                        scale(large.factor),
                        time.ln() / size.ln(),
                    )
                })
            })
            .collect()
    }

    /// The Markdown of `BENCHMARKS.md`.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let m = &self.machine;
        let _ = writeln!(out, "# Benchmarks\n");
        let _ = writeln!(
            out,
            "Written by `cargo xtask bench` (release build); every ratio comes from figures of this one run. Targets are ratios; the absolute figures depend on the machine.\n"
        );
        let _ = writeln!(
            out,
            "- Machine: {}, {} cores, {:.0} GiB RAM; {}; {}. Load average {:.2} before the run, {:.2} after (other work on the machine slows every figure, the two-thread ones most).",
            m.cpu, m.cores, m.memory_gib, m.rustc, m.date, m.load.0, m.load.1
        );
        for (name, mix) in [
            ("Mixed transcript", &self.mix),
            ("Short lines", &self.short_mix),
        ] {
            let _ = writeln!(
                out,
                "- {name}: {:.1} MB, {} lines, {:.0} B a line on average (longest {:.1} KiB); {:.0}% of the lines are under {} KiB, holding {:.0}% of the bytes.",
                mix.bytes as f64 / 1e6,
                mix.lines,
                mix.bytes as f64 / mix.lines.max(1) as f64,
                mix.longest as f64 / 1024.0,
                100.0 * mix.short_lines as f64 / mix.lines.max(1) as f64,
                SHORT_LINE / 1024,
                100.0 * mix.short_bytes as f64 / mix.bytes.max(1) as f64,
            );
        }
        let _ = writeln!(
            out,
            "- The mixed transcript is `spec_tests::transcript` with seed {}: sessions of queries answered by lookups (1 to 3 frames of 200 B to 1 KiB) and, one in eight, by context (1 to 8 frames of 200 B to 64 KiB); every line valid. The short-lines file is its lines under {} KiB, in order: the traffic where per-line costs dominate.",
            self.seed,
            SHORT_LINE / 1024
        );
        let _ = writeln!(
            out,
            "- In-process figures: best of {} rounds, the candidates taking turns (each round starting with the next one); `cgp validate`: best of {} runs; Ajv: best of {} passes; codegen and check: best of {} runs. MB is 10^6 bytes.\n",
            self.rounds,
            2 * self.rounds,
            self.rounds,
            self.rounds
        );
        for sample in Sample::ALL {
            let title = match sample {
                Sample::Mixed => "Throughput: the mixed transcript",
                Sample::Short => "Throughput: the short lines",
            };
            let _ = writeln!(out, "## {title}\n");
            let _ = writeln!(
                out,
                "| what | MB/s | lines/s | × parse-only | notes |\n|---|---:|---:|---:|---|"
            );
            let baseline = self.speed(sample, Measure::ParseValue);
            for row in self.rows.iter().filter(|row| row.sample == sample) {
                let speed = row.throughput.mb_per_s();
                let ratio = baseline.map_or(String::new(), |b| format!("{:.2}×", speed / b));
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {ratio} | {} |",
                    row.measure.label(),
                    figure(speed),
                    figure(row.throughput.lines_per_s()),
                    row.note
                );
            }
            out.push('\n');
        }
        if !self.schema.is_empty() {
            let _ = writeln!(out, "## codegen and check\n");
            let _ = writeln!(
                out,
                "The already-built xtask binary that `cargo xtask` runs (a debug build; no compilation), with `--root` on a scratch tree. The larger schemas hold N suffixed copies of every schema file, with the variants that reach them; codegen writes their `generated/` first.\n"
            );
            let _ = writeln!(
                out,
                "| schema | files | KB | codegen s | check s | total s | × real | check |\n|---|---:|---:|---:|---:|---:|---:|---|"
            );
            let real = self
                .schema
                .iter()
                .find(|run| run.factor == 1)
                .map(|run| run.codegen + run.check);
            for run in &self.schema {
                let total = run.codegen + run.check;
                let _ = writeln!(
                    out,
                    "| {} | {} | {:.0} | {:.2} | {:.2} | {total:.2} | {} | {} |",
                    scale(run.factor),
                    run.files,
                    run.bytes as f64 / 1e3,
                    run.codegen,
                    run.check,
                    real.map_or(String::new(), |r| format!("{:.1}×", total / r)),
                    if run.check_passed {
                        "passes"
                    } else {
                        "fails as expected: the sync gate finds copies the hand-written types lack"
                    }
                );
            }
            out.push('\n');
        }
        let _ = writeln!(out, "## Targets\n");
        let _ = writeln!(
            out,
            "| target | mixed transcript | short lines |\n|---|---|---|"
        );
        for target in self.targets() {
            let cells: Vec<String> = target
                .results
                .iter()
                .map(|(measured, met)| match met {
                    Some(true) => format!("{measured} met"),
                    Some(false) => format!("{measured} **missed**"),
                    None => measured.clone(),
                })
                .collect();
            let cells = match cells.as_slice() {
                [only] => format!("{only} | "),
                _ => cells.join(" | "),
            };
            let _ = writeln!(out, "| {} | {cells} |", target.goal);
        }
        for skipped in &self.skipped {
            let _ = writeln!(out, "\nSkipped: {skipped}.");
        }
        out
    }
}

/// The line after which `BENCHMARKS.md` holds notes written by hand (what the
/// profiles showed, what was changed for speed); a new run keeps them.
pub const NOTES_MARKER: &str =
    "<!-- Notes below are written by hand; `cargo xtask bench` keeps them. -->";

/// `rendered`, then the hand-written notes of `previous` (the file it replaces),
/// from [`NOTES_MARKER`] on, or the marker alone when there are none yet.
pub fn with_notes(rendered: &str, previous: Option<&str>) -> String {
    let notes = previous
        .and_then(|text| text.find(NOTES_MARKER).map(|start| &text[start..]))
        .unwrap_or(NOTES_MARKER);
    format!("{}\n\n{}\n", rendered.trim_end(), notes.trim_end())
}

fn scale(factor: usize) -> String {
    if factor == 1 {
        "real".into()
    } else {
        format!("{factor}×")
    }
}

fn figure(value: f64) -> String {
    if value >= 100.0 {
        format!("{value:.0}")
    } else if value >= 10.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.2}")
    }
}
