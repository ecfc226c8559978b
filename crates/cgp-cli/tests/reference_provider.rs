//! `cgp check` against the reference provider `contextgraph-example-docs`
//! (crate `contextgraph-conformance`, installed under `target/peers` on first
//! use): the well-behaved run shows only the provider's real violations, and
//! every one of its `--misbehave` modes adds a finding of the rule that mode
//! breaks.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// Each mode and what it must add to the well-behaved run: rule ids, or for a
/// behaviour no rule names, a fragment of the problem's message.
const MODES: &[(&str, &[&str])] = &[
    ("lying-costs", &["B1", "B3"]),
    ("bad-score", &["F1"]),
    ("empty-citation", &["F3"]),
    ("bad-version", &["H1"]),
    ("crash-on-query", &["CGP-ANSWER"]),
    ("crash-on-garbage", &["R1"]),
    ("mislabel-malformed", &["R1"]),
    ("under-report-cost", &["B3"]),
    ("bad-timestamp", &["F4"]),
    ("malformed-digest", &["D1", "F5"]),
    ("stale-digest", &["CGP-FILE-BYTES"]),
    ("flood-frames", &["B4"]),
    ("drop-correlation-id", &["H4"]),
    ("lying-representation", &["P3"]),
    ("ignore-as-of", &["CGP-AS-OF"]),
    ("accept-bad-embedding", &["E1"]),
    ("rubber-stamp-verify", &["V2"]),
    ("hollow-verify", &["V2"]),
    ("scope-lie", &["C5"]),
    ("ignore-kinds", &["Q1"]),
    ("ignore-anchors", &["G4"]),
    ("forge-signature", &["CGP-ATTEST-KEY"]),
    ("lift-signature", &["CGP-ATTEST-SIGNS"]),
    ("truncate-chain", &["CGP-ATTEST-SIGNS"]),
    ("swap-content", &["CGP-ATTEST-SIGNS"]),
    ("malformed-attestation", &["F4", "CGP-ATTEST-SIGNS"]),
];

/// What the well-behaved provider really breaks: it ignores the budget.
const REAL_VIOLATIONS: &[(&str, &str)] = &[
    ("tiny budget (max_frames 1, max_tokens 1)", "B1"),
    ("tiny budget (max_frames 1, max_tokens 1)", "B4"),
    ("zero budget (max_frames 0, max_tokens 0)", "B1"),
    ("zero budget (max_frames 0, max_tokens 0)", "B4"),
    ("still serving after an unknown type", "B4"),
    ("still serving after garbage", "B4"),
];

/// One problem or finding of a report.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Issue {
    step: String,
    rule: String,
    severity: String,
    side: String,
    message: String,
}

fn check(provider: &Path, mode: Option<&str>) -> (Option<i32>, Vec<Issue>) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cgp"));
    command
        .args(["check", "--json", "--timeout", "5", "--"])
        .arg(provider);
    if let Some(mode) = mode {
        command.args(["--misbehave", mode]);
    }
    let output = command.output().expect("cgp runs");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "{mode:?}: the report is not JSON ({error}): {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let text = |value: &Value| value.as_str().unwrap_or_default().to_owned();
    let mut issues = Vec::new();
    for step in report["steps"].as_array().into_iter().flatten() {
        let issue = |item: &Value, side: &Value| Issue {
            step: text(&step["name"]),
            rule: text(&item["rule"]),
            severity: text(&item["severity"]),
            side: text(side),
            message: text(&item["message"]),
        };
        for problem in step["problems"].as_array().into_iter().flatten() {
            issues.push(issue(problem, &problem["side"]));
        }
        for message in step["messages"].as_array().into_iter().flatten() {
            if message["probe"] == true {
                continue;
            }
            for finding in message["findings"].as_array().into_iter().flatten() {
                issues.push(issue(finding, &message["side"]));
            }
        }
    }
    (output.status.code(), issues)
}

#[test]
#[ignore = "full tier"]
fn every_misbehave_mode_of_the_reference_provider_is_caught() {
    let provider = spec_tests::peers::ensure_reference_provider()
        .unwrap_or_else(|problem| panic!("installing the reference provider: {problem}"));

    let (code, baseline) = check(&provider, None);
    let found: BTreeSet<(&str, &str)> = baseline
        .iter()
        .map(|issue| (issue.step.as_str(), issue.rule.as_str()))
        .collect();
    let expected: BTreeSet<(&str, &str)> = REAL_VIOLATIONS.iter().copied().collect();
    assert_eq!(found, expected, "{baseline:#?}");
    assert!(
        baseline
            .iter()
            .all(|issue| issue.severity == "error" && issue.side == "provider"),
        "{baseline:#?}"
    );
    assert_eq!(code, Some(1));
    let known: BTreeSet<(&str, &str)> = found;

    for (mode, wanted) in MODES {
        let (code, issues) = check(&provider, Some(mode));
        assert!(code == Some(0) || code == Some(1), "{mode}: exit {code:?}");
        // A finding is the mode's when the well-behaved run has none of that
        // rule in that step.
        let added: Vec<&Issue> = issues
            .iter()
            .filter(|issue| issue.side == "provider")
            .filter(|issue| !known.contains(&(issue.step.as_str(), issue.rule.as_str())))
            .collect();
        for want in *wanted {
            let is_rule = !want.contains(' ') && want.starts_with(|c: char| c.is_ascii_uppercase());
            assert!(
                added.iter().any(|issue| if is_rule {
                    issue.rule == *want
                } else {
                    issue.rule.is_empty() && issue.message.contains(want)
                }),
                "{mode}: no new finding of {want} in {added:#?}"
            );
        }
    }

    assert_eq!(MODES.len(), 26, "the reference provider has 26 modes");
}
