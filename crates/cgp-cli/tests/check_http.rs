//! End-to-end tests of `cgp check --http` against small HTTP servers the tests
//! start on 127.0.0.1: a well-behaved provider passes, and redirects, refused
//! credentials, server errors, oversized bodies and slow servers are each
//! reported for what they are; a bearer token is sent and never printed, and
//! plain http to a host off the machine is refused before anything is sent.
//!
//! Each server serves at most [`MAX_CONNECTIONS`] connections and gives up on
//! a silent client after a few seconds, so a failing test cannot leave one
//! running for long.

#[path = "support/http_provider.rs"]
mod http_provider;

use http_provider::reply;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const MAX_CONNECTIONS: usize = 64;
const TOKEN: &str = "cgp-test-token-5f0c1d";

/// How the test server answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// A conforming provider; with a token, it answers 401 without it.
    Good,
    /// As `Good`, with a frame whose score is the string "0.5".
    BadSchema,
    /// As `Good`, naming itself after the Authorization header it got.
    EchoToken,
    /// `307 Temporary Redirect` to another server.
    Redirect,
    /// `500`, echoing the request's Authorization header in the body.
    ServerError,
    /// `200` announcing a body one byte over 16 MiB.
    OversizedAnnounced,
    /// `200` streaming a body past 16 MiB without announcing its length.
    OversizedStreamed,
    /// Answers after three seconds.
    Slow,
    /// The SDKs' conventions: `204` and no body to a notification (an
    /// envelope of an unknown type without an `id`) and to `shutdown`, `400`
    /// with an `error` / `bad_request` envelope to a body that is no envelope.
    Sdk,
    /// As `Sdk`, answering every query with `500` and an `error` / `internal`
    /// envelope.
    InternalError,
    /// As `Sdk`, answering `shutdown` with `500` and a body that is no
    /// envelope.
    ShutdownFails,
}

/// One request the server received.
#[derive(Debug, Clone)]
struct Request {
    line: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

struct Server {
    url: String,
    requests: Arc<Mutex<Vec<Request>>>,
}

impl Server {
    fn requests(&self) -> Vec<Request> {
        self.requests.lock().expect("lock").clone()
    }
}

fn serve(mode: Mode, token: Option<&'static str>, redirect_to: &str) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}/cgp", listener.local_addr().expect("address"));
    let requests = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&requests);
    let redirect_to = redirect_to.to_owned();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(MAX_CONNECTIONS) {
            let Ok(stream) = stream else { return };
            let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
            let Some(request) = read_request(&stream) else {
                continue;
            };
            seen.lock().expect("lock").push(request.clone());
            let _ = answer(mode, token, &redirect_to, &request, stream);
        }
    });
    Server { url, requests }
}

fn read_request(stream: &TcpStream) -> Option<Request> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok()?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':')?;
        headers.push((name.to_owned(), value.trim().to_owned()));
    }
    let mut request = Request {
        line: line.trim_end().to_owned(),
        headers,
        body: Vec::new(),
    };
    let length: u64 = request.header("content-length")?.parse().ok()?;
    reader.take(length).read_to_end(&mut request.body).ok()?;
    Some(request)
}

fn respond(mut stream: TcpStream, status: &str, headers: &str, body: &[u8]) -> std::io::Result<()> {
    write!(
        stream,
        "HTTP/1.1 {status}\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    stream.write_all(body)
}

fn answer(
    mode: Mode,
    token: Option<&str>,
    redirect_to: &str,
    request: &Request,
    mut stream: TcpStream,
) -> std::io::Result<()> {
    let authorization = request.header("authorization").unwrap_or("none");
    match mode {
        Mode::Redirect => {
            return respond(
                stream,
                "307 Temporary Redirect",
                &format!("Location: {redirect_to}\r\n"),
                b"",
            );
        }
        Mode::ServerError => {
            let body = format!("upstream index down (you sent {authorization})");
            return respond(stream, "500 Internal Server Error", "", body.as_bytes());
        }
        Mode::OversizedAnnounced => {
            return write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{{",
                16 * 1024 * 1024 + 1
            );
        }
        Mode::OversizedStreamed => {
            stream.write_all(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n{\"type\":\"")?;
            let chunk = vec![b'a'; 1 << 20];
            for _ in 0..17 {
                stream.write_all(&chunk)?;
            }
            return Ok(());
        }
        Mode::Slow => std::thread::sleep(Duration::from_secs(3)),
        Mode::Good | Mode::BadSchema | Mode::EchoToken => {}
        Mode::Sdk | Mode::InternalError | Mode::ShutdownFails => {
            return answer_as_the_sdks_do(mode, request, stream);
        }
    }
    if let Some(token) = token {
        if authorization != format!("Bearer {token}") {
            return respond(stream, "401 Unauthorized", "", b"who are you?");
        }
    }
    let Some(mut reply) = reply(&request.body, mode == Mode::BadSchema) else {
        return respond(stream, "204 No Content", "", b"");
    };
    if mode == Mode::EchoToken && reply["type"] == "handshake_ack" {
        reply["provider"]["name"] = json!(authorization);
    }
    // Pretty-printed, and the handshake_ack chunked: the body is one envelope
    // whatever its whitespace and framing.
    let body = serde_json::to_string_pretty(&reply).expect("JSON");
    if reply["type"] == "handshake_ack" {
        let (first, second) = body.split_at(body.len() / 2);
        write!(
            stream,
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{first}\r\n{:x}\r\n{second}\r\n0\r\n\r\n",
            first.len(),
            second.len()
        )
    } else {
        respond(
            stream,
            "200 OK",
            "Content-Type: application/json\r\n",
            body.as_bytes(),
        )
    }
}

/// How the SDKs answer over HTTP (`Mode::Sdk` and its variants).
fn answer_as_the_sdks_do(mode: Mode, request: &Request, stream: TcpStream) -> std::io::Result<()> {
    let json = "Content-Type: application/json\r\n";
    let Ok(message) = serde_json::from_slice::<Value>(&request.body) else {
        let body = json!({"type": "error", "code": "bad_request", "message": "the body is not an envelope"});
        return respond(stream, "400 Bad Request", json, body.to_string().as_bytes());
    };
    match message["type"].as_str() {
        Some("shutdown") if mode == Mode::ShutdownFails => {
            return respond(
                stream,
                "500 Internal Server Error",
                "",
                b"shutting down failed",
            );
        }
        Some("shutdown") => return respond(stream, "204 No Content", "", b""),
        Some("query") if mode == Mode::InternalError => {
            let mut body =
                json!({"type": "error", "code": "internal", "message": "the index is down"});
            if let Some(id) = message.get("id") {
                body["id"] = id.clone();
            }
            return respond(
                stream,
                "500 Internal Server Error",
                json,
                body.to_string().as_bytes(),
            );
        }
        Some("handshake" | "query" | "verify") => {}
        // A notification gets no reply.
        _ if message.get("id").is_none() => return respond(stream, "204 No Content", "", b""),
        _ => {}
    }
    let reply = reply(&request.body, false).expect("a reply");
    respond(stream, "200 OK", json, reply.to_string().as_bytes())
}

fn cgp(args: &[&str], token: Option<&str>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cgp"));
    command.args(args).env_remove("CGP_TEST_TOKEN");
    if let Some(token) = token {
        command.env("CGP_TEST_TOKEN", token);
    }
    command.output().expect("cgp runs")
}

fn check_json(url: &str, extra: &[&str], token: Option<&str>) -> (Output, Value) {
    let mut args = vec!["check", "--format", "json", "--timeout", "2", "--http", url];
    args.extend_from_slice(extra);
    let output = cgp(&args, token);
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "the report is not JSON ({error}):\n{}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output, report)
}

/// Every problem message of the report.
fn problems(report: &Value) -> Vec<String> {
    report["steps"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|step| step["problems"].as_array().into_iter().flatten())
        .map(|problem| problem["message"].as_str().unwrap_or_default().to_owned())
        .collect()
}

fn assert_problem(report: &Value, needles: &[&str]) {
    let found = problems(report);
    assert!(
        found
            .iter()
            .any(|message| needles.iter().all(|needle| message.contains(needle))),
        "no problem mentions {needles:?}: {found:#?}"
    );
}

#[test]
fn a_good_http_provider_passes_with_one_post_per_envelope() {
    let server = serve(Mode::Good, None, "");
    let (output, report) = check_json(&server.url, &[], None);
    assert_eq!(output.status.code(), Some(0), "{report:#}");
    assert_eq!(report["passed"], true);
    assert_eq!(report["url"], server.url.as_str());
    let requests = server.requests();
    let sent: Vec<&Value> = report["steps"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|step| step["messages"].as_array().into_iter().flatten())
        .filter(|message| message["side"] == "host")
        .collect();
    assert_eq!(requests.len(), sent.len(), "one POST per envelope");
    for (request, message) in requests.iter().zip(&sent) {
        assert_eq!(request.line, "POST /cgp HTTP/1.1");
        assert_eq!(request.header("content-type"), Some("application/json"));
        assert_eq!(request.header("authorization"), None);
        assert_eq!(
            String::from_utf8_lossy(&request.body),
            message["text"].as_str().unwrap_or_default()
        );
    }
    let last = requests.last().expect("requests");
    assert_eq!(last.body, br#"{"type":"shutdown"}"#);
    assert!(
        report["exit"]
            .as_str()
            .unwrap_or_default()
            .contains("shutdown answered with HTTP 204"),
        "{}",
        report["exit"]
    );
}

#[test]
fn a_bearer_token_is_sent_and_never_printed() {
    let server = serve(Mode::Good, Some(TOKEN), "");
    for format in ["json", "human", "github"] {
        let output = cgp(
            &[
                "check",
                "--format",
                format,
                "--http",
                &server.url,
                "--bearer-env",
                "CGP_TEST_TOKEN",
            ],
            Some(TOKEN),
        );
        assert_eq!(output.status.code(), Some(0), "{format}: {output:?}");
        for stream in [&output.stdout, &output.stderr] {
            assert!(
                !String::from_utf8_lossy(stream).contains(TOKEN),
                "{format}: the token was printed"
            );
        }
    }
    // An endpoint that echoes the token in a reply does not get it printed.
    let echo = serve(Mode::EchoToken, Some(TOKEN), "");
    let (output, report) = check_json(&echo.url, &["--bearer-env", "CGP_TEST_TOKEN"], Some(TOKEN));
    assert_eq!(output.status.code(), Some(0), "{report:#}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(!stdout.contains(TOKEN), "the echoed token was printed");
    assert!(stdout.contains("Bearer *****"), "{stdout}");
    let requests = server.requests();
    assert!(!requests.is_empty());
    for request in &requests {
        assert_eq!(
            request.header("authorization"),
            Some(format!("Bearer {TOKEN}").as_str())
        );
    }
}

#[test]
fn a_refused_credential_is_reported_as_401() {
    let server = serve(Mode::Good, Some(TOKEN), "");
    let (output, report) = check_json(&server.url, &[], None);
    assert_eq!(output.status.code(), Some(1));
    assert_problem(&report, &["HTTP 401", "sent none", "--bearer-env"]);
    let (output, report) = check_json(
        &server.url,
        &["--bearer-env", "CGP_TEST_TOKEN"],
        Some("a-wrong-token"),
    );
    assert_eq!(output.status.code(), Some(1));
    assert_problem(&report, &["HTTP 401", "refused the bearer token"]);
    assert!(!String::from_utf8_lossy(&output.stdout).contains("a-wrong-token"));
}

#[test]
fn a_redirect_is_not_followed() {
    let elsewhere = serve(Mode::Good, None, "");
    let server = serve(Mode::Redirect, None, &elsewhere.url);
    let (output, report) = check_json(&server.url, &[], None);
    assert_eq!(output.status.code(), Some(1));
    assert_problem(
        &report,
        &["HTTP 307", &elsewhere.url, "does not follow redirects"],
    );
    // Each exchange fails on its own; the conversation goes on to shutdown.
    let requests = server.requests();
    assert!(
        requests.len() > 1,
        "the conversation ended at the first 307"
    );
    assert_eq!(
        requests.last().expect("requests").body,
        br#"{"type":"shutdown"}"#
    );
    assert!(elsewhere.requests().is_empty(), "the redirect was followed");
}

#[test]
fn a_server_error_is_a_transport_error_and_an_echoed_token_is_cut_out() {
    let server = serve(Mode::ServerError, None, "");
    let (output, report) = check_json(
        &server.url,
        &["--bearer-env", "CGP_TEST_TOKEN"],
        Some(TOKEN),
    );
    assert_eq!(output.status.code(), Some(1));
    assert_problem(
        &report,
        &[
            "HTTP 500 Internal Server Error",
            "upstream index down",
            "Bearer <redacted>",
        ],
    );
    assert!(!String::from_utf8_lossy(&output.stdout).contains(TOKEN));
}

#[test]
fn an_oversized_body_is_refused() {
    for mode in [Mode::OversizedAnnounced, Mode::OversizedStreamed] {
        let server = serve(mode, None, "");
        let (output, report) = check_json(&server.url, &[], None);
        assert_eq!(output.status.code(), Some(1), "{mode:?}");
        assert_problem(&report, &["16777216-byte limit"]);
    }
}

#[test]
fn a_slow_server_times_out() {
    let server = serve(Mode::Slow, None, "");
    let output = cgp(
        &["check", "--json", "--timeout", "0.5", "--http", &server.url],
        None,
    );
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(output.status.code(), Some(1));
    assert_problem(&report, &["no reply within 0.5s"]);
}

#[test]
fn github_annotations_name_the_step_and_the_finding() {
    let server = serve(Mode::BadSchema, None, "");
    let output = cgp(
        &["check", "--format", "github", "--http", &server.url],
        None,
    );
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    let (summary, annotations) = lines.split_last().expect("output");
    assert!(summary.contains("lines exchanged: "), "{stdout}");
    assert!(
        annotations
            .iter()
            .all(|line| line.starts_with("::error title=cgp check%3A ")
                || line.starts_with("::warning title=cgp check%3A ")),
        "{stdout}"
    );
    assert!(
        annotations.iter().any(|line| line
            .starts_with("::error title=cgp check%3A query kind=doc::provider #")
            && line.contains("/result/frames/0/score")),
        "{stdout}"
    );
}

#[test]
fn unusable_endpoints_are_refused_before_anything_is_sent() {
    for (url, needle) in [
        ("http://192.0.2.1/cgp", "not a loopback host"),
        ("http://127.0.0.1.example.com/cgp", "not a loopback host"),
        ("ftp://127.0.0.1/cgp", "only https:// and http://"),
    ] {
        let output = cgp(&["check", "--http", url], None);
        assert_eq!(output.status.code(), Some(2), "{url}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(needle), "{url}: {stderr}");
        assert!(output.stdout.is_empty(), "{url}");
    }
    let output = cgp(
        &[
            "check",
            "--http",
            "http://127.0.0.1:9/",
            "--bearer-env",
            "CGP_TEST_TOKEN",
        ],
        None,
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("CGP_TEST_TOKEN: the variable is not set")
    );
    // Either a command or an endpoint, not both.
    let output = cgp(
        &["check", "--http", "http://127.0.0.1:9/", "--", "true"],
        None,
    );
    assert_eq!(output.status.code(), Some(2));
}

/// A query parameter may carry an API key: its value is never printed, in
/// the report's target, its steps or an error that refuses the URL.
#[test]
fn query_values_in_the_url_are_never_printed() {
    const KEY: &str = "cgp-query-key-8d41";
    let server = serve(Mode::Good, None, "");
    let url = format!("{}?api_key={KEY}&v=2", server.url);
    for format in ["json", "human", "junit", "github"] {
        let output = cgp(
            &[
                "check",
                "--format",
                format,
                "--timeout",
                "2",
                "--http",
                &url,
            ],
            None,
        );
        let printed = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(!printed.contains(KEY), "{format}: {printed}");
        if format == "json" {
            assert!(
                printed.contains("api_key=<redacted>&v=<redacted>"),
                "{printed}"
            );
        }
    }
    let refused = cgp(
        &[
            "check",
            "--http",
            &format!("http://203.0.113.9/cgp?api_key={KEY}"),
        ],
        None,
    );
    assert_eq!(refused.status.code(), Some(2));
    let printed = String::from_utf8_lossy(&refused.stderr);
    assert!(!printed.contains(KEY), "{printed}");
    assert!(printed.contains("api_key=<redacted>"), "{printed}");
}

/// A problem as (rule, severity, message).
type Problem = (String, String, String);

/// Every step's name, whether it was skipped, and its problems.
fn steps(report: &Value) -> Vec<(String, bool, Vec<Problem>)> {
    report["steps"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|step| {
            let problems = step["problems"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|problem| {
                    let text = |key: &str| problem[key].as_str().unwrap_or_default().to_owned();
                    (text("rule"), text("severity"), text("message"))
                })
                .collect();
            (
                step["name"].as_str().unwrap_or_default().to_owned(),
                !step["skipped"].is_null(),
                problems,
            )
        })
        .collect()
}

/// A provider that speaks HTTP as the SDKs do (`204` with no body to a
/// notification and to `shutdown`, `400` with an `error` / `bad_request`
/// envelope to a body that is no envelope) has nothing reported, and no step
/// is skipped.
#[test]
fn the_sdks_204_and_400_are_no_findings_and_skip_no_step() {
    let server = serve(Mode::Sdk, None, "");
    let (output, report) = check_json(&server.url, &[], None);
    assert_eq!(output.status.code(), Some(0), "{report:#}");
    let steps = steps(&report);
    for (name, _, problems) in &steps {
        assert!(problems.is_empty(), "{name}: {problems:?}");
    }
    let names: Vec<&str> = steps.iter().map(|(name, ..)| name.as_str()).collect();
    for step in [
        "unknown envelope type",
        "still serving after an unknown type",
        "garbage line",
        "still serving after garbage",
        "shutdown",
    ] {
        let found = steps.iter().find(|(name, ..)| name == step);
        assert!(matches!(found, Some((_, false, _))), "{step}: {names:?}");
    }
    let findings: usize = report["steps"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|step| step["messages"].as_array().into_iter().flatten())
        .filter(|message| message["probe"] != true)
        .map(|message| message["findings"].as_array().map_or(0, Vec::len))
        .sum();
    assert_eq!(findings, 0, "{report:#}");
    let text = serde_json::to_string(&report).expect("JSON");
    assert!(text.contains("HTTP 204 No Content: no reply"), "{text}");
    assert!(
        text.contains("the reply came with HTTP 400 Bad Request"),
        "{text}"
    );
    let last = server.requests().pop().expect("requests");
    assert_eq!(last.body, br#"{"type":"shutdown"}"#);
}

/// An `error` envelope under `500` is the reply, judged as one; to a query,
/// which a real host sends, it is also a CGP-HTTP-STATUS warning, and the
/// conversation goes on to shutdown.
#[test]
fn an_error_envelope_under_500_is_the_reply_and_a_warning() {
    let server = serve(Mode::InternalError, None, "");
    let (output, report) = check_json(&server.url, &[], None);
    let steps = steps(&report);
    let warned: Vec<&String> = steps
        .iter()
        .filter(|(_, _, problems)| {
            problems.iter().any(|(rule, severity, message)| {
                rule == "CGP-HTTP-STATUS"
                    && severity == "warning"
                    && message.contains("HTTP 500 Internal Server Error")
                    && message.contains("`error` (internal)")
            })
        })
        .map(|(name, ..)| name)
        .collect();
    assert!(
        warned.iter().any(|name| name.starts_with("query kind=doc")),
        "{steps:#?}"
    );
    assert!(
        steps
            .iter()
            .any(|(name, skipped, problems)| name == "shutdown" && !skipped && problems.is_empty()),
        "{steps:#?}"
    );
    // Nothing else is an error but what an error reply to every query breaks.
    for (name, _, problems) in &steps {
        for (rule, severity, message) in problems {
            assert!(
                rule == "CGP-HTTP-STATUS" || severity != "error" || !message.contains("HTTP 500"),
                "{name}: {message}"
            );
        }
    }
    assert_ne!(output.status.code(), Some(2), "{report:#}");
}

/// `shutdown` is judged over HTTP: a failed status without an envelope breaks R2.
#[test]
fn a_failed_shutdown_breaks_r2() {
    let server = serve(Mode::ShutdownFails, None, "");
    let (output, report) = check_json(&server.url, &[], None);
    assert_eq!(output.status.code(), Some(1), "{report:#}");
    let steps = steps(&report);
    let (_, _, problems) = steps
        .iter()
        .find(|(name, ..)| name == "shutdown")
        .expect("a shutdown step");
    assert!(
        problems.iter().any(|(rule, severity, message)| rule == "R2"
            && severity == "error"
            && message.contains("HTTP 500")),
        "{problems:?}"
    );
}
