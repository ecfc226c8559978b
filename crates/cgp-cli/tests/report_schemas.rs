//! The `--format json` outputs of `cgp validate`, `check` and `diff`, and the
//! baseline files, validate against the JSON Schemas `cgp schema --output`
//! prints, which are the ones published under generated/schema/.

use serde_json::Value;
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

/// The schema `cgp schema --output name` prints, checked to be the published one.
fn schema(name: &str) -> jsonschema::Validator {
    let output = cgp(&["schema", "--output", name]);
    assert_eq!(output.status.code(), Some(0), "{name}");
    let published = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../../generated/schema/cgp-{name}.schema.json"));
    let expected = std::fs::read(&published).expect("published schema");
    assert_eq!(
        output.stdout,
        expected,
        "cgp schema --output {name} differs from {}; run cargo xtask codegen",
        published.display()
    );
    let schema: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    jsonschema::validator_for(&schema).expect("the schema compiles")
}

fn assert_valid(validator: &jsonschema::Validator, instance: &Value, what: &str) {
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|error| format!("{} at {}", error, error.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:?}\n{instance:#}");
}

#[test]
fn validate_output_matches_its_schema() {
    let validator = schema("validate");
    let baseline = tempfile::NamedTempFile::new().expect("temp file");
    let baseline_path = baseline.path().to_str().expect("UTF-8 path");
    let errors = format!("{DATA}/errors.ndjson");
    let annotations = format!("{DATA}/annotations.ndjson");
    let document = format!("{DATA}/document.json");
    let strict = format!("{DATA}/strict.ndjson");
    // A baseline of one file, applied to two: both baselined and failed
    // messages, and no stale entry; then applied to nothing, all stale.
    let written = cgp(&[
        "validate",
        "--semantic",
        "--write-baseline",
        baseline_path,
        &errors,
    ]);
    assert_eq!(written.status.code(), Some(0));
    let runs = [
        vec!["validate", "--format", "json", "--semantic", &errors],
        vec!["validate", "--format", "json", "--json-document", &document],
        vec![
            "validate",
            "--format",
            "json",
            "--semantic",
            "--baseline",
            baseline_path,
            &errors,
            &annotations,
        ],
        vec![
            "validate",
            "--format",
            "json",
            "--baseline",
            baseline_path,
            &strict,
        ],
    ];
    let mut kinds = std::collections::BTreeSet::new();
    for args in runs {
        let output = cgp(&args);
        let text = String::from_utf8(output.stdout).expect("UTF-8");
        assert!(text.lines().count() > 1, "{args:?}: {text}");
        for line in text.lines() {
            let record: Value = serde_json::from_str(line).expect("one JSON object a line");
            assert_valid(&validator, &record, &format!("{args:?}"));
            let object = record.as_object().expect("object");
            for key in ["summary", "stale", "baselined"] {
                if object.contains_key(key) {
                    kinds.insert(key);
                }
            }
            if object.get("valid") == Some(&Value::Bool(false)) {
                kinds.insert("invalid");
            }
        }
    }
    assert_eq!(
        kinds.into_iter().collect::<Vec<_>>(),
        ["baselined", "invalid", "stale", "summary"],
        "every kind of line was checked"
    );
}

#[test]
fn check_output_matches_its_schema() {
    let validator = schema("check");
    let baseline = tempfile::NamedTempFile::new().expect("temp file");
    let baseline_path = baseline.path().to_str().expect("UTF-8 path");
    let written = cgp(&[
        "check",
        "--timeout",
        "2",
        "--write-baseline",
        baseline_path,
        "--",
        "python3",
        PROVIDER,
        "budget",
    ]);
    assert_eq!(
        written.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&written.stderr)
    );
    for (mode, extra) in [
        ("good", vec![]),
        ("budget", vec![]),
        ("good", vec!["--baseline", baseline_path]),
    ] {
        let mut args = vec!["check", "--format", "json", "--timeout", "2"];
        args.extend(extra.iter().copied());
        args.extend(["--", "python3", PROVIDER, mode]);
        let output = cgp(&args);
        let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
        assert_valid(&validator, &report, &format!("{args:?}"));
        if !extra.is_empty() {
            assert!(
                !report["baseline"]["stale"]
                    .as_array()
                    .expect("stale")
                    .is_empty()
            );
        }
    }
}

#[test]
fn diff_output_and_baselines_match_their_schemas() {
    let validator = schema("diff");
    let published = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../generated/schema")
        .join(cgp_types::PROTOCOL_VERSION.replacen('/', "-", 1))
        .join("interop.schema.json");
    let text = std::fs::read_to_string(&published).expect("bundle");
    let mut bundle: Value = serde_json::from_str(&text).expect("JSON");
    let query = &mut bundle["$defs"]["ContextQuery"]["properties"];
    query["cgp_test_added"] = serde_json::json!({"type": "string"});
    let changed = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(
        changed.path(),
        serde_json::to_string_pretty(&bundle).expect("JSON"),
    )
    .expect("write");
    let output = cgp(&[
        "diff",
        "--format",
        "json",
        published.to_str().expect("UTF-8"),
        changed.path().to_str().expect("UTF-8"),
    ]);
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert!(!report["changes"].as_array().expect("changes").is_empty());
    assert_valid(&validator, &report, "diff");

    let baselines = schema("baseline");
    let written = tempfile::NamedTempFile::new().expect("temp file");
    let path = written.path().to_str().expect("UTF-8");
    let run = cgp(&[
        "validate",
        "--semantic",
        "--write-baseline",
        path,
        &format!("{DATA}/errors.ndjson"),
    ]);
    assert_eq!(run.status.code(), Some(0));
    let file: Value = serde_json::from_slice(&std::fs::read(path).expect("read")).expect("JSON");
    assert!(!file["entries"].as_array().expect("entries").is_empty());
    assert_valid(&baselines, &file, "baseline");
}
