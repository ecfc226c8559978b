//! A protocol version change, rehearsed on a copy of the repository as a
//! maintainer makes it, with the edits ARCHITECTURE.md's recipes list:
//!
//! 0. the copy starts from whatever the tree holds: a working version not yet
//!    released is released first;
//! 1. the next minor adds an optional ContextQuery member under a name the
//!    schema does not have (schema, `set-version`, the hand-written field, a
//!    SPEC.md corpus example, codegen), deprecates an existing member and adds
//!    a FrameKind value the vocabulary does not have (both schema lists, the
//!    hand-written enum, a corpus example):
//!    unreleased, every gate of `cargo xtask check` and every version test
//!    pass;
//! 2. `cargo xtask release` (which runs every gate again);
//! 3. the next major removes the member and its example: every gate passes;
//!    it is released, and every gate and version test pass again;
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

const QUERY_SCHEMA: &str = "schema/types/context-query.schema.json";
const QUERY_TYPE: &str = "crates/cgp-types/src/query.rs";

/// A member name ContextQuery's schema does not have, so that the rehearsal
/// still adds a new member after a maintainer has added this one for real.
fn free_member(schema: &serde_json::Value) -> String {
    (0..)
        .map(|n| match n {
            0 => "query_language".to_owned(),
            n => format!("query_language_{n}"),
        })
        .find(|name| schema["properties"].get(name).is_none())
        .expect("a free member name")
}

/// The hand-written field of `member`.
fn rust_field(member: &str) -> String {
    format!(
        "\n    /// The query language of `query_text`, when it is not plain words.\n    #[serde(default, skip_serializing_if = \"Option::is_none\")]\n    pub {member}: Option<String>,\n"
    )
}

const KIND_SCHEMA: &str = "schema/vocab/frame-kind.schema.json";
const VOCABULARY_TYPES: &str = "crates/cgp-types/src/vocab.rs";

/// Adds a FrameKind value the vocabulary does not have, as the recipe "Add a
/// vocabulary value" does: both lists of the schema, the hand-written enum and
/// a SPEC.md corpus example. Returns the value.
fn add_frame_kind(copy: &Copy) -> String {
    let mut schema: serde_json::Value =
        serde_json::from_str(&copy.read(KIND_SCHEMA)).expect("schema");
    let known_list = |schema: &serde_json::Value| -> Vec<String> {
        schema["$defs"]["KnownFrameKind"]["enum"]
            .as_array()
            .expect("the Known list")
            .iter()
            .filter_map(|value| value.as_str().map(str::to_owned))
            .collect()
    };
    let known = known_list(&schema);
    let kind = (0..)
        .map(|n| match n {
            0 => "bookmark".to_owned(),
            n => format!("bookmark{n}"),
        })
        .find(|kind| !known.contains(kind))
        .expect("a free kind");
    schema["$defs"]["KnownFrameKind"]["enum"]
        .as_array_mut()
        .expect("the Known list")
        .push(json!(kind));
    let other = schema["oneOf"]
        .as_array_mut()
        .expect("oneOf")
        .iter_mut()
        .find(|branch| branch.get("not").is_some())
        .expect("the Other branch");
    other["not"]["enum"]
        .as_array_mut()
        .expect("the excluded list")
        .push(json!(kind));
    copy.write(
        KIND_SCHEMA,
        &(serde_json::to_string_pretty(&schema).expect("json") + "\n"),
    );
    let types = copy.read(VOCABULARY_TYPES);
    let start = types.find("pub enum FrameKind {").expect("FrameKind");
    let end = start + types[start..].find("\n    }\n").expect("the enum's end");
    let variant = format!("{}{}", kind[..1].to_uppercase(), &kind[1..]);
    let types = format!(
        "{}\n        /// `\"{kind}\"`: a rehearsed kind.\n        {variant} = \"{kind}\",{}",
        &types[..end],
        &types[end..]
    );
    copy.write(VOCABULARY_TYPES, &types);
    let spec = copy.read("SPEC.md");
    copy.write(
        "SPEC.md",
        &format!(
            "{spec}\n```json cgp-example name=frame-kind.rehearsed-{kind} target=FrameKind expect=valid\n\"{kind}\"\n```\n"
        ),
    );
    kind
}

/// The SPEC.md corpus example of `member` (the coverage gate wants one).
fn corpus_example(member: &str) -> String {
    format!(
        "\n```json cgp-example name=context-query.rehearsed-{member} target=ContextQuery expect=valid\n{{\"goal\": \"g\", \"max_frames\": 1, \"max_tokens\": 5, \"{member}\": \"sql\"}}\n```\n"
    )
}

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
#[ignore = "full tier"]
fn rehearse_a_minor_release_then_a_major_that_removes_its_member() {
    let copy = Copy(built().join("rehearsal/tree"));
    remove_sources(&copy.0);
    copy_sources(&repo(), &copy.0);
    let Versions { w, minor, major } = Versions::derive();
    // The workspace's own xtask is built from the very sources the copy has
    // now; the copy's is first built once its types change.
    let unedited = PathBuf::from(env!("CARGO_BIN_EXE_xtask"));
    let manifest = copy.read(support::MANIFEST);
    let manifest = cgp_gates::release::Manifest::parse(support::MANIFEST, &manifest)
        .expect("the release manifest");
    if manifest.release(&w.0).is_none() {
        // Between a bump and its release: release it, as a maintainer would
        // before starting the next version.
        let released = copy.xtask_of(unedited.clone(), &["release"]);
        assert!(released.contains(&format!("released {w}")), "{released}");
    }
    let schema: serde_json::Value = serde_json::from_str(&copy.read(QUERY_SCHEMA)).expect("schema");
    let member = free_member(&schema);
    let member = member.as_str();
    let field = rust_field(member);
    // An optional member that is not deprecated yet: the one the minor
    // deprecates.
    let required: Vec<&str> = schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(serde_json::Value::as_str)
        .collect();
    let deprecated = schema["properties"]
        .as_object()
        .expect("properties")
        .iter()
        .find(|(name, value)| {
            !required.contains(&name.as_str()) && value.get("deprecated").is_none()
        })
        .map(|(name, _)| name.clone())
        .expect("an optional member to deprecate");

    // The next minor adds an optional member and deprecates another:
    // unreleased, everything passes.
    copy.edit_query_schema(|members| {
        members[&deprecated]
            .as_object_mut()
            .expect("a member schema")
            .insert("deprecated".into(), json!(true));
        members.insert(
            member.into(),
            json!({
                "type": "string",
                "description": "The query language of query_text, when it is not plain words.",
                "x-cgp-since": minor.number(),
                "x-cgp-emit": "omit-if-absent"
            }),
        );
    });
    let kind = add_frame_kind(&copy);
    copy.xtask_of(unedited.clone(), &["set-version", &minor.to_string()]);
    let spec = copy.read("SPEC.md");
    copy.write("SPEC.md", &format!("{spec}{}", corpus_example(member)));
    copy.xtask_of(unedited, &["codegen"]);
    let none = format!("            {member}: None,\n");
    let types = copy
        .read(QUERY_TYPE)
        .replacen(
            "    pub representation_preferences: Vec<Representation>,\n",
            &format!("    pub representation_preferences: Vec<Representation>,{field}"),
            1,
        )
        .replacen(
            "            representation_preferences: Vec::new(),\n",
            &format!("            representation_preferences: Vec::new(),\n{none}"),
            1,
        );
    assert!(types.contains(&field) && types.contains(&none));
    copy.write(QUERY_TYPE, &types);
    // The vectors' decode expectations come from the hand-written types, so
    // codegen runs again once they are edited (the recipes' last step).
    copy.build(&format!("{minor}, hand-written types"));
    copy.xtask(&["codegen"]);
    copy.gates_and_tests_pass(&format!("{minor}, unreleased"));
    let released = copy.xtask(&["release"]);
    assert!(
        released.contains(&format!("released {minor}")),
        "{released}"
    );

    // The next major removes it: everything passes before and after its release.
    copy.xtask(&["set-version", &major.to_string()]);
    copy.edit_query_schema(|members| {
        assert!(members.shift_remove(member).is_some());
    });
    // SPEC.md's examples now speak the new family, and the removed member's
    // example goes with it.
    let spec = copy.read("SPEC.md");
    assert!(spec.contains(&corpus_example(member)));
    let spec = spec.replacen(&corpus_example(member), "", 1).replace(
        &format!("\"{}.", w.0.family()),
        &format!("\"{}.", major.0.family()),
    );
    copy.write("SPEC.md", &spec);
    copy.xtask(&["codegen"]);
    let types = copy
        .read(QUERY_TYPE)
        .replacen(&field, "\n", 1)
        .replacen(&none, "", 1);
    copy.write(QUERY_TYPE, &types);
    copy.build(&format!("{major}, hand-written types"));
    copy.xtask(&["codegen"]);
    copy.gates_pass(&format!("{major}, unreleased"));
    let released = copy.xtask(&["release"]);
    assert!(
        released.contains(&format!("released {major}")),
        "{released}"
    );
    copy.gates_and_tests_pass(&format!("{major}, released"));

    // Each release put its section first in CHANGELOG.md, from the classifier.
    let changelog = copy.read("CHANGELOG.md");
    let at = |version: &str| {
        changelog
            .find(&format!("## {version}\n"))
            .unwrap_or_else(|| panic!("no section for {version}:\n{changelog}"))
    };
    assert!(
        at(&major.to_string()) < at(&minor.to_string()),
        "{changelog}"
    );
    assert!(at(&minor.to_string()) < at(&w.to_string()), "{changelog}");
    assert!(
        changelog.contains(&format!(
            "- `FIELD_ADDED_OPTIONAL` `/ContextQuery/{member}` (schema/"
        )),
        "{changelog}"
    );
    assert!(
        changelog.contains(&format!("- `FIELD_REMOVED` `/ContextQuery/{member}` (")),
        "{changelog}"
    );

    // The older family keeps the member, in its frozen bundle, the bundle cgp
    // embeds, its docs and its generated types; the working version has none.
    assert!(copy.read(&minor.bundle("interop")).contains(member));
    assert!(
        copy.read(&minor.bundle("interop"))
            .contains(&format!("\"{kind}\""))
    );
    assert!(
        copy.read(&format!(
            "crates/cgp-cli/bundles/{}/interop.schema.json",
            minor.0.slug()
        ))
        .contains(member)
    );
    let family = copy.read(&format!(
        "generated/rust/src/{}.rs",
        minor.family_slug().replace('-', "_")
    ));
    assert!(family.contains(&format!("pub {member}")), "the older types");
    assert!(
        copy.read(&format!(
            "generated/docs/{}/types/ContextQuery.md",
            minor.0.slug()
        ))
        .contains(member)
    );
    assert!(!copy.read("generated/rust/src/types.rs").contains(member));
    assert!(!copy.read(&major.bundle("interop")).contains(member));

    // cgp judges by either: the member is fine in the older family, unknown to
    // the strict profile of the new one.
    let query = format!(
        "{{\"type\":\"query\",\"query\":{{\"goal\":\"g\",\"max_frames\":1,\"max_tokens\":5,\"{member}\":\"sql\"}}}}\n"
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
    assert!(!new_ok && new_report.contains(member), "{new_report}");
}
