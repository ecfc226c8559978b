//! The one writer of `generated/`, and the comparison `check` runs instead.
//!
//! [`write`] updates only files whose bytes change, each through a temporary file
//! in the same directory that is renamed over the old one, so an interrupted run
//! leaves every file either old or new, never half-written. All temporary files
//! are written before the first rename: a failure while writing (a full disk, a
//! read-only directory) leaves the previous tree untouched. Files under
//! `generated/` that the plan no longer contains are removed. [`compare`] reports
//! the same differences without touching anything.

use cgp_schema::diagnostic::Diagnostic;
use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::{Path, PathBuf};

/// The directory codegen owns, relative to the repository root.
pub const GENERATED_DIR: &str = "generated";

/// One way the tree on disk differs from what codegen would write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Drift {
    /// A file codegen writes is missing.
    Missing(String),
    /// A file's contents differ; with a short line diff.
    Changed { path: String, diff: String },
    /// A file under `generated/` that codegen no longer writes.
    Extra(String),
}

impl Drift {
    /// The repository-relative path the drift is about.
    pub fn path(&self) -> &str {
        match self {
            Drift::Missing(path) | Drift::Extra(path) => path,
            Drift::Changed { path, .. } => path,
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

/// Every file under `generated/`, repository-relative, sorted.
pub fn existing_files(root: &Path) -> Result<BTreeSet<String>, Diagnostic> {
    let mut found = BTreeSet::new();
    let mut pending = vec![PathBuf::from(GENERATED_DIR)];
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
) -> Result<Vec<Drift>, Diagnostic> {
    let mut drifts = Vec::new();
    for (path, planned) in files {
        match std::fs::read(root.join(path)) {
            Ok(bytes) if bytes == planned.as_bytes() => {}
            Ok(bytes) => drifts.push(Drift::Changed {
                path: path.clone(),
                diff: short_diff(&String::from_utf8_lossy(&bytes), planned),
            }),
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                drifts.push(Drift::Missing(path.clone()))
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
            drifts.push(Drift::Extra(path));
        }
    }
    Ok(drifts)
}

/// Writes the planned files atomically and removes stale ones.
pub fn write(
    root: &Path,
    files: &BTreeMap<String, String>,
    foreign: &BTreeSet<String>,
    file_system: &dyn FileSystem,
) -> Result<WriteReport, Diagnostic> {
    let drifts = compare(root, files, foreign)?;
    let mut report = WriteReport {
        unchanged: files.len(),
        ..WriteReport::default()
    };
    let mut staged: Vec<(PathBuf, PathBuf, String)> = Vec::new();
    let cleanup = |staged: &[(PathBuf, PathBuf, String)]| {
        for (temporary, _, _) in staged {
            let _ = file_system.remove(temporary);
        }
    };
    for drift in &drifts {
        let (Drift::Missing(path) | Drift::Changed { path, .. }) = drift else {
            continue;
        };
        let Some(contents) = files.get(path) else {
            continue;
        };
        let target = root.join(path);
        let directory = target
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| root.to_path_buf());
        if let Err(error) = file_system.create_dir_all(&directory) {
            cleanup(&staged);
            return Err(Diagnostic::file(
                path.clone(),
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
                path.clone(),
                format!("cannot write: {error}; nothing was changed"),
            ));
        }
        staged.push((temporary, target, path.clone()));
    }
    for (index, (temporary, target, path)) in staged.iter().enumerate() {
        if let Err(error) = file_system.rename(temporary, target) {
            cleanup(&staged[index..]);
            let done = staged[..index]
                .iter()
                .map(|(_, _, p)| p.as_str())
                .collect::<Vec<_>>();
            let done = if done.is_empty() {
                "none".to_owned()
            } else {
                done.join(", ")
            };
            return Err(Diagnostic::file(
                path.clone(),
                format!(
                    "cannot replace: {error}; this file and the ones after it keep their previous contents (already updated: {done})"
                ),
            ));
        }
        report.written.push(path.clone());
        report.unchanged -= 1;
    }
    for drift in &drifts {
        if let Drift::Extra(path) = drift {
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

/// A short line diff: the changed region between the common prefix and suffix,
/// at most a dozen lines each way, with the line number where it starts.
pub fn short_diff(old: &str, new: &str) -> String {
    const SHOWN: usize = 12;
    let old_lines: Vec<&str> = old.lines().collect();
    let new_lines: Vec<&str> = new.lines().collect();
    let prefix = old_lines
        .iter()
        .zip(&new_lines)
        .take_while(|(a, b)| a == b)
        .count();
    let suffix = old_lines[prefix..]
        .iter()
        .rev()
        .zip(new_lines[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let removed = &old_lines[prefix..old_lines.len() - suffix];
    let added = &new_lines[prefix..new_lines.len() - suffix];
    let mut out = format!("@@ line {} @@\n", prefix + 1);
    for (sign, lines) in [('-', removed), ('+', added)] {
        for line in lines.iter().take(SHOWN) {
            out.push_str(&format!("{sign} {line}\n"));
        }
        if lines.len() > SHOWN {
            out.push_str(&format!("{sign} … ({} more lines)\n", lines.len() - SHOWN));
        }
    }
    if removed.is_empty() && added.is_empty() {
        out.push_str("  (only line endings or the final newline differ)\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_diff_shows_the_changed_region() {
        let diff = short_diff("a\nb\nc\nd\n", "a\nB\nc\nd\n");
        assert_eq!(diff, "@@ line 2 @@\n- b\n+ B\n");
        let appended = short_diff("a\n", "a\nb\n");
        assert_eq!(appended, "@@ line 2 @@\n+ b\n");
        let newline = short_diff("a", "a\n");
        assert!(newline.contains("final newline"));
    }
}
