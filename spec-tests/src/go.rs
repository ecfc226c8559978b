//! The generated Go module (`generated/go`): its harness program
//! `cmd/cgp-harness` built with the local `go` under `target/` (once per
//! content of the module, with `GOPATH`, `GOMODCACHE` and `GOCACHE` under
//! `target/peers/go`), then fed any number of messages through one process,
//! speaking the harness protocol: one JSON case per line in, one answer per
//! line out.

use crate::Outcome;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The Go environment every test uses: nothing written outside `target/`.
pub fn go_command(program: &str) -> Command {
    let base = crate::peers::dir().join("go");
    let mut command = Command::new(program);
    command
        .env("GOPATH", base.join("path"))
        .env("GOMODCACHE", base.join("mod"))
        .env("GOCACHE", base.join("cache"))
        .env("GOTOOLCHAIN", "local")
        .env("GOFLAGS", "-mod=mod")
        .env("CGO_ENABLED", "0");
    command
}

/// The built harness (`cmd/cgp-harness`), built on first use.
pub fn harness() -> Result<&'static Path, String> {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    BUILT
        .get_or_init(|| build("cgp-harness"))
        .as_ref()
        .map(PathBuf::as_path)
        .map_err(Clone::clone)
}

/// The built throughput program (`cmd/cgp-throughput`), built on first use.
pub fn throughput() -> Result<&'static Path, String> {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    BUILT
        .get_or_init(|| build("cgp-throughput"))
        .as_ref()
        .map(PathBuf::as_path)
        .map_err(Clone::clone)
}

/// Every file of the module, sorted, for the digest that names a build.
fn module_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|error| format!("{}: {error}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .collect();
    entries.sort();
    for entry in entries {
        if entry.is_dir() {
            module_files(&entry, out)?;
        } else {
            out.push(entry);
        }
    }
    Ok(())
}

/// Builds `cmd/<command>` into `target/go-module/<digest>/<command>`, unless
/// a build of exactly these files is there.
fn build(command: &str) -> Result<PathBuf, String> {
    let module = cgp_test_support::repo().join(cgp_codegen::go::GO_DIR);
    let mut files = Vec::new();
    module_files(&module, &mut files)?;
    let mut contents = Vec::new();
    for file in &files {
        contents.extend(file.display().to_string().into_bytes());
        contents
            .extend(std::fs::read(file).map_err(|error| format!("{}: {error}", file.display()))?);
    }
    let digest = cgp_schema::digest::of(&contents);
    let builds = cgp_test_support::repo().join("target/go-module");
    let out = builds.join(
        digest
            .trim_start_matches("sha256:")
            .get(..16)
            .unwrap_or("build"),
    );
    let binary = out.join(command);
    if binary.is_file() {
        return Ok(binary);
    }
    let scratch = builds.join(format!("building-{command}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).map_err(|error| format!("{}: {error}", scratch.display()))?;
    let output = go_command("go")
        .current_dir(&module)
        .args(["build", "-trimpath", "-o"])
        .arg(scratch.join(command))
        .arg(format!("./cmd/{command}"))
        .output()
        .map_err(|error| {
            format!("cannot run go ({error}); install Go 1.22 or later to test the Go module")
        })?;
    if !output.status.success() {
        let _ = std::fs::remove_dir_all(&scratch);
        return Err(format!(
            "go build rejects generated/go:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    std::fs::create_dir_all(&out).map_err(|error| format!("{}: {error}", out.display()))?;
    if std::fs::rename(scratch.join(command), &binary).is_err() && !binary.is_file() {
        let _ = std::fs::remove_dir_all(&scratch);
        return Err(format!(
            "cannot move the build of {command} into {}",
            out.display()
        ));
    }
    let _ = std::fs::remove_dir_all(&scratch);
    Ok(binary)
}

/// Each message decoded (as a stdio line, or as an HTTP body when `http`) and
/// re-encoded by the Go module, through its harness ([`crate::harness`]).
pub fn decode(messages: &[String], http: bool) -> Result<Vec<Outcome>, String> {
    crate::harness::decode(Command::new(harness()?), messages, http)
}

/// As [`decode`], for messages of any bytes (sent as `input_base64`).
pub fn decode_bytes(messages: &[Vec<u8>], http: bool) -> Result<Vec<Outcome>, String> {
    crate::harness::decode_bytes(Command::new(harness()?), messages, http)
}
