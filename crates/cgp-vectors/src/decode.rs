//! What the reference decoder does with one case's bytes on each transport,
//! through the hand-written types (`cgp-types`, which `spec-tests` holds to
//! the reference crates): the stdio reader's lossy UTF-8 and trimming, or an
//! HTTP body read as it is.

use crate::case::{Decode, Transport};
use crate::reason::Reason;
use cgp_types::Envelope;

/// The decoded envelope, or the decoder's message.
pub fn envelope(transport: Transport, bytes: &[u8]) -> Result<Envelope, serde_json::Error> {
    match transport {
        Transport::Stdio => {
            let text = String::from_utf8_lossy(bytes);
            serde_json::from_str(text.trim_end())
        }
        Transport::Http => serde_json::from_slice(bytes),
    }
}

/// The canonical line of an envelope, without its line feed: compact JSON,
/// members in declaration order. A non-finite f32 is written `null`, as the
/// reference encoder writes it.
pub fn canonical(envelope: &Envelope) -> Result<String, serde_json::Error> {
    serde_json::to_string(envelope)
}

/// The expected answer for `bytes` on `transport`.
pub fn expectation(transport: Transport, bytes: &[u8]) -> Decode {
    match envelope(transport, bytes).and_then(|envelope| canonical(&envelope)) {
        Ok(line) => Decode::accepted(line),
        Err(error) => Decode::rejected(Reason::of_message(&error.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_transports_differ_on_bytes_and_trailing_whitespace() {
        let lossy = b"{\"type\":\"handshake\",\"protocol_version\":\"\xff\"}";
        assert_eq!(
            expectation(Transport::Stdio, lossy),
            Decode::accepted(
                "{\"type\":\"handshake\",\"protocol_version\":\"\u{fffd}\"}".to_owned()
            )
        );
        assert_eq!(
            expectation(Transport::Http, lossy),
            Decode::rejected(Reason::Text)
        );
        let nbsp = "{\"type\":\"shutdown\"}\u{a0}".as_bytes();
        assert!(expectation(Transport::Stdio, nbsp).accept);
        assert_eq!(
            expectation(Transport::Http, nbsp),
            Decode::rejected(Reason::Text)
        );
    }
}
