//! The in-process candidates and how they are timed: each candidate takes a
//! turn in every round, and the best round counts.

use crate::BenchError;
use crate::corpus::Corpus;
use crate::{Decoders, decoder};
use cgp_check::Validator;
use cgp_check::stream::{LineVerdict, StreamOptions, check_stream};
use cgp_check::transcript::check_verdict;
use serde_json::Value;
use std::process::{Command, Stdio};
use std::time::Instant;

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
    /// `check_verdict` on each line, in process, one thread: the single-pass
    /// check, as `cgp validate` runs it.
    VerdictInProcess,
    /// `check_stream` on the whole text, in process, two worker threads.
    StreamTwoThreads,
    /// The baseline parse on two threads, each taking half the lines: what two
    /// threads of this machine can do at the time of the run, the ceiling of
    /// any two-thread figure.
    ParseValueTwoThreads,
    /// The `cgp validate --profile interop --jobs <jobs> --format <format>`
    /// binary.
    Cli {
        /// `--jobs`.
        jobs: u8,
        /// `--format`.
        format: CliFormat,
    },
    /// Node Ajv, 2020 mode, compiled once; UTF-8 decoding and `JSON.parse`
    /// included.
    Ajv,
    /// The same, on lines decoded to strings beforehand.
    AjvPredecoded,
    /// Python `jsonschema`, validator built once, `json.loads` included.
    PythonJsonschema,
    /// Python's `json.loads` on each line: the Python package's baseline.
    PythonJsonLoads,
    /// `cgp_types.decode_line`, the generated Python package, on each line.
    PythonPackageDecode,
    /// Node `JSON.parse` on lines decoded to strings beforehand: the baseline of
    /// the TypeScript package.
    NodeJsonParse,
    /// `decodeEnvelope` of the generated TypeScript package, same lines.
    TypescriptDecode,
    /// Go's `encoding/json` `Unmarshal` into the Go module's structs: the
    /// baseline of the Go module.
    GoEncodingJson,
    /// `Decode` of the generated Go module, same lines, same process.
    GoDecode,
    /// Jackson databind reading each line into plain classes the bench
    /// declares (`spec-tests/peers/java/BenchTypes.java`): the baseline of
    /// the Java package.
    JavaDatabind,
    /// `Wire.decode` of the generated Java package, same lines, same JVM.
    JavaDecode,
    /// `JSON.parse` and Ajv's compiled validator of the interop bundle, in the
    /// same node process on the same strings as [`Measure::TypescriptDecode`].
    NodeAjvSameProcess,
    /// `encodeEnvelope` of the generated TypeScript package, on the envelopes
    /// it decoded from the same lines.
    TypescriptEncode,
    /// `JSON.stringify` of the values `JSON.parse` returned for the same lines.
    NodeJsonStringify,
    /// pydantic v2 `Envelope.model_validate_json` on datamodel-code-generator's
    /// models of the interop bundle, in the same Python process on the same
    /// lines as [`Measure::PythonPackageDecode`].
    PythonPydantic,
    /// `cgp_types.encode_line` of the envelopes decode_line returned.
    PythonPackageEncode,
    /// `json.dumps` of the values `json.loads` returned for the same lines.
    PythonJsonDumps,
}

macro_rules! cli_formats {
    ($($variant:ident => $flag:literal, $doc:literal;)*) => {
        /// The `--format` of a `cgp validate` figure.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum CliFormat {
            $(#[doc = $doc] $variant,)*
        }

        impl CliFormat {
            /// Every format, in report order.
            pub const ALL: &'static [CliFormat] = &[$(CliFormat::$variant,)*];

            /// The flag's value.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(CliFormat::$variant => $flag,)*
                }
            }
        }
    };
}

cli_formats! {
    Human => "human", "`human`, the default.";
    Json => "json", "`json`: one object per line, valid or not.";
    Github => "github", "`github`: annotations.";
}

macro_rules! samples {
    ($($variant:ident => $file:literal, $title:literal, $doc:literal;)*) => {
        /// Which file a figure was measured on.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Sample {
            $(#[doc = $doc] $variant,)*
        }

        impl Sample {
            /// Every file, in report order.
            pub const ALL: &'static [Sample] = &[$(Sample::$variant,)*];

            /// The file's name; `{seed}` stands for the transcript's seed.
            pub(crate) fn file_name(self, seed: u64) -> String {
                let name = match self {
                    $(Sample::$variant => $file,)*
                };
                name.replace("{seed}", &seed.to_string())
            }

            /// How the report names it.
            pub fn title(self) -> &'static str {
                match self {
                    $(Sample::$variant => $title,)*
                }
            }
        }
    };
}

samples! {
    Mixed => "transcript-seed{seed}.ndjson", "the mixed transcript",
        "The whole transcript.";
    Short => "transcript-seed{seed}-short.ndjson", "the short lines",
        "Its lines under [`SHORT_LINE`](crate::SHORT_LINE) bytes, as a file of their own.";
    Dense => "transcript-dense.ndjson", "the dense transcript",
        "Maximal messages, every member present ([`crate::dense`]).";
    Sdk => "transcript-seed{seed}-sdk.ndjson", "the SDK-style transcript",
        "The whole transcript spelled as the SDKs write it ([`crate::sdk`]).";
    SdkInvalid => "transcript-seed{seed}-sdk-invalid.ndjson", "SDK-style, 1% invalid",
        "The same with one line in a hundred invalid: what a rejection costs.";
}

impl Measure {
    pub(crate) fn label(self) -> String {
        let label = match self {
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
            Measure::Cli { jobs, format } => {
                return format!(
                    "`cgp validate --profile interop --jobs {jobs} --format {}`",
                    format.as_str()
                );
            }
            Measure::Ajv => {
                "Node Ajv 8 (2020 mode, compiled once; decoding and `JSON.parse` included)"
            }
            Measure::AjvPredecoded => "Node Ajv 8, lines decoded to strings beforehand",
            Measure::PythonJsonschema => {
                "Python jsonschema 4 (validator built once, `json.loads` included)"
            }
            Measure::PythonJsonLoads => "Python `json.loads` on each line",
            Measure::PythonPackageDecode => {
                "decode, generated Python package (`cgp_types.decode_line`)"
            }
            Measure::NodeJsonParse => "Node `JSON.parse`",
            Measure::TypescriptDecode => {
                "decode, generated TypeScript package (`decodeEnvelope`, under node)"
            }
            Measure::GoEncodingJson => {
                "Go `encoding/json` `Unmarshal` into the Go module's structs"
            }
            Measure::GoDecode => "decode, generated Go module (`cgptypes.Decode`)",
            Measure::JavaDatabind => {
                "Jackson databind 2 into plain classes the bench declares (Java)"
            }
            Measure::JavaDecode => "decode, generated Java package (`Wire.decode`)",
            Measure::NodeAjvSameProcess => {
                "Node `JSON.parse` + Ajv 8 compiled validator, same process and strings as `decodeEnvelope`"
            }
            Measure::TypescriptEncode => {
                "encode, generated TypeScript package (`encodeEnvelope` of the decoded envelopes)"
            }
            Measure::NodeJsonStringify => {
                "Node `JSON.stringify` of the values `JSON.parse` returned"
            }
            Measure::PythonPydantic => {
                "pydantic v2 `model_validate_json` (datamodel-code-generator models of the interop bundle)"
            }
            Measure::PythonPackageEncode => {
                "encode, generated Python package (`cgp_types.encode_line` of the decoded envelopes)"
            }
            Measure::PythonJsonDumps => "Python `json.dumps` of the values `json.loads` returned",
        };
        label.to_owned()
    }
}

/// One candidate of an in-process comparison: processes the whole corpus and
/// says what went wrong, if anything did.
type Candidate<'a> = (
    Measure,
    Box<dyn FnMut(&Corpus) -> Result<(), BenchError> + 'a>,
);

/// Wraps a per-line function: every valid line must be accepted, and a
/// decoder or validator must refuse every line invalid on purpose (a parse may
/// take a line that is still JSON).
fn per_line<'a>(measure: Measure, mut accept: impl FnMut(&[u8]) -> bool + 'a) -> Candidate<'a> {
    let judges = !matches!(measure, Measure::ParseValue);
    (
        measure,
        Box::new(move |corpus: &Corpus| {
            for (index, line) in corpus.lines().enumerate() {
                let accepted = accept(line);
                let invalid = corpus.is_invalid(index);
                if accepted == invalid && (judges || !invalid) {
                    let did = if accepted { "accepted" } else { "rejected" };
                    return Err(BenchError::from(format!(
                        "{measure:?} {did} line {} of the transcript",
                        index + 1
                    )));
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
) -> Result<Vec<Figure>, BenchError> {
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
pub(crate) type Figure = (Measure, Throughput, String);

pub(crate) fn in_process(
    corpus: &Corpus,
    reference: crate::Reference<'_>,
    validator: &Validator,
    rounds: usize,
    decoders: &mut Decoders,
) -> Result<Vec<Figure>, BenchError> {
    let known = reference.corpus;
    let confined = known.line_count() < corpus.line_count();
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
            Box::new(move |corpus: &Corpus| {
                match texts.iter().enumerate().position(|(index, text)| {
                    serde_json::from_str::<Value>(text).is_err() && !corpus.is_invalid(index)
                }) {
                    Some(index) => Err(BenchError::from(format!(
                        "from_str rejected line {}",
                        index + 1
                    ))),
                    None => Ok(()),
                }
            }),
        ),
        per_line(Measure::DecodeHandWritten, decoder(cgp_types::decode_line)),
        per_line(Measure::DecodeGenerated, &mut decoders.generated),
        {
            // Only what the reference's version knows (the whole sample unless
            // the working version has moved on); the throughput is fixed up
            // below to this corpus's size.
            let (measure, mut decode) = per_line(Measure::DecodeReference, &mut decoders.reference);
            (measure, Box::new(move |_: &Corpus| decode(known)))
        },
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
    for (measure, throughput, note) in &mut figures {
        if *measure == Measure::DecodeReference && confined {
            throughput.bytes = known.size();
            throughput.lines = known.line_count();
            *note = format!(
                "std UTF-8 check, then `from_str`; only the {} of {} lines {} accepts",
                known.line_count(),
                corpus.line_count(),
                reference.version
            );
            continue;
        }
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

fn parse_on_two_threads(corpus: &Corpus) -> Result<(), BenchError> {
    let lines: Vec<&[u8]> = corpus.lines().collect();
    let (first, second) = lines.split_at(lines.len() / 2);
    let rejected = |half: &[&[u8]]| {
        half.iter()
            .filter(|line| serde_json::from_slice::<Value>(line).is_err())
            .count() as u64
    };
    let (a, b) = std::thread::scope(|scope| {
        let other = scope.spawn(|| rejected(second));
        (rejected(first), other.join().unwrap_or(u64::MAX))
    });
    // Only a line invalid on purpose may fail to parse.
    if a.saturating_add(b) <= corpus.invalid_count() {
        Ok(())
    } else {
        Err("the two-thread parse rejected a line".into())
    }
}

fn stream(validator: &Validator, corpus: &Corpus, threads: usize) -> Result<(), BenchError> {
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
    if failed != corpus.invalid_count() || seen != corpus.line_count() {
        return Err(BenchError::from(format!(
            "check_stream: {failed} of {seen} lines failed ({} expected, {} invalid)",
            corpus.line_count(),
            corpus.invalid_count()
        )));
    }
    Ok(())
}

/// Runs a command `rounds` times; the best wall time and the last output.
pub(crate) fn timed(
    command: &mut Command,
    rounds: usize,
) -> Result<(f64, std::process::Output), BenchError> {
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
