//! The generated Python package (`generated/python`, import name `cgp_types`)
//! as a decoder the differential tests compare: many texts, one `python3`
//! process.

use crate::Outcome;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// `python3` running `spec-tests/peers/<script>` with the package importable.
/// No bytecode is written: `generated/` holds only what codegen writes.
fn python(script: &str) -> Command {
    python_with(script, None)
}

/// [`python`], with `extra` (msgspec's directory, [`crate::peers::ensure_msgspec`])
/// on `PYTHONPATH` after the package, so that `decode_line` takes its fast path.
fn python_with(script: &str, extra: Option<&Path>) -> Command {
    let root = cgp_test_support::repo();
    let mut paths = vec![root.join("generated/python")];
    paths.extend(extra.map(Path::to_path_buf));
    let mut command = Command::new("python3");
    command
        .arg(root.join("spec-tests/peers").join(script))
        .env(
            "PYTHONPATH",
            std::env::join_paths(paths).unwrap_or_default(),
        )
        .env("PYTHONDONTWRITEBYTECODE", "1");
    command
}

/// Runs `spec-tests/peers/<script>` against the package; its standard output,
/// or what went wrong.
pub fn run_script(script: &str) -> Result<String, String> {
    let output = python(script).output().map_err(|error| {
        format!("cannot run python3 ({error}); the Python package tests need it")
    })?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(format!(
            "{script} failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

/// Round-trips each `(target, text)` through `cgp_types` (decode, then
/// re-encode compactly) in one Python process. A text the package refuses
/// with `WireError` is `Err`; any other exception fails the call, naming the
/// text.
pub fn round_trips(cases: &[(String, String)]) -> Result<Vec<Outcome>, String> {
    round_trips_with(cases, None).map(|(outcomes, _)| outcomes)
}

/// [`round_trips`] with `extra` on `PYTHONPATH` (msgspec's directory, for the
/// fast path); also how many envelopes the fast decoder took. The script
/// compares each path with the exact one on every envelope (the same value,
/// bytes and message), and a disagreement fails the call.
pub fn round_trips_with(
    cases: &[(String, String)],
    extra: Option<&Path>,
) -> Result<(Vec<Outcome>, usize), String> {
    let mut input = String::new();
    for case in cases {
        input.push_str(&serde_json::to_string(case).map_err(|error| error.to_string())?);
        input.push('\n');
    }
    let mut child = python_with("cgp_types_roundtrip.py", extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| {
            format!("cannot run python3 ({error}); the Python package tests need it")
        })?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child
        .wait_with_output()
        .map_err(|error| error.to_string())?;
    writer
        .join()
        .map_err(|_| "the writer panicked".to_owned())?
        .map_err(|error| error.to_string())?;
    if !output.status.success() {
        return Err(format!(
            "cgp_types_roundtrip.py failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let text = String::from_utf8(output.stdout).map_err(|error| error.to_string())?;
    let mut outcomes = Vec::new();
    let mut fast = 0;
    for (line, (target, case)) in text.lines().zip(cases) {
        let reply: serde_json::Value =
            serde_json::from_str(line).map_err(|error| format!("{error}: {line}"))?;
        let field = |name: &str| reply.get(name).and_then(|v| v.as_str()).map(str::to_owned);
        if reply.get("fast").and_then(serde_json::Value::as_bool) == Some(true) {
            fast += 1;
        }
        outcomes.push(match (field("ok"), field("rejected"), field("crashed")) {
            (Some(text), _, _) => Ok(text),
            (_, Some(message), _) => Err(message),
            (_, _, crash) => {
                return Err(format!(
                    "cgp_types crashed on {target} {case}:\n{}",
                    crash.unwrap_or_default()
                ));
            }
        });
    }
    if outcomes.len() != cases.len() {
        return Err(format!(
            "{} answers for {} texts",
            outcomes.len(),
            cases.len()
        ));
    }
    Ok((outcomes, fast))
}
