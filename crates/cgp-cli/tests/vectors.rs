//! `cgp vectors list / export / run`: the embedded vectors are the published
//! ones, export writes the folder, and a run against a broken harness exits 1
//! with the case named in every format.
#![cfg(unix)]

use std::path::PathBuf;
use std::process::{Command, Output};

fn cgp(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cgp"))
        .args(args)
        .output()
        .expect("cgp runs")
}

fn published() -> PathBuf {
    let version: cgp_schema::ProtocolVersion =
        cgp_types::PROTOCOL_VERSION.parse().expect("version");
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../generated/vectors")
        .join(version.slug())
}

fn published_cases() -> Vec<String> {
    let mut lines = Vec::new();
    for name in ["corpus", "edge", "random", "vocabulary"] {
        let text =
            std::fs::read_to_string(published().join(format!("{name}.ndjson"))).expect("published");
        lines.extend(text.lines().map(str::to_owned));
    }
    lines
}

#[test]
fn list_gives_every_published_case() {
    let output = cgp(&["vectors", "list", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0));
    let listed: Vec<String> = String::from_utf8(output.stdout)
        .expect("utf-8")
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(listed, published_cases());
    let output = cgp(&["vectors", "list"]);
    let text = String::from_utf8(output.stdout).expect("utf-8");
    assert_eq!(text.lines().count(), listed.len());
    assert!(
        text.lines()
            .any(|line| line.starts_with("text/empty/stdio\tstdio\treject:text\t")),
        "{}",
        text.lines().take(3).collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn export_writes_the_published_folder() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("vectors-export");
    let _ = std::fs::remove_dir_all(&dir);
    let output = cgp(&["vectors", "export", dir.to_str().expect("path")]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("written")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    for name in &names {
        assert_eq!(
            std::fs::read(dir.join(name)).expect("exported"),
            std::fs::read(published().join(name)).expect("published"),
            "{name}"
        );
    }
    assert!(names.contains(&"case.schema.json".to_owned()), "{names:?}");
    assert!(names.contains(&"README.md".to_owned()), "{names:?}");
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn a_broken_harness_fails_the_run_naming_the_case_in_every_format() {
    let first = published_cases()[0].clone();
    let first: serde_json::Value = serde_json::from_str(&first).expect("case");
    let id = first["id"].as_str().expect("id");
    let script = "read line; exit 3";
    let output = cgp(&["vectors", "run", "--", "sh", "-c", script]);
    assert_eq!(output.status.code(), Some(1));
    let text = String::from_utf8(output.stdout).expect("utf-8");
    assert!(
        text.contains(&format!("without answering case {id}")),
        "{text}"
    );
    let output = cgp(&[
        "vectors", "run", "--format", "json", "--", "sh", "-c", script,
    ]);
    assert_eq!(output.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
    assert_eq!(report["failure"]["kind"], "exited");
    assert_eq!(report["failure"]["case"], id);
    assert_eq!(report["answered"], 0);
    let output = cgp(&[
        "vectors",
        "run",
        "--format",
        "github",
        "--timeout",
        "0.3",
        "--",
        "sleep",
        "30",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let text = String::from_utf8(output.stdout).expect("utf-8");
    assert!(
        text.starts_with("::error title=cgp vectors%3A the harness failed::no answer to case"),
        "{text}"
    );
    let output = cgp(&["vectors", "run"]);
    assert_eq!(output.status.code(), Some(2), "a program is required");
}
