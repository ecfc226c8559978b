//! The probes that test one rule each: a query pinned `as_of` (CGP-AS-OF),
//! one anchored on a served URI (G4), one with a wrong-dimension embedding
//! (E1), `verify` with served and changed digests (V2), and lines a provider
//! must survive and should answer with an `error` (R1).

use super::*;

impl Driver<'_> {
    /// CGP-AS-OF: a query pinned to the earliest `valid_from` served so far;
    /// the session flags any frame that became valid after it.
    pub(super) fn as_of(&mut self) {
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

    /// G4: a graph provider asked for frames anchored on a URI it served must
    /// return one; the session checks the ranking (G3).
    pub(super) fn anchored(&mut self, graph: bool) {
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
        let name = format!("query anchors=[{}]", cgp_schema::shown::cut(&anchor, 80));
        if let Some(Envelope::Frames { result, .. }) = self.query(&name, query, false) {
            let anchors = [anchor];
            if !result
                .frames
                .iter()
                .any(|frame| is_anchored(frame, &anchors))
            {
                self.problem_in_last(
                    Severity::Error,
                    Rule::G4,
                    format!(
                        "no frame of the answer is anchored on \"{}\", a URI from the provider's own earlier answers",
                        cgp_schema::shown::cut(&anchors[0], 80)
                    ),
                );
            }
        }
    }

    /// E1: a query embedding whose length contradicts the declared fingerprint
    /// should be refused with `bad_request` (the session flags scoring it).
    pub(super) fn wrong_embedding(&mut self, fingerprint: Option<&str>) {
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
        // A query it cannot use is a bad request: going silent or dying on it
        // breaks R1, not only the reply rule. The query is a probe: sending it
        // breaks the host's E1 on purpose.
        if let Some(Envelope::Error { code, .. }) =
            self.query_judged_by(&name, query, false, Rule::R1, true)
        {
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

    /// V2: asks `verify` about the identities served so far, first as served
    /// (each must be `valid`), then with every digest changed (none may be
    /// `valid`, and each must be `stale`).
    pub(super) fn verify(&mut self, advertised: bool) {
        if !advertised {
            for name in ["verify", "verify changed digests"] {
                if self.begin(name) {
                    self.skip(
                        "the provider does not declare capabilities.verify (CGP-VERIFY-OPTIN: a host sends verify only to providers that do)",
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
                    Rule::V2,
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
                    Rule::V2,
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
    pub(super) fn ask_verify(
        &mut self,
        name: &str,
        frames: Vec<FrameId>,
    ) -> Option<Vec<FrameVerdict>> {
        if !self.begin(name) {
            return None;
        }
        let line = encode(&Envelope::Verify {
            request: VerifyRequest {
                frames: frames.clone(),
            },
        });
        let reply = self.exchange(
            &line,
            false,
            &[Variant::Verified, Variant::Error],
            Rule::V2,
            Wait::Required,
        );
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

    /// Sends a line the provider must survive (R1, judged by the next
    /// step). `garbage`: the line is not JSON, which R1 says SHOULD get an
    /// `error` / `bad_request`; otherwise it is an envelope of an unknown type
    /// without an `id`, a notification a provider may ignore (the protocol's
    /// §2.1) or answer with an `error`. Either way the reply is awaited for
    /// [`Options::should_wait`] only.
    pub(super) fn probe(&mut self, name: &str, line: &[u8], garbage: bool) {
        if !self.begin(name) {
            return;
        }
        let reply = self.exchange(line, true, &[Variant::Error], Rule::R1, Wait::Should);
        self.judge_probe(reply, garbage);
    }

    /// A probe ([`Self::probe`]) and the query that shows the provider still
    /// serves after it ([`Self::still_serving`]), without a fixed wait where
    /// the next message settles whether the probe got a reply: the query is
    /// sent right after the probe, and the replies are told apart by `type`
    /// and `id`. A `frames` first, or an `error` echoing the query's id, is
    /// the query's reply (the probe got none); an `error` without the query's
    /// id, when the query carries one, is the probe's. Only when they cannot
    /// be told apart (no correlation, and an `error` or an invalid line first)
    /// is a second line awaited for [`Options::should_wait`]: if one comes,
    /// the first was the probe's. Over a transport with one response per
    /// request nothing needs telling apart, and the two are sent in turn.
    pub(super) fn probe_then_serve(
        &mut self,
        name: &str,
        line: &[u8],
        garbage: bool,
        serving: &str,
    ) {
        if self.peer().one_response_per_request() || self.ended.is_some() {
            self.probe(name, line, garbage);
            self.still_serving(serving);
            return;
        }
        if !self.begin(name) {
            self.still_serving(serving);
            return;
        }
        self.silent = false;
        if !self.send(line, true, Some(Rule::R1)) {
            self.judge_probe(None, garbage);
            self.still_serving(serving);
            return;
        }
        let query = self.query_line(self.serving_query());
        if self.peer().send(&query).is_err() {
            // The provider is gone: the probe and the query, sent in turn,
            // report it.
            let reply = self.await_reply(true, &[Variant::Error], Rule::R1, Wait::Should);
            self.judge_probe(reply, garbage);
            self.still_serving(serving);
            return;
        }
        self.sent_ahead = Some(query);
        let query_id = self
            .correlation
            .then(|| format!("cgp-q{}", self.next_id + 1));
        let timeout = self.options.timeout;
        let first = self.peer().receive(timeout);
        let probes_reply = match &first {
            Received::Line { bytes, .. } => {
                match cgp_types::ndjson::decode_line_bytes(bytes) {
                    Ok(Envelope::Error { id, .. }) if query_id.is_some() => id != query_id,
                    Ok(Envelope::Error { .. }) | Err(_) => {
                        // Cannot tell: a second line says the first was the probe's.
                        let wait = self.options.should_wait.min(self.options.timeout);
                        let second = self.peer().receive(wait);
                        let more = matches!(second, Received::Line { .. });
                        if !matches!(second, Received::Timeout) {
                            self.buffered.push_back(second);
                        }
                        more
                    }
                    Ok(_) => false,
                }
            }
            // An output that closed, or failed, closed on the probe: the
            // query after it could not be answered.
            Received::Closed | Received::Failed(_) => true,
            _ => false,
        };
        if probes_reply {
            self.buffered.push_front(first);
        } else {
            // The probe got no reply before the query's: silence.
            self.buffered.push_front(first);
            self.buffered.push_front(Received::Timeout);
            self.status = Some("no reply before the reply to the next query".to_owned());
        }
        let reply = self.await_reply(true, &[Variant::Error], Rule::R1, Wait::Should);
        self.judge_probe(reply, garbage);
        if self.sent_ahead.is_some() {
            self.still_serving(serving);
        }
        // Whatever was read ahead and not taken is the provider's own.
        while let Some(received) = self.buffered.pop_front() {
            if let Received::Line { bytes, terminated } = received {
                self.unsolicited(&bytes, terminated, "no request was waiting for them");
            }
        }
        self.sent_ahead = None;
    }

    /// Judges the reply (or silence) a probe got, and ends its step.
    fn judge_probe(&mut self, reply: Option<Checked>, garbage: bool) {
        let wait = match self.status.as_deref() {
            Some(status) if self.silent => status.to_owned(),
            _ => format!(
                "no reply within {}",
                seconds(self.options.should_wait.min(self.options.timeout))
            ),
        };
        match reply.and_then(|checked| checked.envelope) {
            Some(Envelope::Error { code, message, .. }) => {
                let code = code.unwrap_or(ErrorCode::Internal);
                self.detail(format!("error {}: {message}", code.as_str()));
                if garbage && code != ErrorCode::BadRequest {
                    self.problem(
                        Severity::Warning,
                        Side::Provider,
                        Some(Rule::R1Reply),
                        format!(
                            "the provider answers a line that is not JSON with error `{}`; R1 asks for `bad_request`",
                            code.as_str()
                        ),
                    );
                }
            }
            _ if self.silent && garbage => self.problem(
                Severity::Warning,
                Side::Provider,
                Some(Rule::R1Reply),
                format!(
                    "{wait}; R1 asks for an error with code `bad_request` (the next step shows whether the provider still serves)"
                ),
            ),
            _ if self.silent => self.detail(format!(
                "{wait}: allowed, an envelope without an id is a notification a provider may ignore"
            )),
            _ => {}
        }
        self.finish();
    }
}
