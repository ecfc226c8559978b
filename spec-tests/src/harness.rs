//! The harness protocol every package's harness program speaks (the one
//! `cgp vectors run` drives): one JSON case per line in, `{"id", "transport",
//! "input" | "input_base64"}`, one answer per line out, `{"id", "accept",
//! "canonical"}`. Any number of messages go through one process.

use crate::Outcome;
use std::io::Write;
use std::process::{Command, Stdio};

/// Each message decoded (as a stdio line, or as an HTTP body when `http`) and
/// re-encoded by the harness `command` runs: `Ok(canonical line without its
/// newline)` or `Err(..)` when it is rejected. A harness that fails is an
/// error of the whole call.
pub fn decode(command: Command, messages: &[String], http: bool) -> Result<Vec<Outcome>, String> {
    let cases: Vec<serde_json::Value> = messages
        .iter()
        .map(|message| serde_json::json!({"input": message}))
        .collect();
    run(command, cases, http)
}

/// As [`decode`], for messages of any bytes (sent as `input_base64`).
pub fn decode_bytes(
    command: Command,
    messages: &[Vec<u8>],
    http: bool,
) -> Result<Vec<Outcome>, String> {
    use base64::Engine as _;
    let cases: Vec<serde_json::Value> = messages
        .iter()
        .map(|message| {
            let encoded = base64::engine::general_purpose::STANDARD.encode(message);
            serde_json::json!({ "input_base64": encoded })
        })
        .collect();
    run(command, cases, http)
}

fn run(
    mut command: Command,
    cases: Vec<serde_json::Value>,
    http: bool,
) -> Result<Vec<Outcome>, String> {
    let messages = cases.len();
    let mut input = Vec::new();
    for (id, mut case) in cases.into_iter().enumerate() {
        case["id"] = serde_json::json!(id);
        case["transport"] = serde_json::json!(if http { "http" } else { "stdio" });
        input.extend(case.to_string().into_bytes());
        input.push(b'\n');
    }
    let shown = format!("{command:?}");
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| format!("cannot run {shown}: {error}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child
        .wait_with_output()
        .map_err(|error| format!("the harness: {error}"))?;
    writer
        .join()
        .map_err(|_| "the writer panicked".to_owned())?
        .map_err(|error| format!("writing to the harness: {error}"))?;
    if !output.status.success() {
        return Err(format!(
            "the harness {shown} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    answers(&output.stdout, messages)
}

/// The harness's answers, in order, as outcomes.
fn answers(stdout: &[u8], messages: usize) -> Result<Vec<Outcome>, String> {
    let answers: Vec<serde_json::Value> = stdout
        .split(|&b| b == b'\n')
        .filter(|line| !line.is_empty())
        .map(serde_json::from_slice)
        .collect::<Result<_, _>>()
        .map_err(|error| format!("the harness's answer: {error}"))?;
    if answers.len() != messages {
        return Err(format!("{} answers for {messages} messages", answers.len()));
    }
    answers
        .into_iter()
        .enumerate()
        .map(|(id, answer)| {
            if answer.get("id").and_then(serde_json::Value::as_u64) != Some(id as u64) {
                return Err(format!("answer {id} is out of order: {answer}"));
            }
            match (
                answer.get("accept").and_then(serde_json::Value::as_bool),
                answer.get("canonical").and_then(|v| v.as_str()),
            ) {
                (Some(true), Some(canonical)) => Ok(Ok(canonical.to_owned())),
                (Some(false), _) => Ok(Err("rejected".to_owned())),
                _ => Err(format!(
                    "answer {id} does not follow the harness protocol: {answer}"
                )),
            }
        })
        .collect()
}
