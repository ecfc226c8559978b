//! Released versions on disk: the manifest `generated/schema/releases.json`, the
//! frozen bundles it lists, and the inputs of the bump gate.
//!
//! The rules live in [`cgp_gates::release`] and [`cgp_gates::reissue`]; this
//! module only knows where the files are. Codegen never owns a released bundle of
//! another version (it is passed to the writer as foreign, so it survives a
//! version bump), and never overwrites a frozen file with other bytes: only
//! [`reissue()`], run by `cargo xtask release`, does, once the verdicts are shown
//! to be the same.

use super::GateProblem;
use crate::plan::{self, Generation};
use cgp_classify::ComparedVersion;
use cgp_gates::reissue;
use cgp_gates::release::{self, Blessing, Manifest, Verdict};
use cgp_schema::diagnostic::{Diagnostic, Diagnostics};
use cgp_schema::source::{read_bounded, read_text_bounded};
use cgp_schema::{Profile, ProtocolVersion};
use std::collections::BTreeMap;
use std::io;
use std::path::Path;

/// The released files codegen would write with other bytes.
pub fn overwrites(manifest: &Manifest, files: &BTreeMap<String, String>) -> Vec<GateProblem> {
    files
        .iter()
        .filter_map(|(path, text)| manifest.verify(path, Some(text.as_bytes())).err())
        .map(GateProblem::WouldOverwrite)
        .collect()
}

/// The frozen-release gate: every released file is on disk with its recorded
/// digest, and codegen would not change any of them. Returns the problems.
pub fn frozen_problems(root: &Path, generation: &Generation) -> Vec<GateProblem> {
    let manifest = &generation.releases;
    let mut problems = Vec::new();
    for path in manifest.files() {
        let contents = match read_bounded(&root.join(&path)) {
            Ok(bytes) => Some(bytes),
            Err(error) if error.kind() == io::ErrorKind::NotFound => None,
            Err(error) => {
                problems.push(GateProblem::Unreadable {
                    path,
                    error: error.to_string(),
                });
                continue;
            }
        };
        if let Err(problem) = manifest.verify(&path, contents.as_deref()) {
            problems.push(GateProblem::Frozen(problem));
        }
    }
    problems.extend(overwrites(manifest, &generation.files));
    problems
}

/// Why `set-version` wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum SetVersionFailed {
    /// `schema/` cannot be read.
    #[error("{0}")]
    Unreadable(Diagnostics),
    /// The schemas cannot move to the version.
    #[error(transparent)]
    Refused(#[from] release::SetVersionError),
    /// The atomic writer failed (and left the files as they were).
    #[error("{0}")]
    Unwritten(Diagnostic),
}

/// Why `release` cannot record the working version.
#[derive(Debug, thiserror::Error)]
pub enum BlessFailed {
    /// Codegen plans no bundle of a profile at the published path.
    #[error("{path}: codegen does not plan this bundle")]
    Unplanned {
        /// The published path.
        path: String,
    },
    /// The manifest refuses the version.
    #[error(transparent)]
    Refused(#[from] release::ReleaseError),
}

/// `set-version`: makes `schema/` declare `version`, rewriting only the files
/// the version owns ([`cgp_gates::release::set_version`]) and SPEC.md's
/// spellings of it ([`cgp_gates::release::rewrite_spec`]), all of them through
/// the atomic writer ([`crate::output::replace`]). Returns the files rewritten.
pub fn set_version(
    root: &Path,
    version: &ProtocolVersion,
) -> Result<Vec<String>, SetVersionFailed> {
    let sources =
        cgp_schema::source::read_schema_dir(&root.join(plan::SCHEMA_DIR), plan::SCHEMA_DIR)
            .map_err(SetVersionFailed::Unreadable)?;
    let from = release::declared_version(&sources)?;
    let changed = release::set_version(&sources, version)?;
    let mut owned: BTreeMap<String, &str> = changed
        .iter()
        .map(|(path, text)| (format!("{}/{path}", plan::SCHEMA_DIR), text.as_str()))
        .collect();
    // SPEC.md's spellings of the working version follow it (its corpus stays
    // literal JSON; `cgp_gates::release::rewrite_spec`).
    let spec_path = root.join(release::SPEC_FILE);
    let moved = if spec_path.exists() {
        let text = read_text_bounded(&spec_path).map_err(|error| {
            SetVersionFailed::Unreadable(
                Diagnostic::file(
                    release::SPEC_FILE,
                    format!("cannot read it to move its version: {error}"),
                )
                .into(),
            )
        })?;
        let after = release::rewrite_spec(&text, &from, version);
        (after != text).then_some(after)
    } else {
        None
    };
    if let Some(after) = &moved {
        owned.insert(release::SPEC_FILE.to_owned(), after.as_str());
    }
    let files = owned
        .iter()
        .map(|(path, text)| (path.as_str(), *text))
        .collect();
    crate::output::replace(root, &files, &crate::output::RealFileSystem)
        .map_err(SetVersionFailed::Unwritten)
}

/// The bump gate: the latest release's published interop bundle against the
/// working schemas.
pub fn bump_verdict(root: &Path, generation: &Generation) -> Result<Verdict, Diagnostics> {
    let working = ComparedVersion::from_source(generation.set.clone())?;
    let Some(latest) = generation.releases.latest() else {
        return Ok(release::judge(None, &working));
    };
    let path = plan::published_path(&latest.version, Profile::Interop);
    let text = read_text_bounded(&root.join(&path)).map_err(|error| {
        Diagnostic::file(
            &path,
            format!(
                "cannot read the published bundle of released {}: {error}",
                latest.version
            ),
        )
    })?;
    let released = ComparedVersion::from_bundle_text(&path, &text)?;
    if released.version() != &latest.version {
        return Err(Diagnostic::file(
            &path,
            format!(
                "declares {}, but the manifest lists it for {}",
                released.version(),
                latest.version
            ),
        )
        .into());
    }
    Ok(release::judge(Some(&released), &working))
}

/// Records the working version's bundles in the manifest. Returns the new
/// manifest, or why the version cannot be released.
pub fn bless(generation: &Generation) -> Result<(Manifest, Blessing), BlessFailed> {
    let version: &ProtocolVersion = &generation.set.version;
    let mut bundles = BTreeMap::new();
    for profile in Profile::ALL {
        let path = plan::published_path(version, profile);
        let text = generation
            .files
            .get(&path)
            .ok_or_else(|| BlessFailed::Unplanned { path: path.clone() })?;
        bundles.insert(path, text.clone());
    }
    let mut manifest = generation.releases.clone();
    let blessing = manifest.bless(version, &bundles)?;
    Ok((manifest, blessing))
}

/// A re-issue of the working version's released bundles.
#[derive(Debug, Clone)]
pub struct Reissued {
    /// The manifest with the new digests appended to each file's history.
    pub manifest: Manifest,
    /// The re-issued bundles: repository-relative path to their new text.
    pub files: BTreeMap<String, String>,
    /// The released files that get new bytes.
    pub changed: Vec<String>,
    /// What the verdict comparison checked.
    pub evidence: reissue::Evidence,
}

/// The released files of the working version that codegen would now write
/// with other bytes; empty when the working version is unreleased or current.
pub fn reissue_candidates(generation: &Generation) -> Vec<String> {
    let Some(release) = generation.releases.release(&generation.set.version) else {
        return Vec::new();
    };
    release
        .files
        .iter()
        .filter(|(path, digest)| {
            generation
                .files
                .get(*path)
                .is_some_and(|text| &cgp_schema::digest::of(text.as_bytes()) != *digest)
        })
        .map(|(path, _)| path.clone())
        .collect()
}

/// Re-issues the working version's released bundles with the bytes codegen
/// writes now, when the wire is unchanged ([`reissue_version`]).
pub fn reissue(root: &Path, generation: &Generation) -> Result<Reissued, Vec<String>> {
    reissue_version(
        root,
        &generation.releases,
        &generation.set.version,
        generation,
    )
}

/// Re-issues released `version`'s bundles with the ones `source` plans (the
/// generation of a tree whose schemas declare `version`: the working tree for
/// the working version, a checkout of an older release for an older one), when
/// the wire is unchanged: the released files are on disk under `root` as
/// `releases` records, and under both profiles the classifier finds no change
/// and the verdicts on `source`'s SPEC.md corpus (that version's) and the
/// randomised differential are identical ([`reissue::same_wire`]). Returns every
/// problem otherwise.
pub fn reissue_version(
    root: &Path,
    releases: &Manifest,
    version: &ProtocolVersion,
    source: &Generation,
) -> Result<Reissued, Vec<String>> {
    if &source.set.version != version {
        return Err(vec![format!(
            "the schemas to re-issue {version} from declare {}",
            source.set.version
        )]);
    }
    let mut problems = Vec::new();
    let mut texts = Vec::new();
    for profile in Profile::ALL {
        let path = plan::published_path(version, profile);
        let released = match read_text_bounded(&root.join(&path)) {
            Ok(text) => text,
            Err(error) => {
                problems.push(format!("{path}: cannot read: {error}"));
                continue;
            }
        };
        if let Err(problem) = releases.verify(&path, Some(released.as_bytes())) {
            problems.push(problem.to_string());
        }
        let Some(reissued) = source.files.get(&path) else {
            problems.push(format!("{path}: codegen does not plan this bundle"));
            continue;
        };
        texts.push((profile, path, released, reissued.clone()));
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let pairs: Vec<reissue::Pair<'_>> = texts
        .iter()
        .map(|(profile, path, released, reissued)| reissue::Pair {
            profile: *profile,
            path,
            released,
            reissued,
        })
        .collect();
    let evidence = reissue::same_wire(&pairs, &source.examples, reissue::RANDOM_CASES)?;
    let files: BTreeMap<String, String> = texts
        .iter()
        .map(|(_, path, _, reissued)| (path.clone(), reissued.clone()))
        .collect();
    let mut manifest = releases.clone();
    let changed = manifest
        .reissue(version, &files)
        .map_err(|problem| vec![problem.to_string()])?;
    Ok(Reissued {
        manifest,
        files,
        changed,
        evidence,
    })
}
