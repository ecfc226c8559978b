//! The generated TypeScript package's `decodeEnvelope` against plain
//! `JSON.parse`, in one node process on the same lines (the package built with
//! the pinned compiler, as the tests build it).

use crate::corpus::Corpus;
use crate::external::cut;
use crate::measure::{Figure, Measure, Throughput};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};

/// Both figures on the lines of `corpus`, written at `path`: the best of
/// `rounds` passes each, the two taking turns in every round. Every line must
/// decode.
pub(crate) fn typescript_on(
    scripts: &Path,
    corpus: &Corpus,
    path: &Path,
    rounds: usize,
) -> Result<Vec<Figure>, String> {
    let entry = spec_tests::typescript::built_package()?;
    let output = Command::new("node")
        .arg(scripts.join("typescript_throughput.mjs"))
        .arg(entry)
        .arg(path)
        .arg(rounds.to_string())
        .stdin(Stdio::null())
        .output()
        .map_err(|error| format!("cannot run node: {error}"))?;
    if !output.status.success() {
        return Err(format!(
            "typescript_throughput.mjs failed ({}): {}",
            output.status,
            cut(&String::from_utf8_lossy(&output.stderr))
        ));
    }
    let value: Value = serde_json::from_slice(&output.stdout)
        .map_err(|error| format!("typescript_throughput.mjs printed no result: {error}"))?;
    let number = |key: &str| value.get(key).and_then(Value::as_f64);
    let (Some(lines), Some(rejected), Some(seconds), Some(parse_seconds)) = (
        number("lines"),
        number("rejected"),
        number("seconds"),
        number("seconds_json_parse"),
    ) else {
        return Err(format!("typescript_throughput.mjs printed {value}"));
    };
    if lines as u64 != corpus.line_count() || rejected > 0.0 {
        return Err(format!(
            "decodeEnvelope rejected {rejected} of {lines} lines ({} expected, all valid)",
            corpus.line_count()
        ));
    }
    let throughput = |seconds| Throughput {
        bytes: corpus.size(),
        lines: corpus.line_count(),
        seconds,
    };
    let note =
        format!("lines decoded to strings beforehand; best of {rounds} passes, taking turns");
    Ok(vec![
        (
            Measure::NodeJsonParse,
            throughput(parse_seconds),
            note.clone(),
        ),
        (Measure::TypescriptDecode, throughput(seconds), note),
    ])
}
