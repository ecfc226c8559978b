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
pub const MAX_UNSOLICITED: usize = 64;
/// At most this many declared kinds get a query of their own.
pub const MAX_KINDS: usize = 8;
/// At most this many held frames are sent in the `verify` request.
pub const MAX_VERIFY_FRAMES: usize = 8;
/// At most this many file provenance links are re-read and hashed (D2).
pub const MAX_REREAD: usize = 64;
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

    // ----- steps -----

    fn handshake(&mut self) -> Option<Capabilities> {
        if !self.begin("handshake") {
            return None;
        }
        // The host speaks the version of the bundles it judges by.
        let spoken = self
            .interop
            .protocol_version()
            .unwrap_or(PROTOCOL_VERSION)
            .to_owned();
        let line = encode(&Envelope::Handshake {
            protocol_version: spoken.clone(),
        });
        let reply = self.exchange(&line, false, &[Variant::HandshakeAck], None);
        let capabilities = match reply.and_then(|checked| checked.envelope) {
            Some(Envelope::HandshakeAck {
                protocol_version,
                provider,
                capabilities,
                ..
            }) => {
                // H3 is judged on the line itself, with the other semantic rules.
                let kinds = capabilities.query.kinds.join(", ");
                let mut flags = Vec::new();
                for (flag, on) in [
                    ("correlation", capabilities.correlation),
                    ("verify", capabilities.verify),
                    ("graph", capabilities.graph),
                    ("resolve", capabilities.resolve),
                ] {
                    if on {
                        flags.push(flag);
                    }
                }
                self.detail(format!(
                    "{} {} speaks {protocol_version}; kinds [{kinds}]; {}",
                    provider.name,
                    provider.version,
                    if flags.is_empty() {
                        "no optional capabilities".to_owned()
                    } else {
                        flags.join(", ")
                    }
                ));
                self.correlation = capabilities.correlation;
                self.provider_name = provider.name;
                Some(capabilities)
            }
            _ => {
                if self.ended.is_none() {
                    self.problem(
                        Severity::Error,
                        Side::Provider,
                        None,
                        "no usable handshake_ack: the conversation cannot go on".into(),
                    );
                    self.end("there was no usable handshake_ack");
                }
                None
            }
        };
        self.finish();
        capabilities
    }

    /// A query for `kinds` with the given budget.
    fn new_query(&self, kinds: Vec<String>, max_frames: u32, max_tokens: u32) -> ContextQuery {
        let goal = match kinds.first() {
            Some(kind) => format!("cgp check: what do you know about {kind}?"),
            None => "cgp check: what do you know?".to_owned(),
        };
        let mut query = ContextQuery::new(goal, max_frames, max_tokens);
        query.kinds = kinds
            .iter()
            .map(|kind| FrameKind::from_wire(kind.as_str()))
            .collect();
        query
    }

    /// Runs a step that sends `query`, and returns the reply. `declared`: the
    /// query asks for kinds the provider declares, so an error is suspicious.
    fn query(&mut self, name: &str, query: ContextQuery, declared: bool) -> Option<Envelope> {
        if !self.begin(name) {
            return None;
        }
        let id = self.correlation.then(|| {
            self.next_id += 1;
            format!("cgp-q{}", self.next_id)
        });
        let line = encode(&Envelope::Query { id, query });
        let reply = self
            .exchange(&line, false, &[Variant::Frames, Variant::Error], None)
            .and_then(|checked| checked.envelope);
        match &reply {
            Some(Envelope::Frames { result, .. }) => {
                let cost: u64 = result.frames.iter().map(|f| u64::from(f.token_cost)).sum();
                self.detail(format!(
                    "{} frame(s), {cost} budget token(s){}",
                    result.frames.len(),
                    if result.truncated { ", truncated" } else { "" }
                ));
                for frame in &result.frames {
                    self.learn(frame);
                }
            }
            Some(Envelope::Error { code, message, .. }) => {
                let code = code.clone().unwrap_or(ErrorCode::Internal);
                self.detail(format!("error {}: {message}", code.as_str()));
                if declared {
                    self.problem(
                        Severity::Warning,
                        Side::Provider,
                        None,
                        format!(
                            "the provider answers a query for a kind it declares with error `{}`",
                            code.as_str()
                        ),
                    );
                }
            }
            _ => {}
        }
        self.finish();
        reply
    }

    /// Takes note of what a served frame offers the later probes (an identity to
    /// verify, a `valid_from` to pin, an anchor), and re-reads its local file
    /// provenance (D2).
    fn learn(&mut self, frame: &ContextFrame) {
        if frame.content_digest.is_some() && self.held.len() < MAX_VERIFY_FRAMES {
            let identity = FrameId::new(
                self.provider_name.clone(),
                frame.id.clone(),
                frame.content_digest.clone(),
            );
            if !self.held.contains(&identity) {
                self.held.push(identity);
            }
        }
        if let Some(valid_from) = &frame.valid_from {
            let earlier = self
                .earliest_valid_from
                .as_deref()
                .is_none_or(|earliest| is_later(earliest, valid_from) == Some(true));
            if earlier && is_protocol_timestamp(valid_from) {
                self.earliest_valid_from = Some(valid_from.clone());
            }
        }
        if self.anchor.is_none() {
            self.anchor = frame
                .relations
                .iter()
                .map(|relation| relation.target_uri.clone())
                .find(|uri| !uri.trim().is_empty());
        }
        if self.anchor.is_none() && self.fallback_anchor.is_none() {
            self.fallback_anchor = frame.uri.clone().filter(|uri| !uri.trim().is_empty());
        }
        for (index, link) in frame.provenance.iter().enumerate() {
            let Some(declared) = link.digest.as_deref() else {
                continue;
            };
            if self.reread.len() >= MAX_REREAD {
                break;
            }
            let key = (link.uri.clone(), link.range.clone(), declared.to_owned());
            if link.kind != "file" || self.reread.contains(&key) {
                continue;
            }
            self.reread.push(key);
            if let Reread::Differs { actual } = provenance::reread(link) {
                self.problem(
                    Severity::Error,
                    Side::Provider,
                    Some(Rule::D2),
                    format!(
                        "frame \"{}\" provenance[{index}] declares {declared} for {}{}, but those bytes hash to {actual}",
                        frame.id,
                        link.uri.as_deref().unwrap_or_default(),
                        link.range
                            .as_deref()
                            .map(|range| format!(" {range}"))
                            .unwrap_or_default()
                    ),
                );
            }
        }
    }

    /// Q2: a query pinned to the earliest `valid_from` served so far; the
    /// session flags any frame that became valid after it.
    fn as_of(&mut self) {
        let Some(pin) = self.earliest_valid_from.clone() else {
            if self.begin("query as_of") {
                self.skip("no frame served so far carries a valid_from to pin the query to");
            }
            return;
        };
        let mut query = self.new_query(Vec::new(), 5, 2000);
        query.as_of = Some(pin.clone());
        self.query(&format!("query as_of={pin}"), query, false);
    }

    /// G3: a graph provider asked for frames anchored on a URI it served must
    /// return one; the session checks the ranking (G4).
    fn anchored(&mut self, graph: bool) {
        let anchor = self.anchor.clone().or_else(|| self.fallback_anchor.clone());
        let (true, Some(anchor)) = (graph, anchor) else {
            if self.begin("query anchors") {
                self.skip(if graph {
                    "no frame served so far carries a uri or a relation to anchor on"
                } else {
                    "the provider does not declare capabilities.graph"
                });
            }
            return;
        };
        let mut query = self.new_query(Vec::new(), 5, 2000);
        query.anchors = vec![anchor.clone()];
        let name = format!("query anchors=[{}]", crate::validate::cut(&anchor, 80));
        if let Some(Envelope::Frames { result, .. }) = self.query(&name, query, false) {
            let anchors = [anchor];
            if !result
                .frames
                .iter()
                .any(|frame| is_anchored(frame, &anchors))
            {
                self.problem_in_last(
                    Severity::Error,
                    Rule::G3,
                    format!(
                        "no frame of the answer is anchored on \"{}\", a URI from the provider's own earlier answers",
                        crate::validate::cut(&anchors[0], 80)
                    ),
                );
            }
        }
    }

    /// E1: a query embedding whose length contradicts the declared fingerprint
    /// should be refused with `bad_request` (the session flags scoring it).
    fn wrong_embedding(&mut self, fingerprint: Option<&str>) {
        let Some(dimension) = fingerprint.and_then(fingerprint_dimension) else {
            if self.begin("query with a wrong-dimension embedding") {
                self.skip("the provider declares no embeddings_fingerprint with a dimension");
            }
            return;
        };
        let wrong = if dimension == 1 { 2 } else { 1 };
        let mut query = self.new_query(Vec::new(), 5, 2000);
        query.embedding = Some(vec![0.5; wrong]);
        let name = format!("query with a {wrong}-dimensional embedding");
        if let Some(Envelope::Error { code, .. }) = self.query(&name, query, false) {
            let code = code.unwrap_or(ErrorCode::Internal);
            if code != ErrorCode::BadRequest {
                self.problem_in_last(
                    Severity::Warning,
                    Rule::E1,
                    format!(
                        "the provider refuses an embedding of the wrong dimension with `{}`; E1 asks for `bad_request`",
                        code.as_str()
                    ),
                );
            }
        }
    }

    /// Asks `verify` about the identities served so far, first as served (V4:
    /// each must be `valid`), then with every digest changed (V1: none may be
    /// `valid`, and each must be `stale`).
    fn verify(&mut self, advertised: bool) {
        if !advertised {
            for name in ["verify", "verify changed digests"] {
                if self.begin(name) {
                    self.skip(
                        "the provider does not declare capabilities.verify (V3: a host sends verify only to providers that do)",
                    );
                }
            }
            return;
        }
        let held = self.held.clone();
        if held.is_empty() {
            // Nothing to vouch for; the provider must still answer.
            let unknown = FrameId::new(
                self.provider_name.clone(),
                UNKNOWN_FRAME,
                Some(format!("sha256:{}", "0".repeat(64))),
            );
            self.ask_verify("verify", vec![unknown]);
            if self.begin("verify changed digests") {
                self.skip("no frame served so far carries a content_digest");
            }
            return;
        }
        if let Some(verdicts) = self.ask_verify("verify", held.clone()) {
            let unvouched: Vec<String> = held
                .iter()
                .filter(|identity| {
                    !verdicts
                        .iter()
                        .any(|v| &v.frame == *identity && v.verdict.permits_reuse())
                })
                .map(|identity| format!("\"{}\"", identity.frame_id))
                .collect();
            if !unvouched.is_empty() {
                self.problem_in_last(
                    Severity::Error,
                    Rule::V4,
                    format!(
                        "the provider declares verify but does not answer `valid` for {} of the {} frame(s) it has just served with these digests: {}",
                        unvouched.len(),
                        held.len(),
                        unvouched.join(", ")
                    ),
                );
            }
        }
        let changed: Vec<FrameId> = held
            .iter()
            .map(|identity| {
                let mut changed = identity.clone();
                changed.content_digest = identity.content_digest.as_deref().map(other_digest);
                changed
            })
            .collect();
        if let Some(verdicts) = self.ask_verify("verify changed digests", changed.clone()) {
            let mut wrong = Vec::new();
            for verdict in verdicts.iter().filter(|v| changed.contains(&v.frame)) {
                if verdict.verdict.status() != "stale" {
                    wrong.push(format!(
                        "\"{}\" is `{}`",
                        verdict.frame.frame_id,
                        verdict.verdict.status()
                    ));
                }
            }
            if !wrong.is_empty() {
                self.problem_in_last(
                    Severity::Error,
                    Rule::V1,
                    format!(
                        "asked about frames it still serves, under digests it never served, the provider must answer `stale`: {}",
                        wrong.join(", ")
                    ),
                );
            }
        }
    }

    /// Runs a step that sends `verify` for `frames`; the verdicts, when the
    /// reply is `verified`.
    fn ask_verify(&mut self, name: &str, frames: Vec<FrameId>) -> Option<Vec<FrameVerdict>> {
        if !self.begin(name) {
            return None;
        }
        let line = encode(&Envelope::Verify {
            request: VerifyRequest {
                frames: frames.clone(),
            },
        });
        let reply = self.exchange(&line, false, &[Variant::Verified, Variant::Error], None);
        let verdicts = match reply.and_then(|checked| checked.envelope) {
            Some(Envelope::Verified { response }) => {
                self.detail(format!(
                    "{} verdict(s) for {} identit{}",
                    response.verdicts.len(),
                    frames.len(),
                    if frames.len() == 1 { "y" } else { "ies" }
                ));
                for (index, verdict) in response.verdicts.iter().enumerate() {
                    if !frames.contains(&verdict.frame) {
                        self.problem(
                            Severity::Warning,
                            Side::Provider,
                            None,
                            format!(
                                "verdict {index} is about frame \"{}\", an identity the host did not ask about (a host ignores it)",
                                verdict.frame.frame_id
                            ),
                        );
                    }
                }
                Some(response.verdicts)
            }
            Some(Envelope::Error { code, message, .. }) => {
                let code = code.unwrap_or(ErrorCode::Internal);
                self.detail(format!("error {}: {message}", code.as_str()));
                None
            }
            _ => None,
        };
        self.finish();
        verdicts
    }

    fn probe(&mut self, name: &str, line: &[u8]) {
        if !self.begin(name) {
            return;
        }
        let reply = self.exchange(line, true, &[Variant::Error], Some(Rule::R1));
        if let Some(Envelope::Error { code, message, .. }) = reply.and_then(|c| c.envelope) {
            let code = code.unwrap_or(ErrorCode::Internal);
            self.detail(format!("error {}: {message}", code.as_str()));
            if code != ErrorCode::BadRequest {
                self.problem(
                    Severity::Warning,
                    Side::Provider,
                    Some(Rule::R1),
                    format!(
                        "the provider answers an undecodable line with error `{}`; R1 asks for `bad_request`",
                        code.as_str()
                    ),
                );
            }
        }
        self.finish();
    }

    fn shutdown(&mut self) {
        if !self.begin("shutdown") {
            return;
        }
        if !self.send(&encode(&Envelope::Shutdown), false) {
            self.finish();
            return;
        }
        let timeout = self.options.timeout;
        let deadline = super::deadline(timeout);
        loop {
            let remaining = deadline.saturating_duration_since(Instant::now());
            match self.peer.receive(remaining) {
                Received::Line { bytes, terminated } => {
                    self.unsolicited(&bytes, terminated, "after shutdown");
                    if self.ended.is_some() {
                        break;
                    }
                }
                Received::TooLong { length } => {
                    self.unsolicited_too_long(length);
                    if self.ended.is_some() {
                        break;
                    }
                }
                Received::Closed | Received::Timeout => break,
                Received::Failed(error) => {
                    self.read_failed(None, &error);
                    break;
                }
            }
        }
        if self.ended.is_some() {
            self.finish();
            return;
        }
        let remaining = deadline.saturating_duration_since(Instant::now());
        // Also when the output is still open: a grandchild may hold it.
        let exit = self.peer.wait_exit(remaining);
        match exit {
            Some(exit) => {
                self.detail(format!("the provider exited ({exit})"));
                self.exit = Some(exit);
            }
            None => {
                self.problem(
                    Severity::Error,
                    Side::Provider,
                    None,
                    format!(
                        "the provider did not exit within {} of shutdown",
                        seconds(timeout)
                    ),
                );
                self.end("the provider ignored shutdown");
            }
        }
        self.finish();
    }

    fn teardown(&mut self) -> String {
        if let Some(exit) = self.exit.take() {
            return exit;
        }
        if let Some(exit) = self.peer.wait_exit(Duration::ZERO) {
            return exit;
        }
        if self.closed_output {
            if let Some(exit) = self.peer.wait_exit(EXIT_GRACE) {
                return exit;
            }
        }
        format!("{} (killed by cgp check)", self.peer.kill())
    }

    // ----- the conversation -----

    /// Sends `line` and waits for the one reply it asks for.
    fn exchange(
        &mut self,
        line: &[u8],
        probe: bool,
        expected: &[Variant],
        rule: Option<Rule>,
    ) -> Option<Checked> {
        if !self.send(line, probe) {
            return None;
        }
        let timeout = self.options.timeout;
        let reply = match self.peer.receive(timeout) {
            Received::Line { bytes, terminated } => {
                let checked = self.record(Side::Provider, &bytes, false);
                if !terminated {
                    self.closed_mid_line();
                }
                Some(checked)
            }
            Received::TooLong { length } => {
                self.record_too_long(length);
                None
            }
            Received::Timeout => {
                self.problem(
                    Severity::Error,
                    Side::Provider,
                    rule,
                    format!("no reply within {}", seconds(timeout)),
                );
                self.end("the provider did not answer in time");
                return None;
            }
            Received::Closed => {
                self.closed_output = true;
                self.problem(
                    Severity::Error,
                    Side::Provider,
                    rule,
                    "the provider closed its output instead of answering (did it exit?)".into(),
                );
                self.end("the provider closed its output");
                return None;
            }
            Received::Failed(error) => {
                self.read_failed(rule, &error);
                return None;
            }
        };
        if let Some(checked) = reply.as_ref().filter(|checked| checked.envelope.is_none()) {
            let what = checked.variant.map_or("line", |variant| variant.as_str());
            self.detail(format!("the reply is an invalid `{what}`"));
        }
        let variant = reply.as_ref().and_then(|checked| checked.variant);
        if let Some(variant) = variant {
            if !expected.contains(&variant) {
                let names: Vec<&str> = expected.iter().map(|v| v.as_str()).collect();
                self.problem(
                    Severity::Error,
                    Side::Provider,
                    rule,
                    format!("expected {} in reply, got `{variant}`", names.join(" or ")),
                );
            }
        } else if let Some(rule) = rule {
            if self.ended.is_none() {
                self.problem(
                    Severity::Error,
                    Side::Provider,
                    Some(rule),
                    "the reply is not an envelope; an undecodable line must be answered with an error envelope".into(),
                );
            }
        }
        if self.ended.is_none() {
            self.drain();
        }
        reply
    }

    fn send(&mut self, line: &[u8], probe: bool) -> bool {
        self.record(Side::Host, line, probe);
        match self.peer.send(line) {
            Ok(()) => true,
            Err(error) => {
                self.problem(
                    Severity::Error,
                    Side::Provider,
                    None,
                    format!("cannot write to the provider ({error}); it stopped reading its input"),
                );
                self.end("the provider stopped reading its input");
                false
            }
        }
    }

    /// Reads what the provider wrote without being asked.
    fn drain(&mut self) {
        while self.ended.is_none() {
            match self.peer.receive(Duration::ZERO) {
                Received::Timeout => return,
                Received::Line { bytes, terminated } => {
                    self.unsolicited(&bytes, terminated, "no request was waiting for them");
                }
                Received::TooLong { length } => self.unsolicited_too_long(length),
                Received::Closed => {
                    self.closed_output = true;
                    self.problem(
                        Severity::Error,
                        Side::Provider,
                        None,
                        "the provider closed its output before shutdown (did it exit?)".into(),
                    );
                    self.end("the provider closed its output");
                }
                Received::Failed(error) => self.read_failed(None, &error),
            }
        }
    }

    fn unsolicited(&mut self, bytes: &[u8], terminated: bool, when: &'static str) {
        let checked = self.record(Side::Provider, bytes, false);
        if !terminated {
            self.closed_mid_line();
        }
        let notification = matches!(checked.envelope, Some(Envelope::Error { id: None, .. }));
        self.note_unsolicited(self.sequence, notification, when);
        self.count_unsolicited();
    }

    /// Tallies an unsolicited line in the current step; [`Self::finish`] turns
    /// the tally into one problem per step.
    fn note_unsolicited(&mut self, sequence: usize, notification: bool, when: &'static str) {
        let tally = self.unsolicited_in_step.get_or_insert(Unsolicited {
            first: sequence,
            lines: 0,
            notifications: 0,
            when,
        });
        tally.lines += 1;
        if notification {
            tally.notifications += 1;
        }
    }

    fn unsolicited_too_long(&mut self, length: u64) {
        self.record_too_long(length);
        self.note_unsolicited(self.sequence, false, "no request was waiting for them");
        self.count_unsolicited();
    }

    fn count_unsolicited(&mut self) {
        self.unsolicited += 1;
        if self.unsolicited > MAX_UNSOLICITED && self.ended.is_none() {
            self.problem(
                Severity::Error,
                Side::Provider,
                None,
                format!(
                    "the provider floods its output: more than {MAX_UNSOLICITED} unsolicited lines"
                ),
            );
            self.end("the provider flooded its output");
        }
    }

    fn read_failed(&mut self, rule: Option<Rule>, error: &str) {
        self.problem(
            Severity::Error,
            Side::Provider,
            rule,
            format!("reading the provider's output failed: {error}"),
        );
        self.end("reading the provider's output failed");
    }

    fn closed_mid_line(&mut self) {
        self.problem(
            Severity::Error,
            Side::Provider,
            None,
            "the output ended in the middle of this line, without a line feed".into(),
        );
    }

    /// Judges one line and adds it to the current step.
    fn record(&mut self, side: Side, bytes: &[u8], probe: bool) -> Checked {
        self.sequence += 1;
        let sequence = self.sequence;
        let mut checked = check_message(self.interop, bytes);
        let mut warnings: Vec<Finding> = Vec::new();
        if let (true, Some(value)) = (checked.is_valid(), &checked.value) {
            warnings = self
                .strict
                .validate_envelope(value)
                .into_iter()
                .map(Finding::schema)
                .collect();
            locate(bytes, &mut warnings);
        }
        let expected_direction = match side {
            Side::Host => cgp_types::Direction::HostToProvider,
            Side::Provider => cgp_types::Direction::ProviderToHost,
        };
        let wrong_way = checked
            .envelope
            .as_ref()
            .filter(|envelope| envelope.direction() != expected_direction)
            .map(Envelope::variant);
        if wrong_way.is_none() {
            self.checker
                .add_semantic(bytes, &format!("message #{sequence}"), &mut checked);
        }
        let findings: Vec<(Severity, Finding)> = checked
            .findings
            .iter()
            .cloned()
            .map(|finding| {
                let severity = finding
                    .rule
                    .map_or(Severity::Error, |rule| rule.requirement().into());
                (severity, finding)
            })
            .chain(
                warnings
                    .into_iter()
                    .map(|finding| (Severity::Warning, finding)),
            )
            .collect();
        let text = String::from_utf8_lossy(bytes);
        let shown: String = text.chars().take(SHOWN_LINE_CHARS).collect();
        self.step().messages.push(Message {
            sequence,
            side,
            text: shown,
            length: bytes.len() as u64,
            variant: checked.variant,
            probe,
            findings,
        });
        if let Some(variant) = wrong_way {
            self.problem(
                Severity::Error,
                side,
                None,
                format!(
                    "the {side} sent `{variant}`, a {} message",
                    variant.direction()
                ),
            );
        }
        checked
    }

    fn record_too_long(&mut self, length: u64) {
        self.sequence += 1;
        let sequence = self.sequence;
        self.step().messages.push(Message {
            sequence,
            side: Side::Provider,
            text: String::new(),
            length,
            variant: None,
            probe: false,
            findings: vec![(Severity::Error, Finding::line_too_long(length))],
        });
    }

    // ----- bookkeeping -----

    fn step(&mut self) -> &mut Step {
        self.current.get_or_insert_with(|| Step::new("setup"))
    }

    fn begin(&mut self, name: &str) -> bool {
        self.finish();
        let mut step = Step::new(name);
        let running = match &self.ended {
            Some(reason) => {
                step.skipped = Some(format!("the conversation ended early: {reason}"));
                false
            }
            None => true,
        };
        self.current = Some(step);
        if !running {
            self.finish();
        }
        running
    }

    fn skip(&mut self, reason: &str) {
        self.step().skipped = Some(reason.to_owned());
        self.finish();
    }

    fn finish(&mut self) {
        if let Some(tally) = self.unsolicited_in_step.take() {
            let others = tally.lines - tally.notifications;
            let problem = |severity, message| Problem {
                severity,
                side: Side::Provider,
                rule: None,
                message,
                sequence: Some(tally.first),
            };
            let step = self.step();
            if others > 0 {
                step.problems.push(problem(
                    Severity::Error,
                    format!("{others} unsolicited line(s): {}", tally.when),
                ));
            }
            if tally.notifications > 0 {
                step.problems.push(problem(
                    Severity::Warning,
                    format!(
                        "{} unsolicited error(s) without an id (notifications): {}",
                        tally.notifications, tally.when
                    ),
                ));
            }
        }
        if let Some(step) = self.current.take() {
            self.steps.push(step);
        }
    }

    fn detail(&mut self, detail: String) {
        self.step().detail = detail;
    }

    fn problem(&mut self, severity: Severity, side: Side, rule: Option<Rule>, message: String) {
        let sequence = Some(self.sequence).filter(|&s| s > 0);
        self.step().problems.push(Problem {
            severity,
            side,
            rule,
            message,
            sequence,
        });
    }

    /// A problem of the provider's in the step that just finished.
    fn problem_in_last(&mut self, severity: Severity, rule: Rule, message: String) {
        let sequence = Some(self.sequence).filter(|&s| s > 0);
        if let Some(step) = self.steps.last_mut() {
            step.problems.push(Problem {
                severity,
                side: Side::Provider,
                rule: Some(rule),
                message,
                sequence,
            });
        }
    }

    fn end(&mut self, reason: &str) {
        if self.ended.is_none() {
            self.ended = Some(reason.to_owned());
        }
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
