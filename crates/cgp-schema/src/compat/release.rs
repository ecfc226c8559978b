//! Released protocol versions and the drift gate.
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

use crate::classify::{self, Bump, Comparison, Side};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::json_text;
use crate::version::ProtocolVersion;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};

/// The `sha256:<64 lowercase hex>` digest of `bytes`.
pub fn sha256(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut text = String::with_capacity(7 + 64);
    text.push_str("sha256:");
    for byte in digest {
        text.push_str(&format!("{byte:02x}"));
    }
    text
}

fn is_digest(text: &str) -> bool {
    text.strip_prefix("sha256:").is_some_and(|hex| {
        hex.len() == 64
            && hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
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
                    .filter_map(|digest| digest.as_str().filter(|digest| is_digest(digest)))
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
    ) -> Result<Blessing, String> {
        let digests: BTreeMap<String, String> = files
            .iter()
            .map(|(path, text)| (path.clone(), sha256(text.as_bytes())))
            .collect();
        if let Some(existing) = self.release(version) {
            if existing.files == digests {
                return Ok(Blessing::AlreadyReleased);
            }
            let differing: Vec<&str> = existing
                .files
                .keys()
                .chain(digests.keys())
                .filter(|path| existing.files.get(*path) != digests.get(*path))
                .map(String::as_str)
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            return Err(format!(
                "{version} is already released and frozen, and these files would differ from it: {}; bump the version instead",
                differing.join(", ")
            ));
        }
        if let Some(latest) = self.latest() {
            if latest.version.name != version.name {
                return Err(format!(
                    "{version} is not a version of {}, the released protocol",
                    latest.version.name
                ));
            }
            if version.key() < latest.version.key() {
                return Err(format!(
                    "{version} is older than the latest release {}",
                    latest.version
                ));
            }
        }
        if digests.is_empty() {
            return Err(format!("{version} has no files to release"));
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
    ) -> Result<Vec<String>, String> {
        let release = self
            .releases
            .iter_mut()
            .find(|release| &release.version == version)
            .ok_or_else(|| format!("{version} is not released, so there is nothing to re-issue"))?;
        if let Some(path) = files.keys().find(|path| !release.files.contains_key(*path)) {
            return Err(format!(
                "{path} is not a file of released {version}; a re-issue replaces bytes, it adds no files"
            ));
        }
        let mut changed = Vec::new();
        for (path, text) in files {
            let digest = sha256(text.as_bytes());
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
    pub fn verify(&self, path: &str, contents: Option<&[u8]>) -> Result<(), String> {
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
            None => Err(format!(
                "{path}: missing, but {} is released and this file is frozen",
                release.version
            )),
            Some(bytes) if sha256(bytes) != expected => Err(format!(
                "{path}: changed, but {} is released and this file is frozen (manifest {expected}, file {}); bump the version in the schemas instead, or re-issue it with `cargo xtask release` if its verdicts are unchanged",
                release.version,
                sha256(bytes)
            )),
            Some(_) => Ok(()),
        }
    }
}

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

/// The edits that move source schemas to version `to`: the declaration
/// `x-cgp-protocol-version` in the envelope and, when the major family changes,
/// every file's `$id` (which carries the family) and every `x-cgp-since` (which
/// must name a version of the declared family; a new family starts at
/// `<major>.0`). `sources` are `(path, text)` pairs as
/// [`read_schema_dir`](crate::source::read_schema_dir) returns them; the result
/// holds the changed files only, with every other byte kept.
pub fn set_version(
    sources: &[(String, String)],
    to: &ProtocolVersion,
) -> Result<BTreeMap<String, String>, String> {
    let envelope = sources
        .iter()
        .find(|(path, _)| path == crate::source::ENVELOPE_FILE)
        .ok_or_else(|| format!("there is no {}", crate::source::ENVELOPE_FILE))?;
    let declared = json_text::parse(&envelope.1)
        .map_err(|error| format!("{}: {error}", envelope.0))?
        .value
        .get("x-cgp-protocol-version")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| format!("{} declares no `x-cgp-protocol-version`", envelope.0))?;
    let from: ProtocolVersion = declared.parse().map_err(|error| format!("{error}"))?;
    if from.name != to.name {
        return Err(format!(
            "{to} is not a version of {}, the protocol the schemas describe",
            from.name
        ));
    }
    let new_family = from.major != to.major;
    let mut changed = BTreeMap::new();
    for (path, text) in sources {
        let document = json_text::parse(text).map_err(|error| format!("{path}: {error}"))?;
        let mut edits: Vec<(String, String)> = Vec::new();
        if path == crate::source::ENVELOPE_FILE {
            edits.push(("/x-cgp-protocol-version".into(), to.to_string()));
        }
        if new_family {
            if let Some(id) = document.value.get("$id").and_then(Value::as_str) {
                let old_segment = format!("/{}/", from.family_slug());
                let new_segment = format!("/{}/", to.family_slug());
                edits.push(("/$id".into(), id.replacen(&old_segment, &new_segment, 1)));
            }
            crate::keywords::walk(&document.value, "", &mut |schema, pointer| {
                if schema.get("x-cgp-since").is_some_and(Value::is_string) {
                    edits.push((format!("{pointer}/x-cgp-since"), format!("{}.0", to.major)));
                }
            });
        }
        let mut spans = Vec::new();
        for (pointer, value) in edits {
            let span = document
                .position(&pointer)
                .and_then(|position| string_span(text, position.line, position.column))
                .ok_or_else(|| format!("{path}: cannot find the string at {pointer}"))?;
            spans.push((span, value));
        }
        spans.sort_by_key(|(span, _)| std::cmp::Reverse(span.0));
        let mut edited = text.clone();
        for ((start, end), value) in spans {
            let literal = serde_json::to_string(&value).unwrap_or_default();
            if edited.get(start..end).is_some() {
                edited.replace_range(start..end, &literal);
            }
        }
        if &edited != text {
            changed.insert(path.clone(), edited);
        }
    }
    Ok(changed)
}

/// The byte range of the JSON string literal that starts at a 1-based line and
/// character column.
fn string_span(text: &str, line: usize, column: usize) -> Option<(usize, usize)> {
    let line_start = if line <= 1 {
        0
    } else {
        text.match_indices('\n')
            .nth(line - 2)
            .map(|(at, _)| at + 1)?
    };
    let start = line_start
        + text
            .get(line_start..)?
            .char_indices()
            .nth(column.checked_sub(1)?)
            .map(|(offset, _)| offset)?;
    let rest = text.get(start..)?;
    if !rest.starts_with('"') {
        return None;
    }
    let mut escaped = false;
    for (offset, c) in rest.char_indices().skip(1) {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => return Some((start, start + offset + 1)),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn version(text: &str) -> ProtocolVersion {
        text.parse().expect("version")
    }

    fn side(version: &str, extra: Value) -> Side {
        let mut members = json!({"type": {"const": "ask"}, "goal": {"type": "string"}});
        if let (Some(members), Value::Object(extra)) = (members.as_object_mut(), extra) {
            members.extend(extra);
        }
        let document = json!({
            "x-cgp-profile": "interop",
            "x-cgp-protocol-version": version,
            "oneOf": [{"x-cgp-direction": "host-to-provider", "type": "object",
                       "properties": members, "required": ["type", "goal"]}],
            "$defs": {}
        });
        let text = serde_json::to_string_pretty(&document).unwrap_or_default();
        Side::from_bundle_text("b.json", &text).expect("bundle")
    }

    #[test]
    fn judge_holds_the_version_to_the_changes() {
        let released = side("demo/1.0", json!({}));
        let unchanged = |v: &str| judge(Some(&released), &side(v, json!({})));
        let same = unchanged("demo/1.0");
        assert!(same.passed());
        assert_eq!(same.summary(), "schema/ is released demo/1.0, unchanged");
        assert_eq!(
            unchanged("demo/1.1").problems,
            vec!["schema/ is identical to released demo/1.0, so its version must stay demo/1.0; schema says demo/1.1".to_owned()]
        );
        assert_eq!(
            judge(Some(&side("demo/1.2", json!({}))), &side("demo/1.1", json!({}))).problems,
            vec!["schema says demo/1.1, but the latest release is demo/1.2; the working version must be demo/1.2 or newer".to_owned()]
        );
        let added = json!({"note": {"type": ["string", "null"]}});
        let skipped = judge(Some(&released), &side("demo/1.3", added.clone()));
        assert!(skipped.passed(), "{:?}", skipped.problems);
        assert_eq!(
            skipped.notes,
            vec!["demo/1.3 skips demo/1.1, the next minor version after demo/1.0".to_owned()]
        );
        assert_eq!(skipped.required_version, Some(version("demo/1.1")));
        assert_eq!(
            skipped.summary(),
            "1 change since released demo/1.0 needs a minor bump; schema says demo/1.3"
        );
        let documented = side(
            "demo/1.1",
            json!({"goal": {"type": "string", "description": "Why."}}),
        );
        let verdict = judge(Some(&released), &documented);
        assert!(verdict.passed(), "{:?}", verdict.problems);
        assert_eq!(
            verdict.summary(),
            "1 change since released demo/1.0 needs no bump; schema says demo/1.1"
        );
        let first = judge(None, &side("demo/1.0", added));
        assert!(first.passed());
        assert_eq!(
            first.summary(),
            "no protocol version is released yet; `cargo xtask release` freezes demo/1.0"
        );
    }

    #[test]
    fn the_manifest_renders_sorted_and_parses_back() {
        let mut manifest = Manifest::default();
        let files = |slug: &str| {
            BTreeMap::from([
                (
                    format!("generated/schema/{slug}/strict.schema.json"),
                    "s".to_owned(),
                ),
                (
                    format!("generated/schema/{slug}/interop.schema.json"),
                    "i".to_owned(),
                ),
            ])
        };
        assert_eq!(
            manifest.bless(&version("demo/1.10"), &files("demo-1.10")),
            Ok(Blessing::Released)
        );
        assert_eq!(
            manifest.bless(&version("demo/1.2"), &files("demo-1.2")),
            Err("demo/1.2 is older than the latest release demo/1.10".into())
        );
        let text = manifest.render();
        assert_eq!(Manifest::parse("m.json", &text), Ok(manifest.clone()));
        assert!(text.contains("\"generated/schema/demo-1.10/interop.schema.json\": [\n          \"sha256:de7d1b721a1e0632b7cf04edf5032c8ecffa9f9a08492152b926f1a5a7e765d7\"\n        ],\n        \"generated/schema/demo-1.10/strict.schema.json\""), "{text}");
        assert_eq!(
            manifest.bless(&version("demo/1.10"), &files("demo-1.10")),
            Ok(Blessing::AlreadyReleased)
        );
        let mut changed = files("demo-1.10");
        changed.insert(
            "generated/schema/demo-1.10/strict.schema.json".into(),
            "S".into(),
        );
        assert_eq!(
            manifest.bless(&version("demo/1.10"), &changed),
            Err("demo/1.10 is already released and frozen, and these files would differ from it: generated/schema/demo-1.10/strict.schema.json; bump the version instead".into())
        );
    }

    #[test]
    fn a_reissue_keeps_every_digest_a_file_had() {
        let path = "generated/schema/demo-1.0/interop.schema.json";
        let one = |text: &str| BTreeMap::from([(path.to_owned(), text.to_owned())]);
        let mut manifest = Manifest::default();
        manifest
            .bless(&version("demo/1.0"), &one("a"))
            .expect("bless");
        assert_eq!(
            manifest.reissue(&version("demo/1.0"), &one("a")),
            Ok(Vec::new())
        );
        assert_eq!(
            manifest.reissue(&version("demo/1.0"), &one("b")),
            Ok(vec![path.to_owned()])
        );
        manifest
            .reissue(&version("demo/1.0"), &one("c"))
            .expect("again");
        let release = manifest.release(&version("demo/1.0")).expect("released");
        assert_eq!(
            release.history(path),
            vec![
                sha256(b"a").as_str(),
                sha256(b"b").as_str(),
                sha256(b"c").as_str()
            ]
        );
        assert_eq!(manifest.verify(path, Some(b"c")), Ok(()));
        assert!(manifest.verify(path, Some(b"a")).is_err());
        let text = manifest.render();
        assert_eq!(Manifest::parse("m.json", &text), Ok(manifest.clone()));
        assert_eq!(
            manifest.reissue(&version("demo/1.1"), &one("d")),
            Err("demo/1.1 is not released, so there is nothing to re-issue".into())
        );
        let other = BTreeMap::from([("generated/x".to_owned(), "x".to_owned())]);
        assert_eq!(
            manifest.reissue(&version("demo/1.0"), &other),
            Err("generated/x is not a file of released demo/1.0; a re-issue replaces bytes, it adds no files".into())
        );
        // The form before re-issues (one digest a file) still reads.
        let legacy = format!(
            "{{\"releases\": [{{\"version\": \"demo/1.0\", \"files\": {{\"{path}\": \"{}\"}}}}]}}",
            sha256(b"a")
        );
        let read = Manifest::parse("m.json", &legacy).expect("legacy form");
        assert_eq!(read.verify(path, Some(b"a")), Ok(()));
    }

    #[test]
    fn frozen_files_must_keep_their_bytes() {
        let mut manifest = Manifest::default();
        let path = "generated/schema/demo-1.0/interop.schema.json";
        manifest
            .bless(
                &version("demo/1.0"),
                &BTreeMap::from([(path.to_owned(), "abc".to_owned())]),
            )
            .expect("bless");
        assert_eq!(manifest.verify(path, Some(b"abc")), Ok(()));
        assert_eq!(manifest.verify("generated/other", None), Ok(()));
        assert_eq!(
            manifest.verify(path, None),
            Err(format!(
                "{path}: missing, but demo/1.0 is released and this file is frozen"
            ))
        );
        assert_eq!(
            manifest.verify(path, Some(b"abd")),
            Err(format!(
                "{path}: changed, but demo/1.0 is released and this file is frozen (manifest sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad, file {}); bump the version in the schemas instead, or re-issue it with `cargo xtask release` if its verdicts are unchanged",
                sha256(b"abd")
            ))
        );
    }

    #[test]
    fn a_hand_edited_manifest_is_rejected_with_positions() {
        let text = "{\n  \"releases\": [\n    {\"version\": \"demo/1.0\", \"files\": {\"../x\": \"sha256:00\"}}\n  ],\n  \"extra\": 1\n}\n";
        let problems = Manifest::parse("m.json", text).expect_err("invalid");
        assert_eq!(
            problems.to_string(),
            "m.json:3:47: /releases/0/files/..~1x: `../x` is not a repository-relative path\n\
             m.json:3:47: /releases/0/files/..~1x: a file's history is a non-empty array of digests, each `sha256:` and 64 lowercase hex digits\n\
             m.json:5:12: /extra: unknown member `extra`; the manifest has `description` and `releases`"
        );
    }

    #[test]
    fn set_version_rewrites_only_what_the_version_owns() {
        let envelope = "{\n  \"$id\": \"https://x.test/demo-1/envelope.schema.json\",\n  \"x-cgp-protocol-version\": \"demo/1.0\",\n  \"x-cgp-since\": \"1.0\",\n  \"description\": \"demo/1.0 \\\"quoted\\\"\"\n}\n";
        let member = "{\"$id\": \"https://x.test/demo-1/types/a.schema.json\", \"properties\": {\"a\": {\"x-cgp-since\": \"1.0\"}, \"b\": {\"x-cgp-since\": \"1.1\"}}}";
        let sources = vec![
            ("envelope.schema.json".to_owned(), envelope.to_owned()),
            ("types/a.schema.json".to_owned(), member.to_owned()),
        ];
        let minor = set_version(&sources, &version("demo/1.1")).expect("minor");
        assert_eq!(
            minor,
            BTreeMap::from([(
                "envelope.schema.json".to_owned(),
                envelope.replace(
                    "\"x-cgp-protocol-version\": \"demo/1.0\"",
                    "\"x-cgp-protocol-version\": \"demo/1.1\""
                )
            )])
        );
        let major = set_version(&sources, &version("demo/2.0")).expect("major");
        assert_eq!(
            major.get("types/a.schema.json").map(String::as_str),
            Some(
                "{\"$id\": \"https://x.test/demo-2/types/a.schema.json\", \"properties\": {\"a\": {\"x-cgp-since\": \"2.0\"}, \"b\": {\"x-cgp-since\": \"2.0\"}}}"
            )
        );
        assert_eq!(
            major.get("envelope.schema.json").map(String::as_str),
            Some(
                "{\n  \"$id\": \"https://x.test/demo-2/envelope.schema.json\",\n  \"x-cgp-protocol-version\": \"demo/2.0\",\n  \"x-cgp-since\": \"2.0\",\n  \"description\": \"demo/1.0 \\\"quoted\\\"\"\n}\n"
            )
        );
        assert_eq!(
            set_version(&sources, &version("other/2.0")),
            Err("other/2.0 is not a version of demo, the protocol the schemas describe".into())
        );
    }
}
