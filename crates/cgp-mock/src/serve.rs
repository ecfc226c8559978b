//! The mock on a transport: stdio lines, or one HTTP `POST` per envelope.

use crate::mock::{End, Mock};
use cgp_check::transcript::{Line, LineReader};
use std::io::{self, BufRead, Read, Write};

/// How a served conversation ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The host sent `shutdown` (stdio): exit 0.
    Shutdown,
    /// The host closed its side: exit 0.
    Closed,
    /// [`crate::Behaviour::Crash`]: exit with [`CRASH_STATUS`].
    Crashed,
}

/// The exit status of a crash.
pub const CRASH_STATUS: u8 = 101;

/// Serves one host over `input` and `output` (a provider's standard input and
/// output) until `shutdown`, the end of the input or a crash. A line over the
/// 16 MiB limit is answered as garbage.
pub fn serve_stdio(
    mock: &mut Mock,
    input: impl BufRead,
    output: &mut impl Write,
) -> io::Result<Ending> {
    let mut reader = LineReader::for_peer(input);
    loop {
        let answer = match reader.next_line()? {
            None => return Ok(Ending::Closed),
            Some(Line::Message { bytes, .. }) => mock.answer(bytes),
            Some(Line::TooLong { .. }) => {
                // The rest of an endless line is never read: answer and stop.
                let answer = mock.answer(b"a line over the limit");
                write_answer(&answer.lines, answer.delay, output)?;
                return Ok(Ending::Closed);
            }
        };
        write_answer(&answer.lines, answer.delay, output)?;
        match answer.end {
            End::Continue => {}
            End::Shutdown => return Ok(Ending::Shutdown),
            End::Crash(partial) => {
                output.write_all(&partial)?;
                output.flush()?;
                return Ok(Ending::Crashed);
            }
        }
    }
}

fn write_answer(
    lines: &[Vec<u8>],
    delay: std::time::Duration,
    output: &mut impl Write,
) -> io::Result<()> {
    if lines.is_empty() {
        return Ok(());
    }
    std::thread::sleep(delay);
    for line in lines {
        output.write_all(line)?;
        output.write_all(b"\n")?;
    }
    output.flush()
}

/// The address `--http` names: `PORT` alone or `:PORT` is the loopback
/// address `127.0.0.1:PORT`; `HOST:PORT` is taken as given.
pub fn listen_address(text: &str) -> String {
    let port_only = text.trim_start_matches(':');
    if !port_only.is_empty() && port_only.bytes().all(|byte| byte.is_ascii_digit()) {
        format!("127.0.0.1:{port_only}")
    } else {
        text.to_owned()
    }
}

/// An HTTP server on `address` (see [`listen_address`]).
pub fn bind(address: &str) -> Result<tiny_http::Server, BindError> {
    let address = listen_address(address);
    tiny_http::Server::http(&address).map_err(|error| BindError {
        address,
        why: error.to_string(),
    })
}

/// An address [`bind`] cannot listen on, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BindError {
    /// The address tried.
    pub address: String,
    /// What the operating system said.
    pub why: String,
}

impl std::fmt::Display for BindError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot listen on {}: {}", self.address, self.why)
    }
}

impl std::error::Error for BindError {}

/// The URL a host posts to, for a server from [`bind`].
pub fn url_of(server: &tiny_http::Server) -> String {
    match server.server_addr() {
        tiny_http::ListenAddr::IP(address) => format!("http://{address}/"),
        #[cfg(unix)]
        tiny_http::ListenAddr::Unix(address) => format!("{address:?}"),
    }
}

/// Serves hosts over HTTP until the process is interrupted: each `POST` body
/// is one envelope, answered with one envelope (200), or with 204 and no body
/// for `shutdown` (the server keeps serving); an envelope of an unknown type
/// gets a `bad_request` error. A body
/// over 16 MiB is refused with 413. Returns only on a crash.
pub fn serve_http(mock: &mut Mock, server: &tiny_http::Server) -> io::Result<Ending> {
    let json = tiny_http::Header::from_bytes(&b"Content-Type"[..], &b"application/json"[..]).ok();
    loop {
        let mut request = server.recv()?;
        if *request.method() != tiny_http::Method::Post {
            let response = tiny_http::Response::from_string("POST one envelope as JSON\n")
                .with_status_code(405);
            let _ = request.respond(response);
            continue;
        }
        let mut body = Vec::new();
        let limit = cgp_types::MAX_LINE_BYTES as u64 + 1;
        if request
            .as_reader()
            .take(limit)
            .read_to_end(&mut body)
            .is_err()
        {
            let _ = request.respond(tiny_http::Response::empty(400));
            continue;
        }
        if body.len() > cgp_types::MAX_LINE_BYTES {
            let _ = request.respond(tiny_http::Response::empty(413));
            continue;
        }
        let answer = mock.answer(&body);
        std::thread::sleep(answer.delay);
        match answer.end {
            End::Crash(partial) => {
                let _ = request.respond(tiny_http::Response::from_data(partial));
                return Ok(Ending::Crashed);
            }
            End::Shutdown => {
                let _ = request.respond(tiny_http::Response::empty(204));
            }
            End::Continue => match answer.lines.into_iter().next() {
                Some(line) => {
                    let mut response = tiny_http::Response::from_data(line);
                    if let Some(json) = &json {
                        response = response.with_header(json.clone());
                    }
                    let _ = request.respond(response);
                }
                None => {
                    // Over HTTP every POST gets one envelope back: what stdio
                    // ignores as a notification is answered with an error.
                    let error = cgp_types::Envelope::Error {
                        id: None,
                        code: Some(cgp_types::ErrorCode::BadRequest),
                        message: "an envelope of a type this provider does not know; ignored"
                            .into(),
                    };
                    let line = cgp_types::encode_line(&error).unwrap_or_default();
                    let mut response =
                        tiny_http::Response::from_data(line.trim_end().as_bytes().to_vec());
                    if let Some(json) = &json {
                        response = response.with_header(json.clone());
                    }
                    let _ = request.respond(response);
                }
            },
        }
    }
}
