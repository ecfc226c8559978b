//! Reading the schema directory: every `*.schema.json` below it, bounded in size
//! and only from regular files, never through a link.

use super::SCHEMA_SUFFIX;
use crate::diagnostic::{Diagnostic, Diagnostics};
use std::path::Path;

/// The largest schema or bundle file read: far above any real one (the published
/// bundles are about 50 KB), and it keeps a hostile file from taking the memory.
pub const MAX_SCHEMA_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Reads a schema or bundle file of at most [`MAX_SCHEMA_FILE_BYTES`]
/// ([`read_regular_file`]).
pub fn read_bounded(path: &Path) -> std::io::Result<Vec<u8>> {
    read_regular_file(path, MAX_SCHEMA_FILE_BYTES, "a schema file")
}

/// Reads a regular file of at most `limit` bytes: the one bounded reader of
/// files a user names. Anything but a regular file (a pipe, which may never
/// end; `/dev/zero`; a directory) is refused unread, and a larger file is
/// refused after `limit + 1` bytes with "larger than `limit` bytes, the most
/// `what` may have".
pub fn read_regular_file(path: &Path, limit: u64, what: &str) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let regular = |metadata: std::fs::Metadata| {
        if metadata.is_dir() {
            Err(std::io::Error::other("it is a directory"))
        } else if metadata.is_file() {
            Ok(())
        } else {
            Err(std::io::Error::other(
                "not a regular file (a pipe, a socket or a device)",
            ))
        }
    };
    // Looked at before opening too: opening a pipe waits for a writer.
    regular(std::fs::metadata(path)?)?;
    let file = std::fs::File::open(path)?;
    regular(file.metadata()?)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::other(format!(
            "larger than {limit} bytes, the most {what} may have"
        )));
    }
    Ok(bytes)
}

/// [`read_bounded`], as UTF-8 text.
pub fn read_text_bounded(path: &Path) -> std::io::Result<String> {
    String::from_utf8(read_bounded(path)?)
        .map_err(|error| std::io::Error::new(std::io::ErrorKind::InvalidData, error))
}

/// Reads every schema file under `dir`, sorted by path. Symlinks are refused (a
/// link may leave the tree or loop); files that are not `*.schema.json` are
/// refused too, so a misnamed schema is never silently skipped.
pub fn read_schema_dir(
    dir: &Path,
    display_root: &str,
) -> Result<Vec<(String, String)>, Diagnostics> {
    let mut sources = Vec::new();
    let mut problems = Vec::new();
    let mut pending = vec![String::new()];
    while let Some(relative_dir) = pending.pop() {
        let on_disk = if relative_dir.is_empty() {
            dir.to_path_buf()
        } else {
            dir.join(&relative_dir)
        };
        let shown_dir = join(display_root, &relative_dir);
        let entries = match std::fs::read_dir(&on_disk) {
            Ok(entries) => entries,
            Err(error) => {
                problems.push(Diagnostic::file(
                    shown_dir,
                    format!("cannot read the directory: {error}"),
                ));
                continue;
            }
        };
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(error) => {
                    problems.push(Diagnostic::file(
                        &shown_dir,
                        format!("cannot list the directory: {error}"),
                    ));
                    continue;
                }
            };
            let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
                problems.push(Diagnostic::file(
                    &shown_dir,
                    format!("file name {:?} is not UTF-8", entry.file_name()),
                ));
                continue;
            };
            if name.starts_with('.') {
                continue;
            }
            let relative = join(&relative_dir, &name);
            let shown = join(display_root, &relative);
            let kind = match entry.path().symlink_metadata() {
                Ok(metadata) => metadata.file_type(),
                Err(error) => {
                    problems.push(Diagnostic::file(shown, format!("cannot inspect: {error}")));
                    continue;
                }
            };
            if kind.is_symlink() {
                problems.push(Diagnostic::file(
                    shown,
                    "is a symbolic link; schema files must be regular files inside the schema root",
                ));
            } else if kind.is_dir() {
                pending.push(relative);
            } else if !name.ends_with(SCHEMA_SUFFIX) {
                problems.push(Diagnostic::file(
                    shown,
                    format!("is not a schema file: every file under the schema root must end in `{SCHEMA_SUFFIX}`"),
                ));
            } else if !kind.is_file() {
                problems.push(Diagnostic::file(
                    shown,
                    "is not a regular file (a pipe, a socket or a device); schema files must be regular files",
                ));
            } else {
                match read_bounded(&entry.path()) {
                    Ok(bytes) => match String::from_utf8(bytes) {
                        Ok(text) => sources.push((relative, text)),
                        Err(error) => problems.push(Diagnostic::file(
                            shown,
                            format!(
                                "is not valid UTF-8 (first bad byte at offset {})",
                                error.utf8_error().valid_up_to()
                            ),
                        )),
                    },
                    Err(error) => {
                        problems.push(Diagnostic::file(shown, format!("cannot read: {error}")))
                    }
                }
            }
        }
    }
    if problems.is_empty() {
        sources.sort();
        Ok(sources)
    } else {
        problems.sort();
        Err(Diagnostics(problems))
    }
}

fn join(left: &str, right: &str) -> String {
    match (left.is_empty(), right.is_empty()) {
        (true, _) => right.to_owned(),
        (_, true) => left.to_owned(),
        _ => format!("{left}/{right}"),
    }
}
