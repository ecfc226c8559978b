//! The generated Go module's `Decode` against `encoding/json`'s `Unmarshal`
//! of the same lines into the same structs, in one Go process
//! (`generated/go/cmd/cgp-throughput`, built as the tests build the harness).

use crate::BenchError;
use crate::corpus::Corpus;
use crate::external::cut;
use crate::measure::{Figure, Measure, Throughput};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};

/// Both figures on the lines of `corpus`, written at `path`: the best of
/// `rounds` passes each, the two taking turns in every round. Every line must
/// decode with `Decode`.
pub(crate) fn go_on(
    corpus: &Corpus,
    path: &Path,
    rounds: usize,
) -> Result<Vec<Figure>, BenchError> {
    let program = spec_tests::go::throughput()?;
    let output = Command::new(program)
        .arg(path)
        .arg(rounds.to_string())
        .stdin(Stdio::null())
        .output()
        .map_err(|error| format!("cannot run {}: {error}", program.display()))?;
    if !output.status.success() {
        return Err(BenchError::from(format!(
            "cgp-throughput failed ({}): {}",
            output.status,
            cut(&String::from_utf8_lossy(&output.stderr))
        )));
    }
    let value: Value = serde_json::from_slice(&output.stdout)
        .map_err(|error| format!("cgp-throughput printed no result: {error}"))?;
    let number = |key: &str| value.get(key).and_then(Value::as_f64);
    let (Some(lines), Some(rejected), Some(seconds), Some(json_seconds), Some(json_rejected)) = (
        number("lines"),
        number("rejected"),
        number("seconds"),
        number("seconds_encoding_json"),
        number("rejected_encoding_json"),
    ) else {
        return Err(BenchError::from(format!("cgp-throughput printed {value}")));
    };
    if lines as u64 != corpus.line_count() || rejected as u64 != corpus.invalid_count() {
        return Err(BenchError::from(format!(
            "Decode rejected {rejected} of {lines} lines ({} expected, {} invalid)",
            corpus.line_count(),
            corpus.invalid_count()
        )));
    }
    let throughput = |seconds| Throughput {
        bytes: corpus.size(),
        lines: corpus.line_count(),
        seconds,
    };
    let note = format!("best of {rounds} passes, taking turns");
    Ok(vec![
        (
            Measure::GoEncodingJson,
            throughput(json_seconds),
            format!(
                "{note}; {json_rejected} lines end in an error (a sealed interface such as `FrameVerdict` is beyond `encoding/json`), read whole all the same"
            ),
        ),
        (Measure::GoDecode, throughput(seconds), note),
    ])
}
