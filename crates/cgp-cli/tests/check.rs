//! End-to-end tests of `cgp check` against the test provider
//! (`tests/providers/provider.py MODE`): a well-behaved one passes, and each
//! misbehaving mode is caught, with the provider always ended and reaped.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const PROVIDER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/providers/provider.py");

struct Run {
    output: Output,
    report: Value,
    state: Value,
}

fn state_file(mode: &str, tag: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("provider-{mode}-{tag}.json"))
}

/// Runs `cgp check --json` against the provider in `mode`.
fn check(mode: &str, extra: &[&str]) -> Run {
    let state = state_file(mode, &extra.join("_").replace(['-', '='], ""));
    let _ = std::fs::remove_file(&state);
    let state_arg = format!("CGP_TEST_STATE={}", state.display());
    let mut args = vec!["check", "--json", "--timeout", "2", "--env", &state_arg];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--", "python3", PROVIDER, mode]);
    let output = Command::new(env!("CARGO_BIN_EXE_cgp"))
        .args(&args)
        .env("CGP_TEST_SECRET", "must not reach the provider")
        .output()
        .expect("cgp runs");
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "{mode}: the report is not JSON ({error}):\n{}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let state = std::fs::read(&state)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or(Value::Null);
    let run = Run {
        output,
        report,
        state,
    };
    assert_ended(mode, &run);
    run
}

/// The provider is not running any more, and `cgp` saw how it ended.
fn assert_ended(mode: &str, run: &Run) {
    let exit = run.report["exit"].as_str().unwrap_or_default();
    assert!(
        exit.starts_with("exit status") || exit.starts_with("signal"),
        "{mode}: no exit status: {exit:?}"
    );
    let pid = run.state["pid"]
        .as_u64()
        .expect("the provider wrote its pid");
    let status = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Gone, or (if the pid was reused, or init has not reaped an orphan yet)
    // at least not a running provider.
    assert!(
        status.is_empty() || !status.contains("python"),
        "{mode}: the provider (pid {pid}) is still there: {status}"
    );
}

/// Every problem and finding of the report, as (severity, side, rule, message).
fn issues(report: &Value) -> Vec<(String, String, String, String)> {
    let mut found = Vec::new();
    let text = |value: &Value| value.as_str().unwrap_or_default().to_owned();
    for step in report["steps"].as_array().into_iter().flatten() {
        for problem in step["problems"].as_array().into_iter().flatten() {
            found.push((
                text(&problem["severity"]),
                text(&problem["side"]),
                text(&problem["rule"]),
                text(&problem["message"]),
            ));
        }
        for message in step["messages"].as_array().into_iter().flatten() {
            if message["probe"] == true {
                continue;
            }
            for finding in message["findings"].as_array().into_iter().flatten() {
                found.push((
                    text(&finding["severity"]),
                    text(&message["side"]),
                    text(&finding["rule"]),
                    text(&finding["message"]),
                ));
            }
        }
    }
    found
}

fn step<'r>(report: &'r Value, name: &str) -> &'r Value {
    report["steps"]
        .as_array()
        .and_then(|steps| steps.iter().find(|step| step["name"] == name))
        .unwrap_or_else(|| panic!("no step {name}"))
}

/// Runs a misbehaving mode: exit 1, and an error by the provider whose rule
/// and message match.
fn caught(mode: &str, extra: &[&str], rule: &str, fragment: &str) -> Run {
    let run = check(mode, extra);
    assert_eq!(
        run.output.status.code(),
        Some(1),
        "{mode}: {:#}",
        run.report
    );
    assert_eq!(run.report["passed"], false);
    let found = issues(&run.report);
    assert!(
        found
            .iter()
            .any(|(severity, side, r, message)| severity == "error"
                && side == "provider"
                && r == rule
                && message.contains(fragment)),
        "{mode}: no provider error with rule {rule:?} containing {fragment:?} in {found:#?}"
    );
    assert_eq!(run.report["summary"]["errors"]["host"], 0, "{mode}");
    run
}

#[test]
fn a_well_behaved_provider_passes() {
    let run = check("good", &[]);
    assert_eq!(
        run.output.status.code(),
        Some(0),
        "{:#?}",
        issues(&run.report)
    );
    assert!(issues(&run.report).is_empty(), "{:#?}", issues(&run.report));
    let names: Vec<&str> = run.report["steps"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|step| step["name"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "handshake",
            "query kind=doc",
            "query kind=snippet",
            "tiny budget (max_frames 1, max_tokens 1)",
            "zero budget (max_frames 0, max_tokens 0)",
            "query as_of=2026-01-01T00:00:00Z",
            "query anchors=[symbol:///test/0]",
            "query with a 1-dimensional embedding",
            "verify",
            "verify changed digests",
            "unknown envelope type",
            "still serving after an unknown type",
            "garbage line",
            "still serving after garbage",
            "shutdown",
        ]
    );
    for step in run.report["steps"].as_array().into_iter().flatten() {
        assert_eq!(step["outcome"], "passed", "{step:#}");
    }
    assert_eq!(run.report["exit"], "exit status: 0");
    // The provider's environment holds only what cgp passes on (the `python3`
    // on PATH may be a shell shim that adds PWD, SHLVL and the like, so the test
    // looks for what must not be there: the caller's own variables).
    let env: Vec<&str> = run.state["env"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    assert!(env.contains(&"CGP_TEST_STATE"), "{env:?}");
    assert!(!env.contains(&"CGP_TEST_SECRET"), "{env:?}");
    assert!(
        !env.iter().any(|name| name.starts_with("CARGO")),
        "cargo's variables leaked: {env:?}"
    );
}

#[test]
fn a_lock_step_provider_gets_no_ids_and_no_verify() {
    let run = check("good-lockstep", &[]);
    assert_eq!(run.output.status.code(), Some(0), "{:#}", run.report);
    assert_eq!(step(&run.report, "verify")["outcome"], "skipped");
    assert_eq!(
        step(&run.report, "verify changed digests")["outcome"],
        "skipped"
    );
    for step in run.report["steps"].as_array().into_iter().flatten() {
        for message in step["messages"].as_array().into_iter().flatten() {
            if message["type"] == "query" {
                assert!(
                    !message["text"]
                        .as_str()
                        .unwrap_or_default()
                        .contains("\"id\"")
                );
            }
        }
    }
}

#[test]
fn a_schema_violation_is_caught() {
    let run = caught(
        "bad-schema",
        &[],
        "",
        "expected number, found string \"0.5\"",
    );
    assert_eq!(step(&run.report, "query kind=doc")["outcome"], "failed");
}

#[test]
fn a_wrong_id_echo_is_caught() {
    caught("wrong-id", &[], "H4", "answers no query in flight");
}

#[test]
fn a_budget_overrun_is_caught() {
    caught("budget", &[], "B1", "over the query's max_tokens 1");
    caught("budget", &[], "B4", "over the query's max_frames 0");
}

#[test]
fn a_dishonest_cost_is_caught() {
    caught("dishonest-cost", &[], "B3", "token_cost is 1");
}

#[test]
fn ignoring_the_query_is_caught() {
    caught(
        "ignore-kinds",
        &[],
        "Q1",
        "the frame is of kind \"snippet\", but the query of message #3 asked only for [doc]",
    );
    // Ours, and a SHOULD (the reference suite calls its as-of check
    // SHOULD-strength): a warning, and the check passes.
    let run = check("ignore-as-of", &[]);
    assert_eq!(run.output.status.code(), Some(0), "{:#}", run.report);
    assert!(
        issues(&run.report).iter().any(|(severity, side, rule, message)| severity
            == "warning"
            && side == "provider"
            && rule == "CGP-AS-OF"
            && message.contains(
                "the frame became valid at 2026-02-01T00:00:00Z, after the as_of 2026-01-01T00:00:00Z"
            )),
        "{:#?}",
        issues(&run.report)
    );
}

#[test]
fn a_file_digest_that_is_not_the_file_is_caught() {
    let run = caught(
        "stale-digest",
        &[],
        "CGP-FILE-BYTES",
        "tests/providers/provider.py, but those bytes hash to sha256:",
    );
    assert_eq!(step(&run.report, "query kind=doc")["outcome"], "failed");
}

#[test]
fn a_rubber_stamp_verify_is_caught() {
    let run = caught("rubber-stamp", &[], "V2", "must answer `stale`");
    assert_eq!(step(&run.report, "verify")["outcome"], "passed");
    assert_eq!(
        step(&run.report, "verify changed digests")["outcome"],
        "failed"
    );
}

/// A provider that never answers a query: both first queries are reported
/// (CGP-ANSWER), the steps after them are skipped saying why, and shutdown
/// is still sent, which this provider obeys (R2 kept).
#[test]
fn a_hanging_provider_is_reported_and_still_shut_down() {
    let run = caught("hang", &[], "CGP-ANSWER", "no reply within 2s");
    let steps = run.report["steps"].as_array().expect("steps");
    let failed: Vec<&str> = steps
        .iter()
        .filter(|step| step["outcome"] == "failed")
        .filter_map(|step| step["name"].as_str())
        .collect();
    assert_eq!(failed, ["query kind=doc", "query kind=snippet"]);
    let skipped = step(&run.report, "tiny budget (max_frames 1, max_tokens 1)");
    assert_eq!(skipped["outcome"], "skipped");
    assert!(
        skipped["skipped"]
            .as_str()
            .unwrap_or_default()
            .contains("answered none of the last 2 requests"),
        "{skipped:#}"
    );
    assert_eq!(step(&run.report, "shutdown")["outcome"], "passed");
    assert_eq!(run.report["exit"], "exit status: 0");
}

#[test]
fn a_provider_that_exits_mid_line_is_caught() {
    caught("mid-line", &[], "", "in the middle of this line");
    caught("exit-early", &[], "CGP-ANSWER", "closed its output");
}

#[test]
fn a_flood_is_cut_off() {
    let run = caught("flood", &[], "", "floods its output");
    assert!(
        run.report["exit"]
            .as_str()
            .unwrap_or_default()
            .contains("killed by cgp check")
    );
}

/// One line that never ends: reported as soon as it passes the 16 MiB cap (as
/// the reference host fails the connection there), not at the deadline, and
/// the provider is ended and reaped. Which ends it is a race: cgp check's kill,
/// or the provider's own exit on its next write into the closed pipe (Python
/// raises `BrokenPipeError`), which a loaded machine can let come first.
#[test]
fn an_endless_line_is_cut_off() {
    let run = caught(
        "endless-line",
        &[],
        "H1",
        "a line passed the 16777216-byte limit without a line feed",
    );
    assert_ended("endless-line", &run);
    let exit = run.report["exit"].as_str().unwrap_or_default();
    assert!(
        exit.contains("killed by cgp check") || exit.starts_with("exit status: 1"),
        "neither killed nor ended by the closed pipe: {exit:?}"
    );
}

#[test]
fn ignoring_shutdown_is_caught() {
    let run = caught(
        "ignore-shutdown",
        &[],
        "R2",
        "did not exit within 2s of shutdown",
    );
    assert_eq!(step(&run.report, "shutdown")["outcome"], "failed");
}

/// Silence after garbage breaks R1's SHOULD (a warning, found when the reply
/// to the query sent right after it comes first: no fixed wait), and the
/// provider is shown to still serve.
#[test]
fn silence_after_garbage_is_a_warning_and_the_check_goes_on() {
    let run = check("silent-garbage", &[]);
    assert_eq!(run.output.status.code(), Some(0), "{:#}", run.report);
    let found = issues(&run.report);
    assert_eq!(found.len(), 1, "{found:#?}");
    let (severity, side, rule, message) = &found[0];
    assert_eq!(
        (severity.as_str(), side.as_str(), rule.as_str()),
        ("warning", "provider", "R1")
    );
    assert!(
        message.contains("no reply before the reply to the next query"),
        "{message}"
    );
    assert_eq!(
        step(&run.report, "still serving after garbage")["outcome"],
        "passed"
    );
    assert_eq!(step(&run.report, "shutdown")["outcome"], "passed");
}

/// A provider that dies on a line that is not JSON breaks R1's MUST; a new
/// provider is started, so the shutdown step still runs (R2 kept).
#[test]
fn dying_on_garbage_breaks_r1_and_hides_nothing() {
    let run = caught("crash-garbage", &[], "R1", "closed its output");
    assert_eq!(step(&run.report, "garbage line")["outcome"], "failed");
    let restart = step(&run.report, "restart the provider");
    assert_eq!(restart["outcome"], "passed");
    assert!(
        restart["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("exit status: 3"),
        "{restart:#}"
    );
    assert_eq!(step(&run.report, "shutdown")["outcome"], "passed");
}

/// A provider that exits after every handshake: each poisoning probe still
/// gets a provider of its own, and each death is reported under its rule.
#[test]
fn a_provider_that_keeps_dying_is_restarted_for_each_probe() {
    let run = caught("exit-early", &[], "R1", "closed its output");
    let failed: Vec<(String, String)> = issues(&run.report)
        .into_iter()
        .map(|(_, _, rule, message)| (rule, message))
        .filter(|(_, message)| message.contains("closed its output"))
        .collect();
    let rules: Vec<&str> = failed.iter().map(|(rule, _)| rule.as_str()).collect();
    assert_eq!(rules, ["CGP-ANSWER", "R1", "V2", "R1", "R1"], "{failed:#?}");
}

/// Silence on an envelope of an unknown type without an id is allowed (a
/// notification); the SDK-like provider passes with no finding at all.
#[test]
fn silence_on_an_unknown_type_is_allowed() {
    let run = check("silent-unknown", &[]);
    assert_eq!(run.output.status.code(), Some(0), "{:#}", run.report);
    assert!(issues(&run.report).is_empty(), "{:#?}", issues(&run.report));
    assert!(
        step(&run.report, "unknown envelope type")["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("a notification a provider may ignore")
    );
}

#[test]
fn usage_and_spawn_errors_exit_2() {
    let cgp = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_cgp"))
            .args(args)
            .output()
            .expect("cgp runs")
    };
    let missing = cgp(&["check", "--", "/no/such/provider"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot start `/no/such/provider`"));
    assert_eq!(cgp(&["check"]).status.code(), Some(2));
    assert_eq!(
        cgp(&["check", "--timeout", "0", "--", "true"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        cgp(&["check", "--env", "NOEQUALS", "--", "true"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn the_human_report_names_sides_and_steps() {
    let output = Command::new(env!("CARGO_BIN_EXE_cgp"))
        .args([
            "check",
            "--timeout",
            "2",
            "--",
            "python3",
            PROVIDER,
            "wrong-id",
        ])
        .output()
        .expect("cgp runs");
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("FAIL  query kind=doc"), "{stdout}");
    assert!(
        stdout.contains(
            "error: provider #4:23: frames: /id: the frames reply carries id \"cgp-q1-x\""
        ),
        "{stdout}"
    );
    assert!(stdout.contains("(rule H4)"), "{stdout}");
    assert!(
        stdout.contains("lines exchanged: 9 error(s) (host 0, provider 9)"),
        "{stdout}"
    );
    assert!(!stdout.contains('\u{1b}'), "no colour when not a terminal");
}
