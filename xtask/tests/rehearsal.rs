//! A protocol version change, rehearsed on a copy of the repository as a
//! maintainer makes it:
//!
//! 1. the next minor adds an optional ContextQuery member (schema,
//!    `set-version`, codegen, the hand-written field): unreleased, every gate of
//!    `cargo xtask check` and every version test pass;
//! 2. `cargo xtask release` (which runs every gate again);
//! 3. the next major removes the member: every gate passes; it is released, and
//!    every gate and version test pass again;
//! 4. the older family's bundle, embedded copy, docs and generated types still
//!    hold the member, and `cgp` judges by either version.
//!
//! The copy is built by its own cargo in `target/rehearsal/target` (a nested
//! cargo cannot share the running `cargo test`'s build directory: that cargo
//! may hold its lock, and the copy's crates get the same artifact names as the
//! workspace's own, so it would overwrite them). That directory persists, so
//! only the first run builds the registry dependencies; later runs rebuild the
//! workspace's crates incrementally. The copy's own `target/` (where a test
//! builds mutated types) persists too.
//!
//! The tests run are [`VERSION_TESTS`]: the test targets whose outcome depends
//! on which versions exist, which one is working and whether it is released, or
//! on the member the steps add and remove. They run at the two states a
//! maintainer commits that the workspace's own `cargo test` never sees: a
//! working version between its bump and its release, and a working family with
//! an older one released beside it. The rest of the suite judges fixed inputs
//! (semantic rules, transport, hostile input, the fuzz corpus, classifier and
//! sync-gate mutations) through the same code at any version. The corpus
//! differential against the reference crates is left out too: those crates do
//! not move with our version, the working and older families' generated types
//! are checked on their corpus by `families`, and the hand-written types by
//! `roundtrip` and the sync gate; building the reference crates added a third
//! to the CPU time of a first run. So are `cgp check`'s tests: the version
//! its handshake speaks is `cgp_types::PROTOCOL_VERSION`, which the version
//! gate ties to schema/, and they time real provider processes (one failed
//! under load in the copy, as it can in any run).

mod support;

use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::{Versions, repo};

const MEMBER: &str = "query_language";
const QUERY_SCHEMA: &str = "schema/types/context-query.schema.json";
const QUERY_TYPE: &str = "crates/cgp-types/src/query.rs";
const RUST_FIELD: &str = "\n    /// The query language of `query_text`, when it is not plain words.\n    #[serde(default, skip_serializing_if = \"Option::is_none\")]\n    pub query_language: Option<String>,\n";

/// The test targets run at each step, and why each depends on the version:
const VERSION_TESTS: [&str; 8] = [
    // the hand-written types, edited at each step, re-encode what they decode;
    "roundtrip",
    // each major family's generated types decode their family's corpus;
    "families",
    // `cgp` embeds every published bundle and judges by `--version`;
    "validate",
    "diff",
    // the gates on scratch copies, with versions derived from the working one;
    "drift_gate",
    "reissue",
    "check_bites",
    // no source names a version by hand.
    "version_literals",
];

/// A copy of the repository's sources at a fixed place (so that its build
/// directory stays warm between runs), removed when dropped.
struct Copy(PathBuf);

impl Drop for Copy {
    fn drop(&mut self) {
        remove_sources(&self.0);
    }
}

/// Removes everything in the copy but its `target/`.
fn remove_sources(copy: &Path) {
    for entry in std::fs::read_dir(copy).into_iter().flatten().flatten() {
        let path = entry.path();
        if entry.file_name() == "target" {
            continue;
        }
        let _ = if path.is_dir() {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
    }
}

fn copy_sources(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create directory");
    for entry in std::fs::read_dir(from).expect("read directory") {
        let entry = entry.expect("entry");
        let name = entry.file_name();
        if matches!(name.to_str(), Some("target" | ".git" | "node_modules")) {
            continue;
        }
        let target = to.join(&name);
        let kind = entry.file_type().expect("file type");
        if kind.is_dir() {
            copy_sources(&entry.path(), &target);
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target).expect("copy file");
        }
    }
}

/// Where the copy builds: the rehearsal's own directory under `target/`.
fn build_dir() -> PathBuf {
    built().join("rehearsal/target")
}

/// The workspace's `target/`, under which the rehearsal keeps its copy and build.
fn built() -> PathBuf {
    let target = repo().join("target");
    std::fs::create_dir_all(&target).expect("create target/");
    std::fs::canonicalize(target).expect("the workspace's target/")
}

/// The last lines of a long output, where cargo and libtest say what failed.
fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(150)..].join("\n")
}

impl Copy {
    fn run(&self, program: impl AsRef<std::ffi::OsStr>, args: &[&str]) -> (bool, String) {
        let output = Command::new(program)
            .args(args)
            .current_dir(&self.0)
            .env("CARGO_TARGET_DIR", build_dir())
            .env("CGP_PEERS_DIR", built().join("peers"))
            .output()
            .expect("run");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        (output.status.success(), text)
    }

    /// `cargo test` of the version tests, one invocation for the whole
    /// workspace, so that features unify as in the workspace's own `cargo test`
    /// and each step reuses the same dependency artifacts.
    fn cargo_test(&self, extra: &[&str]) -> (bool, String) {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut args = vec!["test", "--offline", "--workspace"];
        for test in VERSION_TESTS {
            args.extend(["--test", test]);
        }
        args.extend(extra);
        self.run(cargo, &args)
    }

    /// Builds the copy as it is now: the version tests, and with them the
    /// `xtask` and `cgp` binaries the steps run.
    fn build(&self, step: &str) {
        let (ok, text) = self.cargo_test(&["--no-run"]);
        assert!(ok, "{step}: the copy does not build:\n{}", tail(&text));
    }

    /// Runs the copy's `cargo xtask`, which must succeed.
    fn xtask(&self, args: &[&str]) -> String {
        self.xtask_of(build_dir().join("debug/xtask"), args)
    }

    /// Runs `xtask --root <copy>` from `binary`, which must succeed.
    fn xtask_of(&self, binary: PathBuf, args: &[&str]) -> String {
        let mut all = vec!["--root", self.0.to_str().expect("a UTF-8 path")];
        all.extend(args);
        let (ok, text) = self.run(binary, &all);
        assert!(ok, "cargo xtask {}:\n{text}", args.join(" "));
        text
    }

    /// Builds the copy; every gate of `cargo xtask check` passes.
    fn gates_pass(&self, step: &str) {
        self.build(step);
        let check = self.xtask(&["check"]);
        assert!(!check.contains("FAIL"), "{step}: {check}");
    }

    /// Every gate and every version test pass.
    fn gates_and_tests_pass(&self, step: &str) {
        self.gates_pass(step);
        let (ok, text) = self.cargo_test(&["--no-fail-fast"]);
        assert!(ok, "{step}: a version test fails:\n{}", tail(&text));
        for test in VERSION_TESTS {
            assert!(
                text.contains(&format!("/{test}.rs (")),
                "{step}: {test} did not run:\n{}",
                tail(&text)
            );
        }
    }

    fn read(&self, file: &str) -> String {
        std::fs::read_to_string(self.0.join(file)).unwrap_or_else(|error| panic!("{file}: {error}"))
    }

    fn write(&self, file: &str, text: &str) {
        std::fs::write(self.0.join(file), text).expect("write");
    }

    fn edit_query_schema(
        &self,
        edit: impl FnOnce(&mut serde_json::Map<String, serde_json::Value>),
    ) {
        let mut schema: serde_json::Value =
            serde_json::from_str(&self.read(QUERY_SCHEMA)).expect("schema");
        edit(schema["properties"].as_object_mut().expect("properties"));
        self.write(
            QUERY_SCHEMA,
            &(serde_json::to_string_pretty(&schema).expect("json") + "\n"),
        );
    }
}

#[test]
fn rehearse_a_minor_release_then_a_major_that_removes_its_member() {
    let copy = Copy(built().join("rehearsal/tree"));
    remove_sources(&copy.0);
    copy_sources(&repo(), &copy.0);
    let Versions { w, minor, major } = Versions::derive();

    // The next minor adds an optional member: unreleased, everything passes.
    copy.edit_query_schema(|members| {
        members.insert(
            MEMBER.into(),
            json!({
                "type": "string",
                "description": "The query language of query_text, when it is not plain words.",
                "x-cgp-since": minor.number(),
                "x-cgp-emit": "omit-if-absent"
            }),
        );
    });
    // The workspace's own xtask is built from the very sources the copy has
    // now; the copy's is first built once its types change.
    let unedited = PathBuf::from(env!("CARGO_BIN_EXE_xtask"));
    copy.xtask_of(unedited.clone(), &["set-version", &minor.to_string()]);
    copy.xtask_of(unedited, &["codegen"]);
    let types = copy
        .read(QUERY_TYPE)
        .replacen(
            "    pub representation_preferences: Vec<Representation>,\n",
            &format!("    pub representation_preferences: Vec<Representation>,{RUST_FIELD}"),
            1,
        )
        .replacen(
            "            representation_preferences: Vec::new(),\n",
            "            representation_preferences: Vec::new(),\n            query_language: None,\n",
            1,
        );
    assert!(types.contains(RUST_FIELD) && types.contains("query_language: None"));
    copy.write(QUERY_TYPE, &types);
    copy.gates_and_tests_pass(&format!("{minor}, unreleased"));
    let released = copy.xtask(&["release"]);
    assert!(
        released.contains(&format!("released {minor}")),
        "{released}"
    );

    // The next major removes it: everything passes before and after its release.
    copy.xtask(&["set-version", &major.to_string()]);
    copy.edit_query_schema(|members| {
        assert!(members.shift_remove(MEMBER).is_some());
    });
    // SPEC.md's examples now speak the new family.
    let spec = copy.read("SPEC.md").replace(
        &format!("\"{}.", w.0.family()),
        &format!("\"{}.", major.0.family()),
    );
    copy.write("SPEC.md", &spec);
    copy.xtask(&["codegen"]);
    let types = copy
        .read(QUERY_TYPE)
        .replacen(RUST_FIELD, "\n", 1)
        .replacen("            query_language: None,\n", "", 1);
    copy.write(QUERY_TYPE, &types);
    copy.gates_pass(&format!("{major}, unreleased"));
    let released = copy.xtask(&["release"]);
    assert!(
        released.contains(&format!("released {major}")),
        "{released}"
    );
    copy.gates_and_tests_pass(&format!("{major}, released"));

    // The older family keeps the member, in its frozen bundle, the bundle cgp
    // embeds, its docs and its generated types; the working version has none.
    assert!(copy.read(&minor.bundle("interop")).contains(MEMBER));
    assert!(
        copy.read(&format!(
            "crates/cgp-cli/bundles/{}/interop.schema.json",
            minor.0.slug()
        ))
        .contains(MEMBER)
    );
    let family = copy.read(&format!(
        "generated/rust/src/{}.rs",
        minor.family_slug().replace('-', "_")
    ));
    assert!(family.contains(&format!("pub {MEMBER}")), "the older types");
    assert!(
        copy.read(&format!(
            "generated/docs/{}/types/ContextQuery.md",
            minor.0.slug()
        ))
        .contains(MEMBER)
    );
    assert!(!copy.read("generated/rust/src/types.rs").contains(MEMBER));
    assert!(!copy.read(&major.bundle("interop")).contains(MEMBER));

    // cgp judges by either: the member is fine in the older family, unknown to
    // the strict profile of the new one.
    let query = format!(
        "{{\"type\":\"query\",\"query\":{{\"goal\":\"g\",\"max_frames\":1,\"max_tokens\":5,\"{MEMBER}\":\"sql\"}}}}\n"
    );
    copy.write("query.ndjson", &query);
    let validate = |version: &str| {
        copy.run(
            build_dir().join("debug/cgp"),
            &[
                "validate",
                "--profile",
                "strict",
                "--version",
                version,
                "query.ndjson",
            ],
        )
    };
    let (old_ok, old_report) = validate(&minor.to_string());
    assert!(old_ok, "{old_report}");
    let (new_ok, new_report) = validate(&major.to_string());
    assert!(!new_ok && new_report.contains(MEMBER), "{new_report}");
}
