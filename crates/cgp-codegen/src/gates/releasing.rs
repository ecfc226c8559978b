//! The decisions of `cargo xtask release`: whether the working version is
//! released, re-issued or refused, and whether an older released version is
//! re-issued from a checkout of the tree that released it.
//!
//! Each entry point runs the gates its decision needs, writes through the
//! atomic writer ([`crate::output`]) only once every precondition holds, and
//! returns an [`Attempt`]: the gates' results and a typed [`Released`] or
//! [`Refusal`], which the front end prints.

use super::release::{self, BlessFailed, Reissued};
use super::{Contracts, Gate, GateResult, changelog};
use crate::output::{self, RealFileSystem};
use crate::plan::{self, Generation, MANIFEST_PATH};
use cgp_gates::reissue::Evidence;
use cgp_gates::release::Blessing;
use cgp_report::changelog::CHANGELOG_FILE;
use cgp_schema::{Diagnostic, Diagnostics, ProtocolVersion};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// What a release run did: the gates it ran, in order, and its outcome.
#[derive(Debug)]
pub struct Attempt {
    /// The gates run before deciding, with their results.
    pub gates: Vec<(Gate, GateResult)>,
    /// What was released, or why nothing was.
    pub outcome: Result<Released, Refusal>,
}

impl Attempt {
    fn refused(refusal: Refusal) -> Attempt {
        Attempt {
            gates: Vec::new(),
            outcome: Err(refusal),
        }
    }
}

/// What a release run wrote.
#[derive(Debug)]
pub enum Released {
    /// The working version's bundles are recorded in the manifest.
    Released {
        /// The version released.
        version: ProtocolVersion,
        /// What became of its CHANGELOG.md section.
        changelog: ChangelogStep,
    },
    /// The version is already released with exactly these bundles.
    Unchanged {
        /// The version.
        version: ProtocolVersion,
        /// What became of its CHANGELOG.md section (`Present` when nothing
        /// was to be done).
        changelog: ChangelogStep,
    },
    /// A released version's bundles were re-issued under the same verdicts.
    Reissued {
        /// The version re-issued.
        version: ProtocolVersion,
        /// The bundles rewritten.
        changed: Vec<String>,
        /// The proof that they judge the wire the same.
        evidence: Evidence,
        /// The checkout an older version was re-issued from.
        from: Option<PathBuf>,
    },
}

/// The CHANGELOG.md section of a just-released version.
#[derive(Debug)]
pub enum ChangelogStep {
    /// It has one already.
    Present,
    /// It was added first.
    Added,
    /// It could not be added.
    Failed(Diagnostics),
}

/// Why a release run wrote nothing (or, for [`Refusal::DerivedUnwritten`],
/// not everything).
#[derive(Debug)]
pub enum Refusal {
    /// The tree cannot be generated.
    Ungenerated(Diagnostics),
    /// A gate the decision needs fails (the results say which).
    GatesFail {
        /// The version that would be released or re-issued.
        version: ProtocolVersion,
        /// Whether it would be a re-issue of the working version, which
        /// needs every gate but the two about the bundles' bytes.
        reissue: Option<Reissue>,
    },
    /// The manifest refuses the working version.
    Bless(BlessFailed),
    /// The re-issued bundles would not judge the wire the same.
    NotTheSameVerdicts {
        /// The version.
        version: ProtocolVersion,
        /// Where each verdict differs.
        problems: Vec<String>,
        /// The checkout an older version's bundles came from.
        from: Option<PathBuf>,
    },
    /// `--from` was given for the working version.
    WorkingFromCheckout(ProtocolVersion),
    /// The version asked for is not released.
    NotReleased {
        /// The version asked for.
        version: ProtocolVersion,
        /// The working version.
        working: ProtocolVersion,
    },
    /// An older version needs a checkout to be re-issued from.
    NeedsCheckout {
        /// The version asked for.
        version: ProtocolVersion,
        /// The working version.
        working: ProtocolVersion,
    },
    /// The checkout cannot be generated.
    CheckoutUngenerated {
        /// The version asked for.
        version: ProtocolVersion,
        /// The checkout.
        from: PathBuf,
        /// Why.
        problems: Diagnostics,
    },
    /// The atomic writer failed (and left the files as they were).
    Unwritten(Diagnostic),
    /// An older version was re-issued, but the files derived from it are not
    /// written.
    DerivedUnwritten {
        /// The version re-issued.
        version: ProtocolVersion,
        /// Why.
        problems: Diagnostics,
    },
    /// The changelog cannot be read for a released version.
    Changelog(Diagnostics),
}

/// Which re-issue a [`Refusal::GatesFail`] refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reissue {
    /// The working version's, with new bundle bytes.
    Working,
    /// An older version's, from a checkout.
    Older,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Ungenerated(problems) | Refusal::Changelog(problems) => problems.fmt(f),
            Refusal::GatesFail { version, reissue } => match reissue {
                None => f.write_str(
                    "refusing to release: every gate of `cargo xtask check` must pass first",
                ),
                Some(Reissue::Working) => write!(
                    f,
                    "refusing to re-issue {version}: every other gate of `cargo xtask check` must pass first"
                ),
                Some(Reissue::Older) => write!(
                    f,
                    "refusing to re-issue {version}: every gate of `cargo xtask check` must pass first"
                ),
            },
            Refusal::Bless(problem) => write!(f, "refusing to release: {problem}"),
            Refusal::NotTheSameVerdicts {
                version,
                problems,
                from,
            } => {
                for problem in problems {
                    writeln!(f, "{problem}")?;
                }
                match from {
                    None => write!(
                        f,
                        "refusing to re-issue {version}: its released bundles would not judge the wire the same; declare a newer version in schema/ instead"
                    ),
                    Some(from) => write!(
                        f,
                        "refusing to re-issue {version}: the bundles {} gives would not judge the wire the same",
                        from.display()
                    ),
                }
            }
            Refusal::WorkingFromCheckout(version) => write!(
                f,
                "{version} is the working version: it is released or re-issued from schema/, without --from"
            ),
            Refusal::NotReleased { version, working } => write!(
                f,
                "{version} is not released (the working version is {working}); only a released version can be re-issued"
            ),
            Refusal::NeedsCheckout { version, working } => write!(
                f,
                "{version} is older than the working version {working}, and schema/ no longer holds its schemas: give a checkout of the tree that released it with --from DIR (e.g. `git worktree add DIR <commit>`)"
            ),
            Refusal::CheckoutUngenerated {
                version,
                from,
                problems,
            } => write!(
                f,
                "{problems}\n{}: cannot generate {version} from it",
                from.display()
            ),
            Refusal::Unwritten(problem) => problem.fmt(f),
            Refusal::DerivedUnwritten { version, problems } => write!(
                f,
                "{problems}\nre-issued {version}, but the files derived from it are not written; run `cargo xtask codegen`"
            ),
        }
    }
}

/// Whether every result held.
fn held(results: &[(Gate, GateResult)]) -> bool {
    results.iter().all(|(_, result)| result.is_ok())
}

/// `cargo xtask release`: records the working version's bundles as released
/// (every gate but the changelog's must hold: the release writes that
/// section), or re-issues them when it is released and codegen now writes
/// other bytes.
pub fn release(root: &Path, contracts: Contracts<'_>) -> Attempt {
    let generation = match plan::generate(root) {
        Ok(generation) => generation,
        Err(problems) => return Attempt::refused(Refusal::Ungenerated(problems)),
    };
    if !release::reissue_candidates(&generation).is_empty() {
        return reissue_working(root, &generation, contracts);
    }
    let before: Vec<Gate> = Gate::ALL
        .into_iter()
        .filter(|gate| *gate != Gate::Changelog)
        .collect();
    let gates = super::run(root, &generation, contracts, &before);
    let outcome = if held(&gates) {
        bless(root, &generation)
    } else {
        Err(Refusal::GatesFail {
            version: generation.set.version.clone(),
            reissue: None,
        })
    };
    Attempt { gates, outcome }
}

/// Records the working version in the manifest (gates held), then its
/// CHANGELOG.md section.
fn bless(root: &Path, generation: &Generation) -> Result<Released, Refusal> {
    let version = generation.set.version.clone();
    let (manifest, blessing) = release::bless(generation).map_err(Refusal::Bless)?;
    if blessing == Blessing::AlreadyReleased {
        let changelog = match changelog::with_working_section(root, generation) {
            Ok(None) => ChangelogStep::Present,
            Ok(Some(_)) => write_changelog(root, generation),
            Err(problems) => return Err(Refusal::Changelog(problems)),
        };
        return Ok(Released::Unchanged { version, changelog });
    }
    let mut files = generation.files.clone();
    files.insert(MANIFEST_PATH.to_owned(), manifest.render());
    output::write(root, &files, &generation.foreign, &RealFileSystem)
        .map_err(Refusal::Unwritten)?;
    let changelog = write_changelog(root, generation);
    Ok(Released::Released { version, changelog })
}

/// Puts the just-released working version's section first in CHANGELOG.md,
/// unless it has one.
fn write_changelog(root: &Path, generation: &Generation) -> ChangelogStep {
    let text = match changelog::with_working_section(root, generation) {
        Ok(Some(text)) => text,
        Ok(None) => return ChangelogStep::Present,
        Err(problems) => return ChangelogStep::Failed(problems),
    };
    let files = BTreeMap::from([(CHANGELOG_FILE, text.as_str())]);
    match output::replace(root, &files, &RealFileSystem) {
        Ok(_) => ChangelogStep::Added,
        Err(problem) => ChangelogStep::Failed(problem.into()),
    }
}

/// The working version is released and codegen now writes its bundles with
/// other bytes (a bundler fix): re-issue them if the wire is unchanged. Every
/// gate of `check` must hold but the two about those bytes.
fn reissue_working(root: &Path, generation: &Generation, contracts: Contracts<'_>) -> Attempt {
    let version = generation.set.version.clone();
    let kept: Vec<Gate> = Gate::ALL
        .into_iter()
        .filter(|gate| !matches!(gate, Gate::Generated | Gate::Releases))
        .collect();
    let gates = super::run(root, generation, contracts, &kept);
    if !held(&gates) {
        let refusal = Refusal::GatesFail {
            version,
            reissue: Some(Reissue::Working),
        };
        return Attempt {
            gates,
            outcome: Err(refusal),
        };
    }
    let outcome = release::reissue(root, generation)
        .map_err(|problems| Refusal::NotTheSameVerdicts {
            version: version.clone(),
            problems,
            from: None,
        })
        .and_then(|reissued| {
            let mut files = generation.files.clone();
            files.insert(MANIFEST_PATH.to_owned(), reissued.manifest.render());
            output::write(root, &files, &generation.foreign, &RealFileSystem)
                .map_err(Refusal::Unwritten)?;
            Ok(Released::Reissued {
                version,
                changed: reissued.changed,
                evidence: reissued.evidence,
                from: None,
            })
        });
    Attempt { gates, outcome }
}

/// `cargo xtask release --version V [--from DIR]`: the working version as
/// [`release()`]; an older released version is re-issued from the schemas and
/// corpus of `from`, a checkout of the tree that released it, once every gate
/// of `check` holds.
pub fn release_version(
    root: &Path,
    version: &ProtocolVersion,
    from: Option<&Path>,
    contracts: Contracts<'_>,
) -> Attempt {
    let generation = match plan::generate(root) {
        Ok(generation) => generation,
        Err(problems) => return Attempt::refused(Refusal::Ungenerated(problems)),
    };
    let working = generation.set.version.clone();
    if *version == working {
        return match from {
            Some(_) => Attempt::refused(Refusal::WorkingFromCheckout(working)),
            None => release(root, contracts),
        };
    }
    if generation.releases.release(version).is_none() {
        let version = version.clone();
        return Attempt::refused(Refusal::NotReleased { version, working });
    }
    let Some(from) = from else {
        let version = version.clone();
        return Attempt::refused(Refusal::NeedsCheckout { version, working });
    };
    let gates = super::run(root, &generation, contracts, &Gate::ALL);
    let outcome = if held(&gates) {
        reissue_older(root, &generation, version, from)
    } else {
        Err(Refusal::GatesFail {
            version: version.clone(),
            reissue: Some(Reissue::Older),
        })
    };
    Attempt { gates, outcome }
}

/// Re-issues the older released `version` from the checkout `from` (gates
/// held): its new bundles and digests first, then everything codegen derives
/// from the published bundles, as `cargo xtask codegen` would write it.
fn reissue_older(
    root: &Path,
    generation: &Generation,
    version: &ProtocolVersion,
    from: &Path,
) -> Result<Released, Refusal> {
    let source = plan::generate(from).map_err(|problems| Refusal::CheckoutUngenerated {
        version: version.clone(),
        from: from.to_owned(),
        problems,
    })?;
    let reissued: Reissued = release::reissue_version(root, &generation.releases, version, &source)
        .map_err(|problems| Refusal::NotTheSameVerdicts {
            version: version.clone(),
            problems,
            from: Some(from.to_owned()),
        })?;
    if reissued.changed.is_empty() {
        return Ok(Released::Unchanged {
            version: version.clone(),
            changelog: ChangelogStep::Present,
        });
    }
    let mut files = generation.files.clone();
    files.extend(reissued.files.clone());
    files.insert(MANIFEST_PATH.to_owned(), reissued.manifest.render());
    output::write(root, &files, &generation.foreign, &RealFileSystem)
        .map_err(Refusal::Unwritten)?;
    let derived = plan::generate(root).and_then(|derived| {
        output::write(root, &derived.files, &derived.foreign, &RealFileSystem)
            .map_err(Diagnostics::one)
    });
    if let Err(problems) = derived {
        return Err(Refusal::DerivedUnwritten {
            version: version.clone(),
            problems,
        });
    }
    Ok(Released::Reissued {
        version: version.clone(),
        changed: reissued.changed,
        evidence: reissued.evidence,
        from: Some(from.to_owned()),
    })
}
