//! [`GateProblem`]: why a gate fails, typed, in one module that the gates,
//! [`release`](super::release) and [`changelog`](super::changelog) produce and
//! the front ends print.

use crate::output::Stale;
use cgp_gates::coverage::Item;
use cgp_gates::links::Fault;
use cgp_gates::release::{BumpProblem, FrozenProblem};
use cgp_gates::sync::Mismatch;
use cgp_report::changelog::CHANGELOG_FILE;
use cgp_schema::Diagnostic;
use cgp_schema::model::{Location, Place};
use std::fmt;

/// Why a gate fails.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GateProblem {
    /// A SPEC.md example that does not do what its `expect=` says.
    Example(Diagnostic),
    /// A generated file that differs from what codegen writes.
    Stale(Stale),
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
    /// A part of the working version that no valid SPEC.md example uses.
    Uncovered {
        /// What is not covered.
        item: Item,
        /// Where it is written.
        at: Place,
    },
    /// An `x-cgp-spec` annotation whose target does not exist.
    SpecReference {
        /// The annotation's value in its schema file.
        at: Location,
        /// The reference as written, e.g. `SPEC.md#variant-ping`.
        reference: String,
        /// Why it leads nowhere.
        fault: Fault,
    },
    /// A relative Markdown link whose target does not exist.
    BrokenLink {
        /// The repository-relative Markdown file.
        file: String,
        /// The 1-based line the link starts on.
        line: usize,
        /// The destination as written.
        link: String,
        /// Why it leads nowhere.
        fault: Fault,
    },
    /// CHANGELOG.md and the released versions disagree.
    Changelog(ChangelogProblem),
}

impl fmt::Display for GateProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GateProblem::Example(diagnostic) | GateProblem::Diagnostic(diagnostic) => {
                diagnostic.fmt(f)
            }
            GateProblem::Stale(Stale::Missing(path)) => write!(f, "{path}: missing"),
            GateProblem::Stale(Stale::Extra(path)) => {
                write!(f, "{path}: stale, no source generates it any more")
            }
            GateProblem::Stale(Stale::Changed { path, diff }) => {
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
            GateProblem::Uncovered { item, at } => write!(
                f,
                "{at}: {item} appears in no valid SPEC.md example; add one (ARCHITECTURE.md, recipe \"{}\": the corpus example step)",
                item.kind().recipe()
            ),
            GateProblem::SpecReference {
                at,
                reference,
                fault,
            } => write!(f, "{at}: x-cgp-spec `{reference}` leads nowhere: {fault}"),
            GateProblem::BrokenLink {
                file,
                line,
                link,
                fault,
            } => write!(f, "{file}:{line}: link `{link}` leads nowhere: {fault}"),
            GateProblem::Changelog(problem) => problem.fmt(f),
        }
    }
}

/// How CHANGELOG.md disagrees with the released versions (the changelog gate).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChangelogProblem {
    /// A released version without a section; `cargo xtask release` writes it.
    Missing {
        /// The released version.
        version: String,
    },
    /// A released version with more than one section.
    Repeated {
        /// The released version.
        version: String,
        /// How many sections it has.
        count: usize,
    },
    /// A section for a version that is not released.
    NotReleased {
        /// The version the section names.
        version: String,
    },
}

impl fmt::Display for ChangelogProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChangelogProblem::Missing { version } => write!(
                f,
                "{CHANGELOG_FILE} has no section for the released version {version}; `cargo xtask release` writes it"
            ),
            ChangelogProblem::Repeated { version, count } => {
                write!(f, "{CHANGELOG_FILE} has {count} sections for {version}")
            }
            ChangelogProblem::NotReleased { version } => write!(
                f,
                "{CHANGELOG_FILE} has a section for {version}, which is not released"
            ),
        }
    }
}
