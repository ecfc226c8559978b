//! The HTTP/1.1 exchange under [`super::HttpProvider`]: connecting within a
//! deadline, reading a response head and a body (sized or chunked) up to a
//! cap, and the few spellings of a protocol error.

use super::Endpoint;
use std::io::{self, BufRead, Read};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// The largest status line plus headers read.
const MAX_HEAD_BYTES: u64 = 64 * 1024;

pub(super) fn remaining(deadline: Instant) -> io::Result<Duration> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(io::Error::new(
            io::ErrorKind::TimedOut,
            "the deadline passed",
        ));
    }
    Ok(left)
}

pub(super) fn is_timeout(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
    )
}

pub(super) fn connect(endpoint: &Endpoint, deadline: Instant) -> io::Result<TcpStream> {
    let mut last = None;
    for address in endpoint.addresses()? {
        match TcpStream::connect_timeout(&address, remaining(deadline)?) {
            Ok(stream) => {
                stream.set_nodelay(true)?;
                return Ok(stream);
            }
            Err(error) if is_timeout(&error) => return Err(error),
            Err(error) => {
                last = Some(io::Error::new(
                    error.kind(),
                    format!("cannot connect to {address}: {error}"),
                ));
            }
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no address to connect to")))
}

/// Reads from the stream until the deadline: each read waits at most for
/// the time left.
pub(super) struct Deadlined<'a> {
    pub(super) stream: &'a TcpStream,
    pub(super) deadline: Instant,
}

impl Read for Deadlined<'_> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        self.stream
            .set_read_timeout(Some(remaining(self.deadline)?))?;
        let mut stream = self.stream;
        stream.read(buffer)
    }
}

/// The status line and the headers that matter here.
#[derive(Debug)]
pub(super) struct Head {
    pub(super) status: u16,
    pub(super) reason: String,
    pub(super) content_length: Option<u64>,
    pub(super) chunked: bool,
    pub(super) location: Option<String>,
}

pub(super) fn protocol_error(what: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.into())
}

pub(super) fn read_head(reader: &mut impl BufRead) -> io::Result<Head> {
    let mut limited = reader.take(MAX_HEAD_BYTES);
    let mut line = Vec::new();
    let mut next_line = |line: &mut Vec<u8>| -> io::Result<String> {
        line.clear();
        limited.read_until(b'\n', line)?;
        if line.last() != Some(&b'\n') {
            return Err(protocol_error(if line.is_empty() {
                "the connection closed before a response arrived"
            } else {
                "the response head is cut short or over 64 KiB"
            }));
        }
        Ok(String::from_utf8_lossy(line).trim_end().to_owned())
    };
    let status_line = next_line(&mut line)?;
    let mut parts = status_line.splitn(3, ' ');
    let version = parts.next().unwrap_or_default();
    let code = parts.next().unwrap_or_default();
    if !version.starts_with("HTTP/1.") || code.len() != 3 {
        let shown: String = status_line.chars().take(80).collect();
        return Err(protocol_error(format!(
            "the response does not start with an HTTP/1.x status line: {shown:?}"
        )));
    }
    let status = code
        .parse()
        .map_err(|_| protocol_error(format!("the status `{code}` is not a number")))?;
    let mut head = Head {
        status,
        reason: parts.next().unwrap_or_default().to_owned(),
        content_length: None,
        chunked: false,
        location: None,
    };
    loop {
        let header = next_line(&mut line)?;
        if header.is_empty() {
            return Ok(head);
        }
        let Some((name, value)) = header.split_once(':') else {
            return Err(protocol_error("a response header has no `:`"));
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("content-length") {
            let length: u64 = value
                .parse()
                .map_err(|_| protocol_error("the Content-Length is not a number"))?;
            if head.content_length.is_some_and(|known| known != length) {
                return Err(protocol_error("two different Content-Length headers"));
            }
            head.content_length = Some(length);
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            let last = value.rsplit(',').next().unwrap_or_default().trim();
            if !last.eq_ignore_ascii_case("chunked") {
                return Err(protocol_error(format!(
                    "the Transfer-Encoding `{value}` is not supported"
                )));
            }
            head.chunked = true;
        } else if name.eq_ignore_ascii_case("location") {
            head.location = Some(value.to_owned());
        }
    }
}

pub(super) enum Body {
    Complete(Vec<u8>),
    TooLarge { announced: Option<u64> },
}

/// Reads the body `head` announces, at most `cap` bytes of it.
pub(super) fn read_body(reader: &mut impl BufRead, head: &Head, cap: usize) -> io::Result<Body> {
    if head.status == 204 || head.status == 304 {
        return Ok(Body::Complete(Vec::new()));
    }
    let cap64 = cap as u64;
    if head.chunked {
        return read_chunked(reader, cap64);
    }
    let mut bytes = Vec::new();
    match head.content_length {
        Some(length) if length > cap64 => Ok(Body::TooLarge {
            announced: Some(length),
        }),
        Some(length) => {
            reader.take(length).read_to_end(&mut bytes)?;
            if bytes.len() as u64 != length {
                return Err(protocol_error(format!(
                    "the connection closed after {} of the {length} bytes the Content-Length announced",
                    bytes.len()
                )));
            }
            Ok(Body::Complete(bytes))
        }
        None => {
            reader.take(cap64 + 1).read_to_end(&mut bytes)?;
            if bytes.len() > cap {
                return Ok(Body::TooLarge { announced: None });
            }
            Ok(Body::Complete(bytes))
        }
    }
}

pub(super) fn read_chunked(reader: &mut impl BufRead, cap: u64) -> io::Result<Body> {
    let mut bytes = Vec::new();
    let mut line = Vec::new();
    loop {
        read_line(reader, &mut line)?;
        let text = String::from_utf8_lossy(&line);
        let digits = text.split(';').next().unwrap_or_default().trim();
        let size = u64::from_str_radix(digits, 16)
            .map_err(|_| protocol_error(format!("the chunk size `{digits}` is not hexadecimal")))?;
        if size == 0 {
            // Trailers, up to the empty line.
            loop {
                read_line(reader, &mut line)?;
                if line.trim_ascii().is_empty() {
                    return Ok(Body::Complete(bytes));
                }
            }
        }
        if bytes.len() as u64 + size > cap {
            return Ok(Body::TooLarge { announced: None });
        }
        let before = bytes.len();
        reader.take(size).read_to_end(&mut bytes)?;
        if (bytes.len() - before) as u64 != size {
            return Err(protocol_error("a chunk of the response body is cut short"));
        }
        read_line(reader, &mut line)?;
    }
}

/// One line of the chunked framing (a size, a chunk's end, a trailer).
pub(super) fn read_line(reader: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<()> {
    line.clear();
    reader.take(4096).read_until(b'\n', line)?;
    if line.last() != Some(&b'\n') {
        return Err(protocol_error("a chunk of the response body is cut short"));
    }
    Ok(())
}

pub(super) fn printable_reason(reason: &str) -> String {
    reason
        .chars()
        .filter(|c| !c.is_control())
        .take(80)
        .collect()
}
