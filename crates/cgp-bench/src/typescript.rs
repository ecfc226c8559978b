//! The generated TypeScript package against what an implementer would
//! otherwise use, in one node process on the same lines (the package built with
//! the pinned compiler, as the tests build it): `decodeEnvelope` against
//! `JSON.parse` alone and `JSON.parse` followed by Ajv's compiled validator of
//! the interop bundle, `encodeEnvelope` against `JSON.stringify`.

use crate::BenchError;
use crate::corpus::Corpus;
use crate::external::cut;
use crate::measure::{Figure, Measure, Throughput};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};

/// The figures on the lines of `corpus`, written at `path`: the best of
/// `rounds` passes each, the candidates taking turns in every round. Ajv
/// (from `peers`) validates against `bundle`. Every line must decode and
/// validate.
pub(crate) fn typescript_on(
    scripts: &Path,
    peers: &Path,
    bundle: &Path,
    corpus: &Corpus,
    path: &Path,
    rounds: usize,
) -> Result<Vec<Figure>, BenchError> {
    let entry = spec_tests::typescript::built_package()?;
    let output = Command::new("node")
        .arg(scripts.join("typescript_throughput.mjs"))
        .arg(entry)
        .arg(path)
        .arg(rounds.to_string())
        .arg(bundle)
        .env("NODE_PATH", spec_tests::peers::node_path(peers))
        .stdin(Stdio::null())
        .output()
        .map_err(|error| format!("cannot run node: {error}"))?;
    if !output.status.success() {
        return Err(BenchError::from(format!(
            "typescript_throughput.mjs failed ({}): {}",
            output.status,
            cut(&String::from_utf8_lossy(&output.stderr))
        )));
    }
    let value: Value = serde_json::from_slice(&output.stdout)
        .map_err(|error| format!("typescript_throughput.mjs printed no result: {error}"))?;
    let number = |key: &str| value.get(key).and_then(Value::as_f64);
    let (
        Some(lines),
        Some(rejected),
        Some(invalid),
        Some(seconds),
        Some(parse_seconds),
        Some(ajv_seconds),
        Some(encode_seconds),
        Some(stringify_seconds),
    ) = (
        number("lines"),
        number("rejected"),
        number("invalid"),
        number("seconds"),
        number("seconds_json_parse"),
        number("seconds_ajv"),
        number("seconds_encode"),
        number("seconds_json_stringify"),
    )
    else {
        return Err(BenchError::from(format!(
            "typescript_throughput.mjs printed {value}"
        )));
    };
    let expected = corpus.invalid_count() as f64;
    if lines as u64 != corpus.line_count() || rejected != expected || invalid != expected {
        return Err(BenchError::from(format!(
            "decodeEnvelope rejected {rejected} and Ajv {invalid} of {lines} lines ({} expected, {expected} invalid)",
            corpus.line_count()
        )));
    }
    let throughput = |seconds| Throughput {
        bytes: corpus.size(),
        lines: corpus.line_count(),
        seconds,
    };
    let note =
        format!("lines decoded to strings beforehand; best of {rounds} passes, taking turns");
    let encode_note = format!(
        "the same lines' values (bytes counted as the lines'); best of {rounds} passes, taking turns"
    );
    Ok(vec![
        (
            Measure::NodeJsonParse,
            throughput(parse_seconds),
            note.clone(),
        ),
        (
            Measure::NodeAjvSameProcess,
            throughput(ajv_seconds),
            note.clone(),
        ),
        (Measure::TypescriptDecode, throughput(seconds), note),
        (
            Measure::NodeJsonStringify,
            throughput(stringify_seconds),
            encode_note.clone(),
        ),
        (
            Measure::TypescriptEncode,
            throughput(encode_seconds),
            encode_note,
        ),
    ])
}
