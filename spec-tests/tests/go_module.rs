//! The generated Go module under the Go toolchain: `gofmt` leaves it as it
//! is, `go vet` finds nothing, and `go test ./...` runs the conformance
//! vectors (the module's own copy under `testdata/`), the fuzz target's seeds
//! and the line reader's boundary (or, without the copy, fails saying where
//! it looked).

use spec_tests::go::go_command;

fn module() -> std::path::PathBuf {
    cgp_test_support::repo().join(cgp_codegen::go::GO_DIR)
}

fn run(program: &str, args: &[&str]) -> (bool, String) {
    let output = go_command(program)
        .current_dir(module())
        .args(args)
        .output()
        .unwrap_or_else(|error| panic!("cannot run {program} ({error}); install Go 1.22 or later"));
    (
        output.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ),
    )
}

#[test]
#[ignore = "full tier"]
fn go_module_is_gofmt_clean_and_vet_clean() {
    let (ok, listed) = run("gofmt", &["-l", "."]);
    assert!(
        ok && listed.trim().is_empty(),
        "gofmt would change:\n{listed}"
    );
    let (ok, report) = run("go", &["vet", "./..."]);
    assert!(ok, "go vet:\n{report}");
}

#[test]
#[ignore = "full tier"]
fn go_test_runs_the_conformance_vectors_and_the_fuzz_seeds() {
    let (ok, report) = run("go", &["test", "-count=1", "-v", "./..."]);
    let vectors = module().join("testdata/vectors");
    if vectors.is_dir() {
        assert!(ok, "go test:\n{report}");
        assert!(
            report.contains("--- PASS: TestVectors")
                && report.contains("--- PASS: FuzzDecode")
                && report.contains("--- PASS: TestLineReaderBoundary"),
            "{report}"
        );
    } else {
        assert!(
            !ok && report.contains("no conformance vectors: expected testdata/vectors/"),
            "without testdata/vectors, go test must fail saying where it looked:\n{report}"
        );
    }
}
