//! The HTTP reverse proxy: plain HTTP on a loopback listener toward the host,
//! and toward the provider the TLS rules and credentials of `cgp check --http`
//! ([`cgp_conformance::http::HttpProvider::relay`]). Bodies are passed on as
//! they are; the record and the judge see them with every credential masked,
//! and no header is recorded.

use crate::judge::{Judge, Side};
use crate::stdio::Record;
use cgp_conformance::http::HttpProvider;
use std::io::{self, Read, Write};

/// Serves until the process is interrupted: each `POST` body goes upstream,
/// and the upstream's status and body come back.
pub fn serve(
    server: &tiny_http::Server,
    upstream: &HttpProvider,
    judge: &Judge,
    record: Option<&Record>,
) -> io::Result<()> {
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
            judge.too_long(Side::Host, body.len() as u64);
            let _ = request.respond(tiny_http::Response::empty(413));
            continue;
        }
        observe(upstream, judge, record, Side::Host, &body);
        match upstream.relay(&body) {
            Ok((status, reply)) => {
                if !reply.is_empty() {
                    observe(upstream, judge, record, Side::Provider, &reply);
                }
                let mut response = tiny_http::Response::from_data(reply).with_status_code(status);
                if let Some(json) = &json {
                    response = response.with_header(json.clone());
                }
                let _ = request.respond(response);
            }
            Err(why) => {
                judge.note(format!("the provider did not answer: {why}"));
                let response =
                    tiny_http::Response::from_string(format!("{why}\n")).with_status_code(502);
                let _ = request.respond(response);
            }
        }
    }
}

/// Records and judges one body, credentials masked.
fn observe(
    upstream: &HttpProvider,
    judge: &Judge,
    record: Option<&Record>,
    side: Side,
    body: &[u8],
) {
    let mut shown = body.to_vec();
    upstream.mask(&mut shown);
    // A body is one envelope; a line feed inside it would split the record.
    for byte in &mut shown {
        if *byte == b'\n' || *byte == b'\r' {
            *byte = b' ';
        }
    }
    if let Some(record) = record {
        if let Ok(mut record) = record.lock() {
            let _ = record.write_all(&shown);
            let _ = record.write_all(b"\n");
            let _ = record.flush();
        }
    }
    judge.line(side, &shown);
}
