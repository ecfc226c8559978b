//! The host's side of a conformance conversation.
//!
//! [`run`] plays a host against a [`Peer`]: it sends a `handshake`, queries
//! covering every kind the provider declares, a query with a tiny budget and one
//! with a zero budget, a query pinned `as_of` the earliest `valid_from` served
//! (Q2), one anchored on a URI served (G3, for a graph provider), one with an
//! embedding of the wrong dimension (E1, when a fingerprint is declared),
//! `verify` with the digests served and with changed ones (V4, V1), an envelope
//! of an unknown type and a line that is not JSON (both must get an `error` and
//! leave the provider serving, R1), another query, and `shutdown`, after which
//! the provider must exit. Local `file` provenance is re-read and re-hashed
//! (D2).
//!
//! Every line in both directions is judged: the interop profile and the
//! decoder give errors, the strict profile warnings, and every semantic rule of
//! SPEC.md, per message and across the conversation, an error when it is a MUST
//! and a warning when it is a SHOULD. Every read has a timeout; an unanswered
//! request, a closed output or a flood of unsolicited lines ends the
//! conversation, and the provider is killed.

mod bookkeeping;
mod conversation;
mod probes;
mod steps;

use super::provenance::{self, Reread};
use super::{Message, Peer, Problem, Received, Report, SHOWN_LINE_CHARS, Severity, Side, Step};
use crate::semantic::{Rule, fingerprint_dimension, is_anchored, is_later, is_protocol_timestamp};
use crate::transcript::{Checked, Finding, TranscriptChecker, check_message, locate};
use crate::validate::Validator;
use cgp_types::{
    Capabilities, ContextFrame, ContextQuery, Envelope, ErrorCode, FrameId, FrameKind,
    FrameVerdict, PROTOCOL_VERSION, Variant, VerifyRequest, encode_line,
};
use std::time::{Duration, Instant};

/// How to run the conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// How long to wait for each reply, and for the exit after `shutdown`.
    pub timeout: Duration,
}

/// More unsolicited lines than this and the provider is flooding its output.
pub(crate) const MAX_UNSOLICITED: usize = 64;
/// At most this many declared kinds get a query of their own.
pub(crate) const MAX_KINDS: usize = 8;
/// At most this many held frames are sent in the `verify` request.
pub(crate) const MAX_VERIFY_FRAMES: usize = 8;
/// At most this many file provenance links are re-read and hashed (D2).
pub(crate) const MAX_REREAD: usize = 64;
/// How long a provider that closed its output gets to exit before it is killed.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// The identity `verify` asks about when no query returned a frame with a digest.
const UNKNOWN_FRAME: &str = "cgp-check:no-such-frame";

/// Runs the conversation against `peer` and reports on it. The provider has
/// ended (and, for a child process, been reaped) when this returns.
pub fn run(
    peer: &mut dyn Peer,
    interop: &Validator,
    strict: &Validator,
    options: Options,
) -> Report {
    let mut driver = Driver {
        peer,
        interop,
        strict,
        options,
        checker: TranscriptChecker::with_rules(interop, true, true),
        sequence: 0,
        steps: Vec::new(),
        current: None,
        unsolicited: 0,
        next_id: 0,
        correlation: false,
        provider_name: String::new(),
        held: Vec::new(),
        earliest_valid_from: None,
        anchor: None,
        fallback_anchor: None,
        reread: Vec::new(),
        ended: None,
        closed_output: false,
        exit: None,
        unsolicited_in_step: None,
    };
    driver.script();
    let exit = driver.teardown();
    Report {
        steps: driver.steps,
        exit,
        diagnostics: driver.peer.diagnostics(),
    }
}

struct Driver<'a> {
    peer: &'a mut dyn Peer,
    interop: &'a Validator,
    strict: &'a Validator,
    options: Options,
    /// Every semantic rule, per message and across the conversation.
    checker: TranscriptChecker<'a>,
    sequence: usize,
    steps: Vec<Step>,
    current: Option<Step>,
    unsolicited: usize,
    next_id: usize,
    correlation: bool,
    provider_name: String,
    /// Identities served so far, for `verify`.
    held: Vec<FrameId>,
    /// The earliest `valid_from` served so far, for the `as_of` probe.
    earliest_valid_from: Option<String>,
    /// The first relation target served so far, for the anchored probe.
    anchor: Option<String>,
    /// The first frame `uri` served so far, when no relation offers an anchor.
    fallback_anchor: Option<String>,
    /// The file provenance links re-read so far, as (uri, range, digest).
    reread: Vec<(Option<String>, Option<String>, String)>,
    /// Why the conversation ended early.
    ended: Option<String>,
    /// The provider closed its output.
    closed_output: bool,
    /// How the provider exited after `shutdown`.
    exit: Option<String>,
    /// The unsolicited lines of the current step.
    unsolicited_in_step: Option<Unsolicited>,
}

/// Unsolicited lines seen during one step.
struct Unsolicited {
    first: usize,
    lines: usize,
    notifications: usize,
    when: &'static str,
}

impl Driver<'_> {
    fn script(&mut self) {
        let capabilities = self.handshake().unwrap_or_default();
        let mut kinds: Vec<String> = Vec::new();
        for kind in &capabilities.query.kinds {
            if !kinds.contains(kind) && kinds.len() < MAX_KINDS {
                kinds.push(kind.clone());
            }
        }
        if kinds.is_empty() {
            self.query(
                "query (any kind)",
                self.new_query(Vec::new(), 5, 2000),
                false,
            );
        }
        for kind in &kinds {
            let query = self.new_query(vec![kind.clone()], 5, 2000);
            self.query(&format!("query kind={kind}"), query, true);
        }
        self.query(
            "tiny budget (max_frames 1, max_tokens 1)",
            self.new_query(Vec::new(), 1, 1),
            false,
        );
        self.query(
            "zero budget (max_frames 0, max_tokens 0)",
            self.new_query(Vec::new(), 0, 0),
            false,
        );
        self.as_of();
        self.anchored(capabilities.graph);
        self.wrong_embedding(capabilities.embeddings_fingerprint.as_deref());
        self.verify(capabilities.verify);
        self.probe(
            "unknown envelope type",
            br#"{"type":"cgp_check_unknown_type","note":"an envelope type this protocol does not define"}"#,
        );
        self.probe("garbage line", b"this line is not JSON {");
        self.query(
            "still serving after garbage",
            self.new_query(Vec::new(), 1, 100),
            false,
        );
        self.shutdown();
    }
}

fn encode(envelope: &Envelope) -> Vec<u8> {
    let mut line = encode_line(envelope).unwrap_or_default().into_bytes();
    if line.last() == Some(&b'\n') {
        line.pop();
    }
    line
}

/// A well-formed digest other than `digest`: its last hex digit changed.
fn other_digest(digest: &str) -> String {
    let mut changed = digest.to_owned();
    let last = changed.pop();
    changed.push(if last == Some('0') { '1' } else { '0' });
    changed
}

fn seconds(duration: Duration) -> String {
    format!("{}s", duration.as_secs_f64())
}
