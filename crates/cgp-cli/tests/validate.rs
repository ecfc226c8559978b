//! End-to-end tests of `cgp validate` and `cgp schema`: golden files of the
//! human and JSON output, exit codes, standard input, overlong lines.
//!
//! Regenerate the golden files with `UPDATE_GOLDEN=1 cargo test -p cgp-cli`.
//!
//! The transcripts under `tests/data/` are captures of the first released
//! version's wire, so `cgp validate` judges them by that version's frozen bundles
//! (`--version`, unless a test names one): the golden files hold across every
//! later version change.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// The first released protocol version, from the release manifest.
fn first_release() -> String {
    let manifest =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../generated/schema/releases.json");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(manifest).expect("releases.json"))
            .expect("JSON");
    manifest["releases"][0]["version"]
        .as_str()
        .expect("a released version")
        .to_owned()
}

fn cgp(args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cgp"));
    command.args(args.first());
    if args.first() == Some(&"validate") && !args.contains(&"--version") {
        command.args(["--version", &first_release()]);
    }
    command
        .args(args.iter().skip(1))
        .current_dir(data())
        .env_remove("NO_COLOR")
        .output()
        .expect("cgp runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// Compares `actual` with `tests/golden/<name>`, or rewrites it when
/// `UPDATE_GOLDEN` is set.
fn golden(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, actual).expect("write golden file");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|error| {
        panic!(
            "{}: {error}; run with UPDATE_GOLDEN=1 to create it",
            path.display()
        )
    });
    if expected != actual {
        let first = expected
            .lines()
            .zip(actual.lines())
            .position(|(e, a)| e != a)
            .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
        panic!(
            "{name} differs from the golden file at line {}:\n  expected: {}\n  actual:   {}\n(UPDATE_GOLDEN=1 rewrites it)",
            first + 1,
            expected.lines().nth(first).unwrap_or("<end>"),
            actual.lines().nth(first).unwrap_or("<end>")
        );
    }
}

#[test]
fn human_output_names_every_kind_of_error() {
    let output = cgp(&["validate", "--semantic", "errors.ndjson"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stderr.is_empty(), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    golden("errors.human", &stdout);
    assert!(stdout.ends_with("10 passed, 26 failed\n"), "{stdout}");
    // No colour when stdout is not a terminal.
    assert!(!stdout.contains('\u{1b}'));
    // Every semantic rule the transcript breaks is named.
    for rule in [
        "B1",
        "B3",
        "B4",
        "U3",
        "D1",
        "F1",
        "F2",
        "F3",
        "F4",
        "F5",
        "F11",
        "F13",
        "G1",
        "G2",
        "H1",
        "H4",
        "P1",
        "P2",
        "P3",
        "CGP-RESOLVE",
    ] {
        assert!(
            stdout.contains(&format!("(rule {rule})")),
            "rule {rule} missing"
        );
    }
}

#[test]
fn github_output_is_one_annotation_per_error_then_the_summary() {
    let output = cgp(&["validate", "--format", "github", "annotations.ndjson"]);
    assert_eq!(output.status.code(), Some(1));
    let stdout = text(&output.stdout);
    golden("annotations.github", &stdout);
    let (summary, annotations) = stdout
        .lines()
        .collect::<Vec<_>>()
        .split_last()
        .map_or(("", Vec::new()), |(last, rest)| (*last, rest.to_vec()));
    assert_eq!(summary, "2 passed, 9 failed");
    assert!(!annotations.is_empty());
    for annotation in annotations {
        assert!(
            annotation.starts_with("::error file=annotations.ndjson,line=")
                && annotation.contains(",col=")
                && annotation.contains(",title=cgp validate::"),
            "{annotation}"
        );
    }
    // What the transcript says cannot end the command or start another one.
    assert!(!stdout.contains("\n::warning"), "{stdout}");
    assert!(stdout.contains("100%25"), "{stdout}");
    // Standard input is no file to point at.
    let mut child = Command::new(env!("CARGO_BIN_EXE_cgp"))
        .args(["validate", "--format", "github"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("cgp runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"[1]\n")
        .expect("write");
    let output = child.wait_with_output().expect("cgp ends");
    assert_eq!(
        text(&output.stdout).lines().next().unwrap_or_default(),
        "::error title=cgp validate::-: /: expected an envelope object, found an array of 1 item(s) (schema /type)"
    );
}

#[test]
fn json_output_is_one_object_per_line_then_a_summary() {
    let output = cgp(&[
        "validate",
        "--semantic",
        "--format",
        "json",
        "errors.ndjson",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let stdout = text(&output.stdout);
    golden("errors.json", &stdout);
    let objects: Vec<serde_json::Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is JSON"))
        .collect();
    // 36 messages (the blank line is skipped) and the summary.
    assert_eq!(objects.len(), 37);
    assert_eq!(
        objects.last(),
        Some(&serde_json::json!({"summary": {"passed": 10, "failed": 26, "warnings": 0}}))
    );
    let b3 = objects
        .iter()
        .flat_map(|o| o["errors"].as_array().into_iter().flatten())
        .find(|e| e["rule"] == "B3")
        .expect("a B3 error");
    assert_eq!(b3["instance_path"], "/result/frames/0/token_cost");
    assert_eq!(b3["layer"], "semantic");
    assert_eq!(objects[0]["valid"], true);
    assert_eq!(objects[0]["type"], "handshake");
}

/// `--jobs` changes how many threads check lines, never the report: the same
/// bytes, in input order, with and without the semantic rules.
#[test]
fn jobs_keep_the_report_in_input_order() {
    let transcript = std::fs::read(data().join("errors.ndjson")).expect("errors.ndjson");
    // Enough lines for several batches, so the threads really share the work.
    let input = transcript.repeat(40);
    let run = |args: &[&str]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cgp"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("cgp runs");
        let mut stdin = child.stdin.take().expect("stdin");
        let writer = {
            let input = input.clone();
            std::thread::spawn(move || {
                use std::io::Write;
                stdin.write_all(&input).expect("write stdin");
            })
        };
        let output = child.wait_with_output().expect("cgp finishes");
        writer.join().expect("writer");
        assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
        text(&output.stdout)
    };
    for semantic in [false, true] {
        let mut base = vec!["validate", "--format", "json"];
        if semantic {
            base.push("--semantic");
        }
        let with = |jobs: &str| run(&[base.as_slice(), &["--jobs", jobs, "-"]].concat());
        let alone = with("1");
        assert!(alone.lines().count() > 1000, "{alone}");
        assert_eq!(with("2"), alone, "--jobs 2, semantic: {semantic}");
        assert_eq!(with("5"), alone, "--jobs 5, semantic: {semantic}");
        assert_eq!(run(&[base.as_slice(), &["-"]].concat()), alone);
    }
    let zero = cgp(&["validate", "--jobs", "0", "errors.ndjson"]);
    assert_eq!(zero.status.code(), Some(2));
}

#[test]
fn without_semantic_only_the_wire_is_judged() {
    let output = cgp(&["validate", "errors.ndjson"]);
    assert_eq!(output.status.code(), Some(1));
    let stdout = text(&output.stdout);
    assert!(!stdout.contains("(rule "), "{stdout}");
    assert!(stdout.ends_with("18 passed, 18 failed\n"), "{stdout}");
}

#[test]
fn strict_profile_and_json_documents() {
    let strict = cgp(&["validate", "--profile", "strict", "strict.ndjson"]);
    assert_eq!(strict.status.code(), Some(1));
    golden("strict.human", &text(&strict.stdout));
    let interop = cgp(&["validate", "strict.ndjson"]);
    assert_eq!(interop.status.code(), Some(0), "{}", text(&interop.stdout));

    let document = cgp(&["validate", "--json-document", "document.json"]);
    assert_eq!(document.status.code(), Some(1));
    golden("document.human", &text(&document.stdout));
    let json = cgp(&[
        "validate",
        "--json-document",
        "--format",
        "json",
        "document.json",
    ]);
    golden("document.json", &text(&json.stdout));
}

#[test]
fn standard_input_and_exit_codes() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cgp"))
        .args(["validate", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("cgp runs");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin
            .write_all(b"{\"type\":\"shutdown\"}\n{\"type\":\"hello\"}\n")
            .expect("write");
    }
    let output = child.wait_with_output().expect("cgp finishes");
    assert_eq!(output.status.code(), Some(1));
    let stdout = text(&output.stdout);
    assert!(
        stdout.starts_with("<stdin>:2:9: -: /type: unknown envelope type \"hello\""),
        "{stdout}"
    );

    let valid = cgp(&["validate", "--semantic", "strict.ndjson"]);
    assert_eq!(valid.status.code(), Some(0));
    assert_eq!(text(&valid.stdout), "5 passed, 0 failed\n");

    let missing = cgp(&["validate", "no-such-file.ndjson", "strict.ndjson"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing.stderr).contains("no-such-file.ndjson"));
    // The other inputs are still checked.
    assert_eq!(text(&missing.stdout), "5 passed, 0 failed\n");

    let usage = cgp(&["validate", "--profile", "lenient"]);
    assert_eq!(usage.status.code(), Some(2));
    let directory = cgp(&["validate", "."]);
    assert_eq!(directory.status.code(), Some(2));
}

#[test]
fn an_overlong_line_is_reported_and_skipped() {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("overlong.ndjson");
    let mut bytes = vec![b' '; cgp_types::MAX_LINE_BYTES + 1];
    bytes.extend_from_slice(b"\n{\"type\":\"shutdown\"}\n");
    std::fs::write(&path, &bytes).expect("write");
    let shown = path.to_str().expect("UTF-8 path");
    let output = cgp(&["validate", "--format", "json", shown]);
    std::fs::remove_file(&path).ok();
    assert_eq!(output.status.code(), Some(1));
    let stdout = text(&output.stdout);
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert_eq!(lines[0]["line"], 1);
    assert_eq!(lines[0]["valid"], false);
    let message = lines[0]["errors"][0]["message"]
        .as_str()
        .unwrap_or_default();
    assert!(
        message.contains("16777217 bytes long, over the 16777216-byte limit"),
        "{message}"
    );
    assert_eq!(lines[1]["line"], 2);
    assert_eq!(lines[1]["valid"], true);
}

#[test]
fn schema_prints_the_published_bundles() {
    for profile in ["interop", "strict"] {
        let output = cgp(&["schema", "--profile", profile]);
        assert_eq!(output.status.code(), Some(0));
        let published = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../generated/schema")
            .join(slug(cgp_types::PROTOCOL_VERSION))
            .join(format!("{profile}.schema.json"));
        let expected = std::fs::read(published).expect("published bundle");
        assert_eq!(output.stdout, expected, "{profile}");
    }
    let explicit = cgp(&["schema", "--version", cgp_types::PROTOCOL_VERSION]);
    assert_eq!(explicit.status.code(), Some(0));
}

/// The protocol versions with a bundle under generated/schema/, as `cgp`
/// lists them: every one of them is embedded.
fn published_versions() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../generated/schema");
    let mut versions: Vec<(u64, u64, String)> = std::fs::read_dir(dir)
        .expect("generated/schema")
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().to_string_lossy().into_owned();
            let (protocol, number) = name.rsplit_once('-')?;
            let (major, minor) = number.split_once('.')?;
            Some((
                major.parse().ok()?,
                minor.parse().ok()?,
                format!("{protocol}/{number}"),
            ))
        })
        .collect();
    versions.sort();
    versions
        .into_iter()
        .map(|(_, _, version)| version)
        .collect()
}

/// `<name>/<major>.<minor>` → `<name>-<major>.<minor>`, the directory of its bundles.
fn slug(version: &str) -> String {
    version.replacen('/', "-", 1)
}

#[test]
fn every_published_version_is_embedded_and_an_unknown_one_is_a_usage_error() {
    let known = published_versions();
    assert!(known.contains(&cgp_types::PROTOCOL_VERSION.to_owned()));
    for version in &known {
        for profile in ["interop", "strict"] {
            let output = cgp(&["schema", "--version", version, "--profile", profile]);
            assert_eq!(output.status.code(), Some(0), "{version}");
            let published = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../generated/schema")
                .join(slug(version))
                .join(format!("{profile}.schema.json"));
            assert_eq!(output.stdout, std::fs::read(published).expect("bundle"));
        }
        let valid = cgp(&["validate", "--version", version, "strict.ndjson"]);
        assert_eq!(
            valid.status.code(),
            Some(0),
            "{version}: {}",
            text(&valid.stderr)
        );
    }
    let (name, _) = cgp_types::PROTOCOL_VERSION.split_once('/').expect("name/");
    let unknown_version = format!("{name}/999.0");
    for command in ["schema", "validate", "check"] {
        let mut args = vec![command, "--version", &unknown_version];
        if command == "check" {
            args.extend(["--", "true"]);
        }
        let unknown = cgp(&args);
        assert_eq!(unknown.status.code(), Some(2), "{command}");
        let stderr = text(&unknown.stderr);
        assert!(
            stderr.contains(&format!(
                "invalid value '{unknown_version}' for '--version <VERSION>'"
            )) && stderr.contains(&format!("[possible values: {}]", known.join(", "))),
            "{command}: {stderr}"
        );
        assert!(unknown.stdout.is_empty());
    }
    let missing = cgp(&["schema", "--version"]);
    assert_eq!(missing.status.code(), Some(2));
    let stderr = text(&missing.stderr);
    assert!(
        stderr.contains(&format!("[possible values: {}]", known.join(", "))),
        "{stderr}"
    );
}

/// A broken SHOULD is a warning: the message still passes, the exit status is
/// 0, and `--format json` carries the rule's level and the severity.
#[test]
fn a_broken_should_is_a_warning_that_fails_nothing() {
    let output = cgp(&["validate", "--semantic", "should.ndjson"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stdout));
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains("(rule CGP-FRAME-VECTOR, a SHOULD)"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("1 passed, 0 failed, 1 warning (a broken SHOULD)\n"),
        "{stdout}"
    );
    let output = cgp(&[
        "validate",
        "--semantic",
        "--format",
        "json",
        "should.ndjson",
    ]);
    assert_eq!(output.status.code(), Some(0));
    let objects: Vec<serde_json::Value> = text(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is JSON"))
        .collect();
    assert_eq!(objects[0]["valid"], true);
    let finding = &objects[0]["errors"][0];
    assert_eq!(finding["rule"], "CGP-FRAME-VECTOR");
    assert_eq!(finding["level"], "SHOULD");
    assert_eq!(finding["severity"], "warning");
    assert_eq!(
        objects[1],
        serde_json::json!({"summary": {"passed": 1, "failed": 0, "warnings": 1}})
    );
    let output = cgp(&[
        "validate",
        "--semantic",
        "--format",
        "github",
        "should.ndjson",
    ]);
    assert_eq!(output.status.code(), Some(0));
    assert!(
        text(&output.stdout).starts_with("::warning "),
        "{}",
        text(&output.stdout)
    );
}
