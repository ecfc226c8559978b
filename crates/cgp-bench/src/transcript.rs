//! Reproducible synthetic transcripts for benchmarks and smoke tests.
//!
//! [`write()`] emits NDJSON sessions that look like real traffic: a handshake and
//! its acknowledgement, then queries, each answered by `frames` or, now and then,
//! an `error`, then `verify`/`verified` and a `shutdown`. Most queries are
//! lookups, answered by 1 to 3 small frames (200 B to 1 KiB of content), so most
//! lines are short (queries, lookups, errors: under 4 KiB); one query in eight asks
//! for context and gets 1 to 8 frames of 200 B to 64 KiB (log-uniformly), which
//! carry most of the bytes. Every line is canonical at
//! the working protocol version, valid under both profiles and under the semantic rules
//! (honest token costs, well-formed digests and timestamps, citation labels). The
//! same seed and size give the same bytes on every machine.

use cgp_types::{
    Capabilities, ContextFrame, ContextQuery, ContextQueryResult, DataFlow, Envelope, ErrorCode,
    FrameId, FrameKind, FrameVerdict, Provenance, ProviderInfo, QueryCapability, Verdict,
    VerifyRequest, VerifyResponse, encode_line,
};
use spec_tests::rng::Rng;
use std::io::{self, Write};

/// What a generated transcript contains.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TranscriptStats {
    /// Bytes written, newlines included.
    pub bytes: u64,
    /// Lines (envelopes) written.
    pub lines: u64,
    /// Frames inside `frames` envelopes.
    pub frames: u64,
}

const WORDS: &[&str] = &[
    "the",
    "provider",
    "returns",
    "frames",
    "within",
    "budget",
    "retry",
    "policy",
    "ledger",
    "table",
    "owner",
    "deploy",
    "service",
    "config",
    "timeout",
    "request",
    "handler",
    "cache",
    "index",
    "query",
    "token",
    "context",
    "function",
    "returns",
    "error",
    "when",
    "value",
    "is",
    "missing",
    "and",
    "logs",
    "a",
    "warning",
    "migration",
    "schema",
    "version",
    "étude",
    "naïve",
    "日本語",
    "🙂",
];

fn content(rng: &mut Rng, bytes: u64) -> String {
    let mut text = String::with_capacity(bytes as usize + 16);
    let mut line = 0;
    while (text.len() as u64) < bytes {
        if rng.below(12) == 0 {
            text.push('\n');
            line += 1;
            if line % 3 == 0 {
                text.push_str("    ");
            }
        } else if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(rng.pick(WORDS));
    }
    text
}

fn hex(rng: &mut Rng, digits: usize) -> String {
    let mut out = String::with_capacity(digits);
    while out.len() < digits {
        out.push_str(&format!("{:016x}", rng.next_u64()));
    }
    out.truncate(digits);
    out
}

fn digest(rng: &mut Rng) -> String {
    format!("sha256:{}", hex(rng, 64))
}

const KINDS: &[&str] = &[
    "snippet", "symbol", "fact", "doc", "memory", "episode", "graph",
];

/// The content sizes of the frames a context query gets.
const CONTEXT_FRAME_BYTES: (u64, u64) = (200, 64 * 1024);
/// The content sizes of the frames a lookup gets.
const LOOKUP_FRAME_BYTES: (u64, u64) = (200, 1024);

fn frame(rng: &mut Rng, index: u64, (low, high): (u64, u64)) -> ContextFrame {
    let size = rng.log_uniform(low, high);
    let body = content(rng, size);
    let cost = (body.len() as u64).div_ceil(4) as u32;
    let kind = FrameKind::from_wire(rng.pick(KINDS));
    let mut frame = ContextFrame::new(
        format!("frame:{index}:{}", hex(rng, 8)),
        kind,
        format!("Frame {index}"),
        Some(body),
        (rng.below(1000) as f32) / 1000.0,
        cost,
    );
    frame.content_digest = Some(digest(rng));
    frame.uri = Some(format!("file:///repo/src/module_{}.rs", rng.below(500)));
    if rng.below(2) == 0 {
        frame.provenance.push(Provenance {
            kind: "file".into(),
            uri: frame.uri.clone(),
            range: Some(format!("L{}-{}", rng.below(100), 100 + rng.below(100))),
            digest: Some(digest(rng)),
            method: None,
            by: None,
        });
    }
    frame.citation_label = Some(format!("[{index}]"));
    if rng.below(3) == 0 {
        frame.recorded_at = Some("2026-03-01T12:00:00Z".into());
    }
    frame
}

/// Writes NDJSON sessions until at least `target_bytes` are written.
pub fn write(out: &mut impl Write, target_bytes: u64, seed: u64) -> io::Result<TranscriptStats> {
    let mut writer = Writer {
        out,
        rng: Rng::new(seed),
        stats: TranscriptStats::default(),
    };
    let mut session = 0u64;
    while writer.stats.bytes < target_bytes {
        session += 1;
        writer.session(session)?;
    }
    Ok(writer.stats)
}

/// Writes envelopes and counts what it wrote.
struct Writer<'a, W: Write> {
    out: &'a mut W,
    rng: Rng,
    stats: TranscriptStats,
}

impl<W: Write> Writer<'_, W> {
    /// One envelope as its canonical line.
    fn emit(&mut self, envelope: &Envelope) -> io::Result<()> {
        let line = encode_line(envelope).map_err(io::Error::other)?;
        self.out.write_all(line.as_bytes())?;
        self.stats.bytes += line.len() as u64;
        self.stats.lines += 1;
        Ok(())
    }

    /// One session: the handshake, 16 to 63 exchanges, the verification of
    /// some served frames and the shutdown.
    fn session(&mut self, session: u64) -> io::Result<()> {
        self.opening(session)?;
        let exchanges = 16 + self.rng.below(48);
        let mut served = Vec::new();
        for exchange in 0..exchanges {
            served.extend(self.exchange(&format!("q{session}-{exchange}"))?);
        }
        self.closing(served)
    }

    /// The handshake and its acknowledgement.
    fn opening(&mut self, session: u64) -> io::Result<()> {
        self.emit(&Envelope::Handshake {
            protocol_version: cgp_types::PROTOCOL_VERSION.into(),
        })?;
        let capabilities = Capabilities {
            query: QueryCapability {
                kinds: KINDS.iter().map(|kind| (*kind).to_owned()).collect(),
            },
            correlation: true,
            verify: true,
            ..Capabilities::default()
        };
        self.emit(&Envelope::HandshakeAck {
            protocol_version: cgp_types::PROTOCOL_VERSION.into(),
            provider: ProviderInfo {
                name: format!("bench-provider-{}", session % 7),
                version: "1.2.3".into(),
                data_flow: DataFlow {
                    reads: true,
                    ..DataFlow::default()
                },
            },
            capabilities,
            attester_keys: Vec::new(),
        })
    }

    /// A query `id` and its answer: now and then an error, mostly a lookup's
    /// few small frames, one time in eight a context query's larger ones.
    /// Returns the frames served.
    fn exchange(&mut self, id: &str) -> io::Result<Vec<FrameId>> {
        let rng = &mut self.rng;
        let mut query = ContextQuery::new(content(rng, 40), 8, 200_000);
        query.kinds = vec![FrameKind::from_wire(rng.pick(KINDS))];
        self.emit(&Envelope::Query {
            id: Some(id.to_owned()),
            query,
        })?;
        if self.rng.below(20) == 0 {
            self.emit(&Envelope::Error {
                id: Some(id.to_owned()),
                code: Some(ErrorCode::from_wire("unavailable")),
                message: "index is rebuilding".into(),
            })?;
            return Ok(Vec::new());
        }
        let (count, sizes) = if self.rng.below(8) == 0 {
            (1 + self.rng.below(8), CONTEXT_FRAME_BYTES)
        } else {
            (1 + self.rng.below(3), LOOKUP_FRAME_BYTES)
        };
        let first = self.stats.frames;
        let frames: Vec<ContextFrame> = (0..count)
            .map(|index| frame(&mut self.rng, first + index, sizes))
            .collect();
        self.stats.frames += count;
        let served = frames
            .iter()
            .map(|frame| FrameId {
                provider_id: "bench".into(),
                frame_id: frame.id.clone(),
                content_digest: frame.content_digest.clone(),
            })
            .collect();
        let partial = self.rng.below(4) == 0;
        self.emit(&Envelope::Frames {
            id: Some(id.to_owned()),
            result: ContextQueryResult::new(frames, partial),
        })?;
        Ok(served)
    }

    /// `verify` for the first six frames served, `verified` with a verdict
    /// for each, and `shutdown`.
    fn closing(&mut self, served: Vec<FrameId>) -> io::Result<()> {
        let asked: Vec<FrameId> = served.into_iter().take(6).collect();
        self.emit(&Envelope::Verify {
            request: VerifyRequest {
                frames: asked.clone(),
            },
        })?;
        let verdicts = asked
            .into_iter()
            .map(|frame| {
                let verdict = match self.rng.below(4) {
                    0 => Verdict::Stale {
                        replacement_digest: Some(digest(&mut self.rng)),
                    },
                    1 => Verdict::Gone,
                    _ => Verdict::Valid,
                };
                FrameVerdict { frame, verdict }
            })
            .collect();
        self.emit(&Envelope::Verified {
            response: VerifyResponse { verdicts },
        })?;
        self.emit(&Envelope::Shutdown)
    }
}
