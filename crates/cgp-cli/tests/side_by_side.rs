//! `cgp check` side by side with the reference conformance tool
//! `contextgraph-inspect` (crate `contextgraph-conformance` 2.0.0), on real
//! providers installed under `target/peers`: the reference example provider,
//! a small docs provider written on the protocol's Python SDK
//! (`tests/providers/sdk_docs.py` on `contextgraph-sdk` 0.1.0), and the Go
//! SDK's example provider when the Go module proxy serves it.
//!
//! Per provider and per rule the two verdicts are compared: every check the
//! reference tool fails, `cgp` fails too (a finding of one of the rules that
//! check covers); every finding of `cgp` names a rule of its catalogue, at
//! that rule's level (a MUST an error, a SHOULD a warning), so a finding the
//! reference tool does not make is a rule the protocol states (or one of
//! ours), never a stricter reading. The table of both verdicts and the wall
//! times is printed (`-- --nocapture`); SPEC.md §Side by side records it.

use cgp_check::semantic::{Requirement, Rule};
use serde_json::Value;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::process::Command;
use std::time::Instant;

const SDK_DOCS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/providers/sdk_docs.py");

/// Each check of the reference tool and the rule ids it covers.
const CHECKS: &[(&str, &[&str])] = &[
    ("handshake", &["H1", "H2"]),
    ("consent-scope", &["C5", "U3"]),
    (
        "frame-validity",
        &[
            "F1", "F2", "F3", "F4", "F5", "D1", "P1", "P2", "P3", "G1", "G2",
        ],
    ),
    ("verify-honesty", &["V2"]),
    ("budget-honesty", &["B1", "B3", "B4"]),
    ("as-of-temporal", &["CGP-AS-OF"]),
    ("kinds-filter", &["Q1"]),
    ("anchor-relevance", &["G3", "G4"]),
    ("provenance-fixture-consistency", &["CGP-FILE-BYTES"]),
    ("shutdown-clean", &["R2"]),
    ("malformed-input-tolerance", &["R1"]),
    ("embedding-fingerprint", &["E1"]),
    ("correlation", &["H4"]),
    (
        "attestation",
        &["F11", "F12", "F13", "CGP-ATTEST-SIGNS", "CGP-ATTEST-KEY"],
    ),
];

/// One finding or problem of a `cgp check` report.
#[derive(Debug, Clone)]
struct Issue {
    step: String,
    rule: String,
    severity: String,
    message: String,
}

struct Verdicts {
    cgp: Vec<Issue>,
    cgp_exit: Option<i32>,
    cgp_seconds: f64,
    inspect: BTreeMap<String, String>,
    inspect_seconds: f64,
}

fn run_both(command: &[OsString]) -> Verdicts {
    let inspect = spec_tests::peers::ensure_reference_inspect()
        .unwrap_or_else(|problem| panic!("installing contextgraph-inspect: {problem}"));
    let started = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_cgp"))
        .args(["check", "--json", "--timeout", "5", "--"])
        .args(command)
        .output()
        .expect("cgp runs");
    let cgp_seconds = started.elapsed().as_secs_f64();
    let cgp_exit = output.status.code();
    let report: Value = serde_json::from_slice(&output.stdout).expect("cgp writes JSON");
    let text = |value: &Value| value.as_str().unwrap_or_default().to_owned();
    let mut cgp = Vec::new();
    for step in report["steps"].as_array().into_iter().flatten() {
        let issue = |item: &Value| Issue {
            step: text(&step["name"]),
            rule: text(&item["rule"]),
            severity: text(&item["severity"]),
            message: text(&item["message"]),
        };
        cgp.extend(step["problems"].as_array().into_iter().flatten().map(issue));
        for message in step["messages"].as_array().into_iter().flatten() {
            if message["probe"] == true || message["side"] != "provider" {
                continue;
            }
            cgp.extend(
                message["findings"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(issue),
            );
        }
    }

    let started = Instant::now();
    let output = Command::new(inspect)
        .args(["stdio", "--json", "--"])
        .args(command)
        .output()
        .expect("contextgraph-inspect runs");
    let inspect_seconds = started.elapsed().as_secs_f64();
    // A human header comes first; the report is the JSON object after it.
    let stdout = String::from_utf8_lossy(&output.stdout);
    let json = stdout
        .find("\n{")
        .map_or(&stdout[..], |start| &stdout[start + 1..]);
    let report: Value = serde_json::from_str(json).expect("contextgraph-inspect writes JSON");
    let inspect = report["checks"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|check| (text(&check["name"]), text(&check["status"])))
        .collect();
    // `cgp check` exits 1 exactly when a finding is an error (a SHOULD
    // fails nothing).
    let errors = cgp.iter().any(|issue| issue.severity == "error");
    assert_eq!(cgp_exit, Some(i32::from(errors)), "{cgp:#?}");
    Verdicts {
        cgp,
        cgp_exit,
        cgp_seconds,
        inspect,
        inspect_seconds,
    }
}

/// Compares the two tools on one provider; returns the table rows.
fn compare(provider: &str, verdicts: &Verdicts) -> Vec<String> {
    let known: BTreeMap<&str, Vec<Requirement>> =
        Rule::ALL.iter().fold(BTreeMap::new(), |mut map, rule| {
            map.entry(rule.as_str())
                .or_default()
                .push(rule.requirement());
            map
        });
    // Every finding names a rule of the catalogue, at its level; a finding
    // without a rule can only be a strict-profile warning.
    for issue in &verdicts.cgp {
        if issue.rule.is_empty() {
            assert_eq!(
                issue.severity, "warning",
                "{provider}: an error that names no rule: {issue:?}"
            );
            continue;
        }
        let levels = known
            .get(issue.rule.as_str())
            .unwrap_or_else(|| panic!("{provider}: unknown rule {issue:?}"));
        let level = if issue.severity == "error" {
            Requirement::Must
        } else {
            Requirement::Should
        };
        assert!(
            levels.contains(&level),
            "{provider}: {issue:?} is not at the level of {}",
            issue.rule
        );
    }
    let mut rows = Vec::new();
    for (check, rules) in CHECKS {
        let reference = verdicts
            .inspect
            .get(*check)
            .map_or("absent", String::as_str);
        let found: Vec<&Issue> = verdicts
            .cgp
            .iter()
            .filter(|issue| rules.contains(&issue.rule.as_str()))
            .collect();
        if reference == "fail" {
            assert!(
                !found.is_empty(),
                "{provider}: contextgraph-inspect fails {check}, cgp finds nothing of {rules:?}"
            );
        }
        let ours = if found.is_empty() {
            "pass".to_owned()
        } else {
            let mut named: Vec<String> = found
                .iter()
                .map(|issue| {
                    format!(
                        "{} {} ({})",
                        issue.rule,
                        if issue.severity == "error" {
                            "error"
                        } else {
                            "warning"
                        },
                        issue.step
                    )
                })
                .collect();
            named.sort();
            named.dedup();
            named.join("; ")
        };
        rows.push(format!(
            "| {provider} | {check} | {} | {reference} | {ours} |",
            rules.join(", ")
        ));
    }
    let strict = verdicts
        .cgp
        .iter()
        .filter(|issue| issue.rule.is_empty())
        .count();
    rows.push(format!(
        "| {provider} | (totals) | | {:.2} s | {:.2} s, exit {}, {strict} strict-profile warning(s) |",
        verdicts.inspect_seconds,
        verdicts.cgp_seconds,
        verdicts.cgp_exit.unwrap_or(-1)
    ));
    for issue in &verdicts.cgp {
        eprintln!(
            "{provider}: {} {} [{}] {}",
            issue.severity, issue.rule, issue.step, issue.message
        );
    }
    rows
}

fn print(rows: &[String]) {
    println!("| provider | reference check | rules | contextgraph-inspect | cgp check |");
    println!("|---|---|---|---|---|");
    for row in rows {
        println!("{row}");
    }
}

#[test]
#[ignore = "full tier"]
fn cgp_and_the_reference_tool_agree_on_real_providers() {
    let mut rows = Vec::new();

    let reference = spec_tests::peers::ensure_reference_provider()
        .unwrap_or_else(|problem| panic!("installing the reference provider: {problem}"));
    let verdicts = run_both(&[reference.into()]);
    // Better than the reference tool: the budget probes it never sends.
    assert!(
        verdicts
            .cgp
            .iter()
            .any(|issue| issue.rule == "B1" && issue.step.starts_with("zero budget")),
        "{:#?}",
        verdicts.cgp
    );
    assert!(verdicts.inspect.values().all(|status| status != "fail"));
    rows.extend(compare("reference example-docs", &verdicts));

    let python = spec_tests::peers::ensure_python_sdk()
        .unwrap_or_else(|problem| panic!("installing the Python SDK: {problem}"));
    let verdicts = run_both(&[python.into(), SDK_DOCS.into()]);
    // The SDK-built provider is conformant to both tools: no error, and the
    // reference tool passes every check.
    assert_eq!(verdicts.cgp_exit, Some(0), "{:#?}", verdicts.cgp);
    assert!(
        verdicts.inspect.values().all(|status| status == "pass"),
        "{:?}",
        verdicts.inspect
    );
    rows.extend(compare("Python SDK 0.1.0 docs provider", &verdicts));

    match spec_tests::peers::ensure_go_sdk_example() {
        Ok(binary) => {
            let verdicts = run_both(&[binary.into()]);
            rows.extend(compare("Go SDK v0.1.0 example-docs", &verdicts));
        }
        Err(problem) => {
            eprintln!("the Go SDK's example provider is not available: {problem}");
            rows.push(format!(
                "| Go SDK v0.1.0 example-docs | (not run) | | not served by the Go module proxy | {} |",
                if problem.contains("403") {
                    "proxy.golang.org answers 403: this module version is not available"
                } else {
                    "could not be built"
                }
            ));
        }
    }
    print(&rows);
}
