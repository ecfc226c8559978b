//! Scratch copies of the repository tree for the end-to-end tests of `cargo
//! xtask`: what `check` reads (schema/, SPEC.md, generated/ and the hand-written
//! types' sources), edited one way or another, and the xtask binary run on it.
#![allow(dead_code)]

use cgp_test_support::Scratch;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

pub use cgp_test_support::repo;

/// What one xtask run printed.
pub struct Run {
    /// Whether it exited 0.
    pub ok: bool,
    /// Its exit code.
    pub code: Option<i32>,
    /// Its standard output.
    pub stdout: String,
    /// Its standard error.
    pub stderr: String,
}

/// A scratch copy of the tree (its root, and the scratch directory that holds
/// it, removed when dropped).
pub struct Tree(pub PathBuf, Scratch);

impl Tree {
    /// A fresh copy named after the test (`name` keeps parallel tests apart).
    pub fn new(name: &str) -> Self {
        let scratch = Scratch::new(&format!("xtask-{name}"));
        let root = scratch.join("tree");
        // The benchmarks' scratch tree at scale 1 is exactly what check reads.
        cgp_bench::scaled_tree(&repo(), &root, 1).expect("copy the tree");
        Tree(root, scratch)
    }

    /// A fresh copy whose working version is released: as committed after a
    /// release, or released on the copy when the tree is between a version
    /// bump and its release (every gate of `check` must hold for that).
    pub fn released(name: &str) -> Self {
        let tree = Tree::new(name);
        let working = Versions::derive().w;
        if tree.manifest().release(&working.0).is_none() {
            let release = tree.xtask(&["release"]);
            assert!(
                release.ok,
                "releasing {working} on the copy:\n{}{}",
                release.stdout, release.stderr
            );
        }
        tree
    }

    /// The copy's release manifest.
    pub fn manifest(&self) -> cgp_gates::release::Manifest {
        let text = String::from_utf8(self.read(MANIFEST)).expect("utf-8");
        cgp_gates::release::Manifest::parse(MANIFEST, &text).expect("the release manifest parses")
    }

    /// What the releases gate says of the copy's release manifest:
    /// `N released files are unchanged (<versions>)`.
    pub fn releases_summary(&self) -> String {
        let manifest = self.manifest();
        let versions: Vec<String> = manifest
            .releases()
            .iter()
            .map(|release| release.version.to_string())
            .collect();
        format!(
            "{} released files are unchanged ({})",
            manifest.files().len(),
            versions.join(", ")
        )
    }

    /// Runs `cargo xtask --root <copy> <args>`.
    pub fn xtask(&self, args: &[&str]) -> Run {
        let output = Command::new(env!("CARGO_BIN_EXE_xtask"))
            .arg("--root")
            .arg(&self.0)
            .args(args)
            .output()
            .expect("run xtask");
        Run {
            ok: output.status.success(),
            code: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    /// Edits a JSON file in place.
    pub fn edit_json(&self, file: &str, edit: impl FnOnce(&mut Value)) {
        let path = self.0.join(file);
        let mut value: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
        edit(&mut value);
        std::fs::write(
            &path,
            serde_json::to_string_pretty(&value).expect("json") + "\n",
        )
        .expect("write");
    }

    /// Replaces the first occurrence of `from` (which must be there) by `to`.
    pub fn edit_text(&self, file: &str, from: &str, to: &str) {
        let path = self.0.join(file);
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(text.contains(from), "{file} does not contain {from:?}");
        std::fs::write(&path, text.replacen(from, to, 1)).expect("write");
    }

    /// A file's bytes.
    pub fn read(&self, file: &str) -> Vec<u8> {
        std::fs::read(self.0.join(file)).unwrap_or_else(|error| panic!("{file}: {error}"))
    }

    /// The 1-based line of the first line of `file` containing `needle`.
    pub fn line_of(&self, file: &str, needle: &str) -> usize {
        let text = std::fs::read_to_string(self.0.join(file)).expect("read");
        text.lines()
            .position(|line| line.contains(needle))
            .map(|index| index + 1)
            .unwrap_or_else(|| panic!("{needle} not in {file}"))
    }

    /// `line:col` (1-based, the column in characters) of `at` in the first
    /// line of `file` containing `needle`, as the gates print a place.
    pub fn place_of(&self, file: &str, needle: &str, at: &str) -> String {
        let line = self.line_of(file, needle);
        let text = std::fs::read_to_string(self.0.join(file)).expect("read");
        let content = text.lines().nth(line - 1).expect("line");
        let byte = content
            .find(at)
            .unwrap_or_else(|| panic!("{at} not in line {line} of {file}"));
        let column = content[..byte].chars().count() + 1;
        format!("{line}:{column}")
    }

    /// `line:col` (1-based) of the value of the first member `"member"` in
    /// `file`, where `cgp diff` and the bump gate place a change to it.
    pub fn value_place_of(&self, file: &str, member: &str) -> String {
        let needle = format!("\"{member}\": ");
        let text = std::fs::read_to_string(self.0.join(file)).expect("read");
        text.lines()
            .enumerate()
            .find_map(|(index, line)| {
                line.find(&needle)
                    .map(|at| format!("{}:{}", index + 1, at + needle.len() + 1))
            })
            .unwrap_or_else(|| panic!("{needle} not in {file}"))
    }
}

/// Asserts that a report contains `expected`, showing the report when not.
pub fn assert_reports(report: &str, expected: &str) {
    assert!(
        report.contains(expected),
        "expected the report to contain\n  {expected}\nbut it was:\n{report}"
    );
}

/// A protocol version as the expected lines of these tests show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version(pub cgp_schema::ProtocolVersion);

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl Version {
    /// The repository-relative path of its published bundle of `profile`.
    pub fn bundle(&self, profile: &str) -> String {
        format!("generated/schema/{}/{profile}.schema.json", self.0.slug())
    }

    /// Its family as a path segment, as `$id`s carry it.
    pub fn family_slug(&self) -> String {
        self.0.family_slug()
    }

    /// Its `major.minor`, as `x-cgp-since` carries it.
    pub fn number(&self) -> String {
        self.0.number()
    }
}

/// The working version and the next minor and major after it, derived from the
/// types so that no test names a protocol version.
pub struct Versions {
    /// The working version (the committed tree has it released).
    pub w: Version,
    /// The next minor version.
    pub minor: Version,
    /// The next major version.
    pub major: Version,
}

impl Versions {
    /// Derives the three from `cgp_types::PROTOCOL_VERSION`.
    pub fn derive() -> Self {
        let working: cgp_schema::ProtocolVersion = cgp_types::PROTOCOL_VERSION
            .parse()
            .expect("the working version parses");
        let minor = working.with_number(working.major, working.minor + 1);
        let major = working.with_number(working.major + 1, 0);
        Versions {
            w: Version(working),
            minor: Version(minor),
            major: Version(major),
        }
    }
}

/// The release manifest, relative to the repository root.
pub const MANIFEST: &str = "generated/schema/releases.json";
