//! A provider reached over HTTP (SPEC.md §Transport/HTTP): every envelope the
//! host sends is one `POST` to the endpoint URL, and the body of a `2xx`
//! response is the provider's one reply.
//!
//! The client is [`ureq`] on rustls (the `client` module). `https://` goes to any
//! host, its certificate verified against the webpki roots, or only against
//! the PEM file of `--ca-cert`; verification cannot be turned off. Plain
//! `http://` goes to a loopback host only (`localhost`, `127.0.0.0/8`,
//! `[::1]`, a name resolving to loopback addresses alone), so nothing is sent
//! off the machine in clear. No proxy is used, no redirect followed (a `3xx`
//! fails the exchange), `401` and `403` are reported as a refused credential,
//! `202`/`204` with an empty body as no reply, any other status whose body is
//! an envelope as that reply (with its status), at most [`MAX_BODY_BYTES`] of
//! a body is read, and one deadline bounds every exchange, connecting
//! included. A failed status fails that exchange only: the next one is sent. A bearer token and the values of secret
//! headers (the `secrets` module) are sent and never rendered.

mod client;
mod secrets;

pub use client::{Roots, RootsError};
pub use secrets::{Bearer, CredentialError, Header};

use super::{Peer, Received};
use cgp_types::MAX_LINE_BYTES;
use secrets::Secrets;
use std::collections::VecDeque;
use std::fmt;
use std::time::Duration;

/// The largest response body read: 16 MiB, the limit of a stdio line.
pub const MAX_BODY_BYTES: usize = MAX_LINE_BYTES;

/// How much of an error response's body a report shows.
const SHOWN_ERROR_BYTES: usize = 512;

/// Query values shorter than this are not masked in replies and errors: a
/// value such as `1` or `v2` would overwrite every digit of a report. They are
/// still redacted wherever the URL itself is shown.
const MIN_MASKED_QUERY_VALUE: usize = 4;

/// `url` as `cgp check` shows it: every query parameter's value replaced by
/// `<redacted>` (a query may carry an API key) and the fragment, which is never
/// sent, left out. User information is refused by [`Endpoint::parse`] and
/// redacted here too, for the error that refuses it.
pub fn shown_url(url: &str) -> String {
    let url = url.split_once('#').map_or(url, |(before, _)| before);
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (url, None),
    };
    let base = match base.split_once("://") {
        Some((scheme, rest)) => {
            let end = rest.find('/').unwrap_or(rest.len());
            match rest[..end].rsplit_once('@') {
                Some((_, host)) => format!("{scheme}://<redacted>@{host}{}", &rest[end..]),
                None => base.to_owned(),
            }
        }
        None => base.to_owned(),
    };
    match query {
        None => base,
        Some(_) => {
            let pairs: Vec<String> = query_pairs(url)
                .map(|(name, value)| match value {
                    Some(_) => format!("{name}=<redacted>"),
                    None => name.to_owned(),
                })
                .collect();
            format!("{base}?{}", pairs.join("&"))
        }
    }
}

/// The parameters of `url`'s query (before any fragment), each as its name and,
/// when it has an `=`, its value: the one reading of a query, which
/// [`shown_url`] redacts and [`Endpoint`] masks wherever it is echoed.
fn query_pairs(url: &str) -> impl Iterator<Item = (&str, Option<&str>)> {
    let url = url.split_once('#').map_or(url, |(before, _)| before);
    url.split_once('?')
        .map(|(_, query)| query.split('&'))
        .into_iter()
        .flatten()
        .map(|pair| match pair.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (pair, None),
        })
}

/// Where the provider listens: an `https://` URL, or a plain `http://` one on a
/// loopback host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    url: String,
    /// The URL without its fragment: what is requested.
    request: String,
    host: String,
    tls: bool,
}

/// Why a URL cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EndpointError {
    /// It is not an `http(s)://host[:port][/path]` URL.
    Malformed(String),
    /// It is plain `http://` to a host that is not loopback.
    Plaintext {
        /// The host it names.
        host: String,
    },
}

impl fmt::Display for EndpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndpointError::Malformed(why) => write!(f, "not a usable URL: {why}"),
            EndpointError::Plaintext { host } => write!(
                f,
                "refusing plain http:// to `{host}`, which is not a loopback host: SPEC.md §Transport/HTTP forbids plaintext to a provider off the machine (loopback is localhost, 127.0.0.0/8 and [::1]); use https://"
            ),
        }
    }
}

impl std::error::Error for EndpointError {}

impl Endpoint {
    /// Parses `http(s)://host[:port][/path][?query]`. Refuses user information
    /// in the URL, and plain `http://` to a host that is not loopback.
    pub fn parse(url: &str) -> Result<Self, EndpointError> {
        let malformed = |why: &str| EndpointError::Malformed(why.to_owned());
        if url.chars().any(|c| c.is_control() || c.is_whitespace()) {
            return Err(malformed("it contains whitespace or control characters"));
        }
        let (scheme, rest) = url
            .split_once("://")
            .ok_or_else(|| malformed("it does not start with https:// or http://"))?;
        let tls = if scheme.eq_ignore_ascii_case("https") {
            true
        } else if scheme.eq_ignore_ascii_case("http") {
            false
        } else {
            return Err(malformed(&format!(
                "the scheme is `{scheme}`; only https:// and http:// are supported"
            )));
        };
        let request = match url.split_once('#') {
            Some((before, _)) => before,
            None => url,
        };
        let rest = rest.split_once('#').map_or(rest, |(before, _)| before);
        let split = rest.find(['/', '?']).unwrap_or(rest.len());
        let authority = &rest[..split];
        if authority.contains('@') {
            return Err(malformed(
                "it carries user information; pass a credential with --bearer-env or --header-env instead",
            ));
        }
        let host = split_authority(authority).ok_or_else(|| {
            malformed("the host and port are not `host`, `host:port` or `[v6]:port`")
        })?;
        if !tls && !is_loopback(host) {
            return Err(EndpointError::Plaintext {
                host: host.to_owned(),
            });
        }
        if ureq::http::Uri::try_from(request).is_err() {
            return Err(malformed("it is not a valid URI"));
        }
        Ok(Endpoint {
            url: shown_url(url),
            request: request.to_owned(),
            host: host.to_owned(),
            tls,
        })
    }

    /// The URL as reports show it ([`shown_url`]): query values redacted.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The values of the URL's query parameters: secrets, for all `cgp check`
    /// knows (an API key is often passed as one).
    fn query_values(&self) -> Vec<&str> {
        query_pairs(&self.request)
            .filter_map(|(_, value)| value)
            .filter(|value| value.len() >= MIN_MASKED_QUERY_VALUE)
            .collect()
    }

    /// Whether the exchange is over TLS (`https://`).
    pub fn is_tls(&self) -> bool {
        self.tls
    }
}

/// The host of `host[:port]` or `[v6][:port]`, when the port is a number.
fn split_authority(authority: &str) -> Option<&str> {
    let (host, port) = if authority.starts_with('[') {
        let close = authority.find(']')?;
        let (host, after) = authority.split_at(close + 1);
        match after {
            "" => (host, None),
            _ => (host, Some(after.strip_prefix(':')?)),
        }
    } else {
        match authority.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    if host.is_empty() {
        return None;
    }
    match port {
        None => Some(host),
        Some(digits) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
            digits.parse::<u16>().ok().map(|_| host)
        }
        Some(_) => None,
    }
}

/// `localhost`, `127.0.0.0/8` or `[::1]`: a host whose traffic stays on the
/// machine. A name that merely starts like one (`127.0.0.1.example.com`) is not.
pub(crate) fn is_loopback(host: &str) -> bool {
    if host.eq_ignore_ascii_case("localhost") {
        return true;
    }
    let bare = host
        .strip_prefix('[')
        .and_then(|inner| inner.strip_suffix(']'));
    match bare {
        Some(v6) => v6
            .parse::<std::net::Ipv6Addr>()
            .is_ok_and(|ip| ip.is_loopback()),
        None => host
            .parse::<std::net::Ipv4Addr>()
            .is_ok_and(|ip| ip.is_loopback()),
    }
}

/// Why a relayed `POST` got no response ([`HttpProvider::relay`]): the
/// request and what went wrong, every secret redacted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RelayError(String);

/// A provider behind an HTTP endpoint, as a [`Peer`]: [`Peer::send`] makes the
/// `POST` and queues what came back for [`Peer::receive`].
#[derive(Debug)]
pub struct HttpProvider {
    endpoint: Endpoint,
    bearer: Option<Bearer>,
    headers: Vec<Header>,
    secrets: Secrets,
    timeout: Duration,
    agent: ureq::Agent,
    /// What each request got, and the status it came with when that was not
    /// a success.
    replies: VecDeque<(Received, Option<String>)>,
    /// The failed status of the reply received last.
    last_status: Option<String>,
    requests: usize,
    /// How the endpoint answered `shutdown`, once it was sent.
    shutdown: Option<String>,
}

impl HttpProvider {
    /// A provider at `endpoint` whose certificate is verified against the
    /// webpki roots; every exchange (connecting, the TLS handshake, sending,
    /// reading the whole response) must end within `timeout`. Nothing is
    /// sent yet.
    pub fn new(endpoint: Endpoint, bearer: Option<Bearer>, timeout: Duration) -> Self {
        let secrets = Secrets::new(
            bearer
                .iter()
                .map(|bearer| bearer.0.as_str())
                .chain(endpoint.query_values()),
        );
        let agent = client::agent(&endpoint, &Roots::default(), timeout);
        HttpProvider {
            endpoint,
            bearer,
            headers: Vec::new(),
            secrets,
            timeout,
            agent,
            replies: VecDeque::new(),
            last_status: None,
            requests: 0,
            shutdown: None,
        }
    }

    /// Sends `headers` with every request too; the values of the secret ones
    /// are never rendered.
    #[must_use]
    pub fn with_headers(mut self, headers: Vec<Header>) -> Self {
        self.headers = headers;
        let secrets = self
            .bearer
            .iter()
            .map(|bearer| bearer.0.as_str())
            .chain(
                self.headers
                    .iter()
                    .filter(|header| header.is_secret())
                    .map(|header| header.value.as_str()),
            )
            .chain(self.endpoint.query_values());
        self.secrets = Secrets::new(secrets);
        self
    }

    /// Verifies the endpoint's certificate against `roots` instead.
    #[must_use]
    pub fn with_roots(mut self, roots: &Roots) -> Self {
        self.agent = client::agent(&self.endpoint, roots, self.timeout);
        self
    }

    /// Sends one `POST` with `body` for a proxy (`cgp proxy --to`): the
    /// response's status and body exactly as they came (at most
    /// [`MAX_BODY_BYTES`] of it), with the credentials, TLS rules and deadline
    /// of `cgp check --http`. The error says what went wrong, every secret
    /// redacted.
    pub fn relay(&self, body: &[u8]) -> Result<(u16, Vec<u8>), RelayError> {
        let failed = |error: ureq::Error| {
            let why = client::describe(&error, &self.endpoint);
            RelayError(
                self.secrets
                    .redact(&format!("POST {}: {why}", self.endpoint.url())),
            )
        };
        let mut response = self.send_post(body).map_err(failed)?;
        let status = response.status().as_u16();
        let bytes = response
            .body_mut()
            .with_config()
            .limit(MAX_BODY_BYTES as u64)
            .read_to_vec()
            .map_err(failed)?;
        Ok((status, bytes))
    }

    /// Overwrites every echoed form of a secret this provider sends in
    /// `bytes`, for what a proxy records and reports.
    pub fn mask(&self, bytes: &mut [u8]) {
        self.secrets.mask(bytes);
    }

    /// Sends one `POST` with `body` and turns the response into what the
    /// driver reads (SPEC.md §Transport/HTTP, how `cgp check` reads each
    /// status): the reply, [`Received::NoReply`], a timeout, or a failure that
    /// says what went wrong. With it, the status it came with when that was not
    /// a success, and what the status line said, when one arrived.
    fn post(&self, body: &[u8]) -> (Received, Option<String>, Option<String>) {
        match self.exchange(body) {
            Ok((received, failed_status, status)) => (received, failed_status, Some(status)),
            Err(error) if client::is_timeout(&error) => (Received::Timeout, None, None),
            Err(error) => {
                let why = client::describe(&error, &self.endpoint);
                (
                    Received::Failed(
                        self.secrets
                            .redact(&format!("POST {}: {why}", self.endpoint.url())),
                    ),
                    None,
                    None,
                )
            }
        }
    }

    /// Reads at most `limit` bytes of the response body: its bytes, or
    /// `None` when it is longer.
    fn body(
        response: &mut ureq::http::Response<ureq::Body>,
        limit: usize,
    ) -> Result<Option<Vec<u8>>, ureq::Error> {
        match response
            .body_mut()
            .with_config()
            .limit(limit as u64)
            .read_to_vec()
        {
            Ok(bytes) => Ok(Some(bytes)),
            Err(ureq::Error::BodyExceedsLimit(_)) => Ok(None),
            Err(error) => Err(error),
        }
    }

    /// One `POST` of `body` with the endpoint's headers and credentials.
    fn send_post(&self, body: &[u8]) -> Result<ureq::http::Response<ureq::Body>, ureq::Error> {
        let mut request = self
            .agent
            .post(&self.endpoint.request)
            .header("Content-Type", "application/json");
        for header in &self.headers {
            request = request.header(&header.name, &header.value);
        }
        if let Some(bearer) = &self.bearer {
            request = request.header("Authorization", format!("Bearer {}", bearer.0));
        }
        request.send(body)
    }

    /// What a `401` or `403` says about the credentials cgp check sent.
    fn credentials_refused(&self) -> String {
        let secret_headers: Vec<&str> = self
            .headers
            .iter()
            .filter(|header| header.is_secret())
            .map(Header::name)
            .collect();
        match (&self.bearer, secret_headers.is_empty()) {
            (Some(_), _) => "the provider refused the bearer token cgp check sent".to_owned(),
            (None, false) => format!(
                "the provider refused the credentials cgp check sent (--header-env {})",
                secret_headers.join(", ")
            ),
            (None, true) => "the provider wants a credential and cgp check sent none (pass one with --bearer-env NAME or --header-env Name=VAR)".to_owned(),
        }
    }

    #[allow(clippy::type_complexity)]
    fn exchange(&self, body: &[u8]) -> Result<(Received, Option<String>, String), ureq::Error> {
        let mut response = self.send_post(body)?;
        let status = response.status();
        let reason: String = status
            .canonical_reason()
            .unwrap_or_default()
            .chars()
            .take(80)
            .collect();
        let described = format!("HTTP {} {reason}", status.as_u16())
            .trim_end()
            .to_owned();
        let announced = response
            .headers()
            .get("content-length")
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.trim().parse::<u64>().ok());
        let refused = |message: String| Received::Refused(self.secrets.redact(&message));
        if status.is_redirection() {
            let message = client::redirected(&described, &response);
            return Ok((refused(message), None, described));
        }
        if matches!(status.as_u16(), 401 | 403) {
            let message = format!("{described}: {}", self.credentials_refused());
            return Ok((refused(message), None, described));
        }
        if let Some(length) = announced.filter(|length| *length > MAX_BODY_BYTES as u64) {
            let message = format!(
                "{described}: the response body is {length} bytes (Content-Length), over the {MAX_BODY_BYTES}-byte limit of an HTTP body; cgp check does not read it"
            );
            return Ok((refused(message), None, described));
        }
        let Some(mut bytes) = Self::body(&mut response, MAX_BODY_BYTES)? else {
            let message = format!(
                "{described}: the response body passed the {MAX_BODY_BYTES}-byte limit of an HTTP body; cgp check stopped reading it"
            );
            return Ok((refused(message), None, described));
        };
        if status.is_success() {
            // 202 and 204 with nothing in the body: no reply, which is right
            // for a notification and for shutdown.
            if matches!(status.as_u16(), 202 | 204) && bytes.is_empty() {
                return Ok((Received::NoReply(described.clone()), None, described));
            }
            self.secrets.mask(&mut bytes);
            let line = Received::Line {
                bytes,
                terminated: true,
            };
            return Ok((line, None, described));
        }
        // Any other status: a body that decodes as an envelope is the reply,
        // judged as one, with the status noted; anything else is a failure of
        // this exchange.
        if cgp_types::ndjson::decode_line_bytes(&bytes).is_ok() {
            self.secrets.mask(&mut bytes);
            let line = Received::Line {
                bytes,
                terminated: true,
            };
            return Ok((line, Some(described.clone()), described));
        }
        let text = String::from_utf8_lossy(&bytes);
        let text = text.trim();
        let shown = if text.is_empty() {
            String::new()
        } else if text.len() > SHOWN_ERROR_BYTES {
            format!(" (a body over {SHOWN_ERROR_BYTES} bytes, not shown)")
        } else {
            format!(": {text}")
        };
        let message = format!("{described}, not a reply (the body is no envelope){shown}");
        Ok((refused(message), None, described))
    }

    fn ending(&self) -> String {
        let requests = self.requests;
        match &self.shutdown {
            Some(answer) => format!(
                "an HTTP endpoint, not a process; {requests} request(s), shutdown answered with {answer}"
            ),
            None => {
                format!("an HTTP endpoint, not a process; {requests} request(s), no shutdown sent")
            }
        }
    }
}

/// Whether the host line is a `shutdown`, whose response never fails the
/// exchange at the transport (a timeout or failure is R2's).
fn is_shutdown(line: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(line)
        .ok()
        .is_some_and(|value| value.get("type").and_then(|t| t.as_str()) == Some("shutdown"))
}

impl Peer for HttpProvider {
    fn send(&mut self, line: &[u8]) -> std::io::Result<()> {
        self.requests += 1;
        let (received, failed_status, status) = self.post(line);
        if is_shutdown(line) {
            // Judged like any other response: the driver reads it next.
            self.shutdown = Some(match (&status, &received) {
                (Some(status), _) => status.clone(),
                (None, Received::Failed(error)) => error.clone(),
                (None, _) => "no response in time".to_owned(),
            });
            let received = match received {
                Received::Timeout => Received::Refused(format!(
                    "no response to shutdown within {:.1} s",
                    self.timeout.as_secs_f64()
                )),
                Received::Failed(error) => Received::Refused(error),
                other => other,
            };
            self.replies.push_back((received, failed_status));
            return Ok(());
        }
        self.replies.push_back((received, failed_status));
        Ok(())
    }

    fn receive(&mut self, _timeout: Duration) -> Received {
        // Each reply arrived, or failed, within the timeout of its `POST`.
        self.last_status = None;
        match self.replies.pop_front() {
            Some((received, status)) => {
                self.last_status = status;
                received
            }
            None if self.shutdown.is_some() => Received::Closed,
            None => Received::Timeout,
        }
    }

    fn wait_exit(&mut self, _timeout: Duration) -> Option<String> {
        Some(self.ending())
    }

    fn kill(&mut self) -> String {
        self.ending()
    }

    fn one_response_per_request(&self) -> bool {
        true
    }

    fn reply_status(&self) -> Option<String> {
        self.last_status.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts_are_exactly_localhost_127_slash_8_and_v6_one() {
        for host in ["localhost", "LocalHost", "127.0.0.1", "127.1.2.3", "[::1]"] {
            assert!(is_loopback(host), "{host}");
        }
        for host in [
            "example.com",
            "127.0.0.1.example.com",
            "10.0.0.5",
            "[2001:db8::1]",
            "::1",
            "[::ffff:127.0.0.1]",
            "0.0.0.0",
            "localhost.",
        ] {
            assert!(!is_loopback(host), "{host}");
        }
    }

    #[test]
    fn shown_urls_keep_no_query_value_user_information_or_fragment() {
        for (url, shown) in [
            ("https://p.example/cgp", "https://p.example/cgp"),
            (
                "https://p.example/cgp?api_key=s3cret&v=2#frag",
                "https://p.example/cgp?api_key=<redacted>&v=<redacted>",
            ),
            ("https://p.example?flag", "https://p.example?flag"),
            (
                "https://user:pa55@p.example/x?k=v",
                "https://<redacted>@p.example/x?k=<redacted>",
            ),
            ("not a url?token=abc", "not a url?token=<redacted>"),
        ] {
            assert_eq!(shown_url(url), shown, "{url}");
        }
        let endpoint = Endpoint::parse("https://p.example/cgp?key=s3cret-key&v=2").expect("parses");
        assert_eq!(endpoint.query_values(), ["s3cret-key"]);
        assert_eq!(endpoint.request, "https://p.example/cgp?key=s3cret-key&v=2");
    }

    #[test]
    fn urls_parse_into_host_and_request() {
        let endpoint = Endpoint::parse("http://127.0.0.1:8080/cgp?x=1#frag").expect("parses");
        assert_eq!(
            (
                endpoint.host.as_str(),
                endpoint.request.as_str(),
                endpoint.tls
            ),
            ("127.0.0.1", "http://127.0.0.1:8080/cgp?x=1", false)
        );
        assert_eq!(endpoint.url(), "http://127.0.0.1:8080/cgp?x=<redacted>");
        let endpoint = Endpoint::parse("HTTP://localhost").expect("parses");
        assert_eq!(endpoint.host, "localhost");
        let endpoint = Endpoint::parse("http://[::1]:9/").expect("parses");
        assert_eq!(endpoint.host, "[::1]");
        let endpoint = Endpoint::parse("https://cgp.example.com/v1").expect("parses");
        assert!(endpoint.is_tls());
        assert_eq!(endpoint.host, "cgp.example.com");
    }

    #[test]
    fn unusable_urls_are_refused_with_the_reason() {
        assert_eq!(
            Endpoint::parse("http://example.com/cgp"),
            Err(EndpointError::Plaintext {
                host: "example.com".into()
            })
        );
        for url in [
            "127.0.0.1:80",
            "ftp://127.0.0.1/",
            "http://user:pw@127.0.0.1/",
            "https://user@example.com/",
            "http://127.0.0.1:port/",
            "http://127.0.0.1:99999/",
            "http://:80/",
            "https:///x",
            "http://127.0.0.1 /",
            "http://[::1/",
        ] {
            assert!(
                matches!(Endpoint::parse(url), Err(EndpointError::Malformed(_))),
                "{url}"
            );
        }
    }
}
