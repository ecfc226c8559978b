//! Dogfooding the conformance vectors: the generated Python and TypeScript
//! packages run them in their own test runners (`python -m unittest`,
//! `node --test`, what `npm test` runs after building), and their harness
//! programs go through `cgp vectors run`'s runner; the Java package runs them
//! with JUnit in `mvn package` and through its harness. Full tier: node,
//! python3, java and mvn (Maven's downloads in target/peers/m2) and a pinned
//! TypeScript compiler (installed under target/peers).

use cgp_vectors::harness::{Options, run};
use cgp_vectors::report::Report;
use cgp_vectors::{Case, read_cases};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

fn vectors_dir() -> PathBuf {
    let version: cgp_schema::ProtocolVersion =
        cgp_types::PROTOCOL_VERSION.parse().expect("version");
    cgp_test_support::repo()
        .join(cgp_codegen::vectors::VECTORS_DIR)
        .join(version.slug())
}

fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for name in ["corpus", "edge", "random", "vocabulary"] {
        let path = vectors_dir().join(format!("{name}.ndjson"));
        let text = std::fs::read_to_string(&path).expect("published vectors");
        cases.extend(read_cases(name, &text).expect("cases"));
    }
    cases
}

fn through(program: &str, args: &[&Path], env: Vec<(OsString, OsString)>) -> Report {
    let args: Vec<OsString> = args.iter().map(|arg| arg.as_os_str().to_owned()).collect();
    run(
        &cases(),
        &program.into(),
        &args,
        &Options {
            version: cgp_types::PROTOCOL_VERSION.to_owned(),
            timeout: Duration::from_secs(30),
            shown: 10,
            env,
        },
    )
}

/// A run that ended without a failure; every disagreement's id.
fn disagreeing(report: &Report) -> Vec<String> {
    assert_eq!(report.failure, None, "{report:#?}");
    assert_eq!(report.answered, report.cases);
    assert_eq!(report.disagreement_count, report.disagreements.len());
    report.disagreements.iter().map(|d| d.id.clone()).collect()
}

#[test]
#[ignore = "full tier"]
fn the_python_package_runs_the_vectors_with_unittest_and_its_harness() {
    let package = cgp_test_support::repo().join("generated/python");
    let output = Command::new("python3")
        .args(["-m", "unittest", "discover", "-s", "tests"])
        .current_dir(&package)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{text}");
    assert!(text.contains("Ran 1 test"), "{text}");
    // The pure-Python path, then msgspec's fast decoder in front of it.
    let msgspec = spec_tests::peers::ensure_msgspec().unwrap_or_else(|problem| panic!("{problem}"));
    let with_msgspec = std::env::join_paths([package.clone(), msgspec]).expect("paths join");
    for python_path in [package.into_os_string(), with_msgspec] {
        let report = through(
            "python3",
            &[Path::new("-m"), Path::new("cgp_types.harness")],
            vec![
                ("PYTHONPATH".into(), python_path),
                ("PYTHONDONTWRITEBYTECODE".into(), "1".into()),
            ],
        );
        // Every case, the f32 overflow ones included (one policy: `null`).
        assert_eq!(disagreeing(&report), Vec::<String>::new(), "{report:#?}");
        assert!(report.passed());
    }
}

#[test]
#[ignore = "full tier"]
fn the_typescript_package_runs_the_vectors_with_node_test_and_its_harness() {
    let harness = spec_tests::typescript::harness().unwrap_or_else(|problem| panic!("{problem}"));
    // The built copy: dist/ beside a copy of the package's test/.
    let built = harness
        .parent()
        .and_then(Path::parent)
        .expect("the build directory");
    let output = Command::new("node")
        .args(["--test", "test/vectors.test.mjs"])
        .current_dir(built)
        .env("CGP_VECTORS_DIR", vectors_dir())
        .output()
        .expect("node runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(text.contains("# pass 1"), "{text}");
    let report = through("node", &[&harness], Vec::new());
    assert_eq!(disagreeing(&report), Vec::<String>::new(), "{report:#?}");
    assert!(report.passed());
}

#[test]
#[ignore = "full tier"]
fn the_java_package_runs_the_vectors_with_junit_and_its_harness() {
    // Building the jar runs `mvn package`, whose JUnit tests read the
    // project's copy of the vectors; a failing one fails the build.
    let jar = spec_tests::java::jar().unwrap_or_else(|problem| panic!("{problem}"));
    let class = spec_tests::java::harness_class();
    let report = through(
        "java",
        &[Path::new("-cp"), jar, Path::new(&class)],
        Vec::new(),
    );
    assert_eq!(disagreeing(&report), Vec::<String>::new(), "{report:#?}");
    assert!(report.passed());
}
