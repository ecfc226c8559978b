//! The generated TypeScript package (`generated/typescript`) under node: built
//! with the pinned compiler under `target/` (once per content of the package),
//! then fed any number of lines through one node process.

use crate::{Outcome, peers, repo_root};
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
    let package = repo_root().join(cgp_codegen::typescript::TYPESCRIPT_DIR);
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
    let digest = cgp_schema::release::sha256(&contents);
    let builds = repo_root().join("target/typescript-package");
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

/// Each line decoded and re-encoded by the package: `Ok(line)` (newline
/// dropped) or `Err(message)` for a `WireError`. Anything else the package
/// throws is an error of the whole call.
pub fn decode_lines(lines: &[String]) -> Result<Vec<Outcome>, String> {
    let entry = built_package()?;
    let cases = repo_root().join(format!(
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
        .arg(repo_root().join("spec-tests/peers/typescript_package.mjs"))
        .arg(entry)
        .arg(&cases)
        .output()
        .map_err(|error| format!("cannot run node: {error}"))?;
    let _ = std::fs::remove_file(&cases);
    if !output.status.success() {
        return Err(format!(
            "node failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let outcomes: Vec<serde_json::Value> = serde_json::from_slice(&output.stdout)
        .map_err(|error| format!("node's answer: {error}"))?;
    if outcomes.len() != lines.len() {
        return Err(format!(
            "{} answers for {} lines",
            outcomes.len(),
            lines.len()
        ));
    }
    outcomes
        .into_iter()
        .zip(lines)
        .map(|(outcome, line)| {
            let text = |key: &str| outcome.get(key).and_then(|v| v.as_str()).map(str::to_owned);
            match (text("ok"), text("err"), text("crash")) {
                (Some(ok), _, _) => Ok(Ok(ok)),
                (_, Some(err), _) => Ok(Err(err)),
                (_, _, crash) => Err(format!("the package crashed on {line:?}: {crash:?}")),
            }
        })
        .collect()
}
