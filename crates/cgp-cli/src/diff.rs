//! `cgp diff`: rendering the classifier's comparison of two schema versions
//! (two paths, or a path and a git ref or embedded version).

use crate::bundles;
use crate::exit::Exit;
use crate::github::{Annotation, Level};
use cgp_classify::{self as classify, Bump, ComparedVersion, Comparison};
use cgp_report::changelog;
use cgp_report::diff::DiffReport;
use cgp_report::junit::{self, Case, Failure, Suite};
use cgp_schema::{Diagnostics, Profile};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The smallest bump that makes `cgp diff` fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    /// Fail when any change needs a minor or a major bump.
    Minor,
    /// Fail when any change needs a major bump.
    Major,
}

impl From<FailOn> for Bump {
    fn from(level: FailOn) -> Self {
        match level {
            FailOn::Minor => Bump::Minor,
            FailOn::Major => Bump::Major,
        }
    }
}

/// How `cgp diff` writes its report (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One line per change, then a summary.
    Human,
    /// One JSON object (`cgp schema --output diff` is its schema).
    Json,
    /// GitHub Actions annotations.
    Github,
    /// JUnit XML: a test case per change at or above `--fail-on` (every
    /// change without it), failed when it reaches `--fail-on`.
    Junit,
    /// A changelog section in Markdown, grouped by required bump.
    Markdown,
}

/// The schema directory `--against` compares when no NEW is given.
const DEFAULT_NEW: &str = "schema";

/// Runs `cgp diff`: 0 when the comparison ran, 1 when `fail_on` is reached, 2
/// when an input cannot be read (a missing ref, no schemas at it).
pub fn run(
    paths: &[PathBuf],
    against: Option<&str>,
    format: Format,
    fail_on: Option<FailOn>,
) -> ExitCode {
    let sides = match (against, paths) {
        (None, [old, new]) => {
            classify::load_side(old).and_then(|old| Ok((old, classify::load_side(new)?)))
        }
        (None, _) => {
            eprintln!("cgp diff: give OLD and NEW, or --against REF [NEW]");
            return ExitCode::from(Exit::Trouble);
        }
        (Some(reference), [] | [_]) => {
            let new = paths
                .first()
                .cloned()
                .unwrap_or_else(|| PathBuf::from(DEFAULT_NEW));
            against_side(reference, &new).and_then(|old| Ok((old, classify::load_side(&new)?)))
        }
        (Some(_), _) => {
            eprintln!("cgp diff: with --against REF, give at most NEW");
            return ExitCode::from(Exit::Trouble);
        }
    };
    let (old, new) = match sides {
        Ok(sides) => sides,
        Err(problems) => {
            eprintln!("{problems}");
            return ExitCode::from(Exit::Trouble);
        }
    };
    let comparison = classify::classify(&old, &new);
    let text = match format {
        Format::Human => human(&comparison),
        Format::Json => {
            let mut text =
                serde_json::to_string_pretty(&DiffReport::new(&comparison)).unwrap_or_default();
            text.push('\n');
            text
        }
        Format::Github => github(&comparison),
        Format::Junit => junit_report(&comparison, fail_on),
        Format::Markdown => changelog::section(
            &format!("{} → {}", old.display(), new.display()),
            &comparison,
        ),
    };
    let mut stdout = io::stdout().lock();
    if let Err(error) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        if error.kind() != io::ErrorKind::BrokenPipe {
            eprintln!("cgp diff: {error}");
        }
        return ExitCode::from(Exit::Trouble);
    }
    match fail_on {
        Some(level) if comparison.required_bump >= Bump::from(level) => {
            ExitCode::from(Exit::Invalid)
        }
        _ => ExitCode::from(Exit::Valid),
    }
}

/// The old side of `--against`: a version `cgp` embeds, or `new`'s path at a
/// git ref.
fn against_side(reference: &str, new: &Path) -> Result<ComparedVersion, Diagnostics> {
    match bundles::text(reference, Profile::Interop) {
        Some(text) => ComparedVersion::from_bundle_text(&format!("{reference} (published)"), text),
        None => classify::load_side_at(reference, new),
    }
}

/// One case per change at or above `fail_on` (every change without it); a
/// case fails when its change reaches `fail_on`.
fn junit_report(comparison: &Comparison, fail_on: Option<FailOn>) -> String {
    let floor = fail_on.map(Bump::from);
    let cases = comparison
        .changes
        .iter()
        .filter(|change| floor.is_none_or(|floor| change.required_bump >= floor))
        .map(|change| {
            let location = change
                .location()
                .map(|location| format!("{location}: "))
                .unwrap_or_default();
            let mut case = Case::passed(
                format!("cgp.diff.{}", change.rule.id()),
                format!("{location}{} {}", change.rule.id(), change.pointer),
            );
            if floor.is_some() {
                case.failure = Some(Failure {
                    message: change.headline(),
                    kind: change.rule.id().to_owned(),
                    text: change.to_string(),
                });
            } else {
                case.output = Some(change.headline());
            }
            case
        })
        .collect();
    junit::render(
        "cgp diff",
        &[Suite {
            name: "cgp diff".into(),
            cases,
        }],
    )
}

/// One line per change, `file:line:col: RULE /pointer (directions) requires a
/// major bump: message`, then a summary line.
fn human(comparison: &Comparison) -> String {
    let mut out = String::new();
    for change in &comparison.changes {
        out.push_str(&change.to_string());
        out.push('\n');
    }
    match comparison.changes.len() {
        0 => out.push_str("no changes\n"),
        count => out.push_str(&format!(
            "{count} change{}; required bump: {}\n",
            if count == 1 { "" } else { "s" },
            comparison.required_bump
        )),
    }
    out
}

/// One annotation per change: `::error` for a major bump, `::warning` for a
/// minor one, `::notice` for the rest, on the change's file, line and column when known.
fn github(comparison: &Comparison) -> String {
    let mut out = String::new();
    for change in &comparison.changes {
        let location = change.location();
        let annotation = Annotation {
            level: level(change.required_bump),
            file: location.map(|location| location.file.as_str()),
            line: location.map(|location| location.line),
            column: location.map(|location| location.column),
            title: change.rule.id(),
            message: &change.headline(),
        };
        out.push_str(&format!("{annotation}\n"));
    }
    out
}

fn level(bump: Bump) -> Level {
    match bump {
        Bump::Major => Level::Error,
        Bump::Minor => Level::Warning,
        Bump::None => Level::Notice,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotation_levels_follow_the_bump() {
        let levels = [Bump::Major, Bump::Minor, Bump::None].map(level);
        assert_eq!(levels, [Level::Error, Level::Warning, Level::Notice]);
    }
}
