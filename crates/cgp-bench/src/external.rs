//! The figures of other processes: `cgp validate` on the transcript file, the
//! peer validators (Python `jsonschema`, Ajv) and the generated Python package
//! on the same lines, beside pydantic's models of the interop bundle.

use crate::BenchError;
use crate::Config;
use crate::corpus::Corpus;
use crate::io_error;
use crate::measure::{CliFormat, Figure, Measure, Throughput, timed};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Times `cgp validate --profile interop --jobs <jobs> --format <format>` on
/// `transcript` (whose lines `corpus` holds): the best of `rounds` runs. Every
/// line must pass.
pub fn cgp_validate(
    cgp: &Path,
    jobs: u8,
    format: CliFormat,
    transcript: &Path,
    corpus: &Corpus,
    rounds: usize,
) -> Result<Throughput, BenchError> {
    let mut command = Command::new(cgp);
    command
        .args(["validate", "--profile", "interop", "--jobs"])
        .arg(jobs.to_string())
        .args(["--format", format.as_str()])
        .arg(transcript);
    let (seconds, output) = timed(&mut command, rounds)?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let (valid, failed) = (corpus.valid_count(), corpus.invalid_count());
    let passed = match format {
        CliFormat::Human | CliFormat::Github => stdout
            .trim_end()
            .ends_with(&format!("{valid} passed, {failed} failed")),
        // One object a line, then the summary.
        CliFormat::Json => {
            stdout.lines().count() as u64 == corpus.line_count() + 1
                && stdout.trim_end().ends_with(&format!(
                    "{{\"summary\":{{\"passed\":{valid},\"failed\":{failed},\"warnings\":0}}}}"
                ))
        }
    };
    if output.status.success() != (failed == 0) || !passed {
        return Err(BenchError::from(format!(
            "cgp validate --jobs {jobs} did not pass the transcript ({}): {}{}",
            output.status,
            cut(&stdout),
            cut(&String::from_utf8_lossy(&output.stderr))
        )));
    }
    Ok(Throughput {
        bytes: corpus.size(),
        lines: corpus.line_count(),
        seconds,
    })
}

pub(crate) fn cut(text: &str) -> String {
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

fn run_peer(command: &mut Command) -> Result<PeerResult, BenchError> {
    let output = command
        .stdin(Stdio::null())
        .output()
        .map_err(|error| format!("cannot run {command:?}: {error}"))?;
    if !output.status.success() {
        return Err(BenchError::from(format!(
            "{command:?} failed ({}): {}",
            output.status,
            cut(&String::from_utf8_lossy(&output.stderr))
        )));
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
        _ => Err(BenchError::from(format!("{command:?} printed {value}"))),
    }
}

/// Ajv on the whole file, Python jsonschema on its first
/// [`Config::python_bytes`].
pub(crate) fn peers_on(
    config: &Config,
    peers: &Path,
    bundle: &Path,
    corpus: &Corpus,
    path: &Path,
) -> Result<Vec<Figure>, BenchError> {
    let scripts = config.repo.join("spec-tests/peers");
    let rounds = config.rounds.max(1);
    let mut ajv = Command::new("node");
    ajv.arg(scripts.join("throughput.mjs"))
        .arg(bundle)
        .arg(path)
        .arg(rounds.to_string())
        .env("NODE_PATH", spec_tests::peers::node_path(peers));
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
        .env("PYTHONPATH", spec_tests::peers::python_path(peers));
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
        if result.lines != sample.line_count() || result.invalid != sample.invalid_count() {
            return Err(BenchError::from(format!(
                "{measure:?}: {} of {} lines invalid ({} lines expected, {} invalid)",
                result.invalid,
                result.lines,
                sample.line_count(),
                sample.invalid_count()
            )));
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

/// The pydantic v2 models datamodel-code-generator writes from the interop
/// `bundle` with README's options, into `work`: (the Python that has pydantic,
/// the models' module).
pub(crate) fn pydantic_models(
    work: &Path,
    bundle: &Path,
) -> Result<(PathBuf, PathBuf), BenchError> {
    let python = spec_tests::peers::ensure_datamodel_codegen()?;
    let models = work.join("cgp_models.py");
    let output = Command::new(&python)
        .args(["-m", "datamodel_code_generator", "--input"])
        .arg(bundle)
        .arg("--output")
        .arg(&models)
        .args(spec_tests::peers::DATAMODEL_CODEGEN_OPTIONS)
        .stdin(Stdio::null())
        .output()
        .map_err(|error| format!("cannot run {}: {error}", python.display()))?;
    if !output.status.success() {
        return Err(BenchError::from(format!(
            "datamodel-code-generator failed ({}): {}",
            output.status,
            cut(&String::from_utf8_lossy(&output.stderr))
        )));
    }
    Ok((python, models))
}

/// The generated Python package (`generated/python`) against `json.loads`,
/// `json.dumps` and, given `pydantic` (a Python that has it and the models'
/// module), pydantic's `model_validate_json`, in one process, on the first
/// [`Config::python_bytes`] of the transcript at `path`: every line must
/// decode.
pub(crate) fn python_package_on(
    config: &Config,
    pydantic: Option<&(PathBuf, PathBuf)>,
    corpus: &Corpus,
    path: &Path,
) -> Result<Vec<Figure>, BenchError> {
    let rounds = config.rounds.max(1);
    let prefix = corpus.prefix(config.python_bytes);
    let prefix_path = path.with_extension("python-package.ndjson");
    std::fs::write(&prefix_path, prefix.bytes()).map_err(|e| io_error(&prefix_path, &e))?;
    let mut command = Command::new(pydantic.map_or(Path::new("python3"), |(python, _)| python));
    command
        .arg(config.repo.join("spec-tests/peers/cgp_types_throughput.py"))
        .arg(&prefix_path)
        .arg(rounds.to_string());
    if let Some((_, models)) = pydantic {
        command.arg(models);
    }
    // With the peers, the package runs as `cgp-types[fast]` installs it:
    // msgspec's decoder in front of the pure-Python one.
    let mut python_path = vec![config.repo.join("generated/python")];
    if config.peers.is_some() {
        python_path.push(spec_tests::peers::ensure_msgspec()?);
    }
    let python_path = std::env::join_paths(python_path).map_err(|error| error.to_string())?;
    let output = command
        .env("PYTHONPATH", python_path)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdin(Stdio::null())
        .output()
        .map_err(|error| format!("cannot run python3: {error}"))?;
    if !output.status.success() {
        return Err(BenchError::from(format!(
            "cgp_types_throughput.py failed ({}): {}",
            output.status,
            cut(&String::from_utf8_lossy(&output.stderr))
        )));
    }
    let value: Value = serde_json::from_slice(&output.stdout)
        .map_err(|error| format!("cgp_types_throughput.py printed no result: {error}"))?;
    let number = |key: &str| value.get(key).and_then(Value::as_f64);
    let (Some(lines), Some(invalid), Some(loads), Some(decode), Some(encode), Some(dumps)) = (
        number("lines"),
        number("invalid"),
        number("seconds_json_loads"),
        number("seconds_decode_line"),
        number("seconds_encode_line"),
        number("seconds_json_dumps"),
    ) else {
        return Err(BenchError::from(format!(
            "cgp_types_throughput.py printed {value}"
        )));
    };
    if lines as u64 != prefix.line_count() || invalid as u64 != prefix.invalid_count() {
        return Err(BenchError::from(format!(
            "cgp_types.decode_line refused {invalid} of {lines} lines ({} expected, {} invalid)",
            prefix.line_count(),
            prefix.invalid_count()
        )));
    }
    let with = if value.get("fast_path").and_then(Value::as_bool) == Some(true) {
        "with msgspec"
    } else {
        "pure Python"
    };
    let note = format!(
        "best of {rounds} passes in one process, the two taking turns, on the first {:.1} MB; cgp_types {with}",
        prefix.size() as f64 / 1e6
    );
    let figure = |seconds: f64| Throughput {
        bytes: prefix.size(),
        lines: prefix.line_count(),
        seconds,
    };
    let mut figures = vec![(Measure::PythonJsonLoads, figure(loads), note.clone())];
    if pydantic.is_some() {
        let (Some(seconds), Some(refused)) =
            (number("seconds_pydantic"), number("invalid_pydantic"))
        else {
            return Err(BenchError::from(format!(
                "cgp_types_throughput.py printed no pydantic figure: {value}"
            )));
        };
        if refused as u64 != prefix.invalid_count() {
            return Err(BenchError::from(format!(
                "pydantic refused {refused} of {lines} lines ({} invalid)",
                prefix.invalid_count()
            )));
        }
        figures.push((Measure::PythonPydantic, figure(seconds), note.clone()));
    }
    figures.push((Measure::PythonPackageDecode, figure(decode), note.clone()));
    let encode_note = format!("{note}; the same lines' values (bytes counted as the lines')");
    figures.push((Measure::PythonJsonDumps, figure(dumps), encode_note.clone()));
    figures.push((Measure::PythonPackageEncode, figure(encode), encode_note));
    Ok(figures)
}
