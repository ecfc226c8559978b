//! `cgp check` beside the reference conformance tool `contextgraph-inspect`,
//! on the providers SPEC.md's side-by-side table runs (the reference example
//! provider and the Python SDK docs provider, installed under
//! `target/peers`): the wall time of each whole run, the two taking turns in
//! every round, the best of the rounds, and their ratio from this one run.

use crate::BenchError;
use crate::measure::timed;
use std::ffi::OsString;
use std::path::Path;
use std::process::Command;

/// One provider's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckRun {
    /// Which provider.
    pub provider: String,
    /// `cgp check --json`: the best wall time, in seconds.
    pub cgp_seconds: f64,
    /// `contextgraph-inspect stdio --json`: the best wall time, in seconds.
    pub inspect_seconds: f64,
}

impl CheckRun {
    /// `cgp check`'s time over the reference tool's: at most 1 is the target.
    pub fn ratio(&self) -> f64 {
        self.cgp_seconds / self.inspect_seconds.max(f64::MIN_POSITIVE)
    }
}

/// Installs (or finds) the peers and times both tools on each provider.
pub fn check_vs_inspect(
    repo: &Path,
    cgp: &Path,
    rounds: usize,
) -> Result<Vec<CheckRun>, BenchError> {
    let inspect = spec_tests::peers::ensure_reference_inspect()?;
    let reference = spec_tests::peers::ensure_reference_provider()?;
    let python = spec_tests::peers::ensure_python_sdk()?;
    let sdk_docs = repo.join("crates/cgp-cli/tests/providers/sdk_docs.py");
    let providers: Vec<(&str, Vec<OsString>)> = vec![
        (
            "reference contextgraph-example-docs 2.0.0",
            vec![reference.into()],
        ),
        (
            "Python SDK 0.1.0 docs provider",
            vec![python.into(), sdk_docs.into()],
        ),
    ];
    let mut runs = Vec::new();
    for (provider, command) in providers {
        let mut cgp_seconds = f64::INFINITY;
        let mut inspect_seconds = f64::INFINITY;
        for _ in 0..rounds.max(1) {
            let (seconds, output) = timed(
                Command::new(cgp)
                    .args(["check", "--json", "--timeout", "5", "--"])
                    .args(&command),
                1,
            )?;
            // 0: passed, 1: findings; anything else is a failure to run.
            if !matches!(output.status.code(), Some(0 | 1)) {
                return Err(BenchError::from(format!(
                    "cgp check on the {provider} did not run: {}",
                    String::from_utf8_lossy(&output.stderr)
                )));
            }
            cgp_seconds = cgp_seconds.min(seconds);
            let (seconds, output) = timed(
                Command::new(&inspect)
                    .args(["stdio", "--json", "--"])
                    .args(&command),
                1,
            )?;
            if output.stdout.is_empty() {
                return Err(BenchError::from(format!(
                    "contextgraph-inspect on the {provider} wrote no report: {}",
                    String::from_utf8_lossy(&output.stderr)
                )));
            }
            inspect_seconds = inspect_seconds.min(seconds);
        }
        runs.push(CheckRun {
            provider: provider.to_owned(),
            cgp_seconds,
            inspect_seconds,
        });
    }
    Ok(runs)
}
