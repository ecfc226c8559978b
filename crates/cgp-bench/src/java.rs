//! The generated Java package's `Wire.decode` against Jackson databind reading
//! the same lines into plain classes the bench declares, in one JVM
//! (`spec-tests/peers/java/CgpThroughput.java`, compiled against the
//! package's jar as the tests build it).

use crate::BenchError;
use crate::corpus::Corpus;
use crate::external::cut;
use crate::measure::{Figure, Measure, Throughput};
use serde_json::Value;
use std::path::Path;
use std::process::Stdio;

/// Both figures on the lines of `corpus`, written at `path`: the best of
/// `rounds` passes each after one unmeasured pass, the two taking turns in
/// every round. `Wire.decode` must reject exactly the corpus's invalid lines.
pub(crate) fn java_on(
    corpus: &Corpus,
    path: &Path,
    rounds: usize,
) -> Result<Vec<Figure>, BenchError> {
    let mut command = spec_tests::java::throughput()?;
    let output = command
        .arg(path)
        .arg(rounds.max(1).to_string())
        .stdin(Stdio::null())
        .output()
        .map_err(|error| format!("cannot run java: {error}"))?;
    if !output.status.success() {
        return Err(BenchError::from(format!(
            "CgpThroughput failed ({}): {}",
            output.status,
            cut(&String::from_utf8_lossy(&output.stderr))
        )));
    }
    let value: Value = serde_json::from_slice(&output.stdout)
        .map_err(|error| format!("CgpThroughput printed no result: {error}"))?;
    let number = |key: &str| value.get(key).and_then(Value::as_f64);
    let (
        Some(lines),
        Some(rejected),
        Some(seconds),
        Some(databind_seconds),
        Some(databind_rejected),
    ) = (
        number("lines"),
        number("rejected"),
        number("seconds"),
        number("seconds_databind"),
        number("rejected_databind"),
    )
    else {
        return Err(BenchError::from(format!("CgpThroughput printed {value}")));
    };
    if lines as u64 != corpus.line_count() || rejected as u64 != corpus.invalid_count() {
        return Err(BenchError::from(format!(
            "Wire.decode rejected {rejected} of {lines} lines ({} expected, {} invalid)",
            corpus.line_count(),
            corpus.invalid_count()
        )));
    }
    let throughput = |seconds| Throughput {
        bytes: corpus.size(),
        lines: corpus.line_count(),
        seconds,
    };
    let note = format!("best of {rounds} passes after a warm-up pass, taking turns");
    Ok(vec![
        (
            Measure::JavaDatabind,
            throughput(databind_seconds),
            format!(
                "{note}; {databind_rejected} lines end in an error (vocabularies read as strings, unknown members ignored, no range or duplicate checks), read whole all the same"
            ),
        ),
        (Measure::JavaDecode, throughput(seconds), note),
    ])
}
