//! CHANGELOG.md, derived: `cargo xtask release` puts the released version's
//! section first (its changes since the version released before it, as the
//! classifier finds them, or what a first release defines), and the changelog
//! gate of `cargo xtask check` holds the file's sections to the released
//! versions.

use super::{ChangelogProblem, GateProblem};
use crate::Generation;
use crate::plan::published_path;
use cgp_classify::{self as classify, ComparedVersion};
use cgp_report::changelog::{self, CHANGELOG_FILE};
use cgp_schema::source::read_text_bounded;
use cgp_schema::{Diagnostic, Diagnostics, Profile, ProtocolVersion};
use serde_json::Value;
use std::io;
use std::path::Path;

/// The title and introduction of a new CHANGELOG.md.
const PREAMBLE: &str = "# Changelog\n\nEach released protocol version, newest first, with the changes to its schemas since the version before it, grouped by the version bump they require. `cargo xtask release` writes each section from the classifier (`cgp diff`); do not edit them by hand.\n";

/// The section of the working version, which is being (or has been) released:
/// the changes since the latest release before it, or, for a first release,
/// the variants and types it defines.
pub fn section(root: &Path, generation: &Generation) -> Result<String, Diagnostics> {
    let version = &generation.set.version;
    let previous = generation
        .releases
        .releases()
        .iter()
        .map(|release| &release.version)
        .filter(|released| released.name == version.name && released.key() < version.key())
        .max_by_key(|released| released.key());
    let new = ComparedVersion::from_source(generation.set.clone())?;
    match previous {
        Some(previous) => {
            let old = released_side(root, previous)?;
            Ok(changelog::section(
                &version.to_string(),
                &classify::classify(&old, &new),
            ))
        }
        None => {
            let variants: Vec<String> = generation
                .set
                .variants
                .iter()
                .map(|variant| variant.tag.clone())
                .collect();
            let types: Vec<String> = generation
                .bundle(Profile::Interop)
                .document
                .get("$defs")
                .and_then(Value::as_object)
                .map(|defs| defs.keys().cloned().collect())
                .unwrap_or_default();
            Ok(changelog::first_release(
                &version.to_string(),
                &variants,
                &types,
            ))
        }
    }
}

fn released_side(root: &Path, version: &ProtocolVersion) -> Result<ComparedVersion, Diagnostics> {
    let path = published_path(version, Profile::Interop);
    let text = read_text_bounded(&root.join(&path))
        .map_err(|error| Diagnostic::file(&path, format!("cannot read: {error}")))?;
    ComparedVersion::from_bundle_text(&path, &text)
}

/// CHANGELOG.md with the working version's section first, or `None` when it
/// has one already.
pub fn with_working_section(
    root: &Path,
    generation: &Generation,
) -> Result<Option<String>, Diagnostics> {
    let current = match read_text_bounded(&root.join(CHANGELOG_FILE)) {
        Ok(text) => text,
        Err(error) if error.kind() == io::ErrorKind::NotFound => PREAMBLE.to_owned(),
        Err(error) => {
            return Err(Diagnostic::file(CHANGELOG_FILE, format!("cannot read: {error}")).into());
        }
    };
    let version = generation.set.version.to_string();
    if changelog::versions(&current).contains(&version) {
        return Ok(None);
    }
    let section = section(root, generation)?;
    Ok(Some(changelog::prepend(&current, &section)))
}

/// The changelog gate: CHANGELOG.md has exactly one section for each released
/// version and none for another.
pub fn problems(root: &Path, generation: &Generation) -> Result<usize, Vec<GateProblem>> {
    let released: Vec<String> = generation
        .releases
        .releases()
        .iter()
        .map(|release| release.version.to_string())
        .collect();
    let text = match read_text_bounded(&root.join(CHANGELOG_FILE)) {
        Ok(text) => text,
        Err(error) if error.kind() == io::ErrorKind::NotFound && released.is_empty() => {
            return Ok(0);
        }
        Err(error) => {
            return Err(vec![GateProblem::Unreadable {
                path: CHANGELOG_FILE.to_owned(),
                error: error.to_string(),
            }]);
        }
    };
    let listed = changelog::versions(&text);
    let mut problems = Vec::new();
    for version in &released {
        match listed.iter().filter(|listed| *listed == version).count() {
            0 => problems.push(GateProblem::Changelog(ChangelogProblem::Missing {
                version: version.clone(),
            })),
            1 => {}
            count => problems.push(GateProblem::Changelog(ChangelogProblem::Repeated {
                version: version.clone(),
                count,
            })),
        }
    }
    for version in &listed {
        if !released.contains(version) {
            problems.push(GateProblem::Changelog(ChangelogProblem::NotReleased {
                version: version.clone(),
            }));
        }
    }
    if problems.is_empty() {
        Ok(released.len())
    } else {
        Err(problems)
    }
}
