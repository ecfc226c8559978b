//! Live progress and `-q`/`-v`: on a terminal (a pseudo-terminal from
//! util-linux `script`), `cgp check` shows each step as it runs and `cgp
//! validate` a bar on a large input; nothing with `--format json|junit`, with
//! `--quiet`, or when standard error is not a terminal.

use std::path::Path;
use std::process::Command;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
const PROVIDER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/providers/provider.py");

/// What `cgp ARGS` writes to standard error when it is a terminal (standard
/// output goes to /dev/null).
fn stderr_on_a_terminal(args: &str) -> String {
    let command = format!("{} {args} >/dev/null", env!("CARGO_BIN_EXE_cgp"));
    let output = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("TERM", "xterm")
        .output()
        .expect("util-linux script runs (it gives cgp a terminal)");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn check_shows_each_step_on_a_terminal_only() {
    let provider = format!("-- python3 {PROVIDER} budget");
    let shown = stderr_on_a_terminal(&format!("check --timeout 2 {provider}"));
    assert!(
        shown.contains("ok    handshake  (2 line(s), 0 error(s), 0 warning(s))"),
        "{shown}"
    );
    assert!(shown.contains("FAIL  tiny budget"), "{shown}");
    assert!(shown.contains("error(s), 0 warning(s) so far"), "{shown}");
    for quiet in ["--format json", "--format junit", "--quiet", "-q"] {
        let shown = stderr_on_a_terminal(&format!("check --timeout 2 {quiet} {provider}"));
        assert!(!shown.contains("handshake"), "{quiet}: {shown}");
    }
    // Not a terminal: nothing on standard error.
    let piped = Command::new(env!("CARGO_BIN_EXE_cgp"))
        .args([
            "check",
            "--timeout",
            "2",
            "--",
            "python3",
            PROVIDER,
            "budget",
        ])
        .output()
        .expect("cgp runs");
    assert!(
        piped.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&piped.stderr)
    );
}

#[test]
fn validate_shows_a_bar_on_a_large_input() {
    let dir = tempfile::tempdir().expect("temp dir");
    let line = std::fs::read_to_string(format!("{DATA}/strict.ndjson"))
        .expect("read")
        .lines()
        .next()
        .expect("a line")
        .to_owned();
    let big = dir.path().join("big.ndjson");
    let copies = (9 << 20) / (line.len() + 1) + 1;
    std::fs::write(&big, format!("{line}\n").repeat(copies)).expect("write");
    let big = big.display();
    let shown = stderr_on_a_terminal(&format!("validate {big}"));
    assert!(shown.contains("lines"), "{shown}");
    assert!(shown.contains("MiB"), "{shown}");
    // --format json and -q share one switch (`progress::wanted`); one run
    // over the large file covers it.
    let shown = stderr_on_a_terminal(&format!("validate -q {big}"));
    assert!(!shown.contains("lines"), "-q: {shown}");
    let small = stderr_on_a_terminal(&format!("validate {DATA}/strict.ndjson"));
    assert!(
        !small.contains("lines"),
        "a small input gets no bar: {small}"
    );
}

#[test]
fn quiet_prints_the_summary_and_verbose_every_verdict() {
    let run = |flag: &str| {
        let output = Command::new(env!("CARGO_BIN_EXE_cgp"))
            .args(["validate", flag, &format!("{DATA}/errors.ndjson")])
            .output()
            .expect("cgp runs");
        assert_eq!(output.status.code(), Some(1));
        String::from_utf8(output.stdout).expect("UTF-8")
    };
    let quiet = run("--quiet");
    assert_eq!(quiet.lines().count(), 1, "{quiet}");
    assert!(
        quiet.contains("passed") && quiet.contains("failed"),
        "{quiet}"
    );
    let normal = run("--jobs=1");
    let verbose = run("--verbose");
    assert!(verbose.lines().count() > normal.lines().count());
    let errors = Path::new(DATA).join("errors.ndjson").display().to_string();
    assert!(verbose.contains(&format!("{errors}:1: ")), "{verbose}");
    assert!(
        verbose.lines().any(|line| line.ends_with(" valid")),
        "{verbose}"
    );
    assert!(
        verbose.lines().any(|line| line.ends_with(" invalid")),
        "{verbose}"
    );
}
