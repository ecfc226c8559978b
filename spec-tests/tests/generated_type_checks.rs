//! The generated packages pass their languages' strict type checkers, runtime
//! files (copied as they are from `crates/cgp-codegen/templates/*/runtime/`)
//! and generated files together: `tsc --strict` (the pinned compiler, through
//! the package's `tsconfig.json`) and `mypy --strict` (pinned, under
//! `target/peers`).

use spec_tests::peers;
use std::process::Command;

#[test]
#[ignore = "full tier"]
fn the_python_package_passes_mypy_strict() {
    let mypy = peers::ensure_mypy().unwrap_or_else(|problem| panic!("{problem}"));
    // msgspec's type hints, for the fast decoder `_fast.py`.
    let msgspec = peers::ensure_msgspec().unwrap_or_else(|problem| panic!("{problem}"));
    let python_path = std::env::join_paths([mypy, msgspec]).expect("paths join");
    let package = cgp_test_support::repo().join("generated/python");
    let output = Command::new("python3")
        .args([
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--cache-dir",
            "/dev/null",
            "cgp_types",
        ])
        .current_dir(&package)
        .env("PYTHONPATH", &python_path)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .unwrap_or_else(|error| panic!("cannot run python3: {error}"));
    assert!(
        output.status.success(),
        "mypy --strict rejects generated/python:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
#[ignore = "full tier"]
fn the_typescript_package_passes_tsc_strict() {
    let config = std::fs::read_to_string(
        cgp_test_support::repo().join("generated/typescript/tsconfig.json"),
    )
    .expect("the package's tsconfig.json");
    assert!(config.contains("\"strict\": true"), "{config}");
    // Builds with the pinned tsc and fails on any diagnostic.
    let entry =
        spec_tests::typescript::built_package().unwrap_or_else(|problem| panic!("{problem}"));
    assert!(entry.is_file(), "{}", entry.display());
}
