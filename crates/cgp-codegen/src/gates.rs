//! The gates of `cargo xtask check`: each judges one promise a [`Generation`]
//! must keep and either holds, with a one-line summary, or fails with typed
//! [`GateProblem`]s, which front ends print and tests compare.

use crate::Generation;
use crate::output::{self, Drift};
use crate::release;
use cgp_schema::release::{BumpProblem, FrozenProblem};
use cgp_schema::sync::{self, Mismatch, RustSource};
use cgp_schema::{Diagnostic, Profile};
use serde_json::Value;
use std::fmt;
use std::path::Path;

/// Where the hand-written types live, relative to the repository root.
pub const TYPES_SOURCE: &str = "crates/cgp-types/src";

/// One gate of `check`, in the order [`Gate::ALL`] reports them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Gate {
    /// Every SPEC.md example does what its `expect=` says, under both profiles.
    Corpus,
    /// `generated/` is exactly what `schema/` and SPEC.md produce.
    Generated,
    /// The hand-written types accept what the interop profile accepts and emit
    /// what the strict profile allows.
    Sync,
    /// The declared protocol version and the constants codegen wrote agree.
    Version,
    /// Released files keep their recorded digests, and codegen would not change
    /// them.
    Releases,
    /// The schemas carry the version bump their changes since the latest
    /// release require.
    Bump,
}

impl Gate {
    /// Every gate, in the order `check` reports them.
    pub const ALL: [Gate; 6] = [
        Gate::Corpus,
        Gate::Generated,
        Gate::Sync,
        Gate::Version,
        Gate::Releases,
        Gate::Bump,
    ];

    /// The name `check` prints: `corpus`, `generated`, ….
    pub fn name(self) -> &'static str {
        match self {
            Gate::Corpus => "corpus",
            Gate::Generated => "generated",
            Gate::Sync => "sync",
            Gate::Version => "version",
            Gate::Releases => "releases",
            Gate::Bump => "bump",
        }
    }
}

impl fmt::Display for Gate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a gate fails.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GateProblem {
    /// A SPEC.md example that does not do what its `expect=` says.
    Example(Diagnostic),
    /// A generated file that differs from what codegen writes.
    Stale(Drift),
    /// How many generated files differ, and what to run.
    RunCodegen {
        /// The number of differing files.
        files: usize,
    },
    /// A disagreement between the hand-written types, the schemas and the
    /// version constants.
    Mismatch(Mismatch),
    /// A file the gate needs could not be read.
    Unreadable {
        /// Repository-relative path.
        path: String,
        /// What the operating system said.
        error: String,
    },
    /// A released file on disk is not as its release froze it.
    Frozen(FrozenProblem),
    /// Codegen would write other bytes to a released file.
    WouldOverwrite(FrozenProblem),
    /// The declared version is not the bump the changes need.
    Bump(BumpProblem),
    /// The schemas or a released bundle could not be read into a model.
    Diagnostic(Diagnostic),
}

impl fmt::Display for GateProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GateProblem::Example(diagnostic) | GateProblem::Diagnostic(diagnostic) => {
                diagnostic.fmt(f)
            }
            GateProblem::Stale(Drift::Missing(path)) => write!(f, "{path}: missing"),
            GateProblem::Stale(Drift::Extra(path)) => {
                write!(f, "{path}: stale, no source generates it any more")
            }
            GateProblem::Stale(Drift::Changed { path, diff }) => {
                write!(f, "{path}: out of date\n{diff}")
            }
            GateProblem::RunCodegen { files } => write!(
                f,
                "{files} generated file(s) differ from what schema/ and SPEC.md produce; run `cargo xtask codegen` and commit the result"
            ),
            GateProblem::Mismatch(mismatch) => mismatch.fmt(f),
            GateProblem::Unreadable { path, error } => write!(f, "{path}: cannot read: {error}"),
            GateProblem::Frozen(problem) => problem.fmt(f),
            GateProblem::WouldOverwrite(problem) => {
                write!(f, "codegen would change a frozen file: {problem}")
            }
            GateProblem::Bump(problem) => problem.fmt(f),
        }
    }
}

/// What one gate found: a one-line summary when it holds, its problems when
/// it does not.
pub type GateResult = Result<String, Vec<GateProblem>>;

/// The schemars contracts of the hand-written types, which the sync gate
/// compares with the bundles. The front end passes them in: it is the binary
/// that compiles the hand-written types.
#[derive(Debug, Clone, Copy)]
pub struct Contracts<'a> {
    /// What the types decode.
    pub deserialize: &'a Value,
    /// What the types encode.
    pub serialize: &'a Value,
}

/// Runs `gates` on `generation`, whose tree is at `root`, in the order given.
pub fn run(
    root: &Path,
    generation: &Generation,
    contracts: Contracts<'_>,
    gates: &[Gate],
) -> Vec<(Gate, GateResult)> {
    gates
        .iter()
        .map(|&gate| {
            let result = match gate {
                Gate::Corpus => corpus(generation),
                Gate::Generated => generated(root, generation),
                Gate::Sync => sync_gate(root, generation, contracts),
                Gate::Version => version(root, generation),
                Gate::Releases => releases(root, generation),
                Gate::Bump => bump(root, generation),
            };
            (gate, result)
        })
        .collect()
}

fn corpus(generation: &Generation) -> GateResult {
    if generation.corpus_failures.is_empty() {
        Ok(format!(
            "{} SPEC.md examples hold under both profiles",
            generation.examples.len()
        ))
    } else {
        Err(generation
            .corpus_failures
            .iter()
            .cloned()
            .map(GateProblem::Example)
            .collect())
    }
}

fn generated(root: &Path, generation: &Generation) -> GateResult {
    let drifts = output::compare(root, &generation.files, &generation.foreign)
        .map_err(|problem| vec![GateProblem::Diagnostic(problem)])?;
    if drifts.is_empty() {
        return Ok(format!(
            "{} generated files are current ({})",
            generation.files.len(),
            generation.set.version
        ));
    }
    let files = drifts.len();
    let mut problems: Vec<GateProblem> = drifts.into_iter().map(GateProblem::Stale).collect();
    problems.push(GateProblem::RunCodegen { files });
    Err(problems)
}

fn sync_gate(root: &Path, generation: &Generation, contracts: Contracts<'_>) -> GateResult {
    let rust = RustSource::from_dir(&root.join(TYPES_SOURCE), TYPES_SOURCE);
    let mismatches = sync::compare(&sync::Inputs {
        set: &generation.set,
        interop: generation.bundle(Profile::Interop),
        strict: generation.bundle(Profile::Strict),
        deserialize: contracts.deserialize,
        serialize: contracts.serialize,
        rust: &rust,
    });
    if mismatches.is_empty() {
        Ok("the hand-written types accept the interop profile and emit the strict profile".into())
    } else {
        Err(mismatches.into_iter().map(GateProblem::Mismatch).collect())
    }
}

fn version(root: &Path, generation: &Generation) -> GateResult {
    let files = [
        crate::embed::TYPES_VERSION_FILE,
        "generated/rust/src/types.rs",
    ];
    let mut sources = Vec::new();
    for file in files {
        let text = cgp_schema::source::read_text_bounded(&root.join(file)).map_err(|error| {
            vec![GateProblem::Unreadable {
                path: file.to_owned(),
                error: error.to_string(),
            }]
        })?;
        sources.push((file.to_owned(), text));
    }
    let mismatches = sync::version_agreement(&generation.set, &sources);
    if mismatches.is_empty() {
        Ok(format!(
            "schema/, {} and {} all say {}",
            files[0], files[1], generation.set.version
        ))
    } else {
        Err(mismatches.into_iter().map(GateProblem::Mismatch).collect())
    }
}

fn releases(root: &Path, generation: &Generation) -> GateResult {
    let problems = release::frozen_problems(root, generation);
    if !problems.is_empty() {
        return Err(problems);
    }
    let releases = generation.releases.releases();
    if releases.is_empty() {
        return Ok("no protocol version is released yet".into());
    }
    let versions: Vec<String> = releases.iter().map(|r| r.version.to_string()).collect();
    let files: usize = releases.iter().map(|r| r.files.len()).sum();
    Ok(format!(
        "{files} released files are unchanged ({})",
        versions.join(", ")
    ))
}

fn bump(root: &Path, generation: &Generation) -> GateResult {
    let verdict = release::drift(root, generation).map_err(|problems| {
        problems
            .0
            .into_iter()
            .map(GateProblem::Diagnostic)
            .collect::<Vec<_>>()
    })?;
    if !verdict.passed() {
        return Err(verdict
            .problems
            .into_iter()
            .map(GateProblem::Bump)
            .collect());
    }
    let mut summary = verdict.summary();
    for note in &verdict.notes {
        summary.push_str(&format!("\n     note: {note}"));
    }
    Ok(summary)
}
