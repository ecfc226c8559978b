//! The bump gate: whether the working schemas carry the protocol version their
//! changes since the latest release require.

use cgp_classify::{self as classify, Bump, Change, ComparedVersion, Comparison};
use cgp_schema::version::ProtocolVersion;
use std::fmt;

/// The bump gate's verdict on the working schemas.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The latest release, if any.
    pub latest: Option<ProtocolVersion>,
    /// The version the working schemas declare.
    pub working: ProtocolVersion,
    /// What changed since the latest release (empty without a release).
    pub comparison: Comparison,
    /// The bump from the latest release to the working version, `None` when the
    /// working version is older or names another protocol.
    pub declared: Option<Bump>,
    /// The smallest version the working schemas may declare.
    pub required_version: Option<ProtocolVersion>,
    /// Why the gate fails; empty when it passes.
    pub problems: Vec<BumpProblem>,
    /// Remarks that do not fail the gate.
    pub notes: Vec<String>,
}

impl Verdict {
    /// Whether the gate passes.
    pub fn passed(&self) -> bool {
        self.problems.is_empty()
    }

    /// One line saying what the gate found.
    pub fn summary(&self) -> String {
        let Some(latest) = &self.latest else {
            return format!(
                "no protocol version is released yet; `cargo xtask release` freezes {}",
                self.working
            );
        };
        let count = self.comparison.changes.len();
        if count == 0 {
            return format!("schema/ is released {latest}, unchanged");
        }
        let need = match self.comparison.required_bump {
            Bump::None => "no bump".to_owned(),
            bump => format!("a {bump} bump"),
        };
        format!(
            "{count} change{} since released {latest} need{} {need}; schema says {}",
            if count == 1 { "" } else { "s" },
            if count == 1 { "s" } else { "" },
            self.working
        )
    }
}

/// Why the bump gate fails.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BumpProblem {
    /// The working version is older than the latest release, or names another
    /// protocol.
    OlderThanRelease {
        /// The latest release.
        released: ProtocolVersion,
        /// What the schemas declare.
        working: ProtocolVersion,
    },
    /// One change needs a larger bump than the working version carries.
    ChangeNeedsBump {
        /// The change, with its rule, pointer and `file:line:col`.
        change: Change,
        /// The latest release.
        released: ProtocolVersion,
        /// What the schemas declare.
        working: ProtocolVersion,
    },
    /// The schemas still declare the released version, yet differ from it.
    ReleasedVersionChanged {
        /// The latest release, which the schemas still declare.
        released: ProtocolVersion,
        /// How many changes the classifier found.
        changes: usize,
        /// The largest bump one of them requires.
        largest: Bump,
        /// The smallest version the schemas may declare.
        needed: ProtocolVersion,
        /// The schemas' directory, for the advice.
        schema_dir: String,
    },
    /// The working version is newer, but not by as much as the changes need.
    BumpTooSmall {
        /// The latest release.
        released: ProtocolVersion,
        /// The smallest version the schemas may declare.
        needed: ProtocolVersion,
        /// The schemas' directory, for the advice.
        schema_dir: String,
    },
    /// The working version is newer, but nothing changed since the release.
    UnchangedButBumped {
        /// The latest release.
        released: ProtocolVersion,
        /// What the schemas declare.
        working: ProtocolVersion,
    },
}

impl fmt::Display for BumpProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BumpProblem::OlderThanRelease { released, working } => write!(
                f,
                "schema says {working}, but the latest release is {released}; the working version must be {released} or newer"
            ),
            BumpProblem::ChangeNeedsBump {
                change,
                released,
                working,
            } => {
                // `file:line:col: RULE /pointer (directions) requires a major bump (demo/2.0); schema says demo/1.1`
                if let Some(location) = change.location() {
                    write!(f, "{location}: ")?;
                }
                write!(
                    f,
                    "{} {} ({}) requires a {} bump ({}); schema says {working}",
                    change.rule,
                    change.pointer,
                    change.directions_text(),
                    change.required_bump,
                    change.required_bump.apply(released)
                )
            }
            BumpProblem::ReleasedVersionChanged {
                released,
                changes,
                largest,
                needed,
                schema_dir,
            } => write!(
                f,
                "released {released} is frozen, and schema/ differs from it ({changes} change{}, largest bump {largest}): {}",
                if *changes == 1 { "" } else { "s" },
                advice(released, needed, schema_dir)
            ),
            BumpProblem::BumpTooSmall {
                released,
                needed,
                schema_dir,
            } => write!(
                f,
                "the changes since released {released} need {needed}: {}",
                advice(released, needed, schema_dir)
            ),
            BumpProblem::UnchangedButBumped { released, working } => write!(
                f,
                "schema/ is identical to released {released}, so its version must stay {released}; schema says {working}"
            ),
        }
    }
}

/// How to declare `needed`: by hand within the released family, with
/// `set-version` across families.
fn advice(released: &ProtocolVersion, needed: &ProtocolVersion, schema_dir: &str) -> String {
    if needed.major == released.major {
        format!("set `x-cgp-protocol-version` in {schema_dir}/envelope.schema.json to \"{needed}\"")
    } else {
        format!(
            "run `cargo xtask set-version {needed}` (a major bump changes the `$id`s and `x-cgp-since` of every file)"
        )
    }
}

/// Judges the working schemas against the latest release: while they equal it,
/// their version must be that release; once they differ, their version must be
/// newer by at least the largest bump a change requires.
///
/// `latest` is the latest release's published interop bundle (or `None` before
/// the first release); `working` the schemas as they are now.
pub fn judge(latest: Option<&ComparedVersion>, working: &ComparedVersion) -> Verdict {
    let working_version = working.version().clone();
    let mut verdict = Verdict {
        latest: latest.map(|side| side.version().clone()),
        working: working_version.clone(),
        comparison: Comparison::default(),
        declared: None,
        required_version: None,
        problems: Vec::new(),
        notes: Vec::new(),
    };
    let Some(latest) = latest else {
        return verdict;
    };
    let released = latest.version().clone();
    let comparison = classify::classify(latest, working);
    let required = comparison.required_bump;
    let declared = Bump::between(&released, &working_version);
    verdict.declared = declared;
    // A released version is frozen: any change at all needs a newer version.
    let floor = if comparison.changes.is_empty() {
        Bump::None
    } else {
        required.max(Bump::Minor)
    };
    let needed = floor.apply(&released);
    verdict.required_version = Some(needed.clone());
    let schema_dir = working.display().to_string();
    match declared {
        None => verdict.problems.push(BumpProblem::OlderThanRelease {
            released: released.clone(),
            working: working_version.clone(),
        }),
        Some(Bump::None) => {
            for change in comparison.exceeding(Bump::None) {
                verdict.problems.push(BumpProblem::ChangeNeedsBump {
                    change: change.clone(),
                    released: released.clone(),
                    working: working_version.clone(),
                });
            }
            if !comparison.changes.is_empty() {
                verdict.problems.push(BumpProblem::ReleasedVersionChanged {
                    released: released.clone(),
                    changes: comparison.changes.len(),
                    largest: required,
                    needed: needed.clone(),
                    schema_dir: schema_dir.clone(),
                });
            }
        }
        Some(declared) => {
            if comparison.changes.is_empty() {
                verdict.problems.push(BumpProblem::UnchangedButBumped {
                    released: released.clone(),
                    working: working_version.clone(),
                });
            } else if declared < required {
                for change in comparison.exceeding(declared) {
                    verdict.problems.push(BumpProblem::ChangeNeedsBump {
                        change: change.clone(),
                        released: released.clone(),
                        working: working_version.clone(),
                    });
                }
                verdict.problems.push(BumpProblem::BumpTooSmall {
                    released: released.clone(),
                    needed: needed.clone(),
                    schema_dir: schema_dir.clone(),
                });
            } else if declared == Bump::Major && required < Bump::Major {
                verdict.notes.push(format!(
                    "{working_version} is a major bump, but the changes since released {released} need only {needed}; peers of the two families will not interoperate"
                ));
            }
            let next = declared.apply(&released);
            if verdict.problems.is_empty() && next != working_version {
                verdict.notes.push(format!(
                    "{working_version} skips {next}, the next {declared} version after {released}"
                ));
            }
        }
    }
    verdict.comparison = comparison;
    verdict
}
