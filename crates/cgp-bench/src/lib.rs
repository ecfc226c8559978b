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
//!
//! The modules: [`transcript`] writes the synthetic traffic, [`dense`] the
//! transcript of maximal messages, `corpus` cuts it
//! into lines, `measure` times the in-process candidates, `external` the
//! processes (`cgp validate`, the peer validators), `typescript` the generated
//! TypeScript package against `JSON.parse`, `go` the generated Go module against
//! `encoding/json`, `scaling` codegen and check
//! on growing schemas, [`checks`] `cgp check` beside the reference
//! conformance tool, `machine` says where, and `report` renders the table.

pub mod checks;
mod corpus;
pub mod dense;
mod external;
mod go;
mod java;
mod machine;
mod measure;
pub mod proxy;
mod report;
mod scaling;
pub mod sdk;
pub mod transcript;
mod typescript;

pub use corpus::{Corpus, Mix, SHORT_LINE, interop_bundle};
pub use external::cgp_validate;
pub use machine::Machine;
use measure::Figure;
pub use measure::{CliFormat, Measure, Sample, Throughput};
pub use report::{LINEAR_GROWTH, NOTES_MARKER, Report, Row, SchemaRun, Target, with_notes};
pub use scaling::{load_scaled, scaled_tree, schema_scaling};

use cgp_check::Validator;
use cgp_check::transcript::check_verdict;
use cgp_codegen::targets::Language;
use cgp_schema::Bundle;
use cgp_schema::model::{Protocol, Reading};
use external::{peers_on, pydantic_models, python_package_on};
use machine::load_average;
use measure::in_process;
use std::path::{Path, PathBuf};

/// What stopped a measurement, in one sentence that names the file, command
/// or line concerned and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenchError(String);

impl std::fmt::Display for BenchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BenchError {}

impl From<String> for BenchError {
    fn from(message: String) -> Self {
        BenchError(message)
    }
}

impl From<&str> for BenchError {
    fn from(message: &str) -> Self {
        BenchError(message.to_owned())
    }
}

impl From<BenchError> for String {
    fn from(error: BenchError) -> Self {
        error.0
    }
}

/// `path: error`, the one spelling of an I/O failure in a report.
pub(crate) fn io_error(path: &Path, error: &std::io::Error) -> BenchError {
    BenchError(format!("{}: {error}", path.display()))
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
    /// The protocol version the reference crate speaks
    /// (`contextgraph_host::PROTOCOL_VERSION`). The reference decoder is
    /// measured only on the lines that version's published interop bundle
    /// accepts: a variant, member or value the working version added since
    /// is not the reference's to decode.
    pub reference_version: String,
}

/// Wraps a decoder of `&str` lines: the line is checked as UTF-8 with the
/// standard library first, as a host reading `String` lines does.
pub fn decoder<T, E>(decode: impl Fn(&str) -> Result<T, E> + 'static) -> LineDecoder {
    Box::new(move |line| std::str::from_utf8(line).is_ok_and(|text| decode(text).is_ok()))
}

/// The validator of the published interop bundle as `cgp validate` has it: the
/// single-pass check codegen wrote from the same bundle as its fast path.
fn published_validator(bundle: &Bundle) -> Result<Validator, BenchError> {
    let validator = Validator::new(bundle).map_err(|problems| problems.to_string())?;
    let version = validator.protocol_version().unwrap_or_default().to_owned();
    match cgp_validator::for_bundle(&version, bundle.profile.as_str()) {
        Some(precheck) => Ok(validator.with_precheck(precheck)),
        None => Err(BenchError::from(format!(
            "no single-pass check was generated for {version}"
        ))),
    }
}

/// The dense transcript of `bundle`'s maximal messages, at least `bytes` long;
/// every sample must be valid.
fn dense_corpus(bundle: &Bundle, validator: &Validator, bytes: u64) -> Result<Corpus, BenchError> {
    let protocol = Protocol::read(&bundle.document, Reading::Validator, &|_| None);
    let samples = dense::samples(&protocol);
    for sample in &samples {
        let checked = check_verdict(validator, sample.as_bytes());
        if !checked.is_valid() {
            return Err(BenchError::from(format!(
                "a dense sample is invalid: {sample}: {:?}",
                checked.findings
            )));
        }
    }
    Ok(Corpus::new(dense::write(&samples, bytes)))
}

/// The canonical transcript `canonical` spelled as the SDKs write it
/// ([`sdk`]), one line in `invalid_every` spoiled.
fn sdk_corpus(
    canonical: &[u8],
    seed: u64,
    invalid_every: Option<u64>,
) -> Result<Corpus, BenchError> {
    let spelled = sdk::write(canonical, seed, invalid_every)
        .map_err(|error| format!("re-spelling the transcript: {error}"))?;
    Ok(Corpus::new(spelled.bytes).with_invalid(&spelled.invalid))
}

/// The validator of the reference crate's version, when that is not the
/// working version: the lines it rejects are left out of the reference
/// decoder's figures.
fn reference_validator(
    config: &Config,
    working: &Bundle,
    reference_version: &str,
) -> Result<Option<Validator>, BenchError> {
    let version: cgp_schema::ProtocolVersion = reference_version
        .parse()
        .map_err(|error| format!("the reference crate's version: {error}"))?;
    if working
        .document
        .get("x-cgp-protocol-version")
        .and_then(|v| v.as_str())
        == Some(reference_version)
    {
        return Ok(None);
    }
    let path = config.repo.join(cgp_codegen::plan::published_path(
        &version,
        cgp_schema::Profile::Interop,
    ));
    let text = std::fs::read_to_string(&path).map_err(|e| io_error(&path, &e))?;
    let bundle = Bundle::from_published(&text).map_err(|error| error.to_string())?;
    Validator::new(&bundle)
        .map(Some)
        .map_err(|problems| BenchError::from(problems.to_string()))
}

/// The lines of `corpus` that `validator` accepts.
fn confined(corpus: &Corpus, validator: &Validator) -> Corpus {
    let mut bytes = Vec::new();
    for line in corpus.lines() {
        if check_verdict(validator, line).is_valid() {
            bytes.extend_from_slice(line);
            bytes.push(b'\n');
        }
    }
    Corpus::new(bytes)
}

/// What the reference decoder is measured on: the lines its version knows.
pub(crate) struct Reference<'a> {
    /// The lines of the sample the reference's version accepts (all of them
    /// when it is the working version).
    pub corpus: &'a Corpus,
    /// That version.
    pub version: &'a str,
}

/// The transcripts of one run, each measured the same way.
struct Samples {
    mixed: Corpus,
    short: Corpus,
    dense: Corpus,
    sdk: Corpus,
    sdk_invalid: Corpus,
}

impl Samples {
    /// Generates every transcript of the run from `config`'s seed and size.
    fn generate(
        config: &Config,
        bundle: &Bundle,
        validator: &Validator,
    ) -> Result<Self, BenchError> {
        let mut text = Vec::new();
        crate::transcript::write(&mut text, config.transcript_bytes, config.seed)
            .map_err(|error| format!("generating the transcript: {error}"))?;
        let sdk = sdk_corpus(&text, config.seed, None)?;
        let sdk_invalid = sdk_corpus(&text, config.seed, Some(100))?;
        let mixed = Corpus::new(text);
        let short = mixed.short_lines(SHORT_LINE);
        let dense = dense_corpus(bundle, validator, config.transcript_bytes)?;
        Ok(Samples {
            mixed,
            short,
            dense,
            sdk,
            sdk_invalid,
        })
    }

    /// Every sample beside its name in the report.
    fn each(&self) -> [(Sample, &Corpus); 5] {
        [
            (Sample::Mixed, &self.mixed),
            (Sample::Short, &self.short),
            (Sample::Dense, &self.dense),
            (Sample::Sdk, &self.sdk),
            (Sample::SdkInvalid, &self.sdk_invalid),
        ]
    }
}

/// What every sample is measured with, fixed for the run.
struct Tools<'a> {
    config: &'a Config,
    bundle_path: PathBuf,
    validator: Validator,
    reference_validator: Option<Validator>,
    reference_version: String,
    pydantic: Option<(PathBuf, PathBuf)>,
    rounds: usize,
}

/// Generates the transcript and measures everything `config` asks for.
pub fn run(config: &Config, mut decoders: Decoders) -> Result<Report, BenchError> {
    let mut machine = Machine::detect();
    std::fs::create_dir_all(&config.work).map_err(|e| io_error(&config.work, &e))?;
    let bundle_path = config.repo.join(interop_bundle()?);
    let bundle_text =
        std::fs::read_to_string(&bundle_path).map_err(|e| io_error(&bundle_path, &e))?;
    let bundle = Bundle::from_published(&bundle_text).map_err(|error| error.to_string())?;
    let validator = published_validator(&bundle)?;
    let samples = Samples::generate(config, &bundle, &validator)?;
    let reference_version = decoders.reference_version.clone();
    let pydantic = match &config.peers {
        Some(_) => Some(pydantic_models(&config.work, &bundle_path)?),
        None => None,
    };
    let tools = Tools {
        config,
        reference_validator: reference_validator(config, &bundle, &reference_version)?,
        bundle_path,
        validator,
        reference_version,
        pydantic,
        rounds: config.rounds.max(1),
    };
    let mut rows = Vec::new();
    for (sample, corpus) in samples.each() {
        rows.extend(measure_sample(&tools, sample, corpus, &mut decoders)?);
    }
    let mut skipped = Vec::new();
    let (schema, checks) = whole_tools(config, tools.rounds, &mut skipped)?;
    machine.load.1 = load_average();
    Ok(Report {
        machine,
        seed: config.seed,
        mix: samples.mixed.mix(),
        short_mix: samples.short.mix(),
        dense_mix: samples.dense.mix(),
        sdk_mix: samples.sdk.mix(),
        sdk_invalid: samples.sdk_invalid.invalid_count(),
        rounds: tools.rounds,
        rows,
        schema,
        checks,
        skipped,
    })
}

/// Every figure of one sample: in process, `cgp validate`, the peers, the
/// generated TypeScript, Go and Python packages.
fn measure_sample(
    tools: &Tools,
    sample: Sample,
    corpus: &Corpus,
    decoders: &mut Decoders,
) -> Result<Vec<Row>, BenchError> {
    let config = tools.config;
    let rounds = tools.rounds;
    let path = config.work.join(sample.file_name(config.seed));
    std::fs::write(&path, corpus.bytes()).map_err(|e| io_error(&path, &e))?;
    let known = tools
        .reference_validator
        .as_ref()
        .map(|reference| confined(corpus, reference));
    let reference = Reference {
        corpus: known.as_ref().unwrap_or(corpus),
        version: &tools.reference_version,
    };
    let mut figures = in_process(corpus, reference, &tools.validator, rounds, decoders)?;
    if let Some(cgp) = &config.cgp {
        for &format in CliFormat::ALL {
            for jobs in [1, 2] {
                let throughput = cgp_validate(cgp, jobs, format, &path, corpus, 2 * rounds)?;
                let note = "the whole process: start-up, reading the file".into();
                figures.push((Measure::Cli { jobs, format }, throughput, note));
            }
        }
    }
    if let Some(peers) = &config.peers {
        figures.extend(peers_on(config, peers, &tools.bundle_path, corpus, &path)?);
    }
    for language in Language::ALL {
        figures.extend(package_figures(language, tools, corpus, &path)?);
    }
    Ok(figures
        .into_iter()
        .map(|(measure, throughput, note)| Row {
            sample,
            measure,
            throughput,
            note,
        })
        .collect())
}

/// The figures of one package target on the transcript at `path`, each
/// beside its alternative measured in the same process.
fn package_figures(
    language: Language,
    tools: &Tools,
    corpus: &Corpus,
    path: &Path,
) -> Result<Vec<Figure>, BenchError> {
    let config = tools.config;
    match (language, &config.peers) {
        // The typify crate decodes in process ([`Measure::DecodeGenerated`]).
        (Language::Rust, _) => Ok(Vec::new()),
        (Language::TypeScript, Some(peers)) => typescript::typescript_on(
            &config.repo.join("spec-tests/peers"),
            peers,
            &tools.bundle_path,
            corpus,
            path,
            tools.rounds,
        ),
        (Language::Go, Some(_)) => go::go_on(corpus, path, tools.rounds),
        (Language::Java, Some(_)) => java::java_on(corpus, path, tools.rounds),
        (Language::Python, _) => python_package_on(config, tools.pydantic.as_ref(), corpus, path),
        // Without the peers (node, the Go toolchain's caches) installed.
        (Language::TypeScript | Language::Go | Language::Java, None) => Ok(Vec::new()),
    }
}

/// The figures of whole tools rather than samples: codegen and check on
/// growing schemas, and `cgp check` beside the reference conformance tool;
/// what cannot run is named in `skipped`.
fn whole_tools(
    config: &Config,
    rounds: usize,
    skipped: &mut Vec<String>,
) -> Result<(Vec<SchemaRun>, Vec<checks::CheckRun>), BenchError> {
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
    let checks = match (&config.cgp, &config.peers) {
        (Some(cgp), Some(_)) => checks::check_vs_inspect(&config.repo, cgp, rounds)?,
        _ => {
            skipped.push(
                "`cgp check` beside `contextgraph-inspect`: needs the cgp binary and the peers"
                    .into(),
            );
            Vec::new()
        }
    };
    Ok((schema, checks))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line of a variant the reference's version does not have is left out
    /// of what the reference decoder is measured on; the others stay, in order.
    #[test]
    fn the_reference_is_measured_only_on_what_its_version_accepts() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let path = repo.join(interop_bundle().expect("the working bundle"));
        let text = std::fs::read_to_string(&path).expect("the working bundle");
        let bundle = Bundle::from_published(&text).expect("a bundle");
        let validator = Validator::new(&bundle).expect("a validator");
        let tags = validator.tags().to_vec();
        let unknown = (0..)
            .map(|n| format!("ping{n}"))
            .find(|tag| !tags.contains(tag))
            .expect("a free tag");
        let corpus = Corpus::new(
            format!(
                "{{\"type\":\"shutdown\"}}\n{{\"type\":\"{unknown}\"}}\n{{\"type\":\"error\",\"message\":\"m\"}}\n"
            )
            .into_bytes(),
        );
        let known = confined(&corpus, &validator);
        assert_eq!(
            known.bytes(),
            b"{\"type\":\"shutdown\"}\n{\"type\":\"error\",\"message\":\"m\"}\n"
        );
    }
}
