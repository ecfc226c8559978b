//! The steps every conversation has: the handshake, the queries of every
//! declared kind (and what the driver learns from their frames), and the
//! shutdown with the provider's exit.

use super::*;

impl Driver<'_> {
    pub(super) fn handshake(&mut self) -> Option<Capabilities> {
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
        let reply = self.exchange(
            &line,
            false,
            &[Variant::HandshakeAck],
            Rule::H1,
            Wait::Required,
        );
        let capabilities = match reply.and_then(|checked| checked.envelope) {
            Some(Envelope::HandshakeAck {
                protocol_version,
                provider,
                capabilities,
                ..
            }) => {
                // H1 and H2 are judged on the line itself, with the other
                // semantic rules.
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
                        Some(Rule::H1),
                        "no usable handshake_ack: the conversation cannot go on".into(),
                    );
                    // Still open both ways: shutdown is still sent (R2).
                    self.stopped_answering = true;
                    self.end("there was no usable handshake_ack");
                }
                None
            }
        };
        self.finish();
        capabilities
    }

    /// A query for `kinds` with the given budget.
    pub(super) fn new_query(
        &self,
        kinds: Vec<String>,
        max_frames: u32,
        max_tokens: u32,
    ) -> ContextQuery {
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
    pub(super) fn query(
        &mut self,
        name: &str,
        query: ContextQuery,
        declared: bool,
    ) -> Option<Envelope> {
        self.query_judged_by(name, query, declared, Rule::Answer, false)
    }

    /// A query showing that the provider still serves after a probe that may
    /// have poisoned it: no reply, or an ended provider, breaks R1.
    pub(super) fn still_serving(&mut self, name: &str) {
        self.query_judged_by(name, self.serving_query(), false, Rule::R1, false);
    }

    /// The line of the next query sent: with the next id when the provider
    /// correlates.
    pub(super) fn query_line(&self, query: ContextQuery) -> Vec<u8> {
        let id = self
            .correlation
            .then(|| format!("cgp-q{}", self.next_id + 1));
        encode(&Envelope::Query { id, query })
    }

    /// The query of [`Self::still_serving`].
    pub(super) fn serving_query(&self) -> ContextQuery {
        self.new_query(Vec::new(), 1, 100)
    }

    /// [`Self::query`], where an unanswered query breaks `rule`.
    pub(super) fn query_judged_by(
        &mut self,
        name: &str,
        query: ContextQuery,
        declared: bool,
        rule: Rule,
        probe: bool,
    ) -> Option<Envelope> {
        if !self.begin(name) {
            return None;
        }
        let line = self.query_line(query);
        if self.correlation {
            self.next_id += 1;
        }
        let reply = self
            .exchange(
                &line,
                probe,
                &[Variant::Frames, Variant::Error],
                rule,
                Wait::Required,
            )
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
    /// provenance (CGP-FILE-BYTES).
    pub(super) fn learn(&mut self, frame: &ContextFrame) {
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
                    Some(Rule::FileBytes),
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

    pub(super) fn shutdown(&mut self) {
        // A provider that stopped answering may still end on shutdown (R2).
        let silent_but_open = self.stopped_answering && !self.closed_output;
        if silent_but_open {
            self.finish();
            self.ended = None;
        }
        if !self.begin("shutdown") {
            return;
        }
        if !self.send(&encode(&Envelope::Shutdown), false, None) {
            self.finish();
            return;
        }
        let timeout = self.options.timeout;
        let deadline = crate::deadline(timeout);
        loop {
            let remaining = deadline.saturating_duration_since(Instant::now());
            match self.receive(remaining) {
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
                Received::NoReply(status) => self.detail(format!("{status}: no reply")),
                Received::Refused(why) => {
                    self.problem(Severity::Error, Side::Provider, Some(Rule::R2), why);
                    break;
                }
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
        let exit = self.peer().wait_exit(remaining);
        match exit {
            Some(exit) => {
                self.detail(format!("the provider exited ({exit})"));
                self.exit = Some(exit);
            }
            None => {
                self.problem(
                    Severity::Error,
                    Side::Provider,
                    Some(Rule::R2),
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

    pub(super) fn teardown(&mut self) -> String {
        if let Some(exit) = self.exit.take() {
            return exit;
        }
        if let Some(exit) = self.peer().wait_exit(Duration::ZERO) {
            return exit;
        }
        if self.closed_output {
            if let Some(exit) = self.peer().wait_exit(EXIT_GRACE) {
                return exit;
            }
        }
        format!("{} (killed by cgp check)", self.peer().kill())
    }
}
