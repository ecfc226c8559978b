//! The other-language validators implementers use, installed on demand.
//!
//! Python `jsonschema` and Node Ajv, pinned, go under `target/peers` (or
//! `$CGP_PEERS_DIR`), so every machine compares against the same versions. The
//! first caller installs them with `pip` and `npm` into a scratch directory that
//! is renamed into place, so concurrent callers never see half an installation.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The pinned Python validator.
pub const PYTHON_JSONSCHEMA: &str = "jsonschema==4.26.0";
/// The pinned Node validator.
pub const NODE_AJV: &str = "ajv@8.20.0";

/// Where the peers live.
pub fn dir() -> PathBuf {
    std::env::var_os("CGP_PEERS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::repo_root().join("target/peers"))
}

/// The directory to put on `PYTHONPATH`.
pub fn python_path(base: &Path) -> PathBuf {
    base.join("python")
}

/// The directory to put on `NODE_PATH`.
pub fn node_path(base: &Path) -> PathBuf {
    base.join("node/node_modules")
}

fn marker_text() -> String {
    format!("{PYTHON_JSONSCHEMA}\n{NODE_AJV}\n")
}

/// Installs the pinned peers unless they are there already; returns their
/// directory. The error says which tool failed and how to get it.
pub fn ensure_installed() -> Result<PathBuf, String> {
    let base = dir();
    let installed = |base: &Path| {
        std::fs::read_to_string(base.join("installed.txt"))
            .is_ok_and(|found| found == marker_text())
    };
    if installed(&base) {
        return Ok(base);
    }
    let scratch = base.with_extension(format!("installing-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).map_err(|error| format!("{}: {error}", scratch.display()))?;
    let steps: [(&str, Vec<String>); 2] = [
        (
            "python3",
            vec![
                "-m".into(),
                "pip".into(),
                "install".into(),
                "--quiet".into(),
                "--disable-pip-version-check".into(),
                "--target".into(),
                python_path(&scratch).display().to_string(),
                PYTHON_JSONSCHEMA.into(),
            ],
        ),
        (
            "npm",
            vec![
                "install".into(),
                "--silent".into(),
                "--no-audit".into(),
                "--no-fund".into(),
                "--prefix".into(),
                scratch.join("node").display().to_string(),
                NODE_AJV.into(),
            ],
        ),
    ];
    for (program, args) in steps {
        let outcome = Command::new(program).args(&args).output();
        let failure = match outcome {
            Ok(output) if output.status.success() => None,
            Ok(output) => Some(format!(
                "{program} {} failed: {}",
                args.join(" "),
                String::from_utf8_lossy(&output.stderr).trim()
            )),
            Err(error) => Some(format!(
                "cannot run {program} ({error}); install it to compare with the peer validators"
            )),
        };
        if let Some(failure) = failure {
            let _ = std::fs::remove_dir_all(&scratch);
            return Err(failure);
        }
    }
    std::fs::write(scratch.join("installed.txt"), marker_text())
        .map_err(|error| error.to_string())?;
    let _ = std::fs::remove_dir_all(&base);
    if std::fs::rename(&scratch, &base).is_err() {
        // Another caller got there first; theirs is as good as ours.
        let _ = std::fs::remove_dir_all(&scratch);
    }
    if installed(&base) {
        Ok(base)
    } else {
        Err(format!("{} is not a complete installation", base.display()))
    }
}
