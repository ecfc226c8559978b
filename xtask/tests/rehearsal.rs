//! A protocol version change, rehearsed on a temporary copy of the repository
//! as a maintainer would make it: the working version plus an optional
//! ContextQuery member as the next minor (schema, `set-version`, codegen, the
//! hand-written field), `cargo xtask release`; then the next major removes the
//! member again and is released. After each release every gate of `cargo xtask
//! check` and the whole test suite pass on the copy, and the older family's
//! bundle and generated types still hold the member.
//!
//! It builds the copy from scratch in `target/rehearsal/target` and runs its
//! test suite twice, which takes longer than CI allows, so it is ignored by
//! default: `cargo test -p xtask --test rehearsal -- --ignored`. (Sharing the
//! workspace's build directory would be fast, but cargo gives the copy's crates
//! the same artifact names as the workspace's own, so the copy would overwrite
//! them.)

mod support;

use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::{Versions, repo};

const MEMBER: &str = "query_language";
const QUERY_SCHEMA: &str = "schema/types/context-query.schema.json";
const QUERY_TYPE: &str = "crates/cgp-types/src/query.rs";
const RUST_FIELD: &str = "\n    /// The query language of `query_text`, when it is not plain words.\n    #[serde(default, skip_serializing_if = \"Option::is_none\")]\n    pub query_language: Option<String>,\n";

/// A copy of the repository's sources, removed when dropped.
struct Copy(PathBuf);

impl Drop for Copy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
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

impl Copy {
    fn cargo(&self, args: &[&str]) -> (bool, String) {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let output = Command::new(cargo)
            .args(args)
            .current_dir(&self.0)
            .env("CARGO_TARGET_DIR", built().join("rehearsal/target"))
            .env("CGP_PEERS_DIR", repo().join("target/peers"))
            .output()
            .expect("run cargo");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        (output.status.success(), text)
    }

    fn xtask(&self, args: &[&str]) -> String {
        let mut all = vec!["run", "--quiet", "--offline", "-p", "xtask", "--"];
        all.extend(args);
        let (ok, text) = self.cargo(&all);
        assert!(ok, "cargo xtask {}:\n{text}", args.join(" "));
        text
    }

    /// Every gate, then the whole test suite but this rehearsal.
    fn everything_passes(&self, step: &str) {
        let check = self.xtask(&["check"]);
        assert!(!check.contains("FAIL"), "{step}: {check}");
        let (ok, text) = self.cargo(&[
            "test",
            "--quiet",
            "--offline",
            "--workspace",
            "--no-fail-fast",
            "--",
            "--skip",
            "rehearse",
        ]);
        // What failed, without the progress dots and the passing summaries.
        let failures: Vec<&str> = text
            .lines()
            .filter(|line| {
                let line = line.trim();
                !(line.is_empty()
                    || line
                        .trim_end_matches(|c: char| c.is_ascii_digit() || c == '/' || c == ' ')
                        .chars()
                        .all(|c| c == '.')
                    || line.starts_with("running ")
                    || line.starts_with("test result: ok")
                    || line.starts_with("at ")
                    || line
                        .split_once(": ")
                        .is_some_and(|(n, _)| n.chars().all(|c| c.is_ascii_digit())))
            })
            .take(200)
            .collect();
        assert!(ok, "{step}: the test suite fails:\n{}", failures.join("\n"));
    }

    fn read(&self, file: &str) -> String {
        std::fs::read_to_string(self.0.join(file)).unwrap_or_else(|error| panic!("{file}: {error}"))
    }

    fn write(&self, file: &str, text: &str) {
        std::fs::write(self.0.join(file), text).expect("write");
    }
}

/// The workspace's `target/`, under which the rehearsal keeps its copy and build.
fn built() -> PathBuf {
    std::fs::canonicalize(repo().join("target")).expect("the workspace's target/")
}

#[test]
#[ignore = "slow: builds a copy of the workspace from scratch; run with --ignored"]
fn rehearse_a_minor_release_then_a_major_that_removes_its_member() {
    // A fixed place, so that a second run finds the copy's dependencies built.
    let copy = Copy(built().join("rehearsal/tree"));
    let _ = std::fs::remove_dir_all(&copy.0);
    copy_sources(&repo(), &copy.0);
    let Versions { w, minor, .. } = Versions::derive();
    let major = w.0.with_number(w.0.major + 1, 0);

    // The next minor adds an optional member.
    let mut schema: serde_json::Value =
        serde_json::from_str(&copy.read(QUERY_SCHEMA)).expect("schema");
    schema["properties"][MEMBER] = json!({
        "type": "string",
        "description": "The query language of query_text, when it is not plain words.",
        "x-cgp-since": minor.number(),
        "x-cgp-emit": "omit-if-absent"
    });
    copy.write(
        QUERY_SCHEMA,
        &(serde_json::to_string_pretty(&schema).expect("json") + "\n"),
    );
    copy.xtask(&["set-version", &minor.to_string()]);
    copy.xtask(&["codegen"]);
    let types = copy.read(QUERY_TYPE);
    let types = types
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
    copy.write(QUERY_TYPE, &types);
    let released = copy.xtask(&["release"]);
    assert!(
        released.contains(&format!("released {minor}")),
        "{released}"
    );
    copy.everything_passes(&format!("{minor} released"));

    // The next major removes it.
    copy.xtask(&["set-version", &major.to_string()]);
    let mut schema: serde_json::Value =
        serde_json::from_str(&copy.read(QUERY_SCHEMA)).expect("schema");
    let removed = schema["properties"]
        .as_object_mut()
        .and_then(|members| members.shift_remove(MEMBER));
    assert!(removed.is_some());
    copy.write(
        QUERY_SCHEMA,
        &(serde_json::to_string_pretty(&schema).expect("json") + "\n"),
    );
    // SPEC.md's examples now speak the new family.
    let spec = copy.read("SPEC.md").replace(
        &format!("\"{}.", w.0.family()),
        &format!("\"{}.", major.family()),
    );
    copy.write("SPEC.md", &spec);
    copy.xtask(&["codegen"]);
    let types = copy
        .read(QUERY_TYPE)
        .replacen(RUST_FIELD, "\n", 1)
        .replacen("            query_language: None,\n", "", 1);
    copy.write(QUERY_TYPE, &types);
    let released = copy.xtask(&["release"]);
    assert!(
        released.contains(&format!("released {major}")),
        "{released}"
    );
    copy.everything_passes(&format!("{major} released"));

    // The older family keeps the member, in its frozen bundle, the bundle cgp
    // embeds and its generated types; the working version has none of it.
    let old_bundle = copy.read(&minor.bundle("interop"));
    assert!(old_bundle.contains(MEMBER));
    assert!(
        copy.read(&format!(
            "crates/cgp-cli/bundles/{}/interop.schema.json",
            minor.0.slug()
        ))
        .contains(MEMBER)
    );
    let family = copy.read(&format!(
        "generated/rust/src/{}.rs",
        minor.0.family_slug().replace('-', "_")
    ));
    assert!(family.contains(&format!("pub {MEMBER}")), "the 1.x types");
    assert!(!copy.read("generated/rust/src/types.rs").contains(MEMBER));
    assert!(
        !copy
            .read(&format!(
                "generated/schema/{}/interop.schema.json",
                major.slug()
            ))
            .contains(MEMBER)
    );
    assert!(
        copy.read(&format!(
            "generated/docs/{}/types/ContextQuery.md",
            minor.0.slug()
        ))
        .contains(MEMBER)
    );

    // cgp judges by either: the member is fine in the older family, unknown to
    // the strict profile of the new one.
    let query = format!(
        "{{\"type\":\"query\",\"query\":{{\"goal\":\"g\",\"max_frames\":1,\"max_tokens\":5,\"{MEMBER}\":\"sql\"}}}}\n"
    );
    copy.write("query.ndjson", &query);
    let validate = |version: &str| {
        copy.cargo(&[
            "run",
            "--quiet",
            "--offline",
            "-p",
            "cgp-cli",
            "--",
            "validate",
            "--profile",
            "strict",
            "--version",
            version,
            "query.ndjson",
        ])
    };
    let (old_ok, old_report) = validate(&minor.to_string());
    assert!(old_ok, "{old_report}");
    let (new_ok, new_report) = validate(&major.to_string());
    assert!(!new_ok && new_report.contains(MEMBER), "{new_report}");
}
