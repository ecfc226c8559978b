//! The generated TypeScript package (`generated/typescript`) under node: built
//! with the pinned compiler under `target/` (once per content of the package),
//! then fed any number of lines through one node process running the
//! package's own harness program (`test/harness.mjs`).

use crate::{Outcome, peers};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The built package's entry point (`dist/index.js`), built on first use.
pub fn built_package() -> Result<&'static Path, String> {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    BUILT
        .get_or_init(build)
        .as_ref()
        .map(PathBuf::as_path)
        .map_err(Clone::clone)
}

/// Builds the package into `target/typescript-package/<digest of its files>`,
/// unless a build of exactly these files is there: a scratch directory renamed
/// into place, so concurrent test processes never see half a build.
fn build() -> Result<PathBuf, String> {
    let modules = peers::ensure_typescript()?;
    let package = cgp_test_support::repo().join(cgp_codegen::typescript::TYPESCRIPT_DIR);
    let mut sources = Vec::new();
    for file in ["package.json", "tsconfig.json"] {
        sources.push(package.join(file));
    }
    let mut listed: Vec<PathBuf> = std::fs::read_dir(package.join("src"))
        .map_err(|error| format!("{}: {error}", package.display()))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .collect();
    listed.sort();
    sources.extend(listed);
    let mut contents = Vec::new();
    for source in &sources {
        contents.extend(source.display().to_string().into_bytes());
        contents.extend(
            std::fs::read(source).map_err(|error| format!("{}: {error}", source.display()))?,
        );
    }
    let digest = cgp_schema::digest::of(&contents);
    let builds = cgp_test_support::repo().join("target/typescript-package");
    let out = builds.join(
        digest
            .trim_start_matches("sha256:")
            .get(..16)
            .unwrap_or("build"),
    );
    let entry = out.join("dist/index.js");
    if entry.is_file() {
        return Ok(entry);
    }
    let scratch = builds.join(format!("building-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).map_err(|error| format!("{}: {error}", scratch.display()))?;
    // The package is ESM by its package.json; node reads it beside dist/.
    std::fs::copy(package.join("package.json"), scratch.join("package.json"))
        .map_err(|error| format!("copy package.json: {error}"))?;
    let output = Command::new("node")
        .arg(modules.join("typescript/bin/tsc"))
        .arg("-p")
        .arg(package.join("tsconfig.json"))
        .arg("--outDir")
        .arg(scratch.join("dist"))
        .output()
        .map_err(|error| format!("cannot run node ({error}); install node to test the package"))?;
    if !output.status.success() {
        let _ = std::fs::remove_dir_all(&scratch);
        return Err(format!(
            "tsc --strict rejects generated/typescript:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    if std::fs::rename(&scratch, &out).is_err() {
        // Another process got there first; its build is of the same files.
        let _ = std::fs::remove_dir_all(&scratch);
    }
    Ok(entry)
}

/// The package's harness program (`test/harness.mjs`), copied beside the
/// built `dist/` it imports.
pub fn harness() -> Result<PathBuf, String> {
    let entry = built_package()?;
    let built = entry
        .parent()
        .and_then(Path::parent)
        .ok_or_else(|| format!("{}: no build directory", entry.display()))?;
    let sources = cgp_test_support::repo()
        .join(cgp_codegen::typescript::TYPESCRIPT_DIR)
        .join("test");
    std::fs::create_dir_all(built.join("test"))
        .map_err(|error| format!("{}: {error}", built.display()))?;
    for name in ["harness.mjs", "vectors.test.mjs"] {
        std::fs::copy(sources.join(name), built.join("test").join(name))
            .map_err(|error| format!("copy {name}: {error}"))?;
    }
    Ok(built.join("test/harness.mjs"))
}

/// Each line decoded and re-encoded by the package, through its harness
/// program and the harness protocol (the one mechanism every language's
/// harness speaks, SPEC.md §Conformance vectors): `Ok(line)` (newline
/// dropped) or `Err` for a refusal. Anything else the package throws ends the
/// harness, which is an error of the whole call naming the line.
pub fn decode_lines(lines: &[String]) -> Result<Vec<Outcome>, String> {
    use cgp_vectors::harness::{Options, Request, ask};
    let harness = harness()?;
    let requests: Vec<Request> = lines
        .iter()
        .enumerate()
        .map(|(index, line)| Request {
            id: index.to_string(),
            transport: cgp_vectors::Transport::Stdio,
            bytes: line.as_bytes().to_vec(),
        })
        .collect();
    let options = Options {
        version: cgp_types::PROTOCOL_VERSION.to_owned(),
        timeout: std::time::Duration::from_secs(60),
        shown: 0,
        env: Vec::new(),
    };
    let answers = ask(
        &requests,
        &"node".into(),
        &[harness.into_os_string()],
        &options,
    )
    .map_err(|failure| {
        let line = match &failure {
            cgp_vectors::report::Failure::Exited { case, .. }
            | cgp_vectors::report::Failure::Timeout { case, .. }
            | cgp_vectors::report::Failure::OutOfOrder { case, .. }
            | cgp_vectors::report::Failure::Garbage { case, .. } => case
                .parse::<usize>()
                .ok()
                .and_then(|index| lines.get(index))
                .cloned(),
            _ => None,
        };
        format!(
            "the package's harness failed on {line:?}: {}",
            failure.message()
        )
    })?;
    Ok(answers
        .into_iter()
        .map(|answer| match answer.canonical {
            Some(canonical) if answer.accept => Ok(canonical),
            _ => Err("the package refuses the line".to_owned()),
        })
        .collect())
}

/// Runs `spec-tests/peers/<script> <argument> <cases>` with `lines` written as
/// a JSON array to the cases file; its output, if it succeeded.
fn run_on_lines(
    script: &str,
    argument: &Path,
    lines: &[String],
) -> Result<std::process::Output, String> {
    let cases = cgp_test_support::repo().join(format!(
        "target/typescript-package/cases-{}-{:?}.json",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::write(
        &cases,
        serde_json::to_vec(lines).map_err(|error| error.to_string())?,
    )
    .map_err(|error| format!("{}: {error}", cases.display()))?;
    let output = Command::new("node")
        .arg(
            cgp_test_support::repo()
                .join("spec-tests/peers")
                .join(script),
        )
        .arg(argument)
        .arg(&cases)
        .output()
        .map_err(|error| format!("cannot run node: {error}"));
    let _ = std::fs::remove_file(&cases);
    let output = output?;
    if !output.status.success() {
        return Err(format!(
            "node {script} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(output)
}

/// The package's fast path (`codec.ts`) against its exact path (`exact.ts`)
/// on `lines`: every line the fast path decodes, the exact path decodes to the
/// same value, and both encoders write the same bytes for it. Returns how
/// many lines the fast path decoded; `Err` lists the disagreements.
pub fn fast_path_agrees(lines: &[String]) -> Result<usize, String> {
    let entry = built_package()?;
    let dist = entry
        .parent()
        .ok_or("the package's entry has no directory")?;
    let output = run_on_lines("typescript_fast_path.mjs", dist, lines)?;
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout)
        .map_err(|error| format!("node's answer: {error}"))?;
    let disagreements = answer
        .get("disagreements")
        .and_then(serde_json::Value::as_array)
        .ok_or_else(|| format!("node answered {answer}"))?;
    if !disagreements.is_empty() {
        return Err(format!(
            "the fast path disagrees with the exact path:\n{}",
            disagreements
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        ));
    }
    answer
        .get("fast")
        .and_then(serde_json::Value::as_u64)
        .map(|fast| fast as usize)
        .ok_or_else(|| format!("node answered {answer}"))
}

/// The lines of `lines` (each one the package accepts) that the package's fast
/// path leaves to its exact path, decoding or encoding, as its own
/// `decodeEnvelope`, `encodeEnvelope` and `fastPathStats()` count them:
/// `Ok(missed)`, `missed` naming at most 20 (`path: line`) and the total.
pub fn fast_path_misses(lines: &[String]) -> Result<(Vec<String>, u64), String> {
    let entry = built_package()?;
    let dist = entry
        .parent()
        .ok_or("the package's entry has no directory")?;
    let output = run_on_lines("typescript_fast_path_misses.mjs", dist, lines)?;
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout)
        .map_err(|error| format!("node's answer: {error}"))?;
    let count = |key: &str| answer.get(key).and_then(serde_json::Value::as_u64);
    let (Some(read), Some(decode), Some(encode), Some(missed)) = (
        count("lines"),
        count("decodeMisses"),
        count("encodeMisses"),
        answer.get("missed").and_then(serde_json::Value::as_array),
    ) else {
        return Err(format!("node answered {answer}"));
    };
    if read != lines.len() as u64 {
        return Err(format!("node read {read} of {} lines", lines.len()));
    }
    let named = missed
        .iter()
        .map(|miss| format!("{}: {}", miss["path"], miss["line"]))
        .collect();
    Ok((named, decode + encode))
}
