//! Full tier: `cargo xtask dist`'s artifacts, installed as an implementer
//! would with no Rust toolchain on `PATH` (a fresh virtual environment for
//! the wheel, an empty npm project for the packages), give a `cgp` that
//! prints the crate's version, validates a transcript and checks a stdio
//! provider (the CLI's test provider, a Python script).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `PATH` without any directory that holds `cargo` or `rustc`, with `first`
/// in front.
fn path_without_rust(first: &Path) -> OsString {
    let inherited = std::env::var_os("PATH").unwrap_or_default();
    let kept = std::env::split_paths(&inherited)
        .filter(|dir| !dir.join("cargo").exists() && !dir.join("rustc").exists());
    std::env::join_paths(std::iter::once(first.to_path_buf()).chain(kept)).expect("a PATH")
}

fn run(command: &mut Command) -> Output {
    let output = command.output().expect("the command runs");
    assert!(
        output.status.success(),
        "{command:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// `cgp --version`, `cgp validate` and `cgp check` with `cgp` found on `path`.
fn exercise(root: &Path, path: &OsString, home: &Path) {
    let cgp = |args: &[&str]| {
        let mut command = Command::new("cgp");
        command
            .args(args)
            .current_dir(root.join("crates/cgp-cli/tests"))
            .env_clear()
            .env("PATH", path)
            .env("HOME", home);
        command.output().expect("cgp is on PATH")
    };
    let which = Command::new("sh")
        .args(["-c", "command -v cargo rustc || true"])
        .env_clear()
        .env("PATH", path)
        .output()
        .expect("sh");
    assert!(which.stdout.is_empty(), "a Rust toolchain is on PATH");
    let version = cgp(&["--version"]);
    assert_eq!(
        String::from_utf8_lossy(&version.stdout).trim(),
        concat!("cgp ", env!("CARGO_PKG_VERSION"))
    );
    let valid = cgp(&["validate", "data/strict.ndjson"]);
    assert_eq!(valid.status.code(), Some(0), "{valid:?}");
    let invalid = cgp(&["validate", "data/errors.ndjson"]);
    assert_eq!(invalid.status.code(), Some(1), "{invalid:?}");
    let check = cgp(&[
        "check",
        "--json",
        "--",
        "python3",
        "providers/provider.py",
        "good",
    ]);
    assert_eq!(check.status.code(), Some(0), "{check:?}");
    let report: serde_json::Value = serde_json::from_slice(&check.stdout).expect("JSON");
    assert_eq!(report["passed"], true);
}

#[test]
#[ignore = "full tier"]
fn the_wheel_and_the_npm_packages_install_a_working_cgp_without_rust() {
    let root = cgp_test_support::repo();
    let written = cgp_dist::dist(&root).expect("cargo xtask dist");
    let find = |suffix: &str| -> PathBuf {
        written
            .iter()
            .find(|path| path.to_string_lossy().ends_with(suffix))
            .unwrap_or_else(|| panic!("no artifact ends with {suffix}: {written:?}"))
            .clone()
    };
    let version = env!("CARGO_PKG_VERSION");
    let wheel = written
        .iter()
        .find(|path| path.extension().is_some_and(|extension| extension == "whl"))
        .expect("a wheel")
        .clone();
    assert!(
        wheel
            .to_string_lossy()
            .contains(&format!("cgp_cli-{version}-py3-none-"))
    );
    let scratch = root.join("target/dist-install-test");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("scratch");
    let home = scratch.join("home");
    std::fs::create_dir_all(&home).expect("home");

    // pip: a clean virtual environment, nothing from an index.
    let python = run(Command::new("python3").args(["-c", "import sys; print(sys.executable)"]));
    let python = String::from_utf8_lossy(&python.stdout).trim().to_owned();
    let venv = scratch.join("venv");
    run(Command::new(&python).arg("-m").arg("venv").arg(&venv));
    let bin = venv.join("bin");
    run(Command::new(bin.join("python"))
        .args([
            "-m",
            "pip",
            "install",
            "--no-index",
            "--no-deps",
            "--disable-pip-version-check",
        ])
        .arg(&wheel)
        .env("PATH", path_without_rust(&bin)));
    assert!(venv.join("share/man/man1/cgp.1").is_file(), "the man page");
    assert!(venv.join("share/bash-completion/completions/cgp").is_file());
    exercise(&root, &path_without_rust(&bin), &home);

    // npm: an empty project, the two local tarballs, nothing from the registry.
    let project = scratch.join("npm");
    std::fs::create_dir_all(&project).expect("project");
    std::fs::write(
        project.join("package.json"),
        r#"{"name": "implementer", "version": "1.0.0", "private": true}"#,
    )
    .expect("package.json");
    let npm_bin = project.join("node_modules/.bin");
    run(Command::new("npm")
        .args(["install", "--offline", "--no-audit", "--no-fund", "--cache"])
        .arg(scratch.join("npm-cache"))
        .arg(find(&format!("/cgp-cli-{version}.tgz")))
        .arg(find(&format!("/cgp-cli-linux-x64-{version}.tgz")))
        .current_dir(&project)
        .env("PATH", path_without_rust(&npm_bin)));
    assert!(project.join("node_modules/cgp-cli/man/cgp.1").is_file());
    assert!(
        project
            .join("node_modules/cgp-cli/completions/_cgp")
            .is_file()
    );
    exercise(&root, &path_without_rust(&npm_bin), &home);
    let _ = std::fs::remove_dir_all(&scratch);
}
