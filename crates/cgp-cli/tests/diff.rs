//! End-to-end tests of `cgp diff` on copies of the published bundle with one
//! change each: formats and exit codes.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const PUBLISHED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../generated/schema/contextgraph-1.0/interop.schema.json"
);

/// A copy of the published bundle, changed by `edit`, written under `name`.
fn variant(name: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let text = std::fs::read_to_string(PUBLISHED).expect("published bundle");
    let mut bundle: Value = serde_json::from_str(&text).expect("JSON");
    edit(&mut bundle);
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let mut text = serde_json::to_string_pretty(&bundle).expect("JSON");
    text.push('\n');
    std::fs::write(&path, text).expect("write");
    path
}

fn cgp(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cgp"))
        .args(args)
        .output()
        .expect("cgp runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn identical_versions_have_no_changes() {
    // Re-serialised with another member order: still no change.
    let copy = variant("diff-same.json", |bundle| {
        if let Some(defs) = bundle["$defs"].as_object_mut() {
            defs.sort_keys();
        }
    });
    let copy = copy.to_str().expect("UTF-8 path");
    let output = cgp(&["diff", PUBLISHED, copy, "--fail-on", "minor"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert_eq!(stdout(&output), "no changes\n");
}

#[test]
fn fail_on_decides_the_exit_code() {
    let minor = variant("diff-minor.json", |bundle| {
        bundle["$defs"]["ContextQuery"]["properties"]["priority"] = json!({
            "type": ["integer", "null"],
            "x-cgp-since": "1.1",
            "x-cgp-emit": "omit-if-absent"
        });
    });
    let minor = minor.to_str().expect("UTF-8 path");
    let output = cgp(&["diff", PUBLISHED, minor]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    assert!(
        text.contains("FIELD_ADDED_OPTIONAL /ContextQuery/priority"),
        "{text}"
    );
    assert!(text.ends_with("1 change; required bump: minor\n"), "{text}");
    assert_eq!(
        cgp(&["diff", PUBLISHED, minor, "--fail-on", "major"])
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        cgp(&["diff", PUBLISHED, minor, "--fail-on", "minor"])
            .status
            .code(),
        Some(1)
    );

    let major = variant("diff-major.json", |bundle| {
        if let Some(required) = bundle["$defs"]["ContextQuery"]["required"].as_array_mut() {
            required.push(json!("as_of"));
        }
    });
    let major = major.to_str().expect("UTF-8 path");
    let json = cgp(&[
        "diff",
        "--format",
        "json",
        PUBLISHED,
        major,
        "--fail-on",
        "major",
    ]);
    assert_eq!(json.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&json.stdout).expect("one JSON object");
    assert_eq!(report["required_bump"], "major");
    assert_eq!(report["changes"][0]["pointer"], "/ContextQuery/as_of");
    let github = cgp(&["diff", "--format", "github", PUBLISHED, major]);
    assert_eq!(github.status.code(), Some(0));
    assert!(
        stdout(&github).starts_with("::error file="),
        "{}",
        stdout(&github)
    );
}

#[test]
fn unreadable_input_exits_2() {
    let output = cgp(&["diff", PUBLISHED, "/no/such/bundle.json"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("/no/such/bundle.json"));
    let garbage = Path::new(env!("CARGO_TARGET_TMPDIR")).join("diff-garbage.json");
    std::fs::write(&garbage, "{ not json").expect("write");
    let output = cgp(&["diff", PUBLISHED, garbage.to_str().expect("UTF-8")]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(cgp(&["diff", PUBLISHED]).status.code(), Some(2));
}
