//! The generated Java package under the JDK's own checkers: `javac
//! -Xlint:all -Werror` and javadoc's doclint find nothing in its sources
//! (the Go module's `go vet`). Its tests and harness run in
//! `vectors_packages.rs`, `corpus_differential.rs` and
//! `randomised_differential/java.rs`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Every `.java` file under `dir`, sorted.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("a directory")
        .map(|entry| entry.expect("an entry").path())
        .collect();
    entries.sort();
    for entry in entries {
        if entry.is_dir() {
            sources(&entry, out);
        } else if entry.extension().is_some_and(|ext| ext == "java") {
            out.push(entry);
        }
    }
}

fn main_sources() -> Vec<PathBuf> {
    let mut files = Vec::new();
    sources(
        &cgp_test_support::repo()
            .join(cgp_codegen::java::JAVA_DIR)
            .join("src/main/java"),
        &mut files,
    );
    assert!(files.len() > 20, "{files:?}");
    files
}

fn passes(command: &mut Command) {
    let output = command
        .output()
        .unwrap_or_else(|error| panic!("{command:?} cannot run ({error}); install a JDK 17"));
    assert!(
        output.status.success() && output.stderr.is_empty(),
        "{command:?}:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
#[ignore = "full tier"]
fn java_package_compiles_without_a_lint_warning_and_its_javadoc_is_clean() {
    let scratch = cgp_test_support::Scratch::new("java-lint");
    passes(
        Command::new("javac")
            .args([
                "-Xlint:all",
                "-Werror",
                "--release",
                cgp_codegen::java::JAVA_RELEASE,
                "-d",
            ])
            .arg(scratch.join("classes"))
            .args(main_sources()),
    );
    passes(
        Command::new("javadoc")
            .args(["-quiet", "-Xdoclint:all,-missing", "-d"])
            .arg(scratch.join("javadoc"))
            .args(main_sources()),
    );
}
