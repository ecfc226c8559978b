//! End-to-end tests of `cgp check --http https://…` against TLS servers the
//! tests start on 127.0.0.1, with certificates made here: a provider whose
//! certificate chains to the `--ca-cert` CA passes; an untrusted CA, another
//! host's certificate and an expired one each fail the handshake step with a
//! message naming the problem, before any request is sent. Credentials
//! (`--bearer-env`, `--header-env`) reach the provider and are never printed,
//! whether it echoes them back in JSON, HTML or plain text; a bearer token
//! that is not a token68 is refused before a connection is opened.

#[path = "support/http_provider.rs"]
mod http_provider;

use http_provider::reply;
use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair, date_time_ymd,
};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const MAX_CONNECTIONS: usize = 96;
const TOKEN: &str = "tls-T0ken/with+base64=";
/// A secret header value with every character an echo escapes.
const KEY: &str = r#"k"e\y/<&>' x%+="#;

/// How the provider echoes the credentials it got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Echo {
    /// A conforming provider; the credentials are not echoed.
    None,
    /// In the `handshake_ack`'s provider name (a JSON string).
    Json,
    /// In a `500` with an HTML body.
    Html,
    /// In a `500` with a plain-text body, raw and percent-encoded.
    Plain,
}

struct Ca {
    issuer: CertifiedIssuer<'static, KeyPair>,
}

impl Ca {
    fn new(name: &str) -> Ca {
        let mut params = CertificateParams::new(Vec::<String>::new()).expect("params");
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.distinguished_name.push(DnType::CommonName, name);
        let key = KeyPair::generate().expect("key");
        Ca {
            issuer: CertifiedIssuer::self_signed(params, key).expect("CA"),
        }
    }

    /// A leaf for `names`; expired in 2001 when `expired`.
    fn leaf(&self, names: &[&str], expired: bool) -> Leaf {
        let names: Vec<String> = names.iter().map(|name| (*name).to_owned()).collect();
        let mut params = CertificateParams::new(names).expect("params");
        params
            .distinguished_name
            .push(DnType::CommonName, "cgp test provider");
        if expired {
            params.not_before = date_time_ymd(2000, 1, 1);
            params.not_after = date_time_ymd(2001, 1, 1);
        }
        let key = KeyPair::generate().expect("key");
        let certificate = params.signed_by(&key, &self.issuer).expect("leaf");
        Leaf {
            chain: vec![certificate.der().clone()],
            key: PrivatePkcs8KeyDer::from(key.serialize_der()).into(),
        }
    }

    /// The CA's certificate in a PEM file under the test's scratch directory.
    fn pem_file(&self, name: &str) -> PathBuf {
        let directory = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("check_https");
        std::fs::create_dir_all(&directory).expect("scratch directory");
        let path = directory.join(format!("{name}-{}.pem", std::process::id()));
        std::fs::write(&path, self.issuer.pem()).expect("PEM written");
        path
    }
}

struct Leaf {
    chain: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
}

/// One request the server read.
#[derive(Debug, Clone)]
struct Request {
    headers: Vec<(String, String)>,
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
    port: u16,
    connections: Arc<AtomicUsize>,
    requests: Arc<Mutex<Vec<Request>>>,
}

impl Server {
    fn url(&self, host: &str) -> String {
        format!("https://{host}:{}/cgp", self.port)
    }
}

fn serve(leaf: Leaf, echo: Echo) -> Server {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("protocol versions")
        .with_no_client_auth()
        .with_single_cert(leaf.chain, leaf.key)
        .expect("server config");
    let config = Arc::new(config);
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    let connections = Arc::new(AtomicUsize::new(0));
    let requests = Arc::new(Mutex::new(Vec::new()));
    let (counted, seen) = (Arc::clone(&connections), Arc::clone(&requests));
    std::thread::spawn(move || {
        for stream in listener.incoming().take(MAX_CONNECTIONS) {
            let Ok(stream) = stream else { return };
            counted.fetch_add(1, Ordering::SeqCst);
            let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
            let Ok(connection) = rustls::ServerConnection::new(Arc::clone(&config)) else {
                continue;
            };
            let mut tls = rustls::StreamOwned::new(connection, stream);
            let Some((request, body)) = read_request(&mut tls) else {
                continue;
            };
            seen.lock().expect("lock").push(request.clone());
            let (status, kind, answer) = answer(echo, &request, &body);
            let _ = write!(
                tls,
                "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                answer.len()
            )
            .and_then(|()| tls.write_all(&answer))
            .and_then(|()| {
                tls.conn.send_close_notify();
                tls.flush()
            });
        }
    });
    Server {
        port,
        connections,
        requests,
    }
}

fn read_request(stream: &mut impl Read) -> Option<(Request, Vec<u8>)> {
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
    let request = Request { headers };
    let length: u64 = request.header("content-length")?.parse().ok()?;
    let mut body = Vec::new();
    reader.take(length).read_to_end(&mut body).ok()?;
    Some((request, body))
}

fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

fn percent_encode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// The status, content type and body answering one request.
fn answer(echo: Echo, request: &Request, body: &[u8]) -> (&'static str, &'static str, Vec<u8>) {
    let authorization = request.header("authorization").unwrap_or("none");
    let key = request.header("x-api-key").unwrap_or("none");
    match echo {
        Echo::Html => {
            let page = format!(
                "<html><p>you sent {} and {}</p></html>",
                html_escape(authorization),
                html_escape(key)
            );
            return ("500 Internal Server Error", "text/html", page.into_bytes());
        }
        Echo::Plain => {
            let text = format!(
                "you sent {authorization} and {key}; as a query: ?auth={}&key={}",
                percent_encode(authorization),
                percent_encode(key)
            );
            return ("500 Internal Server Error", "text/plain", text.into_bytes());
        }
        Echo::None | Echo::Json => {}
    }
    let Some(mut reply) = reply(body, false) else {
        return ("204 No Content", "application/json", Vec::new());
    };
    if echo == Echo::Json && reply["type"] == "handshake_ack" {
        reply["provider"]["name"] = json!(format!("{authorization} {key}"));
    }
    let text = serde_json::to_vec(&reply).expect("JSON");
    ("200 OK", "application/json", text)
}

/// Runs `cgp` with the test's token and key in its environment.
fn cgp(args: &[&str], token: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cgp"))
        .args(args)
        .env("CGP_TEST_TOKEN", token)
        .env("CGP_TEST_KEY", KEY)
        .output()
        .expect("cgp runs")
}

fn check_json(url: &str, extra: &[&str]) -> (Output, Value) {
    let mut args = vec!["check", "--format", "json", "--timeout", "5", "--http", url];
    args.extend_from_slice(extra);
    let output = cgp(&args, TOKEN);
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "the report is not JSON ({error}):\n{}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output, report)
}

/// The messages of the problems of the step named `name`.
fn step_problems(report: &Value, name: &str) -> Vec<String> {
    report["steps"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|step| step["name"] == name)
        .flat_map(|step| step["problems"].as_array().into_iter().flatten())
        .map(|problem| problem["message"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// The handshake step failed with a problem that mentions every needle.
fn assert_handshake_fails(report: &Value, needles: &[&str]) {
    assert_eq!(report["passed"], false, "{report:#}");
    let found = step_problems(report, "handshake");
    assert!(
        found
            .iter()
            .any(|message| needles.iter().all(|needle| message.contains(needle))),
        "no handshake problem mentions {needles:?}: {found:#?}\n{report:#}"
    );
}

#[test]
fn a_provider_with_a_certificate_from_the_given_ca_passes() {
    let ca = Ca::new("cgp test CA");
    let server = serve(ca.leaf(&["localhost", "127.0.0.1"], false), Echo::None);
    let pem = ca.pem_file("trusted");
    let pem = pem.to_str().expect("UTF-8 path");
    for host in ["127.0.0.1", "localhost"] {
        let (output, report) = check_json(&server.url(host), &["--ca-cert", pem]);
        assert_eq!(output.status.code(), Some(0), "{host}: {report:#}");
        assert_eq!(report["passed"], true);
    }
    assert!(!server.requests.lock().expect("lock").is_empty());
}

#[test]
fn certificate_problems_fail_the_handshake_step_before_any_request() {
    let ca = Ca::new("cgp test CA");
    let other = Ca::new("another CA");
    let trusted = ca.pem_file("ca");
    let trusted = trusted.to_str().expect("UTF-8 path");
    let untrusted = serve(other.leaf(&["127.0.0.1"], false), Echo::None);
    let wrong_host = serve(ca.leaf(&["provider.example"], false), Echo::None);
    let expired = serve(ca.leaf(&["127.0.0.1"], true), Echo::None);
    let cases: [(&Server, &[&str], &[&str]); 4] = [
        (
            &untrusted,
            &["--ca-cert", trusted],
            &["not issued by a trusted certificate authority", "--ca-cert"],
        ),
        // Without --ca-cert only the webpki roots are trusted.
        (&untrusted, &[], &["unknown issuer"]),
        (
            &wrong_host,
            &["--ca-cert", trusted],
            &["not valid for the host name `127.0.0.1`"],
        ),
        (&expired, &["--ca-cert", trusted], &["has expired"]),
    ];
    for (server, extra, needles) in cases {
        let (output, report) = check_json(&server.url("127.0.0.1"), extra);
        assert_eq!(output.status.code(), Some(1), "{report:#}");
        assert_handshake_fails(&report, needles);
        assert_handshake_fails(&report, &["TLS handshake failed", "never skips"]);
    }
    for server in [&untrusted, &wrong_host, &expired] {
        assert!(server.connections.load(Ordering::SeqCst) > 0);
        assert!(
            server.requests.lock().expect("lock").is_empty(),
            "a request went out over an unverified connection"
        );
    }
}

/// Every form in which `secret` could be printed.
fn forms(secret: &str) -> Vec<String> {
    let json = serde_json::to_string(secret).expect("JSON");
    vec![
        secret.to_owned(),
        json.trim_matches('"').to_owned(),
        html_escape(secret),
        percent_encode(secret),
    ]
}

#[test]
fn credentials_are_sent_and_never_printed_however_they_are_echoed() {
    let ca = Ca::new("cgp test CA");
    let pem = ca.pem_file("echo");
    let pem = pem.to_str().expect("UTF-8 path");
    let credentials = [
        "--ca-cert",
        pem,
        "--bearer-env",
        "CGP_TEST_TOKEN",
        "--header-env",
        "X-Api-Key=CGP_TEST_KEY",
        "--header",
        "X-Tenant: acme",
    ];
    let secrets: Vec<String> = forms(TOKEN).into_iter().chain(forms(KEY)).collect();
    for echo in [Echo::None, Echo::Json, Echo::Html, Echo::Plain] {
        let server = serve(ca.leaf(&["127.0.0.1"], false), echo);
        let url = server.url("127.0.0.1");
        for format in ["json", "human", "github"] {
            let mut args = vec![
                "check",
                "--timeout",
                "5",
                "--format",
                format,
                "--http",
                &url,
            ];
            args.extend_from_slice(&credentials);
            let output = cgp(&args, TOKEN);
            let expected = if matches!(echo, Echo::None | Echo::Json) {
                0
            } else {
                1
            };
            assert_eq!(
                output.status.code(),
                Some(expected),
                "{echo:?} {format}: {output:?}"
            );
            let printed = format!(
                "{}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
            for secret in &secrets {
                assert!(
                    !printed.contains(secret.as_str()),
                    "{echo:?} {format}: printed {secret:?}:\n{printed}"
                );
            }
            if echo == Echo::Html || echo == Echo::Plain {
                assert!(
                    printed.contains("<redacted>"),
                    "{echo:?} {format}: {printed}"
                );
            }
        }
        let requests = server.requests.lock().expect("lock").clone();
        assert!(!requests.is_empty(), "{echo:?}");
        for request in &requests {
            assert_eq!(
                request.header("authorization"),
                Some(format!("Bearer {TOKEN}").as_str())
            );
            assert_eq!(request.header("x-api-key"), Some(KEY));
            assert_eq!(request.header("x-tenant"), Some("acme"));
        }
    }
}

#[test]
fn unusable_credentials_are_refused_before_a_connection() {
    let ca = Ca::new("cgp test CA");
    let server = serve(ca.leaf(&["127.0.0.1"], false), Echo::None);
    let url = server.url("127.0.0.1");
    for token in [r#"has"quote"#, r"back\slash", "with space", "a=b"] {
        let output = cgp(
            &["check", "--http", &url, "--bearer-env", "CGP_TEST_TOKEN"],
            token,
        );
        assert_eq!(output.status.code(), Some(2), "{token}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("token68"), "{stderr}");
        assert!(!stderr.contains(token), "{stderr}");
        assert!(output.stdout.is_empty());
    }
    let refused: [&[&str]; 5] = [
        &["--header", "no colon"],
        &["--header", "Host: elsewhere"],
        &["--header-env", "X-Api-Key=CGP_TEST_UNSET"],
        &[
            "--header",
            "Authorization: Basic x",
            "--bearer-env",
            "CGP_TEST_TOKEN",
        ],
        &["--ca-cert", "/nonexistent/ca.pem"],
    ];
    for extra in refused {
        let mut args = vec!["check", "--http", &url];
        args.extend_from_slice(extra);
        let output = cgp(&args, TOKEN);
        assert_eq!(output.status.code(), Some(2), "{extra:?}");
        assert!(output.stdout.is_empty(), "{extra:?}");
    }
    assert_eq!(
        server.connections.load(Ordering::SeqCst),
        0,
        "a connection was opened"
    );
}
