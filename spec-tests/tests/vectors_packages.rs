//! Dogfooding the conformance vectors: every package target's harness program
//! goes through `cgp vectors run`'s runner (one loop over the list of targets,
//! `Language::ALL`), and the Python and TypeScript packages also run them in
//! their own test runners (`python -m unittest`, `node --test`, what
//! `npm test` runs after building); the Java package runs them with JUnit in
//! `mvn package`. Full tier: node, python3, go, java and mvn (Maven's
//! downloads in target/peers/m2) and a pinned TypeScript compiler (installed
//! under target/peers).

use cgp_codegen::targets::Language;
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
    cases_of(&["corpus", "edge", "random", "vocabulary"])
}

/// The cases of the named files (`corpus` for `corpus.ndjson`).
fn cases_of(names: &[&str]) -> Vec<Case> {
    let mut cases = Vec::new();
    for name in names {
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

/// The harness of every package target, through `cgp vectors run`'s runner:
/// the reference's answer on every case.
#[test]
#[ignore = "full tier"]
fn every_package_harness_gives_the_reference_answer_on_every_vector() {
    let mut harnessed = Vec::new();
    for language in Language::ALL {
        let report = match language {
            // The typify crate is a library without a harness; the corpus
            // and the randomised differential decode through it in Rust.
            Language::Rust => continue,
            Language::TypeScript => {
                let harness =
                    spec_tests::typescript::harness().unwrap_or_else(|problem| panic!("{problem}"));
                through("node", &[&harness], Vec::new())
            }
            Language::Python => {
                let package = cgp_test_support::repo().join(cgp_codegen::python::PYTHON_DIR);
                through(
                    "python3",
                    &[Path::new("-m"), Path::new("cgp_types.harness")],
                    vec![
                        ("PYTHONPATH".into(), package.into_os_string()),
                        ("PYTHONDONTWRITEBYTECODE".into(), "1".into()),
                    ],
                )
            }
            Language::Go => {
                let harness =
                    spec_tests::go::harness().unwrap_or_else(|problem| panic!("{problem}"));
                through(&harness.to_string_lossy(), &[], Vec::new())
            }
            Language::Java => {
                // Building the jar runs `mvn package`, whose JUnit tests read
                // the project's copy of the vectors; a failing one fails it.
                let jar = spec_tests::java::jar().unwrap_or_else(|problem| panic!("{problem}"));
                let class = spec_tests::java::harness_class();
                through(
                    "java",
                    &[Path::new("-cp"), jar, Path::new(&class)],
                    Vec::new(),
                )
            }
        };
        // Every case, the f32 overflow ones included (one policy: `null`).
        assert_eq!(
            disagreeing(&report),
            Vec::<String>::new(),
            "{language:?}: {report:#?}"
        );
        assert!(report.passed(), "{language:?}");
        harnessed.push(language);
    }
    assert_eq!(harnessed.len(), Language::ALL.len() - 1, "{harnessed:?}");
}

#[test]
#[ignore = "full tier"]
fn the_python_package_runs_the_vectors_with_unittest_and_its_harness_with_msgspec() {
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
    // msgspec's fast decoder in front of the pure-Python path (which the
    // loop over every target above runs alone).
    let msgspec = spec_tests::peers::ensure_msgspec().unwrap_or_else(|problem| panic!("{problem}"));
    let with_msgspec = std::env::join_paths([package, msgspec]).expect("paths join");
    let report = through(
        "python3",
        &[Path::new("-m"), Path::new("cgp_types.harness")],
        vec![
            ("PYTHONPATH".into(), with_msgspec),
            ("PYTHONDONTWRITEBYTECODE".into(), "1".into()),
        ],
    );
    assert_eq!(disagreeing(&report), Vec::<String>::new(), "{report:#?}");
    assert!(report.passed());
}

#[test]
#[ignore = "full tier"]
fn the_typescript_package_runs_the_vectors_with_node_test() {
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
    // The vectors' verdicts, and the fast path taking every valid canonical line.
    assert!(text.contains("# pass 2"), "{text}");
}

/// The valid canonical lines of the vectors (but edge.ndjson's, which probe
/// the fast path's limits on purpose: an f32 overflow, an integer beyond a
/// `number`) through the TypeScript package's `decodeEnvelope` and
/// `encodeEnvelope`: its generated read and encode functions take every one
/// themselves. A shape they stopped reading (a kind renamed in the table, say)
/// would still give the exact path's answers, so only this count shows it.
#[test]
#[ignore = "full tier"]
fn the_typescript_fast_path_decodes_and_encodes_every_valid_canonical_line_itself() {
    let mut lines: Vec<String> = cases_of(&["corpus", "random", "vocabulary"])
        .into_iter()
        .filter_map(|case| case.decode.canonical.filter(|_| case.decode.accept))
        .collect();
    lines.sort();
    lines.dedup();
    assert!(lines.len() > 150, "only {} valid lines", lines.len());
    let (missed, misses) = spec_tests::typescript::fast_path_misses(&lines)
        .unwrap_or_else(|problem| panic!("{problem}"));
    assert_eq!(
        misses,
        0,
        "{misses} misses on {} lines:\n{}",
        lines.len(),
        missed.join("\n")
    );
}
