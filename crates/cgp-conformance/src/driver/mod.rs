//! The host's side of a conformance conversation.
//!
//! [`run`] plays a host against a [`Peer`]: it sends a `handshake`, queries
//! covering every kind the provider declares, a query with a tiny budget and one
//! with a zero budget, a query pinned `as_of` the earliest `valid_from` served
//! (CGP-AS-OF), one anchored on a URI served (G4, for a graph provider), one
//! with an embedding of the wrong dimension (E1, when a fingerprint is
//! declared), `verify` with the digests served and with changed ones (V2), an
//! envelope of an unknown type and a line that is not JSON (each followed by a
//! query that shows the provider still serves, R1), and `shutdown`, after
//! which the provider must exit (R2). Local `file` provenance is re-read and
//! re-hashed (CGP-FILE-BYTES).
//!
//! Every line in both directions is judged: the interop profile and the
//! decoder give errors, the strict profile warnings, and every semantic rule,
//! per message and across the conversation, an error when it is a MUST and a
//! warning when it is a SHOULD. Every read has a timeout. A reply the protocol
//! only asks for (a SHOULD, such as R1's `error` for garbage) is awaited for
//! [`Options::should_wait`] only, and silence is reported and the script goes
//! on. An unanswered request (a MUST) is reported and the script goes on too,
//! until two requests in a row go unanswered; then the remaining steps are
//! skipped, saying so, but `shutdown` is still sent (R2). A closed output or a
//! flood of unsolicited lines ends the conversation, and the provider is
//! killed. Given a way to start another provider ([`run_observed`]), a
//! provider that died is replaced before each probe that may poison a
//! conversation (the wrong-dimension embedding, verify, the unknown type, the
//! garbage line) and before `shutdown`, so one crash hides none of them.

mod bookkeeping;
mod conversation;
mod probes;
mod steps;
#[cfg(test)]
mod tests;

use conversation::Wait;

use super::provenance::{self, Reread};
use super::{Message, Peer, Problem, Received, Report, SHOWN_LINE_CHARS, Severity, Side, Step};
use cgp_check::semantic::{
    Rule, fingerprint_dimension, is_anchored, is_later, is_protocol_timestamp,
};
use cgp_check::transcript::{Checked, Finding, TranscriptChecker, check_message, locate};
use cgp_check::validate::Validator;
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
    /// How long to wait for a reply the protocol does not require (a SHOULD):
    /// the `error` for a line that is not JSON, or for an unknown envelope
    /// type. At most [`Options::timeout`].
    pub should_wait: Duration,
}

/// The default of [`Options::should_wait`].
pub const SHOULD_WAIT: Duration = Duration::from_millis(500);

impl Options {
    /// `timeout` for every reply, and [`SHOULD_WAIT`] (or `timeout`, if
    /// shorter) for the replies the protocol does not require.
    pub fn new(timeout: Duration) -> Self {
        Self {
            timeout,
            should_wait: SHOULD_WAIT.min(timeout),
        }
    }
}

/// After this many requests in a row without a reply the provider is taken
/// to have stopped answering, and the remaining steps are skipped.
pub(crate) const MAX_UNANSWERED_IN_ROW: usize = 2;

/// More unsolicited lines than this and the provider is flooding its output.
pub(crate) const MAX_UNSOLICITED: usize = 64;
/// At most this many declared kinds get a query of their own.
pub(crate) const MAX_KINDS: usize = 8;
/// At most this many held frames are sent in the `verify` request.
pub(crate) const MAX_VERIFY_FRAMES: usize = 8;
/// At most this many file provenance links are re-read and hashed
/// (CGP-FILE-BYTES).
pub(crate) const MAX_REREAD: usize = 64;
/// How long a failed write waits to see whether the provider's output closed
/// too (it exited) or stays open (it only stopped reading its input).
const EXITED_GRACE: Duration = Duration::from_millis(500);

/// How long a provider that closed its output gets to exit before it is killed.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// The identity `verify` asks about when no query returned a frame with a digest.
const UNKNOWN_FRAME: &str = "cgp-check:no-such-frame";

/// Starts a new provider like the one under test, or `None` when it cannot.
pub type Respawn<'r> = &'r mut dyn FnMut() -> Option<Box<dyn Peer>>;

/// At most this many times a provider that died is replaced.
pub(crate) const MAX_RESTARTS: usize = 4;

/// Runs the conversation against `peer` and reports on it. The provider has
/// ended (and, for a child process, been reaped) when this returns.
pub fn run(
    peer: &mut dyn Peer,
    interop: &Validator,
    strict: &Validator,
    options: Options,
) -> Report {
    run_observed(peer, None, interop, strict, options, &mut |_| {})
}

/// What the conversation is doing, as it happens: for a front end that shows
/// progress. The report [`run`] returns says the same, complete, at the end.
#[derive(Debug, Clone, Copy)]
pub enum Event<'a> {
    /// A step begins (a skipped one is only [`Event::Finished`]).
    Started(&'a str),
    /// A line was sent or received and judged.
    Line(&'a Message),
    /// A step is over, with everything it found.
    Finished(&'a Step),
}

/// As [`run`], replacing a provider that died with one from `respawn` before
/// each probe that may poison a conversation and before `shutdown`, and
/// telling `observe` of every step and line as it happens.
pub fn run_observed<'a>(
    peer: &'a mut dyn Peer,
    respawn: Option<Respawn<'a>>,
    interop: &'a Validator,
    strict: &'a Validator,
    options: Options,
    observe: &'a mut dyn FnMut(Event<'_>),
) -> Report {
    let mut driver = Driver {
        observe,
        peer,
        respawn,
        fresh: None,
        restarts: 0,
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
        unanswered_in_row: 0,
        silent: false,
        status: None,
        buffered: std::collections::VecDeque::new(),
        sent_ahead: None,
        stopped_answering: false,
        closed_output: false,
        exit: None,
        unsolicited_in_step: None,
    };
    driver.script();
    let exit = driver.teardown();
    let diagnostics = driver.peer().diagnostics();
    Report {
        steps: driver.steps,
        exit,
        diagnostics,
    }
}

struct Driver<'a> {
    /// Told of steps and lines as they happen.
    observe: &'a mut dyn FnMut(Event<'_>),
    peer: &'a mut dyn Peer,
    /// Starts a replacement for a provider that died.
    respawn: Option<Respawn<'a>>,
    /// The replacement in use, if any.
    fresh: Option<Box<dyn Peer>>,
    /// How many times the provider was replaced.
    restarts: usize,
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
    /// Requests in a row that got no reply.
    unanswered_in_row: usize,
    /// The last exchange waited for a reply the protocol does not require, and
    /// none came.
    silent: bool,
    /// What the transport said with the last reply or silence, when it said
    /// more than the reply (an HTTP `204`, or an `error` under `400`): noted
    /// in the step's detail.
    status: Option<String>,
    /// What was read ahead for the requests that follow (see
    /// [`Driver::probe_then_serve`]): read before the peer.
    buffered: std::collections::VecDeque<Received>,
    /// A line already sent to the peer; [`Driver::send`] records it without
    /// sending it again.
    sent_ahead: Option<Vec<u8>>,
    /// The conversation ended because the provider stopped answering (its
    /// input and output are still open, so `shutdown` is still sent).
    stopped_answering: bool,
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
        let capabilities = self.recover().unwrap_or(capabilities);
        self.wrong_embedding(capabilities.embeddings_fingerprint.as_deref());
        let capabilities = self.recover().unwrap_or(capabilities);
        self.verify(capabilities.verify);
        self.recover();
        self.probe_then_serve(
            "unknown envelope type",
            br#"{"type":"cgp_check_unknown_type","note":"an envelope type this protocol does not define"}"#,
            false,
            "still serving after an unknown type",
        );
        self.recover();
        self.probe_then_serve(
            "garbage line",
            b"this line is not JSON {",
            true,
            "still serving after garbage",
        );
        self.recover();
        self.shutdown();
    }

    /// The provider in use: the replacement, once there is one.
    fn peer(&mut self) -> &mut dyn Peer {
        match &mut self.fresh {
            Some(fresh) => fresh.as_mut(),
            None => &mut *self.peer,
        }
    }

    /// When the provider died (its output closed) and another can be started,
    /// reaps it, starts another and shakes hands with it, so the steps that
    /// follow still run; the new provider's capabilities, if it acknowledged.
    fn recover(&mut self) -> Option<Capabilities> {
        if !self.closed_output || self.restarts >= MAX_RESTARTS {
            return None;
        }
        let respawn = self.respawn.as_mut()?;
        let fresh = respawn();
        self.finish();
        let ended = self.peer().wait_exit(EXIT_GRACE);
        let ended =
            ended.unwrap_or_else(|| format!("{} (killed by cgp check)", self.peer().kill()));
        let mut step = Step::new("restart the provider");
        let Some(fresh) = fresh else {
            step.skipped = Some(format!(
                "the provider ended ({ended}), and another could not be started"
            ));
            self.current = Some(step);
            self.finish();
            return None;
        };
        step.detail = format!("the provider ended ({ended}); the remaining steps go to a new one");
        self.current = Some(step);
        self.finish();
        self.fresh = Some(fresh);
        self.restarts += 1;
        self.ended = None;
        self.closed_output = false;
        self.stopped_answering = false;
        self.unanswered_in_row = 0;
        self.checker = TranscriptChecker::with_rules(self.interop, true, true);
        self.handshake()
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
