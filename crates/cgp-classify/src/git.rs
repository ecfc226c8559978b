//! One side of a comparison read from a git repository at a ref (`main`, a
//! tag, `HEAD~1`, a commit), with the `git` program and no checkout: `git
//! rev-parse` resolves the ref, `git ls-tree` lists the tree and `git cat-file`
//! reads each blob. Locations name the ref, as `main:schema/types/x.schema.json:12`.

use super::ComparedVersion;
use cgp_schema::diagnostic::{Diagnostic, Diagnostics};
use cgp_schema::source::{MAX_SCHEMA_FILE_BYTES, SCHEMA_SUFFIX, SchemaSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Why git cannot be asked about a path; the caller reports it as a
/// [`Diagnostic`] on the side being read.
#[derive(Debug)]
enum GitError {
    /// The `git` program cannot be started.
    NoGit(std::io::Error),
    /// The path cannot be made absolute.
    Unresolvable(std::io::Error),
    /// No ancestor of the path is an existing directory.
    NoDirectory,
    /// The nearest existing directory is in no git repository.
    NotARepository(PathBuf),
    /// The path is outside the repository git found.
    Outside {
        /// The path as given.
        path: PathBuf,
        /// The repository's top directory.
        top: PathBuf,
    },
    /// The path is the repository's root itself.
    Root,
}

impl fmt::Display for GitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GitError::NoGit(error) => write!(f, "cannot run git: {error}"),
            GitError::Unresolvable(error) => write!(f, "cannot resolve the path: {error}"),
            GitError::NoDirectory => f.write_str("no existing directory holds this path"),
            GitError::NotARepository(directory) => {
                write!(f, "{} is not inside a git repository", directory.display())
            }
            GitError::Outside { path, top } => write!(
                f,
                "{} is outside the repository at {}",
                path.display(),
                top.display()
            ),
            GitError::Root => {
                f.write_str("this is the repository's root; name the schema directory in it")
            }
        }
    }
}

impl std::error::Error for GitError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GitError::NoGit(error) | GitError::Unresolvable(error) => Some(error),
            _ => None,
        }
    }
}

/// Loads the version of `path` (a schema directory or a bundle file, on disk
/// now) that the repository holding it had at `reference`.
pub fn load_side_at(reference: &str, path: &Path) -> Result<ComparedVersion, Diagnostics> {
    let shown = format!("{reference}:{}", path.display());
    let fail = |message: String| Diagnostics::from(Diagnostic::file(&shown, message));
    let git_fail = |problem: GitError| fail(problem.to_string());
    if reference.is_empty() || reference.starts_with('-') {
        return Err(fail(format!("`{reference}` is not a git ref")));
    }
    let (directory, in_repo) = locate(path).map_err(git_fail)?;
    let commit = git(
        &directory,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            &format!("{reference}^{{commit}}"),
        ],
    )
    .map_err(git_fail)?
    .ok_or_else(|| {
        fail(format!(
            "there is no commit `{reference}` in the repository at {}",
            directory.display()
        ))
    })?;
    let commit = String::from_utf8_lossy(&commit).trim().to_owned();
    let display = |relative: &str| format!("{reference}:{relative}");
    let listing = git(
        &directory,
        &[
            "ls-tree",
            "-r",
            "-z",
            "--full-tree",
            &commit,
            "--",
            &in_repo,
        ],
    )
    .map_err(git_fail)?
    .unwrap_or_default();
    let entries = tree_entries(&listing);
    let display_root = display(&in_repo);
    match entries.as_slice() {
        [] => Err(fail(format!(
            "{reference} has no schemas at `{in_repo}` (nothing there at that commit)"
        ))),
        [(_, kind, object, name)] if kind == "blob" && *name == in_repo => {
            let text = blob(&directory, object, &display_root)?;
            ComparedVersion::from_bundle_text(&display_root, &text)
        }
        _ => {
            let prefix = format!("{in_repo}/");
            let mut sources = Vec::new();
            let mut problems = Vec::new();
            for (mode, kind, object, name) in &entries {
                let relative = name.strip_prefix(&prefix).unwrap_or(name);
                let file = display(name);
                if relative.split('/').any(|part| part.starts_with('.')) {
                    continue;
                }
                if mode == "120000" {
                    problems.push(Diagnostic::file(file, "is a symbolic link; schema files must be regular files inside the schema root"));
                } else if kind != "blob" {
                    problems.push(Diagnostic::file(
                        file,
                        format!("is a {kind}, not a schema file"),
                    ));
                } else if !relative.ends_with(SCHEMA_SUFFIX) {
                    problems.push(Diagnostic::file(file, format!("is not a schema file: every file under the schema root must end in `{SCHEMA_SUFFIX}`")));
                } else {
                    match blob(&directory, object, &file) {
                        Ok(text) => sources.push((relative.to_owned(), text)),
                        Err(problem) => problems.extend(problem.0),
                    }
                }
            }
            if !problems.is_empty() {
                problems.sort();
                return Err(Diagnostics(problems));
            }
            if sources.is_empty() {
                return Err(fail(format!(
                    "{reference} has no schema files under `{in_repo}`"
                )));
            }
            sources.sort();
            ComparedVersion::from_source(SchemaSet::from_sources(&display_root, sources)?)
        }
    }
}

/// One `git ls-tree` entry: mode, kind, object and path.
type TreeEntry = (String, String, String, String);

/// The entries of `git ls-tree -z` output.
fn tree_entries(listing: &[u8]) -> Vec<TreeEntry> {
    let mut entries = Vec::new();
    for record in listing
        .split(|&byte| byte == 0)
        .filter(|record| !record.is_empty())
    {
        let record = String::from_utf8_lossy(record);
        let Some((meta, name)) = record.split_once('\t') else {
            continue;
        };
        let mut fields = meta.split(' ');
        let (Some(mode), Some(kind), Some(object)) = (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        entries.push((
            mode.to_owned(),
            kind.to_owned(),
            object.to_owned(),
            name.to_owned(),
        ));
    }
    entries
}

/// The directory to run git in and `path` relative to its repository's root.
fn locate(path: &Path) -> Result<(PathBuf, String), GitError> {
    let absolute = std::path::absolute(path).map_err(GitError::Unresolvable)?;
    // The path need not exist now (it may have been deleted since the ref):
    // run git in its nearest existing ancestor.
    let mut directory = absolute.clone();
    while !directory.is_dir() {
        if !directory.pop() {
            return Err(GitError::NoDirectory);
        }
    }
    let top = git(&directory, &["rev-parse", "--show-toplevel"])?
        .ok_or_else(|| GitError::NotARepository(directory.clone()))?;
    let top = PathBuf::from(String::from_utf8_lossy(&top).trim());
    let top = top.canonicalize().unwrap_or(top);
    let canonical_dir = directory
        .canonicalize()
        .unwrap_or_else(|_| directory.clone());
    let rest = absolute.strip_prefix(&directory).unwrap_or(Path::new(""));
    let inside = canonical_dir
        .strip_prefix(&top)
        .map_err(|_| GitError::Outside {
            path: path.to_owned(),
            top: top.clone(),
        })?
        .join(rest);
    let relative = inside
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/");
    if relative.is_empty() {
        return Err(GitError::Root);
    }
    Ok((top, relative))
}

/// The text of one blob, bounded as files on disk are.
fn blob(directory: &Path, object: &str, shown: &str) -> Result<String, Diagnostics> {
    let fail = |message: String| Diagnostics::from(Diagnostic::file(shown, message));
    let size = git(directory, &["cat-file", "-s", object])
        .map_err(|problem| fail(problem.to_string()))?
        .and_then(|size| String::from_utf8_lossy(&size).trim().parse::<u64>().ok())
        .ok_or_else(|| fail(format!("git cannot read the object {object}")))?;
    if size > MAX_SCHEMA_FILE_BYTES {
        return Err(fail(format!(
            "is {size} bytes, over the {MAX_SCHEMA_FILE_BYTES}-byte limit of a schema file"
        )));
    }
    let bytes = git(directory, &["cat-file", "blob", object])
        .map_err(|problem| fail(problem.to_string()))?
        .ok_or_else(|| fail(format!("git cannot read the object {object}")))?;
    String::from_utf8(bytes).map_err(|error| {
        fail(format!(
            "is not valid UTF-8 (first bad byte at offset {})",
            error.utf8_error().valid_up_to()
        ))
    })
}

/// Runs `git ARGS` in `directory`: its output when it succeeds, `None` when it
/// exits non-zero, an error when it cannot be run at all.
fn git(directory: &Path, args: &[&str]) -> Result<Option<Vec<u8>>, GitError> {
    let output = Command::new("git")
        .arg("-C")
        .arg(directory)
        .args(args)
        .stdin(Stdio::null())
        .env("GIT_TERMINAL_PROMPT", "0")
        .output()
        .map_err(GitError::NoGit)?;
    Ok(output.status.success().then_some(output.stdout))
}
