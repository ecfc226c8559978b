//! The mock provider's answers: one incoming line in, the lines to write back
//! out, with no I/O of its own.

use crate::behaviour::{Behaviour, Without};
use crate::corpus::Corpus;
use cgp_check::semantic::{
    self, Context, budget_tokens, fingerprint_dimension, is_anchored, is_later,
};
use cgp_types::{
    Capabilities, ContextFrame, ContextQuery, ContextQueryResult, DataFlow, Envelope, ErrorCode,
    FrameId, FrameKind, FrameVerdict, ProviderInfo, QueryCapability, Verdict, VerifyRequest,
    VerifyResponse,
};
use std::collections::BTreeMap;
use std::time::Duration;

/// The name the mock gives itself in `handshake_ack` (and so the
/// `provider_id` of the frame identities it recognises).
pub const PROVIDER_NAME: &str = "cgp-mock";

/// The kind of the frame [`Behaviour::UnknownVocabulary`] serves.
pub const UNKNOWN_KIND: &str = "cgp-mock-unknown-kind";

/// How the mock is set up.
#[derive(Debug, Clone)]
pub struct Options {
    /// The protocol version it speaks.
    pub version: String,
    /// The seed of its frame order: the same seed, the same output.
    pub seed: u64,
    /// The faults it injects.
    pub behaviours: Vec<Behaviour>,
    /// The capabilities it withholds.
    pub without: Without,
    /// How long [`Behaviour::SlowReply`] waits before a reply.
    pub delay: Duration,
}

/// What to do after an incoming line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// Complete lines to write, each without its line feed.
    pub lines: Vec<Vec<u8>>,
    /// How long to wait before writing them.
    pub delay: Duration,
    /// What happens next.
    pub end: End,
}

/// What the mock does after an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum End {
    /// Reads the next line.
    Continue,
    /// The host sent `shutdown`: exit 0 (over stdio), answer 204 (over HTTP).
    Shutdown,
    /// [`Behaviour::Crash`]: write these bytes with no line feed and die.
    Crash(Vec<u8>),
}

/// The mock provider.
#[derive(Debug, Clone)]
pub struct Mock {
    options: Options,
    frames: Vec<ContextFrame>,
    kinds: Vec<String>,
    fingerprint: Option<String>,
    /// The digest of every frame it served, by frame id.
    served: BTreeMap<String, Option<String>>,
    queries: u64,
    huge_sent: bool,
}

impl Mock {
    /// A mock serving the embedded corpus.
    pub fn new(options: Options) -> Self {
        Mock::with_corpus(options, crate::corpus::embedded())
    }

    /// A mock serving `corpus`: the frames a conformant provider may send
    /// under the capabilities it declares (every per-frame rule holds, no
    /// `file` provenance, which a checker re-reads from disk), deduplicated by
    /// id and shuffled by the seed.
    pub fn with_corpus(options: Options, corpus: Corpus) -> Self {
        let fingerprint = if options.without.embeddings {
            None
        } else {
            corpus
                .fingerprints
                .iter()
                .find(|fingerprint| fingerprint_dimension(fingerprint).is_some())
                .cloned()
        };
        let context = Context {
            graph: !options.without.graph,
            provider_name: Some(PROVIDER_NAME.to_owned()),
            embedding_dimension: fingerprint.as_deref().and_then(fingerprint_dimension),
            attester_keys: Vec::new(),
            host_version: Some(options.version.clone()),
        };
        let mut frames: Vec<ContextFrame> = Vec::new();
        for mut frame in corpus.frames {
            if options.without.graph {
                frame.relations.clear();
            }
            if context.embedding_dimension.is_none() {
                frame.embedding = None;
            }
            let conformant = semantic::check_frame(&frame, "", &context).is_empty()
                && frame.provenance.iter().all(|source| source.kind != "file")
                && frame.kind.is_known()
                && !frames.iter().any(|kept| kept.id == frame.id);
            if conformant {
                frames.push(frame);
            }
        }
        shuffle(&mut frames, options.seed);
        if options.behaviours.contains(&Behaviour::UnknownVocabulary) {
            let content = "A frame of a kind no protocol version defines.".to_owned();
            frames.push(ContextFrame {
                id: "cgp-mock-unknown".into(),
                kind: FrameKind::from_wire(UNKNOWN_KIND),
                title: "An unknown kind".into(),
                citation_label: Some("cgp-mock unknown kind".into()),
                token_cost: u32::try_from(budget_tokens(Some(&content))).unwrap_or(u32::MAX),
                content: Some(content),
                score: 0.5,
                ..empty_frame()
            });
        }
        let mut kinds: Vec<String> = Vec::new();
        for frame in &frames {
            let kind = frame.kind.as_str().to_owned();
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
        kinds.sort();
        Mock {
            options,
            frames,
            kinds,
            fingerprint,
            served: BTreeMap::new(),
            queries: 0,
            huge_sent: false,
        }
    }

    /// The frames it can serve, in its seeded order.
    pub fn frames(&self) -> &[ContextFrame] {
        &self.frames
    }

    fn has(&self, behaviour: Behaviour) -> bool {
        self.options.behaviours.contains(&behaviour)
    }

    /// What the mock does with one incoming line (without its line feed).
    pub fn answer(&mut self, line: &[u8]) -> Answer {
        let mut lines = Vec::new();
        let mut end = End::Continue;
        let reply = self.reply(line, &mut end);
        if let Some(reply) = reply {
            if self.has(Behaviour::GarbageLine) && !matches!(reply, Envelope::HandshakeAck { .. }) {
                lines.push(b"this line is not JSON (cgp mock --behaviour garbage-line)".to_vec());
            }
            let mut bytes = cgp_types::encode_line(&reply)
                .map(String::into_bytes)
                .unwrap_or_default();
            if bytes.last() == Some(&b'\n') {
                bytes.pop();
            }
            if matches!(reply, Envelope::Frames { .. }) {
                if self.has(Behaviour::Crash) {
                    bytes.truncate(bytes.len() / 2);
                    end = End::Crash(bytes);
                    return Answer {
                        lines,
                        delay: self.delay(),
                        end,
                    };
                }
                if self.has(Behaviour::HugeLine) && !self.huge_sent {
                    self.huge_sent = true;
                    bytes.resize(cgp_types::MAX_LINE_BYTES + 1, b' ');
                    bytes.extend_from_slice(b"  ");
                }
            }
            lines.push(bytes);
        }
        Answer {
            lines,
            delay: self.delay(),
            end,
        }
    }

    fn delay(&self) -> Duration {
        if self.has(Behaviour::SlowReply) {
            self.options.delay
        } else {
            Duration::ZERO
        }
    }

    fn error(&self, id: Option<String>, code: ErrorCode, message: String) -> Envelope {
        Envelope::Error {
            id: id.filter(|_| !self.options.without.correlation),
            code: Some(code),
            message,
        }
    }

    fn reply(&mut self, line: &[u8], end: &mut End) -> Option<Envelope> {
        let envelope = match cgp_types::ndjson::decode_line_bytes(line) {
            Ok(envelope) => envelope,
            Err(error) => {
                let value: Option<serde_json::Value> = serde_json::from_slice(line).ok();
                let known = value
                    .as_ref()
                    .and_then(|value| value.get("type"))
                    .and_then(serde_json::Value::as_str)
                    .is_some_and(|kind| {
                        cgp_types::Variant::ALL
                            .iter()
                            .any(|variant| variant.as_str() == kind)
                    });
                if value.as_ref().is_some_and(serde_json::Value::is_object) && !known {
                    // An envelope of a type this version does not define: a
                    // notification, ignored.
                    return None;
                }
                let id = value
                    .as_ref()
                    .and_then(|value| value.get("id"))
                    .and_then(serde_json::Value::as_str)
                    .map(str::to_owned);
                return Some(self.error(
                    id,
                    ErrorCode::BadRequest,
                    format!("cannot read the line: {error}"),
                ));
            }
        };
        match envelope {
            Envelope::Handshake { protocol_version } => {
                if !cgp_types::versions_compatible(&protocol_version, &self.options.version) {
                    return Some(self.error(
                        None,
                        ErrorCode::IncompatibleVersion,
                        format!(
                            "the host speaks {protocol_version}; this provider speaks {}",
                            self.options.version
                        ),
                    ));
                }
                Some(self.handshake_ack())
            }
            Envelope::Query { id, query } => Some(self.query(id, &query)),
            Envelope::Verify { request } => Some(self.verify(&request)),
            Envelope::Shutdown => {
                *end = End::Shutdown;
                None
            }
            other => Some(self.error(
                None,
                ErrorCode::BadRequest,
                format!(
                    "a provider does not accept `{}`, which a provider sends",
                    other.variant().as_str()
                ),
            )),
        }
    }

    fn handshake_ack(&self) -> Envelope {
        let version = if self.has(Behaviour::OtherMajor) {
            next_major(&self.options.version)
        } else {
            self.options.version.clone()
        };
        Envelope::HandshakeAck {
            protocol_version: version,
            provider: ProviderInfo {
                name: PROVIDER_NAME.into(),
                version: env!("CARGO_PKG_VERSION").into(),
                data_flow: DataFlow {
                    reads: true,
                    ..DataFlow::default()
                },
            },
            capabilities: Capabilities {
                query: QueryCapability {
                    kinds: self.kinds.clone(),
                },
                correlation: !self.options.without.correlation,
                graph: !self.options.without.graph,
                embeddings_fingerprint: self.fingerprint.clone(),
                verify: !self.options.without.verify,
                ..Capabilities::default()
            },
            attester_keys: Vec::new(),
        }
    }

    fn query(&mut self, id: Option<String>, query: &ContextQuery) -> Envelope {
        self.queries += 1;
        if let Some(embedding) = &query.embedding {
            let dimension = self.fingerprint.as_deref().and_then(fingerprint_dimension);
            let problem = match dimension {
                None => Some("this provider declares no embeddings_fingerprint".to_owned()),
                Some(dimension) if dimension != embedding.len() => Some(format!(
                    "the query embedding has {} dimensions; this provider's fingerprint states {dimension}",
                    embedding.len()
                )),
                Some(_) => None,
            };
            if let Some(problem) = problem {
                return self.error(id, ErrorCode::BadRequest, problem);
            }
        }
        let unserved: Vec<&str> = query
            .kinds
            .iter()
            .map(FrameKind::as_str)
            .filter(|kind| !self.kinds.iter().any(|served| served == kind))
            .collect();
        if !query.kinds.is_empty() && unserved.len() == query.kinds.len() {
            return self.error(
                id,
                ErrorCode::UnsupportedKind,
                format!(
                    "this provider serves none of the kinds [{}]",
                    unserved.join(", ")
                ),
            );
        }
        let mut candidates: Vec<&ContextFrame> = self
            .frames
            .iter()
            .filter(|frame| query.kinds.is_empty() || query.kinds.contains(&frame.kind))
            .filter(|frame| match (&query.as_of, &frame.valid_from) {
                (Some(as_of), Some(from)) => is_later(from, as_of) != Some(true),
                _ => true,
            })
            .collect();
        if !self.options.without.graph && !query.anchors.is_empty() {
            candidates.sort_by_key(|frame| !is_anchored(frame, &query.anchors));
        }
        let mut chosen: Vec<ContextFrame> = Vec::new();
        let mut dropped: u32 = 0;
        if self.has(Behaviour::OverBudget) {
            chosen = over_budget(&candidates, query);
        } else {
            let mut total: u64 = 0;
            for frame in candidates {
                let cost = u64::from(frame.token_cost);
                if (chosen.len() as u64) < u64::from(query.max_frames)
                    && total + cost <= u64::from(query.max_tokens)
                {
                    total += cost;
                    chosen.push(frame.clone());
                } else {
                    dropped = dropped.saturating_add(1);
                }
            }
        }
        for frame in &chosen {
            self.served
                .insert(frame.id.clone(), frame.content_digest.clone());
        }
        let id = if self.has(Behaviour::WrongId) {
            Some(format!(
                "{}-not-the-id-sent",
                id.as_deref().unwrap_or("cgp-mock")
            ))
        } else {
            id.filter(|_| !self.options.without.correlation)
        };
        Envelope::Frames {
            id,
            result: ContextQueryResult {
                frames: chosen,
                truncated: dropped > 0,
                dropped_estimate: (dropped > 0).then_some(dropped),
                frame_attestations: Vec::new(),
                result_attestation: None,
            },
        }
    }

    fn verify(&self, request: &VerifyRequest) -> Envelope {
        if self.options.without.verify {
            return self.error(
                None,
                ErrorCode::BadRequest,
                "this provider does not answer verify (it declared capabilities.verify false)"
                    .into(),
            );
        }
        let verdicts = request
            .frames
            .iter()
            .map(|frame| FrameVerdict {
                frame: frame.clone(),
                verdict: self.verdict(frame),
            })
            .collect();
        Envelope::Verified {
            response: VerifyResponse { verdicts },
        }
    }

    /// By frame id and digest: a host routes `verify` by its own name for the
    /// provider, which need not be the mock's.
    fn verdict(&self, frame: &FrameId) -> Verdict {
        if self.has(Behaviour::StaleVerify) {
            return Verdict::Stale {
                replacement_digest: None,
            };
        }
        match self.served.get(&frame.frame_id) {
            Some(digest) if frame.content_digest.is_none() || &frame.content_digest == digest => {
                Verdict::Valid
            }
            Some(digest) => Verdict::Stale {
                replacement_digest: digest.clone(),
            },
            None => Verdict::Unknown,
        }
    }
}

/// At least one frame more than `max_frames`, and more budget tokens than
/// `max_tokens`, as far as the candidates can make it (copies get new ids).
fn over_budget(candidates: &[&ContextFrame], query: &ContextQuery) -> Vec<ContextFrame> {
    let mut chosen = Vec::new();
    let mut total: u64 = 0;
    let limit = u64::from(query.max_frames).saturating_add(1);
    let cap = 10_000u64.max(limit.min(100_000));
    for (round, frame) in candidates.iter().cycle().enumerate() {
        let count = chosen.len() as u64;
        let enough = count >= limit && total > u64::from(query.max_tokens);
        if enough || count >= cap {
            break;
        }
        let mut frame = (*frame).clone();
        if round >= candidates.len() {
            frame.id = format!("{}-copy-{round}", frame.id);
        }
        total += u64::from(frame.token_cost);
        chosen.push(frame);
    }
    chosen
}

/// `version` with its major one higher: a version of another family.
fn next_major(version: &str) -> String {
    match version.parse::<cgp_schema::ProtocolVersion>() {
        Ok(parsed) => cgp_schema::ProtocolVersion {
            major: parsed.major.saturating_add(1),
            minor: 0,
            ..parsed
        }
        .to_string(),
        Err(_) => format!("{version}-other-family"),
    }
}

/// A frame with nothing in it, for struct update syntax.
fn empty_frame() -> ContextFrame {
    ContextFrame {
        id: String::new(),
        kind: FrameKind::Doc,
        title: String::new(),
        content: None,
        content_digest: None,
        uri: None,
        representation: Default::default(),
        content_fidelity: None,
        canonical_content_hash: None,
        content_ref: None,
        transform: None,
        minimum_content_fidelity: None,
        inline_content_requirement: None,
        score: 0.0,
        token_cost: 0,
        canonical_token_cost: None,
        tokenizer_ref: None,
        valid_from: None,
        valid_to: None,
        recorded_at: None,
        provenance: Vec::new(),
        citation_label: None,
        embedding: None,
        relations: Vec::new(),
    }
}

/// Fisher–Yates with splitmix64: the same seed, the same order, on every
/// machine.
fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut state = seed;
    let mut next = || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    for index in (1..items.len()).rev() {
        let bound = index as u64 + 1;
        let pick = usize::try_from(next() % bound).unwrap_or(0);
        items.swap(index, pick);
    }
}
