//! The cases of the working version, computed from the SPEC.md corpus, the
//! edge cases of §Leniency, §Numbers and §Transport, every vocabulary value,
//! and mutations of the corpus envelopes (the systematic ones of the
//! randomised differential and the seeded ones of the re-issue proof,
//! `cgp_schema::mutate`). Each case's expectations come from the hand-written
//! decoder and encoder ([`cgp_vectors::decode`], held to the reference crates in
//! `spec-tests`) and from the profiles' validators, as `cgp validate` judges.
//! The result depends on its inputs alone: the same cases, byte for byte, on
//! every machine.

use cgp_check::Validator;
use cgp_check::transcript::check_message;
use cgp_gates::corpus::Example;
use cgp_schema::mutate::{Mutator, mutations};
use cgp_types::Variant;
use cgp_vectors::case::{Case, Transport, Verdict};
use cgp_vectors::decode;
use serde_json::Value;
use std::collections::BTreeSet;

mod cases;
use cases::{edge, vocabulary};

/// The seed of the randomised set.
pub const SEED: u64 = 0x5eed_0021;
/// How many seeded mutations the randomised set holds.
pub const RANDOM_CASES: usize = 3000;
/// How many places of each corpus envelope the systematic mutations change.
const MUTATED_PLACES: usize = 10;

/// One case file: its name (without `.ndjson`) and its cases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseFile {
    /// `corpus`, `edge`, `vocabulary` or `random`.
    pub name: &'static str,
    /// Its cases, in order.
    pub cases: Vec<Case>,
}

impl CaseFile {
    /// The file's text: one case per line, each ending in a line feed.
    pub fn text(&self) -> String {
        let mut text = String::new();
        for case in &self.cases {
            text.push_str(&case.to_line());
            text.push('\n');
        }
        text
    }
}

/// The judges of the schema verdicts.
#[derive(Clone, Copy)]
pub struct Judges<'a> {
    /// The interop profile's validator.
    pub interop: &'a Validator,
    /// The strict profile's validator.
    pub strict: &'a Validator,
}

/// A case before it is judged.
struct Pending {
    id: String,
    description: String,
    source: String,
    transport: Transport,
    bytes: Vec<u8>,
}

/// Collects cases, skipping repeated (transport, bytes) pairs and keeping ids
/// unique; [`Builder::finish`] judges them.
struct Builder<'a> {
    judges: Judges<'a>,
    seen: BTreeSet<(Transport, Vec<u8>)>,
    ids: BTreeSet<String>,
    pending: Vec<Pending>,
}

/// At most this many threads judge a file's cases.
const THREADS: usize = 4;

impl<'a> Builder<'a> {
    fn new(judges: Judges<'a>) -> Self {
        Builder {
            judges,
            seen: BTreeSet::new(),
            ids: BTreeSet::new(),
            pending: Vec::new(),
        }
    }

    fn add(
        &mut self,
        id: String,
        description: &str,
        source: &str,
        transport: Transport,
        bytes: &[u8],
    ) {
        if !self.seen.insert((transport, bytes.to_vec())) {
            return;
        }
        let mut id = id;
        let mut suffix = 2;
        while self.ids.contains(&id) {
            id = format!("{id}~{suffix}");
            suffix += 1;
        }
        self.ids.insert(id.clone());
        self.pending.push(Pending {
            id,
            description: description.to_owned(),
            source: source.to_owned(),
            transport,
            bytes: bytes.to_vec(),
        });
    }

    /// The same bytes on both transports.
    fn both(&mut self, id: &str, description: &str, source: &str, bytes: &[u8]) {
        for transport in [Transport::Stdio, Transport::Http] {
            self.add(
                format!("{id}/{transport}"),
                description,
                source,
                transport,
                bytes,
            );
        }
    }

    /// Judges every case (on a few threads: each case on its own, so the
    /// result is the same in any order) and returns them in the order added.
    fn finish(self, name: &'static str) -> CaseFile {
        let judges = self.judges;
        let threads = std::thread::available_parallelism()
            .map_or(1, usize::from)
            .clamp(1, THREADS);
        let chunk = self.pending.len().div_ceil(threads).max(1);
        let judged: Vec<Vec<Case>> = std::thread::scope(|scope| {
            let workers: Vec<_> = self
                .pending
                .chunks(chunk)
                .map(|part| scope.spawn(move || part.iter().map(|p| judge(judges, p)).collect()))
                .collect();
            workers
                .into_iter()
                .map(|worker| {
                    worker
                        .join()
                        .unwrap_or_else(|payload| std::panic::resume_unwind(payload))
                })
                .collect()
        });
        CaseFile {
            name,
            cases: judged.into_iter().flatten().collect(),
        }
    }
}

/// A pending case with its expectations.
fn judge(judges: Judges<'_>, pending: &Pending) -> Case {
    let bytes = &pending.bytes;
    let (input, input_base64) = Case::input_fields(bytes);
    Case {
        id: pending.id.clone(),
        description: pending.description.clone(),
        source: pending.source.clone(),
        variant: variant_of(pending.transport, bytes),
        transport: pending.transport,
        input,
        input_base64,
        decode: decode::expectation(pending.transport, bytes),
        interop: verdict(judges.interop, bytes),
        strict: verdict(judges.strict, bytes),
    }
}

/// What `cgp validate --profile` says of the bytes.
fn verdict(validator: &Validator, bytes: &[u8]) -> Verdict {
    // The full check, decoding every message: codegen may run on a tree whose
    // hand-written types the sync gate is about to refuse, where the
    // verdict-only shortcut's assumption does not hold.
    let checked = check_message(validator, bytes);
    match checked.findings.first() {
        None => Verdict {
            valid: true,
            at: None,
        },
        Some(finding) => Verdict {
            valid: false,
            at: Some(finding.instance_path.clone()),
        },
    }
}

/// The variant the input names: the decoded envelope's, or else the `type` of
/// the object the bytes hold when it is a variant's tag.
fn variant_of(transport: Transport, bytes: &[u8]) -> Option<String> {
    if let Ok(envelope) = decode::envelope(transport, bytes) {
        return Some(envelope.variant().as_str().to_owned());
    }
    let text = String::from_utf8_lossy(bytes);
    let value: Value = serde_json::from_str(text.trim()).ok()?;
    let tag = value.get("type")?.as_str()?;
    Variant::from_tag(tag).map(|variant| variant.as_str().to_owned())
}

/// Every case file of the working version, in publication order.
pub fn case_files(examples: &[Example], judges: Judges<'_>, version: &str) -> Vec<CaseFile> {
    let envelopes: Vec<&Example> = examples
        .iter()
        .filter(|example| example.target == "Envelope")
        .collect();
    vec![
        corpus(&envelopes, judges),
        edge(judges, version),
        vocabulary(judges, version),
        random(&envelopes, judges),
    ]
}

fn corpus(envelopes: &[&Example], judges: Judges<'_>) -> CaseFile {
    let mut builder = Builder::new(judges);
    for example in envelopes {
        let source = format!("SPEC.md:{}", example.fence_line);
        let description = match &example.reason {
            Some(reason) => format!("{}: {reason}", example.name),
            None => format!("{}: the SPEC.md example", example.name),
        };
        // Over stdio the block travels as one line; over HTTP as written,
        // line breaks and all.
        builder.add(
            format!("corpus/{}/stdio", example.name),
            &description,
            &source,
            Transport::Stdio,
            example.as_line().as_bytes(),
        );
        builder.add(
            format!("corpus/{}/http", example.name),
            &description,
            &source,
            Transport::Http,
            example.json.as_bytes(),
        );
    }
    builder.finish("corpus")
}

fn random(envelopes: &[&Example], judges: Judges<'_>) -> CaseFile {
    let mut builder = Builder::new(judges);
    for example in envelopes {
        let line = example.as_line();
        for (index, mutated) in mutations(&line, MUTATED_PLACES).iter().enumerate().skip(1) {
            let transport = if index % 2 == 0 {
                Transport::Stdio
            } else {
                Transport::Http
            };
            builder.add(
                format!("mutation/{}/{index}", example.name),
                &format!("{} changed: members reordered, removed, duplicated, unknown, or a value of another type", example.name),
                &format!("mutation:{}", example.name),
                transport,
                mutated.as_bytes(),
            );
        }
    }
    let values: Vec<Value> = envelopes
        .iter()
        .filter_map(|example| serde_json::from_str(&example.as_line()).ok())
        .collect();
    let bases: Vec<&Value> = values.iter().collect();
    let mut mutator = Mutator::new(SEED);
    for index in 0..RANDOM_CASES {
        let Some(case) = mutator.next_case(&bases) else {
            break;
        };
        let transport = if index % 2 == 0 {
            Transport::Stdio
        } else {
            Transport::Http
        };
        builder.add(
            format!("random/{SEED:x}/{index}"),
            "a corpus envelope with one to three values removed, replaced or joined by an unknown member",
            &format!("random:{SEED:x}/{index}"),
            transport,
            case.to_string().as_bytes(),
        );
    }
    builder.finish("random")
}
