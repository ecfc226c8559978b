//! One request and its reply: sending, reading with a timeout, telling a reply
//! from unsolicited lines, and judging every line that crosses.

use super::*;

/// Whether the protocol requires the reply a request asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Wait {
    /// A MUST: silence is a broken rule, and two in a row end the script.
    Required,
    /// A SHOULD: waited for [`Options::should_wait`]; the caller judges
    /// silence (see [`Driver::silent`]), and the script goes on.
    Should,
}

impl Driver<'_> {
    /// Sends `line` and waits for the one reply it asks for. `rule` is the rule
    /// an unanswered request or a closed output breaks.
    pub(super) fn exchange(
        &mut self,
        line: &[u8],
        probe: bool,
        expected: &[Variant],
        rule: Rule,
        wait: Wait,
    ) -> Option<Checked> {
        self.silent = false;
        if !self.send(line, probe, Some(rule)) {
            return None;
        }
        self.await_reply(probe, expected, rule, wait)
    }

    /// The next line the provider wrote: one read ahead first, then the peer's.
    pub(super) fn receive(&mut self, timeout: Duration) -> Received {
        match self.buffered.pop_front() {
            Some(received) => received,
            None => self.peer().receive(timeout),
        }
    }

    /// Waits for the one reply to the request just sent (see [`Self::exchange`]).
    pub(super) fn await_reply(
        &mut self,
        probe: bool,
        expected: &[Variant],
        rule: Rule,
        wait: Wait,
    ) -> Option<Checked> {
        let timeout = match wait {
            Wait::Required => self.options.timeout,
            Wait::Should => self.options.should_wait.min(self.options.timeout),
        };
        let reply = match self.receive(timeout) {
            Received::Line { bytes, terminated } => {
                self.unanswered_in_row = 0;
                let status = self.peer().reply_status();
                let checked = self.record(Side::Provider, &bytes, false);
                if !terminated {
                    self.closed_mid_line();
                }
                if let Some(status) = status {
                    self.failed_status(&status, &checked, probe);
                }
                Some(checked)
            }
            Received::NoReply(status) if wait == Wait::Should => {
                self.unanswered_in_row = 0;
                self.status = Some(format!("{status}: no reply"));
                self.silent = true;
                return None;
            }
            Received::NoReply(status) => {
                self.unanswered_in_row = 0;
                self.problem(
                    Severity::Error,
                    Side::Provider,
                    Some(rule),
                    format!("{status}, no reply, but this request needs one"),
                );
                return None;
            }
            Received::Refused(why) => {
                // The exchange failed, the provider still serves: the script
                // goes on.
                self.unanswered_in_row = 0;
                self.problem(Severity::Error, Side::Provider, Some(rule), why);
                return None;
            }
            Received::TooLong { length } => {
                self.record_too_long(length);
                None
            }
            Received::Timeout if wait == Wait::Should => {
                self.silent = true;
                return None;
            }
            Received::Timeout => {
                self.timed_out(rule, timeout);
                return None;
            }
            Received::Closed => {
                self.closed_output_reported(Some(rule));
                return None;
            }
            Received::Failed(error) => {
                self.read_failed(Some(rule), &error);
                return None;
            }
        };
        if let Some(checked) = &reply {
            self.judge_reply(checked, expected, rule);
        }
        if self.ended.is_none() {
            self.drain();
        }
        reply
    }

    /// A required reply that did not come in time; enough of them in a row
    /// end the script.
    fn timed_out(&mut self, rule: Rule, timeout: Duration) {
        self.problem(
            Severity::Error,
            Side::Provider,
            Some(rule),
            format!("no reply within {}", seconds(timeout)),
        );
        self.unanswered_in_row += 1;
        if self.unanswered_in_row >= MAX_UNANSWERED_IN_ROW {
            self.stopped_answering = true;
            self.end(&format!(
                "the provider answered none of the last {} requests within {} each",
                self.unanswered_in_row,
                seconds(timeout)
            ));
        }
    }

    /// Notes a reply that is invalid, or of a variant the request does not ask for.
    fn judge_reply(&mut self, checked: &Checked, expected: &[Variant], rule: Rule) {
        if checked.envelope.is_none() {
            let what = checked.variant.map_or("line", |variant| variant.as_str());
            self.detail(format!("the reply is an invalid `{what}`"));
        }
        if let Some(variant) = checked.variant {
            if !expected.contains(&variant) {
                let names: Vec<&str> = expected.iter().map(|v| v.as_str()).collect();
                // Surviving bad input is R1's MUST; what the reply is, its SHOULD.
                let rule = if rule == Rule::R1 {
                    Rule::R1Reply
                } else {
                    rule
                };
                self.problem(
                    rule.requirement().into(),
                    Side::Provider,
                    Some(rule),
                    format!("expected {} in reply, got `{variant}`", names.join(" or ")),
                );
            }
        }
    }

    /// Sends `line`. A write that fails because the provider has exited is
    /// reported as its closed output, under `rule` (what a request it left
    /// unanswered breaks), as a read would have found it: whether the write
    /// or the read notices first is a matter of timing.
    pub(super) fn send(&mut self, line: &[u8], probe: bool, rule: Option<Rule>) -> bool {
        self.record(Side::Host, line, probe);
        if self.sent_ahead.as_deref() == Some(line) {
            // Sent already, ahead of the reply to the line before it.
            self.sent_ahead = None;
            return true;
        }
        let Err(error) = self.peer().send(line) else {
            return true;
        };
        if self.drain_within(EXITED_GRACE) {
            self.closed_output_reported(rule);
        } else if self.ended.is_none() {
            self.problem(
                Severity::Error,
                Side::Provider,
                None,
                format!("cannot write to the provider ({error}); it stopped reading its input"),
            );
            self.end("the provider stopped reading its input");
        }
        false
    }

    /// Reports the provider's closed output and ends the conversation: under
    /// `rule` when a request was left unanswered, else as an exit before
    /// shutdown.
    fn closed_output_reported(&mut self, rule: Option<Rule>) {
        self.closed_output = true;
        let message = match rule {
            Some(_) => "the provider closed its output instead of answering (did it exit?)",
            None => "the provider closed its output before shutdown (did it exit?)",
        };
        self.problem(Severity::Error, Side::Provider, rule, message.into());
        self.end("the provider closed its output");
    }

    /// Notes the failed HTTP status a reply envelope came with (SPEC.md
    /// §Transport/HTTP). The envelope is the reply and is judged as one; to a
    /// request a real host sends (not a probe), the status also breaks our
    /// CGP-HTTP-STATUS: the reference host reads it as a transport failure
    /// and never sees the envelope.
    fn failed_status(&mut self, status: &str, checked: &Checked, probe: bool) {
        self.status = Some(format!("the reply came with {status}"));
        self.detail(String::new());
        if probe {
            return;
        }
        let what = match &checked.envelope {
            Some(Envelope::Error { code, .. }) => format!(
                "an `error` ({})",
                code.as_ref().map_or("no code", ErrorCode::as_str)
            ),
            _ => "its reply".to_owned(),
        };
        self.problem(
            Severity::Warning,
            Side::Provider,
            Some(Rule::HttpStatus),
            format!(
                "the provider sent {what} with {status}; the reference host reads any status other than 2xx as a transport failure and never decodes the body, so it loses the reply"
            ),
        );
    }

    /// Reads what the provider wrote without being asked.
    pub(super) fn drain(&mut self) {
        self.drain_within(Duration::ZERO);
    }

    /// Reads what the provider wrote without being asked, waiting up to `wait`
    /// for each line; whether its output is closed. A closed output is left to
    /// the caller, or to the next request or shutdown, which report it: whether
    /// the provider's exit shows here or there is a matter of timing.
    fn drain_within(&mut self, wait: Duration) -> bool {
        // What was read ahead, or what the peer writes next, answers a
        // request sent ahead and still to be recorded.
        if !self.buffered.is_empty() || self.sent_ahead.is_some() {
            return false;
        }
        while self.ended.is_none() {
            match self.peer().receive(wait) {
                Received::Timeout => return false,
                Received::Line { bytes, terminated } => {
                    self.unsolicited(&bytes, terminated, "no request was waiting for them");
                }
                Received::TooLong { length } => self.unsolicited_too_long(length),
                Received::Closed => return true,
                Received::Failed(error) => self.read_failed(None, &error),
                // Only the response to a request: nothing is waiting.
                Received::NoReply(_) | Received::Refused(_) => return false,
            }
        }
        false
    }

    pub(super) fn unsolicited(&mut self, bytes: &[u8], terminated: bool, when: &'static str) {
        // A late reply to a request that was given up on is a reply after all.
        self.unanswered_in_row = 0;
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
    pub(super) fn note_unsolicited(
        &mut self,
        sequence: usize,
        notification: bool,
        when: &'static str,
    ) {
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

    pub(super) fn unsolicited_too_long(&mut self, length: u64) {
        self.record_too_long(length);
        self.note_unsolicited(self.sequence, false, "no request was waiting for them");
        self.count_unsolicited();
    }

    pub(super) fn count_unsolicited(&mut self) {
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

    pub(super) fn read_failed(&mut self, rule: Option<Rule>, error: &str) {
        self.problem(
            Severity::Error,
            Side::Provider,
            rule,
            format!("reading the provider's output failed: {error}"),
        );
        self.end("reading the provider's output failed");
    }

    pub(super) fn closed_mid_line(&mut self) {
        self.problem(
            Severity::Error,
            Side::Provider,
            None,
            "the output ended in the middle of this line, without a line feed".into(),
        );
    }

    /// Judges one line and adds it to the current step.
    pub(super) fn record(&mut self, side: Side, bytes: &[u8], probe: bool) -> Checked {
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
        if let Some(message) = self.current.as_ref().and_then(|step| step.messages.last()) {
            (self.observe)(Event::Line(message));
        }
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

    pub(super) fn record_too_long(&mut self, length: u64) {
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
}
