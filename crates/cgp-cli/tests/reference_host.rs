//! Full tier: real clients against `cgp mock` and through `cgp proxy`.
//!
//! - The reference host (`contextgraph-host` 2.0.0, a dev-dependency) drives
//!   `cgp mock` over stdio and HTTP, and drives providers through `cgp proxy`
//!   in both modes (the reference example provider over stdio, `cgp mock
//!   --http` over HTTP); it accepts every frame, and the proxied run gives the
//!   same result as the direct one.
//! - `contextgraph-inspect` finds `cgp mock` conformant over stdio and HTTP,
//!   and sees the reference provider through `cgp proxy` as without it.

use contextgraph_host::{Host, ProviderResult};
use contextgraph_types::{ContextQuery, FrameId};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

const CGP: &str = env!("CARGO_BIN_EXE_cgp");

/// A provider as the host reaches it.
enum Reach {
    Stdio(String, Vec<String>),
    Http(String),
}

/// What the host got: per query the ids of the frames it accepted, then the
/// verify outcome (retained, dropped).
fn drive(id: &str, reach: &Reach) -> Vec<String> {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let mut host = Host::new();
        match reach {
            Reach::Stdio(program, args) => host.add_stdio(id, program, args).await,
            Reach::Http(url) => host.add_http(id, url.clone(), None).await,
        }
        .expect("the handshake");
        let mut seen = Vec::new();
        let queries = [
            serde_json::json!({"goal": "retry policy", "max_frames": 5, "max_tokens": 4000}),
            serde_json::json!({"goal": "docs", "kinds": ["doc"], "max_frames": 2, "max_tokens": 4000}),
            serde_json::json!({"goal": "tiny", "max_frames": 1, "max_tokens": 20}),
        ];
        let mut held = Vec::new();
        for query in queries {
            let query: ContextQuery = serde_json::from_value(query).expect("a query");
            let fan_out = host.query_all(&query).await;
            for outcome in &fan_out.outcomes {
                match &outcome.result {
                    ProviderResult::Frames(result) => {
                        let ids: Vec<&str> = result.frames.iter().map(|f| f.id.as_str()).collect();
                        seen.push(ids.join(","));
                        held.extend(result.frames.iter().map(|frame| FrameId {
                            provider_id: id.to_owned(),
                            frame_id: frame.id.clone(),
                            content_digest: frame.content_digest.clone(),
                        }));
                    }
                    other => seen.push(format!("rejected: {other:?}")),
                }
            }
        }
        let verified = host.verify_frames(&held).await;
        seen.push(format!(
            "verify: {} retained, {} dropped",
            verified.retained.len(),
            verified.dropped.len()
        ));
        for (_, result) in host.shutdown().await {
            result.expect("a clean shutdown");
        }
        seen
    })
}

/// A `cgp` server (`mock --http`, `proxy --listen`) and its URL.
struct Server(Child, String);

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut child = Command::new(CGP)
            .args(args)
            .stdout(Stdio::piped())
            .spawn()
            .expect("cgp starts");
        let mut url = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut url)
            .expect("the URL");
        Server(child, url.trim().to_owned())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn args(words: &[&str]) -> Vec<String> {
    words.iter().map(|word| (*word).to_owned()).collect()
}

#[test]
#[ignore = "full tier"]
fn the_reference_host_accepts_the_mock_and_sees_the_same_through_the_proxy() {
    // cgp mock over stdio, directly and through cgp proxy.
    let direct = drive("cgp-mock", &Reach::Stdio(CGP.into(), args(&["mock"])));
    assert!(
        direct.iter().take(3).all(|ids| !ids.is_empty()),
        "{direct:?}"
    );
    // Frames served twice are asked about twice; at least one is retained.
    assert!(
        direct
            .last()
            .is_some_and(|verify| !verify.starts_with("verify: 0 ")),
        "{direct:?}"
    );
    let proxied = drive(
        "cgp-mock",
        &Reach::Stdio(CGP.into(), args(&["proxy", "--", CGP, "mock"])),
    );
    assert_eq!(direct, proxied);

    // The reference example provider, directly and through cgp proxy.
    let provider = spec_tests::peers::ensure_reference_provider()
        .unwrap_or_else(|problem| panic!("installing the reference provider: {problem}"));
    let provider = provider.display().to_string();
    let direct = drive("docs", &Reach::Stdio(provider.clone(), Vec::new()));
    let proxied = drive(
        "docs",
        &Reach::Stdio(CGP.into(), args(&["proxy", "--", &provider])),
    );
    assert_eq!(direct, proxied);

    // cgp mock over HTTP, directly and through cgp proxy --listen.
    let mock = Server::start(&["mock", "--http", "0"]);
    let direct = drive("cgp-mock", &Reach::Http(mock.1.clone()));
    let proxy = Server::start(&["proxy", "--listen", "0", "--to", &mock.1]);
    let proxied = drive("cgp-mock", &Reach::Http(proxy.1.clone()));
    assert_eq!(direct, proxied);
    assert!(
        direct.iter().take(3).all(|ids| !ids.is_empty()),
        "{direct:?}"
    );
}

/// `contextgraph-inspect`'s verdicts, check by check.
fn inspect(args: &[&str]) -> Vec<(String, String)> {
    let inspect = spec_tests::peers::ensure_reference_inspect()
        .unwrap_or_else(|problem| panic!("installing contextgraph-inspect: {problem}"));
    let output = Command::new(inspect)
        .args(args)
        .output()
        .expect("contextgraph-inspect runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let json = stdout
        .find("\n{")
        .map_or(&stdout[..], |start| &stdout[start + 1..]);
    let report: Value = serde_json::from_str(json).expect("contextgraph-inspect writes JSON");
    let text = |value: &Value| value.as_str().unwrap_or_default().to_owned();
    report["checks"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|check| (text(&check["name"]), text(&check["status"])))
        .collect()
}

fn conformant(checks: &[(String, String)]) -> bool {
    !checks.is_empty()
        && checks
            .iter()
            .all(|(_, status)| status == "pass" || status == "skipped")
}

#[test]
#[ignore = "full tier"]
fn contextgraph_inspect_finds_the_mock_conformant_and_the_proxy_invisible() {
    let stdio = inspect(&["stdio", "--json", "--", CGP, "mock"]);
    assert!(conformant(&stdio), "{stdio:?}");
    let mock = Server::start(&["mock", "--http", "0"]);
    let http = inspect(&["http", "--json", &mock.1]);
    assert!(conformant(&http), "{http:?}");
    let proxy = Server::start(&["proxy", "--listen", "0", "--to", &mock.1]);
    assert_eq!(inspect(&["http", "--json", &proxy.1]), http);

    let provider = spec_tests::peers::ensure_reference_provider()
        .unwrap_or_else(|problem| panic!("installing the reference provider: {problem}"));
    let provider = provider.display().to_string();
    let direct = inspect(&["stdio", "--json", "--", &provider]);
    assert!(conformant(&direct), "{direct:?}");
    let proxied = inspect(&["stdio", "--json", "--", CGP, "proxy", "--", &provider]);
    assert_eq!(direct, proxied);
}
