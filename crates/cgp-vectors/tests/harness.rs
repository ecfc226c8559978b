//! The runner against well-behaved and broken harness programs: the Rust
//! types' harness agrees on every published case; a wrong answer is a
//! disagreement with both answers; a crash, a hang, an answer out of order,
//! garbage and a line after the last answer each end the run with a failure
//! naming the case, never a hang.

use cgp_vectors::harness::{Options, run};
use cgp_vectors::report::Failure;
use cgp_vectors::{Case, read_cases};
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

const HARNESS: &str = env!("CARGO_BIN_EXE_cgp-types-harness");

fn published() -> Vec<Case> {
    let version: cgp_schema::ProtocolVersion =
        cgp_types::PROTOCOL_VERSION.parse().expect("version");
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../generated/vectors")
        .join(version.slug());
    let mut cases = Vec::new();
    for name in ["corpus", "edge", "vocabulary", "random"] {
        let path = folder.join(format!("{name}.ndjson"));
        let text = std::fs::read_to_string(&path).expect("published vectors");
        cases.extend(read_cases(name, &text).expect("cases"));
    }
    cases
}

fn options(timeout: Duration) -> Options {
    Options {
        version: cgp_types::PROTOCOL_VERSION.to_owned(),
        timeout,
        shown: 3,
        env: Vec::new(),
    }
}

fn shell(script: &str) -> (OsString, Vec<OsString>) {
    (
        "sh".into(),
        vec!["-c".into(), script.into(), "harness".into(), HARNESS.into()],
    )
}

fn few() -> Vec<Case> {
    published().into_iter().take(5).collect()
}

#[test]
fn the_rust_types_agree_with_every_published_case() {
    let cases = published();
    let report = run(
        &cases,
        &HARNESS.into(),
        &[],
        &options(Duration::from_secs(20)),
    );
    assert_eq!(report.failure, None);
    assert_eq!(report.disagreements, Vec::new());
    assert_eq!((report.answered, report.agreed), (cases.len(), cases.len()));
    assert!(report.passed());
    let total: usize = report.categories.iter().map(|tally| tally.cases).sum();
    assert_eq!(total, cases.len());
    assert!(report.categories.iter().any(|tally| tally.name == "accept"));
    assert!(report.variants.iter().any(|tally| tally.name == "frames"));
    assert_eq!(report.transports.len(), 2);
}

#[test]
fn a_wrong_answer_is_a_disagreement_with_both_answers() {
    let mut cases = few();
    let accepted = cases
        .iter()
        .position(|case| case.decode.accept)
        .expect("an accepted case");
    cases[accepted].decode.canonical = Some("{\"type\":\"other\"}".into());
    let report = run(
        &cases,
        &HARNESS.into(),
        &[],
        &options(Duration::from_secs(20)),
    );
    assert_eq!(report.failure, None);
    assert_eq!(report.disagreement_count, 1);
    assert_eq!(report.agreed, cases.len() - 1);
    assert!(!report.passed());
    let disagreement = &report.disagreements[0];
    assert_eq!(disagreement.id, cases[accepted].id);
    assert_eq!(
        disagreement.expected.canonical.as_deref(),
        Some("{\"type\":\"other\"}")
    );
    assert!(disagreement.actual.accept);
    assert_ne!(
        disagreement.actual.canonical,
        disagreement.expected.canonical
    );
}

#[test]
fn a_crash_names_the_unanswered_case() {
    let cases = few();
    let (program, args) = shell("read line; echo oops >&2; exit 3");
    let report = run(&cases, &program, &args, &options(Duration::from_secs(20)));
    assert!(!report.passed());
    match report.failure {
        Some(Failure::Exited {
            case,
            status,
            stderr,
        }) => {
            assert_eq!(case, cases[0].id);
            assert!(status.contains('3'), "{status}");
            assert_eq!(stderr, vec!["oops".to_owned()]);
        }
        other => panic!("{other:?}"),
    }
    // One answer, then the program ends: the second case is named.
    let (program, args) = shell("head -n 1 | \"$1\"");
    let report = run(&cases, &program, &args, &options(Duration::from_secs(20)));
    assert_eq!(report.answered, 1);
    assert!(
        matches!(&report.failure, Some(Failure::Exited { case, .. }) if *case == cases[1].id),
        "{:?}",
        report.failure
    );
}

#[test]
fn a_hang_is_a_timeout_naming_the_case() {
    let cases = few();
    let (program, args) = shell("sleep 60");
    let report = run(
        &cases,
        &program,
        &args,
        &options(Duration::from_millis(300)),
    );
    assert_eq!(
        report.failure,
        Some(Failure::Timeout {
            case: cases[0].id.clone(),
            seconds: 0.3
        })
    );
    assert_eq!(report.answered, 0);
    assert!(
        report
            .failure
            .as_ref()
            .expect("failure")
            .message()
            .contains(&cases[0].id)
    );
}

#[test]
fn an_answer_out_of_order_or_garbage_names_the_case() {
    let cases = few();
    let (program, args) =
        shell("read line; echo '{\"id\":\"someone-else\",\"accept\":false}'; sleep 60");
    let report = run(&cases, &program, &args, &options(Duration::from_secs(20)));
    assert_eq!(
        report.failure,
        Some(Failure::OutOfOrder {
            case: cases[0].id.clone(),
            answered: "someone-else".into()
        })
    );
    for (script, problem) in [
        ("read line; echo hello; sleep 60", "not JSON"),
        ("read line; echo '[1]'; sleep 60", "not a JSON object"),
        (
            "read line; echo '{\"accept\":true}'; sleep 60",
            "no string member id",
        ),
    ] {
        let (program, args) = shell(script);
        let report = run(&cases, &program, &args, &options(Duration::from_secs(20)));
        match &report.failure {
            Some(Failure::Garbage {
                case,
                problem: found,
                ..
            }) => {
                assert_eq!(*case, cases[0].id);
                assert!(found.starts_with(problem), "{found}");
            }
            other => panic!("{script}: {other:?}"),
        }
    }
}

#[test]
fn a_line_after_the_last_answer_or_a_missing_program_fails_the_run() {
    let cases = few();
    let (program, args) = shell("\"$1\"; echo extra");
    let report = run(&cases, &program, &args, &options(Duration::from_secs(20)));
    assert_eq!(report.agreed, cases.len());
    assert_eq!(
        report.failure,
        Some(Failure::Extra {
            line: "extra".into()
        })
    );
    assert!(!report.passed());
    let report = run(
        &cases,
        &"/nonexistent/harness".into(),
        &[],
        &options(Duration::from_secs(1)),
    );
    assert!(
        matches!(report.failure, Some(Failure::Start { .. })),
        "{:?}",
        report.failure
    );
}
