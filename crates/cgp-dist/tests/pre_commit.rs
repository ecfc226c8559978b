//! Full tier: the `cgp-validate` hook of `.pre-commit-hooks.yaml`, run by the
//! pinned pre-commit's `try-repo` on a temporary repository, installs `cgp`
//! from the local cgp-cli wheel (no package index, no Rust toolchain), passes
//! on a valid transcript and fails on an invalid one with the findings.

use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, Output};

fn path_without_rust() -> OsString {
    let inherited = std::env::var_os("PATH").unwrap_or_default();
    let kept = std::env::split_paths(&inherited)
        .filter(|dir| !dir.join("cargo").exists() && !dir.join("rustc").exists());
    std::env::join_paths(kept).expect("PATH")
}

#[test]
fn the_hook_file_names_the_pinned_wheel() {
    let root = cgp_test_support::repo();
    let hooks = std::fs::read_to_string(root.join(".pre-commit-hooks.yaml")).expect("hooks");
    assert!(hooks.contains("- id: cgp-validate\n"));
    assert!(hooks.contains("entry: cgp validate\n"));
    assert!(hooks.contains("files: \\.ndjson$\n"));
    let pyproject = std::fs::read_to_string(root.join("pyproject.toml")).expect("pyproject");
    assert!(pyproject.contains(&format!(
        "dependencies = [\"cgp-cli=={}\"]",
        env!("CARGO_PKG_VERSION")
    )));
    assert!(pyproject.contains(&format!("version = \"{}\"", env!("CARGO_PKG_VERSION"))));
}

#[test]
#[ignore = "full tier"]
fn try_repo_passes_valid_transcripts_and_fails_invalid_ones() {
    let root = cgp_test_support::repo();
    cgp_dist::dist(&root).expect("cargo xtask dist");
    let (python, wheels) = spec_tests::peers::ensure_pre_commit().expect("pre-commit");
    let scratch = root.join("target/pre-commit-test");
    let _ = std::fs::remove_dir_all(&scratch);
    let repo = scratch.join("repo");
    std::fs::create_dir_all(&repo).expect("repo");
    let data = root.join("crates/cgp-cli/tests/data");
    std::fs::copy(data.join("strict.ndjson"), repo.join("good.ndjson")).expect("copy");
    std::fs::copy(data.join("errors.ndjson"), repo.join("bad.ndjson")).expect("copy");
    std::fs::write(repo.join("notes.txt"), "not a transcript\n").expect("notes");
    let git = |args: &[&str]| {
        let status = Command::new("git")
            .args(args)
            .current_dir(&repo)
            .status()
            .expect("git");
        assert!(status.success(), "git {args:?}");
    };
    git(&["init", "--quiet"]);
    git(&["add", "."]);
    let find_links = format!(
        "{} {}",
        cgp_dist::dist_dir(&root).display(),
        wheels.display()
    );
    let try_repo = |files: &[&str]| -> Output {
        Command::new(&python)
            .args(["-m", "pre_commit", "try-repo"])
            .arg(&root)
            .args(["cgp-validate", "--verbose", "--files"])
            .args(files)
            .current_dir(&repo)
            .env("PATH", path_without_rust())
            .env("HOME", scratch.join("home"))
            .env("PRE_COMMIT_HOME", scratch.join("cache"))
            .env("PIP_NO_INDEX", "1")
            .env("PIP_FIND_LINKS", &find_links)
            .env("PIP_DISABLE_PIP_VERSION_CHECK", "1")
            .output()
            .expect("pre-commit runs")
    };
    let text = |output: &Output| {
        format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    };
    let good = try_repo(&["good.ndjson", "notes.txt"]);
    assert_eq!(good.status.code(), Some(0), "{}", text(&good));
    assert!(text(&good).contains("Passed"), "{}", text(&good));
    let bad = try_repo(&["good.ndjson", "bad.ndjson"]);
    assert_eq!(bad.status.code(), Some(1), "{}", text(&bad));
    let printed = text(&bad);
    assert!(printed.contains("Failed"), "{printed}");
    assert!(
        printed.contains("bad.ndjson:35:"),
        "the findings: {printed}"
    );
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(!Path::new(&scratch).exists());
}
