//! What the workspace's tests share, so each test crate stops carrying its own
//! copy: the repository root, scratch directories that remove themselves
//! ([`Scratch`], on `tempfile`), copies of the tree ([`copy_dir`],
//! [`copy_sources`]) and a [`git`] runner that needs no user configuration.
//!
//! Only tests depend on it (`[dev-dependencies]`); it may panic freely.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/cgp-test-support is two levels below the root")
        .to_path_buf()
}

/// Copies a directory recursively, every entry.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|error| panic!("{}: {error}", to.display()));
    for entry in
        std::fs::read_dir(from).unwrap_or_else(|error| panic!("{}: {error}", from.display()))
    {
        let entry = entry.expect("a directory entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target)
                .unwrap_or_else(|error| panic!("{}: {error}", entry.path().display()));
        }
    }
}

/// Copies the sources of a tree: every regular file and directory but
/// `target/`, `.git` and `node_modules`; symbolic links are left out.
pub fn copy_sources(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|error| panic!("{}: {error}", to.display()));
    for entry in
        std::fs::read_dir(from).unwrap_or_else(|error| panic!("{}: {error}", from.display()))
    {
        let entry = entry.expect("a directory entry");
        let name = entry.file_name();
        if matches!(name.to_str(), Some("target" | ".git" | "node_modules")) {
            continue;
        }
        let kind = entry.file_type().expect("a file type");
        if kind.is_dir() {
            copy_sources(&entry.path(), &to.join(&name));
        } else if kind.is_file() {
            std::fs::copy(entry.path(), to.join(&name))
                .unwrap_or_else(|error| panic!("{}: {error}", entry.path().display()));
        }
    }
}

/// A scratch directory with a unique name, removed (with everything in it)
/// when dropped, including when a test's assertion fails.
pub struct Scratch(tempfile::TempDir);

impl Scratch {
    /// A new empty directory whose name starts with `cgp-<name>-`.
    pub fn new(name: &str) -> Self {
        let dir = tempfile::Builder::new()
            .prefix(&format!("cgp-{name}-"))
            .tempdir()
            .expect("a scratch directory");
        Scratch(dir)
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        self.0.path()
    }

    /// The path of `file` inside it.
    pub fn join(&self, file: impl AsRef<Path>) -> PathBuf {
        self.0.path().join(file)
    }

    /// The text of `file` inside it.
    pub fn read(&self, file: &str) -> String {
        std::fs::read_to_string(self.join(file)).unwrap_or_else(|error| panic!("{file}: {error}"))
    }

    /// Writes `text` to `file` inside it, creating its directories.
    pub fn write(&self, file: &str, text: impl AsRef<[u8]>) {
        let path = self.join(file);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create the file's directory");
        }
        std::fs::write(&path, text).unwrap_or_else(|error| panic!("{file}: {error}"));
    }
}

/// Runs `git args` in `dir` as a fixed test identity with signing off, and
/// asserts it succeeds.
pub fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .current_dir(dir)
        .args([
            "-c",
            "user.name=cgp test",
            "-c",
            "user.email=cgp@example.invalid",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .stdout(Stdio::null())
        .status()
        .expect("git runs");
    assert!(status.success(), "git {args:?} in {}", dir.display());
}

/// Adds an optional string member `name` to ContextQuery in the tree at `root`
/// (`schema/types/context-query.schema.json`), since the working protocol
/// version and omitted when absent: the compatible change a pull request makes
/// in the diff tests.
pub fn add_optional_query_member(root: &Path, name: &str, description: &str) {
    let query = root.join("schema/types/context-query.schema.json");
    let text = std::fs::read_to_string(&query).expect("read ContextQuery's schema");
    let mut value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert!(
        value["properties"].get(name).is_none(),
        "ContextQuery already has {name}"
    );
    let number = cgp_types::PROTOCOL_VERSION
        .rsplit_once('/')
        .map_or("", |(_, number)| number);
    value["properties"][name] = serde_json::json!({
        "type": "string",
        "description": description,
        "x-cgp-since": number,
        "x-cgp-emit": "omit-if-absent",
    });
    std::fs::write(
        &query,
        serde_json::to_string_pretty(&value).expect("JSON") + "\n",
    )
    .expect("write ContextQuery's schema");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scratch_directory_goes_when_dropped() {
        let scratch = Scratch::new("support");
        scratch.write("a/b.txt", "x");
        assert_eq!(scratch.read("a/b.txt"), "x");
        let path = scratch.path().to_owned();
        drop(scratch);
        assert!(!path.exists());
    }

    #[test]
    fn copy_sources_leaves_out_build_and_vcs_directories() {
        let from = Scratch::new("support-from");
        from.write("src/lib.rs", "//");
        from.write("target/debug/x", "big");
        from.write(".git/HEAD", "ref");
        let to = Scratch::new("support-to");
        copy_sources(from.path(), to.path());
        assert!(to.join("src/lib.rs").is_file());
        assert!(!to.join("target").exists());
        assert!(!to.join(".git").exists());
        assert!(repo().join("Cargo.toml").is_file());
    }
}
