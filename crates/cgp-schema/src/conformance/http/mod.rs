//! A provider reached over HTTP (SPEC.md §Transport/HTTP): every envelope the
//! host sends is one `POST` to the endpoint URL, and the body of a `2xx`
//! response is the provider's one reply.
//!
//! The client is a small HTTP/1.1 one over [`TcpStream`](std::net::TcpStream), one connection per
//! request (`Connection: close`). It speaks plain `http://` to a loopback host
//! only (`localhost`, `127.0.0.0/8`, `[::1]`) and refuses `https://` for now, so
//! nothing `cgp check` sends ever leaves the machine. It follows no redirect (a
//! `3xx` fails the exchange), reports `401` as a refused credential, reads at
//! most [`MAX_BODY_BYTES`] of a body, and bounds every exchange, connecting
//! included, by one deadline. A bearer token is sent as `Authorization: Bearer`
//! and never rendered: [`Bearer`] prints as `Bearer(<redacted>)`, and the
//! token is cut out of anything the endpoint echoes back (an error's text, or
//! a reply, where it is overwritten with `*` so the line keeps its length).

mod exchange;

use super::{Peer, Received};
use cgp_types::MAX_LINE_BYTES;
use exchange::{
    Body, Deadlined, connect, is_timeout, printable_reason, read_body, read_head, remaining,
};
use std::collections::VecDeque;
use std::fmt;
use std::io::{self, BufReader, Write};
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::time::{Duration, Instant};

/// The largest response body read: 16 MiB, the limit of a stdio line.
pub const MAX_BODY_BYTES: usize = MAX_LINE_BYTES;

/// How much of an error response's body a report shows.
const SHOWN_ERROR_BYTES: usize = 512;
/// How much of a `Location` a report shows.
const SHOWN_LOCATION_CHARS: usize = 200;

/// Where the provider listens: a plain `http://` URL on a loopback host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    url: String,
    host: String,
    port: u16,
    target: String,
}

/// Why a URL cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EndpointError {
    /// It is not an `http://host[:port][/path]` URL.
    Malformed(String),
    /// It is `https://`, which `cgp check` does not speak yet.
    Https,
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
            EndpointError::Https => f.write_str(
                "https:// is not supported yet: cgp check has no TLS client and speaks plain http:// to a loopback host only (localhost, 127.0.0.0/8, [::1])",
            ),
            EndpointError::Plaintext { host } => write!(
                f,
                "refusing plain http:// to `{host}`, which is not a loopback host: SPEC.md §Transport/HTTP forbids plaintext to a provider off the machine (loopback is localhost, 127.0.0.0/8 and [::1])"
            ),
        }
    }
}

impl std::error::Error for EndpointError {}

impl Endpoint {
    /// Parses `http://host[:port][/path][?query]`. Refuses `https://`, user
    /// information in the URL, and a host that is not loopback.
    pub fn parse(url: &str) -> Result<Self, EndpointError> {
        let malformed = |why: &str| EndpointError::Malformed(why.to_owned());
        if url.chars().any(|c| c.is_control() || c.is_whitespace()) {
            return Err(malformed("it contains whitespace or control characters"));
        }
        let (scheme, rest) = url
            .split_once("://")
            .ok_or_else(|| malformed("it does not start with http://"))?;
        if scheme.eq_ignore_ascii_case("https") {
            return Err(EndpointError::Https);
        }
        if !scheme.eq_ignore_ascii_case("http") {
            return Err(malformed(&format!(
                "the scheme is `{scheme}`; only http:// is supported"
            )));
        }
        let rest = rest.split_once('#').map_or(rest, |(before, _)| before);
        let split = rest.find(['/', '?']).unwrap_or(rest.len());
        let (authority, target) = rest.split_at(split);
        if authority.contains('@') {
            return Err(malformed(
                "it carries user information; pass a credential with --bearer-env instead",
            ));
        }
        let (host, port) = split_authority(authority).ok_or_else(|| {
            malformed("the host and port are not `host`, `host:port` or `[v6]:port`")
        })?;
        if !is_loopback(host) {
            return Err(EndpointError::Plaintext {
                host: host.to_owned(),
            });
        }
        let target = match target {
            "" => "/".to_owned(),
            query if query.starts_with('?') => format!("/{query}"),
            path => path.to_owned(),
        };
        Ok(Endpoint {
            url: url.to_owned(),
            host: host.to_owned(),
            port,
            target,
        })
    }

    /// The URL as given.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The loopback addresses the host names.
    fn addresses(&self) -> io::Result<Vec<SocketAddr>> {
        let bare = self.host.trim_start_matches('[').trim_end_matches(']');
        let addresses: Vec<SocketAddr> = match bare.parse::<IpAddr>() {
            Ok(ip) => vec![SocketAddr::new(ip, self.port)],
            Err(_) => (bare, self.port)
                .to_socket_addrs()?
                .filter(|address| address.ip().is_loopback())
                .collect(),
        };
        if addresses.is_empty() {
            return Err(io::Error::other(format!(
                "`{}` resolves to no loopback address",
                self.host
            )));
        }
        Ok(addresses)
    }

    fn host_header(&self) -> String {
        if self.port == 80 {
            self.host.clone()
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
}

/// `host[:port]` or `[v6][:port]`, the port 80 when absent.
fn split_authority(authority: &str) -> Option<(&str, u16)> {
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
    let port = match port {
        None => 80,
        Some(digits) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
            digits.parse().ok()?
        }
        Some(_) => return None,
    };
    Some((host, port))
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

/// A bearer token, sent as `Authorization: Bearer <token>` and never shown:
/// `Debug` and `Display` print `Bearer(<redacted>)`.
#[derive(Clone, PartialEq, Eq)]
pub struct Bearer(String);

impl Bearer {
    /// Wraps `token`, which must be non-empty visible ASCII (no spaces, no line
    /// breaks: it goes into a header). The error does not repeat the token.
    pub fn new(token: String) -> Result<Self, String> {
        if token.is_empty() {
            return Err("the bearer token is empty".into());
        }
        if !token.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(
                "the bearer token may hold only visible ASCII characters (no spaces or line breaks)"
                    .into(),
            );
        }
        Ok(Bearer(token))
    }

    /// Replaces every occurrence of the token in `text`.
    fn redact(&self, text: &str) -> String {
        text.replace(&self.0, "<redacted>")
    }

    /// Overwrites every occurrence of the token in a reply with as many `*`,
    /// so that the line keeps its length and its positions when it is judged
    /// and shown.
    fn mask(&self, bytes: &mut [u8]) {
        let token = self.0.as_bytes();
        let mut start = 0;
        while let Some(found) = bytes
            .get(start..)
            .and_then(|rest| rest.windows(token.len()).position(|window| window == token))
        {
            let at = start + found;
            if let Some(occurrence) = bytes.get_mut(at..at + token.len()) {
                occurrence.fill(b'*');
            }
            start = at + token.len();
        }
    }
}

impl fmt::Debug for Bearer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Bearer(<redacted>)")
    }
}

impl fmt::Display for Bearer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Bearer(<redacted>)")
    }
}

/// A provider behind an HTTP endpoint, as a [`Peer`]: [`Peer::send`] makes the
/// `POST` and queues what came back for [`Peer::receive`].
#[derive(Debug)]
pub struct HttpProvider {
    endpoint: Endpoint,
    bearer: Option<Bearer>,
    timeout: Duration,
    replies: VecDeque<Received>,
    requests: usize,
    /// How the endpoint answered `shutdown`, once it was sent.
    shutdown: Option<String>,
}

impl HttpProvider {
    /// A provider at `endpoint`; every exchange (connecting, sending, reading
    /// the whole response) must end within `timeout`. Nothing is sent yet.
    pub fn new(endpoint: Endpoint, bearer: Option<Bearer>, timeout: Duration) -> Self {
        HttpProvider {
            endpoint,
            bearer,
            timeout,
            replies: VecDeque::new(),
            requests: 0,
            shutdown: None,
        }
    }

    /// Sends one `POST` with `body` and turns the response into what the
    /// driver reads: the body of a `2xx`, a timeout, or a failure that says
    /// what went wrong.
    /// What the status line said comes with it, when one arrived.
    fn post(&self, body: &[u8]) -> (Received, Option<String>) {
        let deadline = super::deadline(self.timeout);
        match self.exchange(body, deadline) {
            Ok((received, status)) => (received, Some(status)),
            Err(error) if is_timeout(&error) => (Received::Timeout, None),
            Err(error) => (
                Received::Failed(self.redact(&format!("POST {}: {error}", self.endpoint.url()))),
                None,
            ),
        }
    }

    fn exchange(&self, body: &[u8], deadline: Instant) -> io::Result<(Received, String)> {
        let stream = connect(&self.endpoint, deadline)?;
        let mut head = format!(
            "POST {} HTTP/1.1\r\nHost: {}\r\nUser-Agent: cgp-check/{}\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
            self.endpoint.target,
            self.endpoint.host_header(),
            env!("CARGO_PKG_VERSION"),
            body.len()
        );
        if let Some(bearer) = &self.bearer {
            head.push_str("Authorization: Bearer ");
            head.push_str(&bearer.0);
            head.push_str("\r\n");
        }
        head.push_str("\r\n");
        stream.set_write_timeout(Some(remaining(deadline)?))?;
        let mut writer = &stream;
        writer.write_all(head.as_bytes())?;
        writer.write_all(body)?;
        writer.flush()?;
        let mut reader = BufReader::new(Deadlined {
            stream: &stream,
            deadline,
        });
        let response = loop {
            let response = read_head(&mut reader)?;
            // An interim response (100 Continue, 103 Early Hints) precedes the real one.
            if !(100..200).contains(&response.status) || response.status == 101 {
                break response;
            }
        };
        let status = response.status;
        let described = format!("HTTP {status} {}", printable_reason(&response.reason));
        if (200..300).contains(&status) {
            let received = match read_body(&mut reader, &response, MAX_BODY_BYTES)? {
                Body::Complete(mut bytes) => {
                    if let Some(bearer) = &self.bearer {
                        bearer.mask(&mut bytes);
                    }
                    Received::Line {
                        bytes,
                        terminated: true,
                    }
                }
                Body::TooLarge {
                    announced: Some(length),
                } => Received::Failed(format!(
                    "{described}: the response body is {length} bytes (Content-Length), over the {MAX_BODY_BYTES}-byte limit of an HTTP body; cgp check does not read it"
                )),
                Body::TooLarge { announced: None } => Received::Failed(format!(
                    "{described}: the response body passed the {MAX_BODY_BYTES}-byte limit of an HTTP body; cgp check stopped reading it"
                )),
            };
            return Ok((received, described));
        }
        let message = if (300..400).contains(&status) {
            let location = response.location.as_deref().map_or_else(
                || "no Location".to_owned(),
                |location| {
                    let shown: String = location.chars().take(SHOWN_LOCATION_CHARS).collect();
                    format!("Location {shown}")
                },
            );
            format!(
                "{described} ({location}): cgp check does not follow redirects (SPEC.md §Transport/HTTP); give --http the endpoint's final URL"
            )
        } else if status == 401 {
            let sent = match self.bearer {
                Some(_) => "the provider refused the bearer token cgp check sent",
                None => {
                    "the provider wants a credential and cgp check sent none (pass one with --bearer-env NAME)"
                }
            };
            format!("{described}: {sent}")
        } else {
            let shown = match read_body(&mut reader, &response, SHOWN_ERROR_BYTES) {
                Ok(Body::Complete(bytes)) if !bytes.is_empty() => {
                    format!(": {}", String::from_utf8_lossy(&bytes).trim())
                }
                Ok(Body::TooLarge { .. }) => {
                    format!(" (a body over {SHOWN_ERROR_BYTES} bytes, not shown)")
                }
                _ => String::new(),
            };
            format!("{described}, not a reply{shown}")
        };
        Ok((Received::Failed(self.redact(&message)), described))
    }

    fn redact(&self, text: &str) -> String {
        match &self.bearer {
            Some(bearer) => bearer.redact(text),
            None => text.to_owned(),
        }
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

/// Whether the host line is a `shutdown`, whose response is not interpreted.
fn is_shutdown(line: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(line)
        .ok()
        .is_some_and(|value| value.get("type").and_then(|t| t.as_str()) == Some("shutdown"))
}

impl Peer for HttpProvider {
    fn send(&mut self, line: &[u8]) -> io::Result<()> {
        self.requests += 1;
        let (received, status) = self.post(line);
        if is_shutdown(line) {
            // A courtesy: the answer is noted for the report, never judged.
            self.shutdown = Some(match (status, received) {
                (Some(status), _) => status,
                (None, Received::Failed(error)) => error,
                (None, _) => "no response in time".to_owned(),
            });
            return Ok(());
        }
        self.replies.push_back(received);
        Ok(())
    }

    fn receive(&mut self, _timeout: Duration) -> Received {
        // Each reply arrived, or failed, within the timeout of its `POST`.
        match self.replies.pop_front() {
            Some(received) => received,
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
}

#[cfg(test)]
mod tests {
    use super::exchange::*;
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
    fn urls_parse_into_host_port_and_target() {
        let endpoint = Endpoint::parse("http://127.0.0.1:8080/cgp?x=1#frag").expect("parses");
        assert_eq!(
            (
                endpoint.host.as_str(),
                endpoint.port,
                endpoint.target.as_str()
            ),
            ("127.0.0.1", 8080, "/cgp?x=1")
        );
        assert_eq!(endpoint.host_header(), "127.0.0.1:8080");
        let endpoint = Endpoint::parse("HTTP://localhost").expect("parses");
        assert_eq!((endpoint.port, endpoint.target.as_str()), (80, "/"));
        assert_eq!(endpoint.host_header(), "localhost");
        let endpoint = Endpoint::parse("http://[::1]:9/").expect("parses");
        assert_eq!((endpoint.host.as_str(), endpoint.port), ("[::1]", 9));
    }

    #[test]
    fn unusable_urls_are_refused_with_the_reason() {
        assert_eq!(
            Endpoint::parse("https://example.com/cgp"),
            Err(EndpointError::Https)
        );
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
            "http://127.0.0.1:port/",
            "http://127.0.0.1:99999/",
            "http://:80/",
            "http://127.0.0.1 /",
            "http://[::1/",
        ] {
            assert!(
                matches!(Endpoint::parse(url), Err(EndpointError::Malformed(_))),
                "{url}"
            );
        }
    }

    #[test]
    fn a_bearer_token_is_never_rendered() {
        let bearer = Bearer::new("s3cret-token".into()).expect("a token");
        assert_eq!(
            format!("{bearer} {bearer:?}"),
            "Bearer(<redacted>) Bearer(<redacted>)"
        );
        assert_eq!(bearer.redact("echo s3cret-token"), "echo <redacted>");
        let mut reply = b"{\"a\":\"s3cret-token s3cret-tokens3cret-token\"}".to_vec();
        bearer.mask(&mut reply);
        assert_eq!(reply, b"{\"a\":\"************ ************************\"}");
        assert!(Bearer::new(String::new()).is_err());
        let error = Bearer::new("two\r\nlines".into()).expect_err("refused");
        assert!(!error.contains("lines"), "{error}");
    }

    #[test]
    fn chunked_bodies_are_decoded_and_capped() {
        let head = Head {
            status: 200,
            reason: "OK".into(),
            content_length: None,
            chunked: true,
            location: None,
        };
        let mut wire: &[u8] = b"4;ext=1\r\n{\"a\"\r\n2\r\n:1\r\n1\r\n}\r\n0\r\nTrailer: x\r\n\r\n";
        match read_body(&mut wire, &head, 100).expect("decodes") {
            Body::Complete(bytes) => assert_eq!(bytes, b"{\"a\":1}"),
            Body::TooLarge { .. } => panic!("not too large"),
        }
        let mut wire: &[u8] = b"4\r\nabcd\r\n4\r\nefgh\r\n0\r\n\r\n";
        assert!(matches!(
            read_body(&mut wire, &head, 6),
            Ok(Body::TooLarge { announced: None })
        ));
        let mut wire: &[u8] = b"zz\r\n";
        assert!(read_body(&mut wire, &head, 6).is_err());
    }
}
