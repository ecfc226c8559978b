//! The bump gate: whether the working schemas carry the protocol version their
//! changes since the latest release require.

use crate::classify::{self, Bump, Comparison, Side};
use crate::version::ProtocolVersion;

/// The drift gate's verdict on the working schemas.
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
    pub problems: Vec<String>,
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

/// Judges the working schemas against the latest release: while they equal it,
/// their version must be that release; once they differ, their version must be
/// newer by at least the largest bump a change requires.
///
/// `latest` is the latest release's published interop bundle (or `None` before
/// the first release); `working` the schemas as they are now.
pub fn judge(latest: Option<&Side>, working: &Side) -> Verdict {
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
    let setting = |version: &ProtocolVersion| {
        if version.major == released.major {
            format!(
                "set `x-cgp-protocol-version` in {}/envelope.schema.json to \"{version}\"",
                working.display()
            )
        } else {
            format!(
                "run `cargo xtask set-version {version}` (a major bump changes the `$id`s and `x-cgp-since` of every file)"
            )
        }
    };
    match declared {
        None => verdict.problems.push(format!(
            "schema says {working_version}, but the latest release is {released}; the working version must be {released} or newer"
        )),
        Some(Bump::None) => {
            for change in comparison.exceeding(Bump::None) {
                verdict.problems.push(gate_line(change, &released, &working_version));
            }
            if !comparison.changes.is_empty() {
                verdict.problems.push(format!(
                    "released {released} is frozen, and schema/ differs from it ({} change{}, largest bump {required}): {}",
                    comparison.changes.len(),
                    if comparison.changes.len() == 1 { "" } else { "s" },
                    setting(&needed)
                ));
            }
        }
        Some(declared) => {
            if comparison.changes.is_empty() {
                verdict.problems.push(format!(
                    "schema/ is identical to released {released}, so its version must stay {released}; schema says {working_version}"
                ));
            } else if declared < required {
                for change in comparison.exceeding(declared) {
                    verdict.problems.push(gate_line(change, &released, &working_version));
                }
                verdict.problems.push(format!(
                    "the changes since released {released} need {needed}: {}",
                    setting(&needed)
                ));
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

/// `file:line: RULE /pointer (directions) requires a major bump (demo/2.0); schema says demo/1.1`
fn gate_line(
    change: &classify::Change,
    released: &ProtocolVersion,
    working: &ProtocolVersion,
) -> String {
    let location = change
        .location()
        .map(|location| format!("{location}: "))
        .unwrap_or_default();
    format!(
        "{location}{} {} ({}) requires a {} bump ({}); schema says {working}",
        change.rule,
        change.pointer,
        change.directions_text(),
        change.required_bump,
        change.required_bump.apply(released)
    )
}
