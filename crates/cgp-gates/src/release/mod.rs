//! Released protocol versions and the bump gate.
//!
//! A released version freezes its wire, not its bytes (as blessed API documents
//! are frozen elsewhere): the [`Manifest`] records the SHA-256 of each released
//! file, and a file may get new bytes only by a re-issue ([`Manifest::reissue`]),
//! which the caller allows once the new bundles are shown to give the same
//! verdicts ([`crate::reissue`]). The manifest keeps every digest a file ever
//! had, oldest first; the last is the one on disk. Its text form is written by
//! tooling only (`cargo xtask release`), deterministically: releases sorted by
//! version, files by path. [`judge`] decides whether the working schemas carry
//! the protocol version their changes since the latest release require.
//!
//! Nothing here reads or writes `generated/`: callers pass file contents in and
//! write what [`Manifest::render`] returns.

use cgp_schema::diagnostic::{Diagnostic, Diagnostics};
use cgp_schema::json_text;
use cgp_schema::version::ProtocolVersion;
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};

mod gate;
mod set_version;
mod spec_version;

pub use gate::{BumpProblem, Verdict, judge};
pub use set_version::{SetVersionError, declared_version, set_version};
pub use spec_version::{SPEC_FILE, family_of, header_line, rewrite_spec, spec_problems};

/// Why [`Manifest::bless`] or [`Manifest::reissue`] refuses a version.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReleaseError {
    /// The version is released with other files or other bytes.
    #[error(
        "{version} is already released and frozen, and these files would differ from it: {}; bump the version instead",
        differing.join(", ")
    )]
    Frozen {
        /// The version to release.
        version: ProtocolVersion,
        /// The repository-relative paths that would differ, sorted.
        differing: Vec<String>,
    },
    /// The version names another protocol than the released ones.
    #[error("{version} is not a version of {protocol}, the released protocol")]
    OtherProtocol {
        /// The version to release.
        version: ProtocolVersion,
        /// The protocol the manifest releases.
        protocol: String,
    },
    /// The version is older than the latest release.
    #[error("{version} is older than the latest release {latest}")]
    Older {
        /// The version to release.
        version: ProtocolVersion,
        /// The latest release.
        latest: ProtocolVersion,
    },
    /// There is nothing to freeze.
    #[error("{version} has no files to release")]
    NoFiles {
        /// The version to release.
        version: ProtocolVersion,
    },
    /// A re-issue of a version that is not released.
    #[error("{version} is not released, so there is nothing to re-issue")]
    NotReleased {
        /// The version to re-issue.
        version: ProtocolVersion,
    },
    /// A re-issue that would add a file to a release.
    #[error(
        "{path} is not a file of released {version}; a re-issue replaces bytes, it adds no files"
    )]
    NotReleasedFile {
        /// The repository-relative path.
        path: String,
        /// The version to re-issue.
        version: ProtocolVersion,
    },
}

/// One released version: its frozen files and their digests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Release {
    /// The version released.
    pub version: ProtocolVersion,
    /// Repository-relative path → `sha256:<hex>` of the bytes it has now.
    pub files: BTreeMap<String, String>,
    /// Repository-relative path → the digests it had before each re-issue,
    /// oldest first (absent for a file never re-issued).
    pub earlier: BTreeMap<String, Vec<String>>,
}

impl Release {
    /// Every digest `path` has had, oldest first, the current one last.
    pub fn history(&self, path: &str) -> Vec<&str> {
        let mut all: Vec<&str> = self
            .earlier
            .get(path)
            .map(|digests| digests.iter().map(String::as_str).collect())
            .unwrap_or_default();
        all.extend(self.files.get(path).map(String::as_str));
        all
    }
}

/// What [`Manifest::bless`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blessing {
    /// The version is now recorded as released.
    Released,
    /// The version was already released with exactly these files.
    AlreadyReleased,
}

/// The release manifest: every released version, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Manifest {
    releases: Vec<Release>,
}

/// A release's `files`: each path's current digest, and its earlier ones
/// where it was re-issued. Every problem goes to `problem` at its pointer.
fn parse_files(
    at: &str,
    listed: &serde_json::Map<String, Value>,
    problem: &mut dyn FnMut(&str, String),
) -> (BTreeMap<String, String>, BTreeMap<String, Vec<String>>) {
    let mut files = BTreeMap::new();
    let mut earlier = BTreeMap::new();
    for (path, digests) in listed {
        let here = format!("{at}/files/{}", json_text::escape_token(path));
        let safe = !path.is_empty()
            && !path.starts_with('/')
            && path.split('/').all(|part| !matches!(part, "" | "." | ".."));
        if !safe {
            problem(&here, format!("`{path}` is not a repository-relative path"));
        }
        // A single digest is the form before re-issues existed.
        let history: Vec<&Value> = match digests {
            Value::Array(history) => history.iter().collect(),
            single => vec![single],
        };
        let valid: Vec<String> = history
            .iter()
            .filter_map(|digest| {
                digest
                    .as_str()
                    .filter(|digest| cgp_schema::digest::is_well_formed(digest))
            })
            .map(str::to_owned)
            .collect();
        match valid.split_last() {
            Some((current, before)) if valid.len() == history.len() => {
                files.insert(path.clone(), current.clone());
                if !before.is_empty() {
                    earlier.insert(path.clone(), before.to_vec());
                }
            }
            _ => problem(
                &here,
                "a file's history is a non-empty array of digests, each `sha256:` and 64 lowercase hex digits".into(),
            ),
        }
    }
    (files, earlier)
}

const MANIFEST_NOTE: &str = "Released protocol versions and every SHA-256 each published bundle has had, oldest first; the last is the current one. Written by `cargo xtask release`, never by hand; `cargo xtask check` fails if a listed file changes or disappears. A release is re-issued (a digest appended) only when the new bundles give the same verdicts.";

impl Manifest {
    /// Parses the manifest's text; `file` names it in diagnostics.
    pub fn parse(file: &str, text: &str) -> Result<Manifest, Diagnostics> {
        let document = json_text::parse_named(file, text)?;
        let mut problems = Vec::new();
        let mut problem = |pointer: &str, message: String| {
            problems.push(Diagnostic::at(
                file,
                document.nearest_position(pointer),
                Some(pointer.to_owned()),
                message,
            ));
        };
        let mut releases: Vec<Release> = Vec::new();
        let Some(root) = document.value.as_object() else {
            problem("", "the release manifest must be a JSON object".into());
            return Err(Diagnostics(problems));
        };
        for key in root.keys() {
            if !matches!(key.as_str(), "description" | "releases") {
                problem(
                    &format!("/{}", json_text::escape_token(key)),
                    format!(
                        "unknown member `{key}`; the manifest has `description` and `releases`"
                    ),
                );
            }
        }
        let list = match root.get("releases") {
            Some(Value::Array(list)) => list.as_slice(),
            _ => {
                problem("", "`releases` must be an array".into());
                &[]
            }
        };
        for (index, entry) in list.iter().enumerate() {
            let at = format!("/releases/{index}");
            let version = entry
                .get("version")
                .and_then(Value::as_str)
                .map(str::parse::<ProtocolVersion>);
            let version = match version {
                Some(Ok(version)) => version,
                Some(Err(error)) => {
                    problem(&format!("{at}/version"), error.to_string());
                    continue;
                }
                None => {
                    problem(&at, "a release needs a `version` string".into());
                    continue;
                }
            };
            let Some(listed) = entry.get("files").and_then(Value::as_object) else {
                problem(&at, "a release needs `files`: path → digest".into());
                continue;
            };
            let (files, earlier) = parse_files(&at, listed, &mut problem);
            if releases.iter().any(|release| release.version == version) {
                problem(&at, format!("{version} is listed twice"));
                continue;
            }
            releases.push(Release {
                version,
                files,
                earlier,
            });
        }
        let names: BTreeSet<&str> = releases.iter().map(|r| r.version.name.as_str()).collect();
        if names.len() > 1 {
            problem(
                "/releases",
                "all releases must be versions of one protocol".into(),
            );
        }
        if !problems.is_empty() {
            problems.sort();
            return Err(Diagnostics(problems));
        }
        releases.sort_by_key(|release| release.version.key());
        Ok(Manifest { releases })
    }

    /// The manifest's text: pretty JSON with a trailing newline, releases oldest
    /// first, files sorted by path. Equal manifests render to equal bytes.
    pub fn render(&self) -> String {
        let releases: Vec<Value> = self
            .releases
            .iter()
            .map(|release| {
                let files: Map<String, Value> = release
                    .files
                    .keys()
                    .map(|path| (path.clone(), json!(release.history(path))))
                    .collect();
                json!({"version": release.version.to_string(), "files": files})
            })
            .collect();
        let document = json!({"description": MANIFEST_NOTE, "releases": releases});
        let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Every release, oldest first.
    pub fn releases(&self) -> &[Release] {
        &self.releases
    }

    /// Whether no version is released.
    pub fn is_empty(&self) -> bool {
        self.releases.is_empty()
    }

    /// The newest release.
    pub fn latest(&self) -> Option<&Release> {
        self.releases.last()
    }

    /// The release of `version`, if it is released.
    pub fn release(&self, version: &ProtocolVersion) -> Option<&Release> {
        self.releases
            .iter()
            .find(|release| &release.version == version)
    }

    /// Every released file, repository-relative.
    pub fn files(&self) -> BTreeSet<String> {
        self.releases
            .iter()
            .flat_map(|release| release.files.keys().cloned())
            .collect()
    }

    /// Records `files` (repository-relative path → contents) as the release of
    /// `version`. Refuses a version that is already released with other files or
    /// other bytes, and a version older than the latest release.
    pub fn bless(
        &mut self,
        version: &ProtocolVersion,
        files: &BTreeMap<String, String>,
    ) -> Result<Blessing, ReleaseError> {
        let digests: BTreeMap<String, String> = files
            .iter()
            .map(|(path, text)| (path.clone(), cgp_schema::digest::of(text.as_bytes())))
            .collect();
        if let Some(existing) = self.release(version) {
            if existing.files == digests {
                return Ok(Blessing::AlreadyReleased);
            }
            let differing: Vec<String> = existing
                .files
                .keys()
                .chain(digests.keys())
                .filter(|path| existing.files.get(*path) != digests.get(*path))
                .cloned()
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            return Err(ReleaseError::Frozen {
                version: version.clone(),
                differing,
            });
        }
        if let Some(latest) = self.latest() {
            if latest.version.name != version.name {
                return Err(ReleaseError::OtherProtocol {
                    version: version.clone(),
                    protocol: latest.version.name.clone(),
                });
            }
            if version.key() < latest.version.key() {
                return Err(ReleaseError::Older {
                    version: version.clone(),
                    latest: latest.version.clone(),
                });
            }
        }
        if digests.is_empty() {
            return Err(ReleaseError::NoFiles {
                version: version.clone(),
            });
        }
        self.releases.push(Release {
            version: version.clone(),
            files: digests,
            earlier: BTreeMap::new(),
        });
        self.releases.sort_by_key(|release| release.version.key());
        Ok(Blessing::Released)
    }

    /// Gives released `version` new bytes for some of its files (`files`:
    /// repository-relative path → contents), keeping each replaced digest in the
    /// file's history. The caller must have shown that the new bytes give the
    /// same verdicts. Refuses an unreleased version and files it does not list.
    /// Returns the paths whose digest changed (empty: nothing to re-issue).
    pub fn reissue(
        &mut self,
        version: &ProtocolVersion,
        files: &BTreeMap<String, String>,
    ) -> Result<Vec<String>, ReleaseError> {
        let release = self
            .releases
            .iter_mut()
            .find(|release| &release.version == version)
            .ok_or_else(|| ReleaseError::NotReleased {
                version: version.clone(),
            })?;
        if let Some(path) = files.keys().find(|path| !release.files.contains_key(*path)) {
            return Err(ReleaseError::NotReleasedFile {
                path: path.clone(),
                version: version.clone(),
            });
        }
        let mut changed = Vec::new();
        for (path, text) in files {
            let digest = cgp_schema::digest::of(text.as_bytes());
            let Some(current) = release.files.get_mut(path) else {
                continue;
            };
            if *current != digest {
                let old = std::mem::replace(current, digest);
                release.earlier.entry(path.clone()).or_default().push(old);
                changed.push(path.clone());
            }
        }
        Ok(changed)
    }

    /// Checks one released file against its frozen digest; `contents` is `None`
    /// when the file is missing. Files the manifest does not list pass.
    pub fn verify(&self, path: &str, contents: Option<&[u8]>) -> Result<(), FrozenProblem> {
        let Some(release) = self
            .releases
            .iter()
            .find(|release| release.files.contains_key(path))
        else {
            return Ok(());
        };
        let expected = release
            .files
            .get(path)
            .map(String::as_str)
            .unwrap_or_default();
        match contents {
            None => Err(FrozenProblem::Missing {
                path: path.to_owned(),
                version: release.version.clone(),
            }),
            Some(bytes) if cgp_schema::digest::of(bytes) != expected => {
                Err(FrozenProblem::Changed {
                    path: path.to_owned(),
                    version: release.version.clone(),
                    recorded: expected.to_owned(),
                    found: cgp_schema::digest::of(bytes),
                })
            }
            Some(_) => Ok(()),
        }
    }
}

/// A released file that is not as its release froze it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrozenProblem {
    /// The file is gone.
    Missing {
        /// Repository-relative path.
        path: String,
        /// The release that froze it.
        version: ProtocolVersion,
    },
    /// The file has other bytes than its last recorded digest.
    Changed {
        /// Repository-relative path.
        path: String,
        /// The release that froze it.
        version: ProtocolVersion,
        /// The digest the manifest records.
        recorded: String,
        /// The digest of the bytes found.
        found: String,
    },
}

impl std::fmt::Display for FrozenProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FrozenProblem::Missing { path, version } => write!(
                f,
                "{path}: missing, but {version} is released and this file is frozen"
            ),
            FrozenProblem::Changed {
                path,
                version,
                recorded,
                found,
            } => write!(
                f,
                "{path}: changed, but {version} is released and this file is frozen (manifest {recorded}, file {found}); bump the version in the schemas instead, or re-issue it with `cargo xtask release` if its verdicts are unchanged"
            ),
        }
    }
}

#[cfg(test)]
mod tests;
