//! `cgp mock` and `cgp proxy` end to end, with `cgp` itself on the other side:
//! the mock passes `cgp check` over stdio and HTTP; each of its faults fails
//! under its rule, or passes when it is allowed; the proxy passes every byte
//! unchanged, passes the exit status on, records a transcript `cgp validate`
//! reads, names a host's faults live, and never records or prints a
//! credential.

use serde_json::Value;
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

const CGP: &str = env!("CARGO_BIN_EXE_cgp");

fn cgp(args: &[&str]) -> Output {
    Command::new(CGP).args(args).output().expect("cgp runs")
}

/// A server `cgp` started (`mock --http`, `proxy --listen`), killed on drop,
/// with the URL it printed.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start(args: &[&str], env: &[(&str, &str)]) -> Server {
        let mut child = Command::new(CGP)
            .args(args)
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("cgp starts");
        let mut url = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut url)
            .expect("the URL");
        assert!(url.starts_with("http://127.0.0.1:"), "{url:?}");
        Server {
            child,
            url: url.trim().to_owned(),
        }
    }

    fn stderr(mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let mut text = String::new();
        if let Some(mut stderr) = self.child.stderr.take() {
            let _ = stderr.read_to_string(&mut text);
        }
        text
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The rule ids (or `text` for a text-layer finding) of every error of a
/// `cgp check --json` report.
fn error_rules(output: &Output) -> BTreeSet<String> {
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "not JSON ({error}): {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let mut rules = BTreeSet::new();
    for step in report["steps"].as_array().into_iter().flatten() {
        for problem in step["problems"].as_array().into_iter().flatten() {
            if problem["severity"] == "error" {
                rules.insert(problem["rule"].as_str().unwrap_or("text").to_owned());
            }
        }
        for message in step["messages"].as_array().into_iter().flatten() {
            if message["probe"] == true {
                continue;
            }
            for finding in message["findings"].as_array().into_iter().flatten() {
                if finding["severity"] == "error" {
                    let rule = finding["rule"].as_str().filter(|rule| !rule.is_empty());
                    rules.insert(rule.unwrap_or("text").to_owned());
                }
            }
        }
    }
    rules
}

#[test]
fn the_mock_passes_cgp_check_over_stdio_and_http() {
    let output = cgp(&["check", "--timeout", "5", "--", CGP, "mock"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    let server = Server::start(&["mock", "--http", "0"], &[]);
    let output = cgp(&["check", "--timeout", "5", "--http", &server.url]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    // It keeps serving after shutdown (answered with 204).
    let again = cgp(&["check", "--timeout", "5", "--http", &server.url]);
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stdout)
    );
}

#[test]
fn each_fault_fails_under_its_rule_and_the_allowed_ones_pass() {
    let listed = cgp(&["mock", "--list-behaviours"]);
    let listed = String::from_utf8(listed.stdout).expect("utf-8");
    let expected: &[(&str, &[&str])] = &[
        ("over-budget", &["B1", "B4"]),
        ("wrong-id", &["H4"]),
        ("garbage-line", &["text"]),
        ("slow-reply", &[]),
        ("crash", &["CGP-ANSWER"]),
        ("stale-verify", &["V2"]),
        ("unknown-vocabulary", &[]),
        ("huge-line", &["CGP-ANSWER"]),
        ("other-major", &["H1"]),
    ];
    assert_eq!(listed.lines().count(), expected.len(), "{listed}");
    for (name, rules) in expected {
        let line = listed
            .lines()
            .find(|line| line.split('\t').next() == Some(name))
            .unwrap_or_else(|| panic!("{name} is not listed: {listed}"));
        let rule = line.split('\t').nth(1).unwrap_or_default();
        assert_eq!(rules.is_empty(), rule.starts_with("allowed"), "{line}");
        let output = cgp(&[
            "check",
            "--json",
            "--timeout",
            "3",
            "--",
            CGP,
            "mock",
            "--behaviour",
            name,
            "--delay",
            "0.02",
        ]);
        let found = error_rules(&output);
        if rules.is_empty() {
            assert!(output.status.success(), "{name}: {found:?}");
        } else {
            assert_eq!(output.status.code(), Some(1), "{name}");
            for rule in *rules {
                assert!(found.contains(*rule), "{name}: {rule} not in {found:?}");
            }
        }
    }
}

/// Runs `cgp proxy ARGS -- PROVIDER...`, writing `input` in `pieces` with a
/// pause between them; returns the output.
/// `cgp proxy <args> -- <provider>` with every stream piped.
fn proxy(args: &[&str], provider: &[&str]) -> Child {
    Command::new(CGP)
        .arg("proxy")
        .args(args)
        .arg("--")
        .args(provider)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cgp proxy starts")
}

fn proxied(args: &[&str], provider: &[&str], pieces: &[&[u8]]) -> Output {
    let mut child = proxy(args, provider);
    let mut stdin = child.stdin.take().expect("stdin");
    for piece in pieces {
        stdin.write_all(piece).expect("written");
        stdin.flush().expect("flushed");
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(stdin);
    child.wait_with_output().expect("cgp proxy ends")
}

/// Like [`proxied`], but the rest of the host's lines wait for the provider's
/// first line (its `handshake_ack`), so the judge knows what the provider
/// declared before it judges them, however loaded the machine is.
fn proxied_after_ack(args: &[&str], provider: &[&str], pieces: &[&[u8]]) -> Output {
    let mut child = proxy(args, provider);
    let mut stderr = child.stderr.take().expect("stderr");
    let findings = std::thread::spawn(move || {
        let mut text = Vec::new();
        stderr.read_to_end(&mut text).expect("stderr read");
        text
    });
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stdin = child.stdin.take().expect("stdin");
    let (first, rest) = pieces.split_first().expect("a handshake first");
    stdin.write_all(first).expect("written");
    stdin.flush().expect("flushed");
    let mut replies = Vec::new();
    let mut chunk = [0u8; 4096];
    while !replies.contains(&b'\n') {
        let read = stdout.read(&mut chunk).expect("stdout read");
        assert!(read > 0, "the provider ended before its handshake_ack");
        replies.extend_from_slice(&chunk[..read]);
    }
    for piece in rest {
        stdin.write_all(piece).expect("written");
        stdin.flush().expect("flushed");
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(stdin);
    stdout.read_to_end(&mut replies).expect("stdout read");
    let status = child.wait().expect("cgp proxy ends");
    Output {
        status,
        stdout: replies,
        stderr: findings.join().expect("the stderr reader"),
    }
}

#[test]
fn every_byte_passes_unchanged_both_ways_and_the_exit_status_with_them() {
    let input: &[&[u8]] = &[
        b"{\"type\":\"handshake\",\r\n",
        b"  \"x\" : 1 }\r\n\n  {\"type\":",
        b"\"shutdown\"}  \t",
    ];
    let output = proxied(&["--grace", "2"], &["cat"], input);
    assert_eq!(output.stdout, input.concat());
    assert!(output.status.success());
    let written = "printf '{\"type\":'; sleep 0.1; printf '\"error\",  \"message\":\"\"}\\r\\n\\n'; printf 'no newline'; exit 7";
    let output = proxied(&[], &["sh", "-c", written], &[]);
    assert_eq!(
        output.stdout,
        b"{\"type\":\"error\",  \"message\":\"\"}\r\n\nno newline"
    );
    assert_eq!(output.status.code(), Some(7));
    let output = proxied(&[], &["sh", "-c", "kill -TERM $$"], &[]);
    assert_eq!(output.status.code(), Some(128 + 15));
}

#[test]
fn a_provider_that_outlives_the_host_is_killed_after_the_grace_period() {
    let started = std::time::Instant::now();
    let output = proxied(
        &["--grace", "0.3"],
        &["sh", "-c", "trap '' TERM; exec 0<&-; sleep 30"],
        &[],
    );
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(output.status.code(), Some(128 + 9));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("did not exit within"), "{stderr}");
}

fn line(value: Value) -> Vec<u8> {
    let mut line = serde_json::to_vec(&value).expect("JSON");
    line.push(b'\n');
    line
}

fn handshake() -> Vec<u8> {
    line(serde_json::json!({"type": "handshake", "protocol_version": cgp_types::PROTOCOL_VERSION}))
}

#[test]
fn the_record_is_a_transcript_cgp_validate_reads() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let record = dir.path().join("record.ndjson");
    let query = line(serde_json::json!({
        "type": "query", "id": "q1",
        "query": {"goal": "retry policy", "max_frames": 3, "max_tokens": 500}
    }));
    let shutdown = line(serde_json::json!({"type": "shutdown"}));
    let output = proxied(
        &["--record", record.to_str().expect("utf-8")],
        &[CGP, "mock"],
        &[&handshake(), &query, &shutdown],
    );
    assert!(output.status.success());
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let recorded = std::fs::read(&record).expect("the record");
    assert_eq!(recorded.iter().filter(|byte| **byte == b'\n').count(), 5);
    assert!(recorded.ends_with(&shutdown));
    let validated = cgp(&["validate", "--semantic", record.to_str().expect("utf-8")]);
    assert!(
        validated.status.success(),
        "{}",
        String::from_utf8_lossy(&validated.stdout)
    );
}

#[test]
fn a_hosts_faults_are_named_live() {
    let with_id = line(serde_json::json!({
        "type": "query", "id": "q1",
        "query": {"goal": "g", "max_frames": 2, "max_tokens": 100}
    }));
    let with_embedding = line(serde_json::json!({
        "type": "query",
        "query": {"goal": "g", "max_frames": 2, "max_tokens": 100, "embedding": [0.1, 0.2, 0.3, 0.4]}
    }));
    let verify = line(serde_json::json!({
        "type": "verify",
        "request": {"frames": [{"provider_id": "cgp-mock", "frame_id": "doc:adr-0042"}]}
    }));
    let shutdown = line(serde_json::json!({"type": "shutdown"}));
    let output = proxied_after_ack(
        &["--format", "json"],
        &[CGP, "mock", "--without", "correlation,verify,embeddings"],
        &[&handshake(), &with_id, &with_embedding, &verify, &shutdown],
    );
    assert!(output.status.success());
    let findings: Vec<Value> = output
        .stderr
        .split(|byte| *byte == b'\n')
        .filter(|line| !line.is_empty())
        .map(|line| serde_json::from_slice(line).expect("one JSON finding a line"))
        .collect();
    let named = |rule: &str, at_line: u64| {
        findings.iter().any(|finding| {
            finding["rule"] == rule && finding["side"] == "host" && finding["line"] == at_line
        })
    };
    assert!(named("H4", 3), "{findings:#?}");
    assert!(named("E1", 5), "{findings:#?}");
    assert!(named("CGP-VERIFY-OPTIN", 7), "{findings:#?}");
}

#[test]
fn the_http_proxy_passes_bodies_and_records_no_credential() {
    const TOKEN: &str = "cgp-proxy-test-token-7d1e";
    let dir = tempfile::tempdir().expect("a temporary directory");
    let record = dir.path().join("record.ndjson");
    let mock = Server::start(&["mock", "--http", "127.0.0.1:0"], &[]);
    let proxy = Server::start(
        &[
            "proxy",
            "--listen",
            "0",
            "--to",
            &mock.url,
            "--bearer-env",
            "CGP_PROXY_TOKEN",
            "--header-env",
            "X-Api-Key=CGP_PROXY_TOKEN",
            "--record",
            record.to_str().expect("utf-8"),
        ],
        &[("CGP_PROXY_TOKEN", TOKEN)],
    );
    let direct = cgp(&["check", "--json", "--timeout", "5", "--http", &mock.url]);
    let through = cgp(&["check", "--json", "--timeout", "5", "--http", &proxy.url]);
    assert!(
        through.status.success(),
        "{}",
        String::from_utf8_lossy(&through.stdout)
    );
    assert_eq!(error_rules(&direct), error_rules(&through));
    let findings = proxy.stderr();
    let recorded = std::fs::read_to_string(&record).expect("the record");
    assert!(recorded.lines().count() > 20, "{recorded}");
    for text in [&recorded, &findings] {
        assert!(!text.contains(TOKEN) && !text.contains("Bearer"), "{text}");
    }
    let refused = cgp(&["proxy", "--listen", "0.0.0.0:0", "--to", &mock.url]);
    assert_eq!(refused.status.code(), Some(2));
}
