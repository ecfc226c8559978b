//! The host's side of a conformance conversation.
//!
//! [`run`] plays a host against a [`Peer`]: it sends a `handshake`, queries
//! covering every kind the provider declares, a query with a tiny budget and one
//! with a zero budget, a `verify` when the provider advertises it, an envelope of
//! an unknown type and a line that is not JSON (both must get an `error` and
//! leave the provider serving, R1), another query, and `shutdown`, after which
//! the provider must exit.
//!
//! Every line in both directions is judged: the interop profile and the
//! decoder give errors, the strict profile warnings, and the exchange rules a
//! host enforces at run time (H3, H4, B1, B4) errors; with
//! [`Options::semantic`] the per-message semantic rules are errors too. Every
//! read has a timeout; an unanswered request, a closed output or a flood of
//! unsolicited lines ends the conversation, and the provider is killed.

use super::{Message, Peer, Problem, Received, Report, SHOWN_LINE_CHARS, Severity, Side, Step};
use crate::semantic::Rule;
use crate::transcript::{Checked, Finding, TranscriptChecker, check_message, locate};
use crate::validate::Validator;
use cgp_types::{
    Capabilities, ContextQuery, Envelope, ErrorCode, FrameId, FrameKind, PROTOCOL_VERSION, Variant,
    VerifyRequest, encode_line, protocol_family, versions_compatible,
};
use std::time::{Duration, Instant};

/// How to run the conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// How long to wait for each reply, and for the exit after `shutdown`.
    pub timeout: Duration,
    /// Also apply the per-message semantic rules (B3, F1, D1, P1–P3, …).
    pub semantic: bool,
}

/// More unsolicited lines than this and the provider is flooding its output.
pub const MAX_UNSOLICITED: usize = 64;
/// At most this many declared kinds get a query of their own.
pub const MAX_KINDS: usize = 8;
/// At most this many held frames are sent in the `verify` request.
pub const MAX_VERIFY_FRAMES: usize = 8;
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
        checker: TranscriptChecker::with_rules(interop, true, options.semantic),
        sequence: 0,
        steps: Vec::new(),
        current: None,
        unsolicited: 0,
        next_id: 0,
        correlation: false,
        provider_name: String::new(),
        held: Vec::new(),
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
    /// The exchange rules always (a host enforces them), the per-message rules
    /// with [`Options::semantic`].
    checker: TranscriptChecker<'a>,
    sequence: usize,
    steps: Vec<Step>,
    current: Option<Step>,
    unsolicited: usize,
    next_id: usize,
    correlation: bool,
    provider_name: String,
    held: Vec<FrameId>,
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
            self.query("query (any kind)", Vec::new(), 5, 2000, false);
        }
        for kind in &kinds {
            self.query(
                &format!("query kind={kind}"),
                vec![kind.clone()],
                5,
                2000,
                true,
            );
        }
        self.query(
            "tiny budget (max_frames 1, max_tokens 1)",
            Vec::new(),
            1,
            1,
            false,
        );
        self.query(
            "zero budget (max_frames 0, max_tokens 0)",
            Vec::new(),
            0,
            0,
            false,
        );
        self.verify(capabilities.verify);
        self.probe(
            "unknown envelope type",
            br#"{"type":"cgp_check_unknown_type","note":"an envelope type this protocol does not define"}"#,
        );
        self.probe("garbage line", b"this line is not JSON {");
        self.query("still serving after garbage", Vec::new(), 1, 100, false);
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
                if !versions_compatible(&spoken, &protocol_version) {
                    self.problem(
                        Severity::Error,
                        Side::Provider,
                        Some(Rule::H3),
                        format!(
                            "the provider acknowledges \"{protocol_version}\", which is not in the {} family; a {spoken} host refuses it",
                            protocol_family(&spoken)
                        ),
                    );
                }
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

    fn query(
        &mut self,
        name: &str,
        kinds: Vec<String>,
        max_frames: u32,
        max_tokens: u32,
        declared: bool,
    ) {
        if !self.begin(name) {
            return;
        }
        let goal = match kinds.first() {
            Some(kind) => format!("cgp check: what do you know about {kind}?"),
            None => "cgp check: what do you know?".to_owned(),
        };
        let mut query = ContextQuery::new(goal, max_frames, max_tokens);
        query.kinds = kinds
            .iter()
            .map(|kind| FrameKind::from_wire(kind.as_str()))
            .collect();
        let id = self.correlation.then(|| {
            self.next_id += 1;
            format!("cgp-q{}", self.next_id)
        });
        let line = encode(&Envelope::Query { id, query });
        let reply = self.exchange(&line, false, &[Variant::Frames, Variant::Error], None);
        match reply.and_then(|checked| checked.envelope) {
            Some(Envelope::Frames { result, .. }) => {
                let cost: u64 = result.frames.iter().map(|f| u64::from(f.token_cost)).sum();
                self.detail(format!(
                    "{} frame(s), {cost} budget token(s){}",
                    result.frames.len(),
                    if result.truncated { ", truncated" } else { "" }
                ));
                for (index, frame) in result.frames.iter().enumerate() {
                    if !kinds.is_empty() && !kinds.iter().any(|kind| frame.kind == kind.as_str()) {
                        self.problem(
                            Severity::Warning,
                            Side::Provider,
                            None,
                            format!(
                                "frame {index} is of kind \"{}\", but the query asked only for [{}]",
                                frame.kind.as_str(),
                                kinds.join(", ")
                            ),
                        );
                    }
                    if frame.content_digest.is_some() && self.held.len() < MAX_VERIFY_FRAMES {
                        self.held.push(FrameId::new(
                            self.provider_name.clone(),
                            frame.id.clone(),
                            frame.content_digest.clone(),
                        ));
                    }
                }
            }
            Some(Envelope::Error { code, message, .. }) => {
                let code = code.unwrap_or(ErrorCode::Internal);
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
    }

    fn verify(&mut self, advertised: bool) {
        if !self.begin("verify") {
            return;
        }
        if !advertised {
            self.skip(
                "the provider does not declare capabilities.verify (V3: a host sends verify only to providers that do)",
            );
            return;
        }
        let mut frames = self.held.clone();
        if frames.is_empty() {
            frames.push(FrameId::new(
                self.provider_name.clone(),
                UNKNOWN_FRAME,
                Some(format!("sha256:{}", "0".repeat(64))),
            ));
        }
        let line = encode(&Envelope::Verify {
            request: VerifyRequest {
                frames: frames.clone(),
            },
        });
        let reply = self.exchange(&line, false, &[Variant::Verified, Variant::Error], None);
        match reply.and_then(|checked| checked.envelope) {
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
            }
            Some(Envelope::Error { code, message, .. }) => {
                let code = code.unwrap_or(ErrorCode::Internal);
                self.detail(format!("error {}: {message}", code.as_str()));
            }
            _ => {}
        }
        self.finish();
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
            .map(|finding| (Severity::Error, finding))
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

fn seconds(duration: Duration) -> String {
    format!("{}s", duration.as_secs_f64())
}
