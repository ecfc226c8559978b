//! `--write-baseline` and `--baseline` of `cgp validate` and `cgp check`: the
//! file is stable, accepted findings pass, new findings and stale entries
//! fail, and unusable files exit 2 with the reason.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
const PROVIDER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/providers/provider.py");

fn cgp_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cgp"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("cgp runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_validate_baseline_is_stable_and_kept_true() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("t.ndjson");
    std::fs::copy(format!("{DATA}/errors.ndjson"), &input).expect("copy");
    let absolute = input.to_str().expect("UTF-8");
    // Written twice, once naming the input relative to the working directory
    // and once absolutely: the same bytes, no absolute path in them.
    let first = cgp_in(
        dir.path(),
        &[
            "validate",
            "--semantic",
            "--write-baseline",
            "b1.json",
            "t.ndjson",
        ],
    );
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    let second = cgp_in(
        dir.path(),
        &[
            "validate",
            "--semantic",
            "--write-baseline",
            "b2.json",
            absolute,
        ],
    );
    assert_eq!(second.status.code(), Some(0));
    let written = std::fs::read_to_string(dir.path().join("b1.json")).expect("baseline");
    assert_eq!(
        written,
        std::fs::read_to_string(dir.path().join("b2.json")).expect("baseline")
    );
    assert!(
        !written.contains(dir.path().to_str().expect("UTF-8")),
        "{written}"
    );
    let baseline: Value = serde_json::from_str(&written).expect("JSON");
    let entries = baseline["entries"].as_array().expect("entries");
    assert!(entries.len() > 5, "{written}");
    assert_eq!(entries[0]["file"], "t.ndjson");

    // Every finding accepted: the run passes, and says so.
    let accepted = cgp_in(
        dir.path(),
        &[
            "validate",
            "--semantic",
            "--baseline",
            "b1.json",
            "t.ndjson",
        ],
    );
    assert_eq!(
        accepted.status.code(),
        Some(0),
        "{}",
        text(&accepted.stdout)
    );
    assert!(
        text(&accepted.stdout).contains("0 failed"),
        "{}",
        text(&accepted.stdout)
    );
    assert!(
        text(&accepted.stdout).contains("0 stale"),
        "{}",
        text(&accepted.stdout)
    );

    // A finding fixed: its entry is stale, and the run fails naming it.
    // The transcript has invalid UTF-8 on purpose: lines as bytes.
    let bytes = std::fs::read(&input).expect("read");
    let lines: Vec<Vec<u8>> = bytes
        .strip_suffix(b"\n")
        .unwrap_or(&bytes)
        .split(|&byte| byte == b'\n')
        .map(<[u8]>::to_vec)
        .collect();
    let join = |lines: &[Vec<u8>]| {
        let mut joined = lines.join(&b'\n');
        joined.push(b'\n');
        joined
    };
    let first_invalid = entries[0]["line"].as_u64().expect("line") as usize;
    let mut fixed = lines.clone();
    fixed[first_invalid - 1] = Vec::new();
    std::fs::write(&input, join(&fixed)).expect("write");
    let stale = cgp_in(
        dir.path(),
        &[
            "validate",
            "--semantic",
            "--baseline",
            "b1.json",
            "t.ndjson",
        ],
    );
    assert_eq!(stale.status.code(), Some(1));
    let report = text(&stale.stdout);
    assert!(
        report.contains(&format!("t.ndjson:{first_invalid}: stale baseline entry")),
        "{report}"
    );

    // A new finding: it fails the run, the accepted ones stay silent.
    let mut added = lines.clone();
    added.push(lines[first_invalid - 1].clone());
    std::fs::write(&input, join(&added)).expect("write");
    let new = cgp_in(
        dir.path(),
        &[
            "validate",
            "--semantic",
            "--baseline",
            "b1.json",
            "t.ndjson",
        ],
    );
    assert_eq!(new.status.code(), Some(1));
    let report = text(&new.stdout);
    assert!(
        report.contains(&format!("t.ndjson:{}:", lines.len() + 1)),
        "{report}"
    );
    assert!(
        !report.contains(&format!("t.ndjson:{first_invalid}:")),
        "{report}"
    );
    assert!(report.contains("1 failed"), "{report}");
}

#[test]
fn unusable_baselines_exit_2_with_the_reason() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = format!("{DATA}/errors.ndjson");
    let cases = [
        ("missing.json", None, "cannot read the baseline"),
        (
            "malformed.json",
            Some("{\"format\": \"cgp-baseline\",\n"),
            "malformed.json:2:",
        ),
        (
            "foreign.json",
            Some("{\"entries\": []}"),
            "is not a cgp baseline",
        ),
        (
            "check.json",
            Some(
                "{\"format\": \"cgp-baseline\", \"version\": 1, \"command\": \"check\", \"entries\": []}",
            ),
            "a baseline of `cgp check`, not of `cgp validate`",
        ),
        (
            "future.json",
            Some(
                "{\"format\": \"cgp-baseline\", \"version\": 9, \"command\": \"validate\", \"entries\": []}",
            ),
            "reads version 1",
        ),
    ];
    for (name, contents, reason) in cases {
        if let Some(contents) = contents {
            std::fs::write(dir.path().join(name), contents).expect("write");
        }
        let run = cgp_in(dir.path(), &["validate", "--baseline", name, &input]);
        assert_eq!(run.status.code(), Some(2), "{name}");
        assert!(run.stdout.is_empty(), "{name}: nothing is judged");
        assert!(
            text(&run.stderr).contains(reason),
            "{name}: {}",
            text(&run.stderr)
        );
    }
}

#[test]
fn a_check_baseline_accepts_known_errors_and_fails_when_they_go() {
    let dir = tempfile::tempdir().expect("temp dir");
    let check = |mode: &str, extra: &[&str]| {
        let mut args = vec!["check", "--timeout", "2"];
        args.extend_from_slice(extra);
        args.extend(["--", "python3", PROVIDER, mode]);
        cgp_in(dir.path(), &args)
    };
    let written = check("budget", &["--write-baseline", "b.json"]);
    assert_eq!(written.status.code(), Some(0), "{}", text(&written.stderr));
    let baseline: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("b.json")).expect("read"))
            .expect("JSON");
    let entries = baseline["entries"].as_array().expect("entries");
    assert!(!entries.is_empty());
    assert!(
        entries
            .iter()
            .all(|entry| entry["step"].is_string() && entry["file"].is_null())
    );
    let again = check("budget", &["--write-baseline", "b2.json"]);
    assert_eq!(again.status.code(), Some(0));
    assert_eq!(
        std::fs::read(dir.path().join("b.json")).expect("read"),
        std::fs::read(dir.path().join("b2.json")).expect("read"),
        "the same run writes the same baseline"
    );

    let accepted = check("budget", &["--baseline", "b.json"]);
    assert_eq!(
        accepted.status.code(),
        Some(0),
        "{}",
        text(&accepted.stdout)
    );
    assert!(text(&accepted.stdout).contains("(in the baseline)"));
    assert!(text(&accepted.stdout).contains(&format!(
        "{} accepted by the baseline, 0 stale",
        entries.len()
    )));

    let gone = check("good", &["--baseline", "b.json"]);
    assert_eq!(gone.status.code(), Some(1));
    let report = text(&gone.stdout);
    assert!(report.contains("stale baseline entry in step"), "{report}");

    let json = check("good", &["--format", "json", "--baseline", "b.json"]);
    let report: Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(report["passed"], false);
    assert_eq!(
        report["baseline"]["stale"].as_array().map(Vec::len),
        Some(entries.len())
    );

    let foreign = check("good", &["--baseline", "missing.json"]);
    assert_eq!(foreign.status.code(), Some(2));
    assert!(text(&foreign.stderr).contains("cannot read the baseline"));
}
