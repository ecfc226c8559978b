//! The generated TypeScript package (`generated/typescript`) under node: built
//! once per test process with the pinned compiler into a scratch directory
//! under `target/`, then fed any number of lines through one node process.

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

fn build() -> Result<PathBuf, String> {
    let modules = peers::ensure_typescript()?;
    let package = repo_root().join(cgp_codegen::typescript::TYPESCRIPT_DIR);
    let out = repo_root()
        .join("target/typescript-package")
        .join(std::process::id().to_string());
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).map_err(|error| format!("{}: {error}", out.display()))?;
    // The package is ESM by its package.json; node reads it beside dist/.
    std::fs::copy(package.join("package.json"), out.join("package.json"))
        .map_err(|error| format!("copy package.json: {error}"))?;
    let output = Command::new("node")
        .arg(modules.join("typescript/bin/tsc"))
        .arg("-p")
        .arg(package.join("tsconfig.json"))
        .arg("--outDir")
        .arg(out.join("dist"))
        .output()
        .map_err(|error| format!("cannot run node ({error}); install node to test the package"))?;
    if !output.status.success() {
        return Err(format!(
            "tsc --strict rejects generated/typescript:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(out.join("dist/index.js"))
}

/// Each line decoded and re-encoded by the package: `Ok(line)` (newline
/// dropped) or `Err(message)` for a `WireError`. Anything else the package
/// throws is an error of the whole call.
pub fn decode_lines(lines: &[String]) -> Result<Vec<Outcome>, String> {
    let entry = built_package()?;
    let cases = entry.with_file_name(format!("cases-{:?}.json", std::thread::current().id()));
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
