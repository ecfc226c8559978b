//! `--format junit` of `cgp validate`, `check` and `diff`: parsed as XML and
//! held to the common JUnit schema (Jenkins' junit-10.xsd): a `testsuites`
//! root of `testsuite` elements whose counts match their `testcase`s, each
//! case named, with at most one `failure` (with `message` and `type`) or
//! `skipped`.

use std::path::Path;
use std::process::{Command, Output};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
const PROVIDER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/providers/provider.py");

fn cgp(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cgp"))
        .args(args)
        .output()
        .expect("cgp runs")
}

/// One parsed case: its name, and its failure's message when it failed.
#[derive(Debug)]
struct Case {
    name: String,
    failure: Option<String>,
    skipped: bool,
}

/// Parses a JUnit document, checks it against the schema's rules and returns
/// its cases.
fn cases(xml: &str) -> Vec<Case> {
    let document =
        roxmltree::Document::parse(xml).unwrap_or_else(|error| panic!("{error}:\n{xml}"));
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let number = |node: roxmltree::Node, name: &str| -> usize {
        node.attribute(name)
            .unwrap_or_else(|| panic!("<{}> has no {name}", node.tag_name().name()))
            .parse()
            .expect("a count")
    };
    let mut all = Vec::new();
    let (mut tests, mut failures, mut skipped) = (0, 0, 0);
    for suite in root.children().filter(roxmltree::Node::is_element) {
        assert_eq!(suite.tag_name().name(), "testsuite");
        assert!(!suite.attribute("name").unwrap_or_default().is_empty());
        let mut here = Vec::new();
        for case in suite.children().filter(roxmltree::Node::is_element) {
            assert_eq!(case.tag_name().name(), "testcase");
            assert!(!case.attribute("name").unwrap_or_default().is_empty());
            assert!(case.attribute("classname").is_some());
            let children: Vec<_> = case
                .children()
                .filter(roxmltree::Node::is_element)
                .collect();
            let mut parsed = Case {
                name: case.attribute("name").unwrap_or_default().to_owned(),
                failure: None,
                skipped: false,
            };
            for child in &children {
                match child.tag_name().name() {
                    "failure" => {
                        assert!(child.attribute("type").is_some());
                        parsed.failure =
                            Some(child.attribute("message").expect("message").to_owned());
                    }
                    "skipped" => parsed.skipped = true,
                    "system-out" => {}
                    other => panic!("unexpected <{other}> in a testcase"),
                }
            }
            assert!(!(parsed.failure.is_some() && parsed.skipped), "{parsed:?}");
            here.push(parsed);
        }
        assert_eq!(number(suite, "tests"), here.len());
        assert_eq!(
            number(suite, "failures"),
            here.iter().filter(|c| c.failure.is_some()).count()
        );
        assert_eq!(
            number(suite, "skipped"),
            here.iter().filter(|c| c.skipped).count()
        );
        assert_eq!(number(suite, "errors"), 0);
        tests += here.len();
        failures += number(suite, "failures");
        skipped += number(suite, "skipped");
        all.extend(here);
    }
    assert_eq!(number(root, "tests"), tests);
    assert_eq!(number(root, "failures"), failures);
    assert_eq!(number(root, "skipped"), skipped);
    all
}

/// The first released protocol version, from the release manifest: the
/// transcripts under `tests/data/` are captures of its wire, so they are
/// judged by it, whichever version is working.
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

#[test]
fn validate_has_a_case_per_file_failed_with_its_findings() {
    let errors = format!("{DATA}/errors.ndjson");
    let strict = format!("{DATA}/strict.ndjson");
    let output = cgp(&[
        "validate",
        "--version",
        &first_release(),
        "--format",
        "junit",
        "--semantic",
        &errors,
        &strict,
    ]);
    assert_eq!(output.status.code(), Some(1));
    let xml = String::from_utf8(output.stdout).expect("UTF-8");
    let cases = cases(&xml);
    assert_eq!(cases.len(), 2, "{cases:?}");
    assert_eq!(cases[0].name, errors);
    assert!(
        cases[0]
            .failure
            .as_deref()
            .unwrap_or_default()
            .contains("messages are invalid")
    );
    assert!(
        cases[1].failure.is_none(),
        "strict.ndjson is valid by the interop profile"
    );
    // The failure's text lists each finding with its file, line and column.
    assert!(xml.contains(&format!("{errors}:")), "{xml}");
}

#[test]
fn check_has_a_case_per_step() {
    let output = cgp(&[
        "check",
        "--format",
        "junit",
        "--timeout",
        "2",
        "--",
        "python3",
        PROVIDER,
        "budget",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let json = cgp(&[
        "check",
        "--format",
        "json",
        "--timeout",
        "2",
        "--",
        "python3",
        PROVIDER,
        "budget",
    ]);
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let steps = report["steps"].as_array().expect("steps");
    let cases = cases(&String::from_utf8(output.stdout).expect("UTF-8"));
    assert_eq!(cases.len(), steps.len());
    for (case, step) in cases.iter().zip(steps) {
        assert_eq!(case.name, step["name"].as_str().expect("name"));
        assert_eq!(
            case.failure.is_some(),
            step["outcome"] == "failed",
            "{case:?}"
        );
        assert_eq!(case.skipped, step["outcome"] == "skipped", "{case:?}");
    }
    assert!(cases.iter().any(|case| case.failure.is_some()));
}

#[test]
fn diff_has_a_case_per_change_at_or_above_fail_on() {
    let published = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../generated/schema")
        .join(cgp_types::PROTOCOL_VERSION.replacen('/', "-", 1))
        .join("interop.schema.json");
    let text = std::fs::read_to_string(&published).expect("bundle");
    let mut bundle: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let query = &mut bundle["$defs"]["ContextQuery"];
    query["properties"]["cgp_test_added"] = serde_json::json!({"type": "string"});
    query["description"] = "edited <&> \"quoted\"".into();
    let changed = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(
        changed.path(),
        serde_json::to_string_pretty(&bundle).expect("JSON"),
    )
    .expect("write");
    let old = published.to_str().expect("UTF-8");
    let new = changed.path().to_str().expect("UTF-8");
    let every = cgp(&["diff", "--format", "junit", old, new]);
    assert_eq!(every.status.code(), Some(0));
    let every = cases(&String::from_utf8(every.stdout).expect("UTF-8"));
    assert_eq!(every.len(), 2, "{every:?}");
    assert!(every.iter().all(|case| case.failure.is_none()));
    let minor = cgp(&["diff", "--format", "junit", "--fail-on", "minor", old, new]);
    assert_eq!(minor.status.code(), Some(1));
    let minor = cases(&String::from_utf8(minor.stdout).expect("UTF-8"));
    assert_eq!(
        minor.len(),
        1,
        "only the minor change reaches --fail-on: {minor:?}"
    );
    assert!(minor[0].name.contains("FIELD_ADDED_OPTIONAL"), "{minor:?}");
    assert!(
        minor[0]
            .failure
            .as_deref()
            .unwrap_or_default()
            .contains("requires a minor bump")
    );
}
