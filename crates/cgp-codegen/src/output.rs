//! The one writer of `generated/` and the embedded copies ([`OWNED_DIRS`]),
//! and the comparison `check` runs instead.
//!
//! [`write()`] updates only files whose bytes change, each through a temporary file
//! in the same directory that is renamed over the old one, so an interrupted run
//! leaves every file either old or new, never half-written. All temporary files
//! are written before the first rename: a failure while writing (a full disk, a
//! read-only directory) leaves the previous tree untouched. Files under
//! those directories that the plan no longer contains are removed. [`compare`] reports
//! the same differences without touching anything.

use cgp_schema::diagnostic::Diagnostic;
use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::{Path, PathBuf};

/// What a build inside an owned directory leaves there, and codegen neither
/// writes nor removes: `npm install && npm run build` in the TypeScript package,
/// `mvn package` in the Java package.
pub const BUILD_LEFTOVERS: [&str; 4] = [
    "generated/typescript/node_modules",
    "generated/typescript/dist",
    "generated/typescript/package-lock.json",
    "generated/java/target",
];

/// The directories codegen owns, relative to the repository root: every file
/// in them is generated, and one no plan contains is stale.
pub const OWNED_DIRS: [&str; 5] = [
    "generated",
    crate::embed::MOCK_CORPUS_DIR,
    crate::embed::CLI_BUNDLES_DIR,
    crate::vectors::CLI_VECTORS_DIR,
    crate::embed::TYPES_GENERATED_DIR,
];

/// A stale generated file: one way the tree on disk differs from what codegen
/// would write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stale {
    /// A file codegen writes is missing.
    Missing(String),
    /// A file's contents differ; with a short line diff.
    Changed { path: String, diff: String },
    /// A file under `generated/` that codegen no longer writes.
    Extra(String),
}

impl Stale {
    /// The repository-relative path of the stale file.
    pub fn path(&self) -> &str {
        match self {
            Stale::Missing(path) | Stale::Extra(path) => path,
            Stale::Changed { path, .. } => path,
        }
    }
}

/// The file operations the writer needs, so tests can inject failures.
pub trait FileSystem {
    /// Creates a directory and its parents.
    fn create_dir_all(&self, path: &Path) -> io::Result<()>;
    /// Writes a whole file.
    fn write(&self, path: &Path, bytes: &[u8]) -> io::Result<()>;
    /// Renames a file over another.
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()>;
    /// Removes a file.
    fn remove(&self, path: &Path) -> io::Result<()>;
}

/// The real file system.
#[derive(Debug, Clone, Copy, Default)]
pub struct RealFileSystem;

impl FileSystem for RealFileSystem {
    fn create_dir_all(&self, path: &Path) -> io::Result<()> {
        std::fs::create_dir_all(path)
    }

    fn write(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        use std::io::Write;
        let mut file = std::fs::File::create(path)?;
        file.write_all(bytes)?;
        file.sync_all()
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        std::fs::rename(from, to)
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        std::fs::remove_file(path)
    }
}

/// What a write did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WriteReport {
    /// Files written (new or changed), repository-relative.
    pub written: Vec<String>,
    /// Stale files removed.
    pub removed: Vec<String>,
    /// Files already up to date.
    pub unchanged: usize,
}

/// Every file in the directories codegen owns, repository-relative, sorted.
pub fn existing_files(root: &Path) -> Result<BTreeSet<String>, Diagnostic> {
    let mut found = BTreeSet::new();
    let mut pending: Vec<PathBuf> = OWNED_DIRS.iter().map(PathBuf::from).collect();
    while let Some(relative) = pending.pop() {
        let directory = root.join(&relative);
        let entries = match std::fs::read_dir(&directory) {
            Ok(entries) => entries,
            Err(error) if error.kind() == io::ErrorKind::NotFound => continue,
            Err(error) => {
                return Err(Diagnostic::file(
                    display(&relative),
                    format!("cannot list: {error}"),
                ));
            }
        };
        for entry in entries {
            let entry = entry.map_err(|error| {
                Diagnostic::file(display(&relative), format!("cannot list: {error}"))
            })?;
            let path = relative.join(entry.file_name());
            if BUILD_LEFTOVERS.contains(&display(&path).as_str()) {
                continue;
            }
            let kind = entry.file_type().map_err(|error| {
                Diagnostic::file(display(&path), format!("cannot inspect: {error}"))
            })?;
            if kind.is_dir() {
                pending.push(path);
            } else {
                found.insert(display(&path));
            }
        }
    }
    Ok(found)
}

fn display(path: &Path) -> String {
    path.components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Compares the planned files with the tree, without writing. `foreign` lists
/// files under `generated/` that codegen does not own.
pub fn compare(
    root: &Path,
    files: &BTreeMap<String, String>,
    foreign: &BTreeSet<String>,
) -> Result<Vec<Stale>, Diagnostic> {
    let mut stale = Vec::new();
    for (path, planned) in files {
        match cgp_schema::source::read_bounded(&root.join(path)) {
            Ok(bytes) if bytes == planned.as_bytes() => {}
            Ok(bytes) => stale.push(Stale::Changed {
                path: path.clone(),
                diff: short_diff(&String::from_utf8_lossy(&bytes), planned),
            }),
            Err(error)
                if matches!(
                    error.kind(),
                    io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
                ) =>
            {
                stale.push(Stale::Missing(path.clone()))
            }
            Err(error) => {
                return Err(Diagnostic::file(
                    path.clone(),
                    format!("cannot read: {error}"),
                ));
            }
        }
    }
    for path in existing_files(root)? {
        if !files.contains_key(&path) && !foreign.contains(&path) {
            stale.push(Stale::Extra(path));
        }
    }
    Ok(stale)
}

/// The first directory on the way from `root` to the file `path` (relative to
/// `root`) that is a symbolic link: writing through it could write anywhere.
fn linked_directory(root: &Path, path: &str) -> Option<String> {
    let parent = Path::new(path).parent()?;
    let mut on_disk = root.to_path_buf();
    let mut shown = PathBuf::new();
    for component in parent.components() {
        on_disk.push(component);
        shown.push(component);
        if std::fs::symlink_metadata(&on_disk)
            .is_ok_and(|metadata| metadata.file_type().is_symlink())
        {
            return Some(display(&shown));
        }
    }
    None
}

/// Writes the planned files atomically and removes stale ones.
pub fn write(
    root: &Path,
    files: &BTreeMap<String, String>,
    foreign: &BTreeSet<String>,
    file_system: &dyn FileSystem,
) -> Result<WriteReport, Diagnostic> {
    let stale = compare(root, files, foreign)?;
    let changed: BTreeMap<&str, &str> = stale
        .iter()
        .filter_map(|file| match file {
            Stale::Missing(path) | Stale::Changed { path, .. } => files
                .get(path)
                .map(|contents| (path.as_str(), contents.as_str())),
            Stale::Extra(_) => None,
        })
        .collect();
    let written = replace(root, &changed, file_system)?;
    let mut report = WriteReport {
        unchanged: files.len() - written.len(),
        written,
        ..WriteReport::default()
    };
    for file in &stale {
        if let Stale::Extra(path) = file {
            file_system.remove(&root.join(path)).map_err(|error| {
                Diagnostic::file(
                    path.clone(),
                    format!("cannot remove this stale file: {error}"),
                )
            })?;
            report.removed.push(path.clone());
        }
    }
    Ok(report)
}

/// Replaces each file of `files` (repository-relative path to contents) under
/// `root`: every new version is written to a temporary file beside its target
/// before the first rename, so a failure while writing changes nothing, and each
/// rename swaps one whole file. No write goes through a symbolically linked
/// directory. Returns the paths replaced, in order.
pub fn replace(
    root: &Path,
    files: &BTreeMap<&str, &str>,
    file_system: &dyn FileSystem,
) -> Result<Vec<String>, Diagnostic> {
    let mut staged: Vec<(PathBuf, PathBuf, String)> = Vec::new();
    let cleanup = |staged: &[(PathBuf, PathBuf, String)]| {
        for (temporary, _, _) in staged {
            let _ = file_system.remove(temporary);
        }
    };
    for (&path, &contents) in files {
        if let Some(link) = linked_directory(root, path) {
            cleanup(&staged);
            return Err(Diagnostic::file(
                path,
                format!(
                    "cannot write: {link} is a symbolic link, and nothing is ever written through a link; nothing was changed"
                ),
            ));
        }
        let target = root.join(path);
        let directory = target
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| root.to_path_buf());
        if let Err(error) = file_system.create_dir_all(&directory) {
            cleanup(&staged);
            return Err(Diagnostic::file(
                path,
                format!("cannot create its directory: {error}; nothing was changed"),
            ));
        }
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let temporary = directory.join(format!(".{name}.tmp-{}", std::process::id()));
        if let Err(error) = file_system.write(&temporary, contents.as_bytes()) {
            let _ = file_system.remove(&temporary);
            cleanup(&staged);
            return Err(Diagnostic::file(
                path,
                format!("cannot write: {error}; nothing was changed"),
            ));
        }
        staged.push((temporary, target, path.to_owned()));
    }
    let mut replaced = Vec::with_capacity(staged.len());
    for (index, (temporary, target, path)) in staged.iter().enumerate() {
        if let Err(error) = file_system.rename(temporary, target) {
            let (_, left) = staged.split_at(index.min(staged.len()));
            cleanup(left);
            let done = if replaced.is_empty() {
                "none".to_owned()
            } else {
                replaced.join(", ")
            };
            return Err(Diagnostic::file(
                path.clone(),
                format!(
                    "cannot replace: {error}; this file and the ones after it keep their previous contents (already updated: {done})"
                ),
            ));
        }
        replaced.push(path.clone());
    }
    Ok(replaced)
}

/// A short line diff: up to three hunks of changed lines (at most eight lines a
/// side each), each headed by the old and new line number where it starts.
pub fn short_diff(old: &str, new: &str) -> String {
    const HUNKS: usize = 3;
    const SHOWN: usize = 8;
    let old_lines: Vec<&str> = old.lines().collect();
    let new_lines: Vec<&str> = new.lines().collect();
    let script = edit_script(&old_lines, &new_lines);
    let mut out = String::new();
    let mut hunks = 0;
    let mut rest = script.as_slice();
    while let Some(start) = rest.iter().position(|(edit, _, _)| *edit != Edit::Keep) {
        let (_, from_hunk) = rest.split_at(start);
        let end = from_hunk
            .iter()
            .position(|(edit, _, _)| *edit == Edit::Keep)
            .unwrap_or(from_hunk.len());
        let (hunk, after) = from_hunk.split_at(end);
        rest = after;
        hunks += 1;
        if hunks > HUNKS {
            let remaining = from_hunk
                .iter()
                .filter(|(edit, _, _)| *edit != Edit::Keep)
                .count();
            out.push_str(&format!("… ({remaining} more changed lines)\n"));
            break;
        }
        let Some(&(_, old_at, new_at)) = hunk.first() else {
            break;
        };
        out.push_str(&format!(
            "@@ old line {} / new line {} @@\n",
            old_at + 1,
            new_at + 1
        ));
        for (sign, kind, lines) in [
            ('-', Edit::Remove, &old_lines),
            ('+', Edit::Add, &new_lines),
        ] {
            let changed: Vec<usize> = hunk
                .iter()
                .filter(|(edit, _, _)| *edit == kind)
                .map(|(_, old_at, new_at)| {
                    if kind == Edit::Remove {
                        *old_at
                    } else {
                        *new_at
                    }
                })
                .collect();
            for line in changed.iter().take(SHOWN) {
                out.push_str(&format!(
                    "{sign} {}\n",
                    lines.get(*line).copied().unwrap_or_default()
                ));
            }
            if changed.len() > SHOWN {
                out.push_str(&format!(
                    "{sign} … ({} more lines)\n",
                    changed.len() - SHOWN
                ));
            }
        }
    }
    if out.is_empty() {
        out.push_str("  (only line endings or the final newline differ)\n");
    }
    out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Edit {
    Keep,
    Remove,
    Add,
}

/// The shortest edit script between two line lists, each step with the old and
/// new line index it stands at. `similar`'s Myers diff works in linear space, so
/// a rewritten file of thousands of lines costs no more than its lines.
fn edit_script(old: &[&str], new: &[&str]) -> Vec<(Edit, usize, usize)> {
    let mut script = Vec::new();
    for op in similar::capture_diff_slices(similar::Algorithm::Myers, old, new) {
        let (tag, old_range, new_range) = op.as_tag_tuple();
        let kept = matches!(tag, similar::DiffTag::Equal);
        if kept {
            script.extend(
                old_range
                    .zip(new_range)
                    .map(|(old_at, new_at)| (Edit::Keep, old_at, new_at)),
            );
            continue;
        }
        let new_start = new_range.start;
        script.extend(
            old_range
                .clone()
                .map(|old_at| (Edit::Remove, old_at, new_start)),
        );
        let old_end = old_range.end;
        script.extend(new_range.map(|new_at| (Edit::Add, old_end, new_at)));
    }
    script
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_diff_shows_each_changed_region() {
        let diff = short_diff("a\nb\nc\nd\n", "a\nB\nc\nd\n");
        assert_eq!(diff, "@@ old line 2 / new line 2 @@\n- b\n+ B\n");
        let appended = short_diff("a\n", "a\nb\n");
        assert_eq!(appended, "@@ old line 2 / new line 2 @@\n+ b\n");
        let two = short_diff("a\nb\nc\nd\ne\n", "a\nB\nc\nd\nE\n");
        assert_eq!(
            two,
            "@@ old line 2 / new line 2 @@\n- b\n+ B\n@@ old line 5 / new line 5 @@\n- e\n+ E\n"
        );
        let inserted = short_diff("a\nc\n", "a\nb\nc\n");
        assert_eq!(inserted, "@@ old line 2 / new line 2 @@\n+ b\n");
        let removed = short_diff("a\nb\nc\n", "a\nc\n");
        assert_eq!(removed, "@@ old line 2 / new line 2 @@\n- b\n");
        let newline = short_diff("a", "a\n");
        assert!(newline.contains("final newline"));
        assert_eq!(
            short_diff("", "x\n"),
            "@@ old line 1 / new line 1 @@\n+ x\n"
        );
        assert_eq!(
            short_diff("x\n", ""),
            "@@ old line 1 / new line 1 @@\n- x\n"
        );
    }

    /// The edit script, applied to the old lines, gives the new lines; and it is
    /// no longer than the naive "remove all, add all".
    #[test]
    fn edit_scripts_rebuild_the_new_text() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize
        };
        let alphabet = ["a", "b", "c", "d"];
        for _ in 0..500 {
            let old: Vec<&str> = (0..next() % 12).map(|_| alphabet[next() % 4]).collect();
            let new: Vec<&str> = (0..next() % 12).map(|_| alphabet[next() % 4]).collect();
            let script = edit_script(&old, &new);
            let rebuilt: Vec<&str> = script
                .iter()
                .filter(|(edit, _, _)| *edit != Edit::Remove)
                .map(|(edit, old_at, new_at)| {
                    if *edit == Edit::Keep {
                        old[*old_at]
                    } else {
                        new[*new_at]
                    }
                })
                .collect();
            assert_eq!(rebuilt, new, "{old:?} -> {new:?}: {script:?}");
            let kept: Vec<&str> = script
                .iter()
                .filter(|(edit, _, _)| *edit != Edit::Add)
                .map(|(_, old_at, _)| old[*old_at])
                .collect();
            assert_eq!(kept, old);
            let changes = script
                .iter()
                .filter(|(edit, _, _)| *edit != Edit::Keep)
                .count();
            assert!(changes <= old.len() + new.len());
        }
    }
}
