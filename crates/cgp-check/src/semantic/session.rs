//! Exchange rules, which need both sides of a conversation: each reply is
//! judged against the query it answers (budget sum, frame limit, `id` echo,
//! `kinds`, `as_of`, anchors, embedding dimension).

use super::values::{fingerprint_dimension, is_later};
use super::{Context, Out, Rule, SemanticViolation};
use cgp_types::{ContextFrame, ContextQueryResult, Envelope};
use std::collections::VecDeque;

/// A query waiting for its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Pending {
    pub(super) id: Option<String>,
    max_tokens: u32,
    max_frames: u32,
    kinds: Vec<String>,
    anchors: Vec<String>,
    as_of: Option<String>,
    embedding_length: Option<usize>,
    origin: String,
}

impl Pending {
    /// The bytes of the query's own text a [`Session`] keeps: its id, kinds,
    /// anchors and `as_of`.
    fn remembered_bytes(&self) -> usize {
        let strings = |list: &[String]| list.iter().map(String::len).sum::<usize>();
        self.id.as_ref().map_or(0, String::len)
            + strings(&self.kinds)
            + strings(&self.anchors)
            + self.as_of.as_ref().map_or(0, String::len)
    }
}

/// The exchange rules over a conversation: feed it every envelope of both sides
/// in order ([`Session::observe`]).
///
/// It remembers the provider's `handshake_ack` (for [`Context`] and H4) and the
/// queries in flight, and checks each `frames` or `error` reply against the
/// query it answers: the `id` echo (H4), the budget sum (B1) and the frame
/// limit (B4). A query is answered by the reply that echoes its `id`; replies
/// without an `id` answer the oldest query in flight (lock step).
#[derive(Debug, Clone, Default)]
pub struct Session {
    context: Context,
    correlation: Option<bool>,
    /// `capabilities.verify` of the acknowledgement, once seen.
    verify: Option<bool>,
    /// `capabilities.embeddings_fingerprint` of the acknowledgement, once
    /// seen (`Some(None)`: the provider declares none, or an empty one).
    fingerprint: Option<Option<String>>,
    pub(super) pending: VecDeque<Pending>,
    /// The bytes `pending` remembers ([`Pending::remembered_bytes`]).
    pub(super) pending_id_bytes: usize,
    queries_seen: bool,
}

/// How many unanswered queries a [`Session`] remembers; older ones are
/// forgotten so a one-sided transcript cannot grow memory without bound.
pub const MAX_PENDING_QUERIES: usize = 4096;

/// An id as a message shows it: at most 80 bytes of it.
fn shown_id(id: &str) -> String {
    cgp_schema::shown::cut(id, 80)
}

/// How many bytes of query ids, kinds, anchors and `as_of` a [`Session`]
/// remembers at most: an id may be megabytes long, and 4096 of them must not
/// take gigabytes. The oldest queries are forgotten first.
pub const MAX_PENDING_ID_BYTES: usize = 16 * 1024 * 1024;

impl Session {
    /// A session that has seen nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// What is known about the provider so far.
    pub fn context(&self) -> &Context {
        &self.context
    }

    /// A session whose host speaks `version` (H1 holds acknowledgements to its
    /// family) instead of the working version.
    pub fn speaking(version: Option<&str>) -> Self {
        let mut session = Self::default();
        session.context.host_version = version.map(str::to_owned);
        session
    }

    /// Observes one envelope. `origin` names it in later messages about it (such
    /// as `line 3`). Returns the exchange-rule violations this envelope commits.
    pub fn observe(&mut self, envelope: &Envelope, origin: &str) -> Vec<SemanticViolation> {
        let mut found = Vec::new();
        let mut out = Out(&mut found);
        match envelope {
            Envelope::HandshakeAck {
                provider,
                capabilities,
                attester_keys,
                ..
            } => {
                self.context = Context {
                    attester_keys: attester_keys.clone(),
                    graph: capabilities.graph,
                    provider_name: Some(provider.name.clone()),
                    embedding_dimension: capabilities
                        .embeddings_fingerprint
                        .as_deref()
                        .and_then(fingerprint_dimension),
                    host_version: self.context.host_version.take(),
                };
                self.correlation = Some(capabilities.correlation);
                self.verify = Some(capabilities.verify);
                self.fingerprint = Some(
                    capabilities
                        .embeddings_fingerprint
                        .clone()
                        .filter(|fingerprint| !fingerprint.is_empty()),
                );
            }
            Envelope::Query { id, query } => {
                self.queries_seen = true;
                if let (Some(id), Some(false)) = (id, self.correlation) {
                    out.push(
                        Rule::H4,
                        "/id".into(),
                        format!(
                            "the query carries id \"{}\", but the provider did not declare capabilities.correlation; a host sends ids only to correlating providers",
                            shown_id(id)
                        ),
                    );
                }
                if let (Some(embedding), Some(fingerprint)) = (&query.embedding, &self.fingerprint)
                {
                    host_embedding(embedding.len(), fingerprint.as_deref(), &mut out);
                }
                let pending = Pending {
                    id: id.clone(),
                    max_tokens: query.max_tokens,
                    max_frames: query.max_frames,
                    kinds: query.kinds.iter().map(|k| k.as_str().to_owned()).collect(),
                    anchors: query.anchors.clone(),
                    as_of: query.as_of.clone(),
                    embedding_length: query.embedding.as_ref().map(Vec::len),
                    origin: origin.to_owned(),
                };
                let id_bytes = pending.remembered_bytes();
                while !self.pending.is_empty()
                    && (self.pending.len() >= MAX_PENDING_QUERIES
                        || self.pending_id_bytes + id_bytes > MAX_PENDING_ID_BYTES)
                {
                    self.take_oldest();
                }
                self.pending_id_bytes += id_bytes;
                self.pending.push_back(pending);
            }
            Envelope::Frames { id, result } => {
                if let Some(query) = self.answer(id.as_deref(), true, &mut out) {
                    answer_rules(result, &query, &self.context, &mut out);
                }
            }
            Envelope::Error { id, .. } => {
                self.answer(id.as_deref(), false, &mut out);
            }
            Envelope::Verify { .. } if self.verify == Some(false) => {
                out.push(
                    Rule::VerifyOptIn,
                    String::new(),
                    "the host sends verify, but the provider did not declare capabilities.verify; a host re-queries such a provider instead".into(),
                );
            }
            _ => {}
        }
        found
    }

    fn take_at(&mut self, index: usize) -> Option<Pending> {
        let taken = self.pending.remove(index)?;
        self.pending_id_bytes -= taken.remembered_bytes();
        Some(taken)
    }

    fn take_oldest(&mut self) -> Option<Pending> {
        self.take_at(0)
    }

    /// Finds and removes the query a reply answers, reporting H4 problems.
    fn answer(
        &mut self,
        id: Option<&str>,
        always_reply: bool,
        out: &mut Out<'_>,
    ) -> Option<Pending> {
        let what = if always_reply { "frames" } else { "error" };
        match id {
            Some(id) => {
                if let Some(index) = self
                    .pending
                    .iter()
                    .position(|p| p.id.as_deref() == Some(id))
                {
                    return self.take_at(index);
                }
                if !self.queries_seen {
                    return None;
                }
                let oldest = self.take_oldest();
                let expected = match &oldest {
                    Some(Pending {
                        id: Some(sent),
                        origin,
                        ..
                    }) => {
                        format!(
                            "the query in flight ({origin}) carries \"{}\"",
                            shown_id(sent)
                        )
                    }
                    Some(Pending {
                        id: None, origin, ..
                    }) => {
                        format!("the query in flight ({origin}) carries no id")
                    }
                    None => "no query is in flight".to_owned(),
                };
                out.push(
                    Rule::H4,
                    "/id".into(),
                    format!(
                        "the {what} reply carries id \"{}\", which answers no query in flight; {expected}",
                        shown_id(id)
                    ),
                );
                oldest
            }
            None => match self.pending.front() {
                Some(Pending {
                    id: Some(sent),
                    origin,
                    ..
                }) if self.correlation == Some(true) => {
                    if !always_reply {
                        // An error without an id may be a notification.
                        return None;
                    }
                    out.push(
                        Rule::H4,
                        String::new(),
                        format!(
                            "the frames reply carries no id, but the query it answers ({origin}) carries \"{}\"; a correlating provider must echo it",
                            shown_id(sent)
                        ),
                    );
                    self.take_oldest()
                }
                // Lock step: the reply answers the oldest query.
                Some(_) => self.take_oldest(),
                None => {
                    if always_reply && self.queries_seen {
                        out.push(
                            Rule::H4,
                            String::new(),
                            "an unsolicited frames reply: no query is waiting for an answer".into(),
                        );
                    }
                    None
                }
            },
        }
    }
}

/// E1, the host's MUST: a host sends a query embedding only when its own
/// fingerprint equals the provider's, so never to a provider that declares
/// none, and never with a length other than the provider's fingerprint states
/// (a host whose fingerprint were the provider's would have that dimension).
fn host_embedding(length: usize, fingerprint: Option<&str>, out: &mut Out<'_>) {
    match fingerprint {
        None => out.push(
            Rule::E1Host,
            "/query/embedding".into(),
            "the query carries an embedding, but the provider declared no embeddings_fingerprint; a host sends an embedding only to a provider whose fingerprint is identical to its own".into(),
        ),
        Some(fingerprint) => {
            if let Some(dimension) = fingerprint_dimension(fingerprint) {
                if dimension != length {
                    out.push(
                        Rule::E1Host,
                        "/query/embedding".into(),
                        format!(
                            "the query carries a {length}-dimensional embedding, but the provider's fingerprint \"{}\" states {dimension} dimensions, so the host's fingerprint is not the provider's; a host sends an embedding only to a provider whose fingerprint is identical to its own",
                            cgp_schema::shown::cut(fingerprint, 80)
                        ),
                    );
                }
            }
        }
    }
}

/// Whether `frame` is anchored on one of `anchors`: its own `uri`, or the
/// `target_uri` of one of its relations, is one of them (SPEC.md G4).
pub fn is_anchored(frame: &ContextFrame, anchors: &[String]) -> bool {
    frame.uri.as_ref().is_some_and(|uri| anchors.contains(uri))
        || frame
            .relations
            .iter()
            .any(|relation| anchors.contains(&relation.target_uri))
}

/// The rules on a `frames` reply that need the query it answers: B1, B4, Q1,
/// CGP-AS-OF, G3 and E1.
fn answer_rules(
    result: &ContextQueryResult,
    query: &Pending,
    context: &Context,
    out: &mut Out<'_>,
) {
    budget(result, query, out);
    for (index, frame) in result.frames.iter().enumerate() {
        let at = format!("/result/frames/{index}");
        let kind = frame.kind.as_str();
        if !query.kinds.is_empty() && !query.kinds.iter().any(|k| k == kind) {
            out.push(
                Rule::Q1,
                format!("{at}/kind"),
                format!(
                    "the frame is of kind \"{kind}\", but the query of {} asked only for [{}]",
                    query.origin,
                    query.kinds.join(", ")
                ),
            );
        }
        if let (Some(as_of), Some(valid_from)) = (&query.as_of, &frame.valid_from) {
            if is_later(valid_from, as_of) == Some(true) {
                out.push(
                    Rule::AsOf,
                    format!("{at}/valid_from"),
                    format!(
                        "the frame became valid at {valid_from}, after the as_of {as_of} of the query of {}",
                        query.origin
                    ),
                );
            }
        }
    }
    if context.graph && !query.anchors.is_empty() {
        let first_unanchored = result
            .frames
            .iter()
            .position(|frame| !is_anchored(frame, &query.anchors));
        let last_anchored = result
            .frames
            .iter()
            .rposition(|frame| is_anchored(frame, &query.anchors));
        if let (Some(unanchored), Some(anchored)) = (first_unanchored, last_anchored) {
            if unanchored < anchored {
                out.push(
                    Rule::G3,
                    format!("/result/frames/{anchored}"),
                    format!(
                        "frame {anchored} is anchored on the query's anchors but ranked after frame {unanchored}, which is not (the query of {})",
                        query.origin
                    ),
                );
            }
        }
    }
    if let (Some(length), Some(dimension)) = (query.embedding_length, context.embedding_dimension) {
        if length != dimension {
            out.push(
                Rule::E1,
                "/result".into(),
                format!(
                    "the query of {} carries a {length}-dimensional embedding, but the provider's fingerprint states {dimension} dimensions; it should be refused with bad_request, not scored",
                    query.origin
                ),
            );
        }
    }
}

fn budget(result: &ContextQueryResult, query: &Pending, out: &mut Out<'_>) {
    let total: u64 = result
        .frames
        .iter()
        .map(|frame| u64::from(frame.token_cost))
        .sum();
    if total > u64::from(query.max_tokens) {
        out.push(
            Rule::B1,
            "/result/frames".into(),
            format!(
                "the frames cost {total} budget tokens in total, over the query's max_tokens {} (the query of {})",
                query.max_tokens, query.origin
            ),
        );
    }
    if result.frames.len() as u64 > u64::from(query.max_frames) {
        out.push(
            Rule::B4,
            "/result/frames".into(),
            format!(
                "{} frames, over the query's max_frames {} (the query of {})",
                result.frames.len(),
                query.max_frames,
                query.origin
            ),
        );
    }
}
