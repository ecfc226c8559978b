//! The harness program of the hand-written Rust types (`cgp-types`): answers
//! each case line on standard input with the decoder's verdict and the
//! canonical encoder's line (SPEC.md §Conformance vectors), so
//! `cgp vectors run -- cgp-types-harness` checks them like any other
//! implementation.

use base64::Engine as _;
use cgp_vectors::case::Transport;
use cgp_vectors::decode;
use serde_json::{Value, json};
use std::io::{BufRead, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lines() {
        let Ok(line) = line else {
            return ExitCode::FAILURE;
        };
        let answer = match answer(&line) {
            Ok(answer) => answer,
            Err(problem) => {
                eprintln!("cgp-types-harness: {problem}");
                return ExitCode::FAILURE;
            }
        };
        if writeln!(stdout, "{answer}")
            .and_then(|()| stdout.flush())
            .is_err()
        {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

/// Why a case line gets no answer.
#[derive(Debug, thiserror::Error)]
enum BadCase {
    #[error("{0}")]
    NotJson(#[from] serde_json::Error),
    #[error("unknown transport {0:?}")]
    UnknownTransport(Option<String>),
    #[error("{0}")]
    BadBase64(String),
    #[error("a case without input")]
    NoInput,
}

fn answer(line: &str) -> Result<Value, BadCase> {
    let request: Value = serde_json::from_str(line)?;
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    let transport = match request.get("transport").and_then(Value::as_str) {
        Some("stdio") => Transport::Stdio,
        Some("http") => Transport::Http,
        other => return Err(BadCase::UnknownTransport(other.map(str::to_owned))),
    };
    let bytes = match (
        request.get("input").and_then(Value::as_str),
        request.get("input_base64").and_then(Value::as_str),
    ) {
        (Some(text), _) => text.as_bytes().to_vec(),
        (None, Some(coded)) => base64::engine::general_purpose::STANDARD
            .decode(coded)
            .map_err(|error| BadCase::BadBase64(error.to_string()))?,
        (None, None) => return Err(BadCase::NoInput),
    };
    Ok(
        match decode::envelope(transport, &bytes).and_then(|envelope| decode::canonical(&envelope))
        {
            Ok(canonical) => json!({"id": id, "accept": true, "canonical": canonical}),
            Err(_) => json!({"id": id, "accept": false}),
        },
    )
}
