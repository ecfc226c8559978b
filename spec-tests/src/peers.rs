//! The other implementations the tests compare with, installed on demand.
//!
//! Each set of peers goes, pinned, into its own directory under `target/peers`
//! (or `$CGP_PEERS_DIR`), so every machine compares against the same versions:
//!
//! - `validators`: Python `jsonschema` and Node Ajv, installed with `pip` and
//!   `npm` ([`ensure_installed`]);
//! - `datamodel-code-generator`: the pydantic model generator, in a virtual
//!   environment of its own ([`ensure_datamodel_codegen`]);
//! - `typescript`: the TypeScript compiler that builds `generated/typescript`,
//!   and json-schema-to-typescript, installed with `npm` ([`ensure_typescript`]);
//! - `contextgraph-conformance`: the reference provider
//!   `contextgraph-example-docs`, installed with `cargo install`
//!   ([`ensure_reference_provider`]).
//!
//! The first caller installs a set into a scratch directory that is renamed
//! into place, so concurrent callers never see half an installation.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The pinned Python validator.
pub const PYTHON_JSONSCHEMA: &str = "jsonschema==4.26.0";
/// The pinned Node validator.
pub const NODE_AJV: &str = "ajv@8.20.0";
/// The pinned pydantic model generator.
pub const PYTHON_DATAMODEL_CODEGEN: &str = "datamodel-code-generator==0.89.0";
/// The pinned JSON Schema to TypeScript generator.
pub const NODE_JSON_SCHEMA_TO_TYPESCRIPT: &str = "json-schema-to-typescript@16.0.0";
/// The pinned crate holding the reference provider.
pub const REFERENCE_CONFORMANCE: &str = "contextgraph-conformance";
/// Its version.
pub const REFERENCE_CONFORMANCE_VERSION: &str = "2.0.0";
/// The reference provider's binary, with its `--misbehave` modes.
pub const REFERENCE_PROVIDER: &str = "contextgraph-example-docs";

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

/// Installs the pinned validators unless they are there already; returns
/// their directory (for [`python_path`] and [`node_path`]). The error says
/// which tool failed and how to get it.
pub fn ensure_installed() -> Result<PathBuf, String> {
    install(
        "validators",
        &format!("{PYTHON_JSONSCHEMA}\n{NODE_AJV}\n"),
        |scratch| {
            vec![
                pip_install(
                    "python3",
                    &["--target", &python_path(scratch).display().to_string()],
                    PYTHON_JSONSCHEMA,
                ),
                npm_install(scratch, &[NODE_AJV]),
            ]
        },
    )
}

/// Installs the pinned datamodel-code-generator (and the pydantic it pins) into
/// a virtual environment unless it is there already; returns that
/// environment's `python`, which runs it as `-m datamodel_code_generator`.
pub fn ensure_datamodel_codegen() -> Result<PathBuf, String> {
    let venv = |base: &Path| base.join("venv");
    let python = |base: &Path| venv(base).join("bin").join("python");
    let base = install(
        "datamodel-codegen",
        &format!("{PYTHON_DATAMODEL_CODEGEN}\n"),
        |scratch| {
            vec![
                (
                    "python3".into(),
                    vec![
                        "-m".into(),
                        "venv".into(),
                        venv(scratch).display().to_string(),
                    ],
                ),
                pip_install(
                    &python(scratch).display().to_string(),
                    &[],
                    PYTHON_DATAMODEL_CODEGEN,
                ),
            ]
        },
    )?;
    Ok(python(&base))
}

/// Installs the pinned TypeScript compiler and json-schema-to-typescript
/// unless they are there already; returns their `node_modules` directory.
pub fn ensure_typescript() -> Result<PathBuf, String> {
    // The compiler the generated package's `devDependencies` pin.
    let compiler = format!("typescript@{}", cgp_codegen::typescript::TYPESCRIPT_VERSION);
    let base = install(
        "typescript",
        &format!("{compiler}\n{NODE_JSON_SCHEMA_TO_TYPESCRIPT}\n"),
        |scratch| {
            vec![npm_install(
                scratch,
                &[&compiler, NODE_JSON_SCHEMA_TO_TYPESCRIPT],
            )]
        },
    )?;
    Ok(node_path(&base))
}

/// The step that installs `packages` with npm under `scratch/node`.
fn npm_install(scratch: &Path, packages: &[&str]) -> (String, Vec<String>) {
    let mut args: Vec<String> = ["install", "--silent", "--no-audit", "--no-fund", "--prefix"]
        .map(str::to_owned)
        .into();
    args.push(scratch.join("node").display().to_string());
    args.extend(packages.iter().map(|package| (*package).to_owned()));
    ("npm".into(), args)
}

/// Installs the pinned reference provider with `cargo install --locked` unless
/// it is there already; returns the path of its binary.
pub fn ensure_reference_provider() -> Result<PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // A build directory of its own: never the one of the `cargo test` that
    // may be running this, whose lock it would wait for.
    let build = dir().join(format!(
        "{REFERENCE_CONFORMANCE}.build-{}",
        std::process::id()
    ));
    let base = install(
        REFERENCE_CONFORMANCE,
        &format!("{REFERENCE_CONFORMANCE}@{REFERENCE_CONFORMANCE_VERSION}\n"),
        |scratch| {
            vec![(
                cargo.clone(),
                vec![
                    "install".into(),
                    "--quiet".into(),
                    "--locked".into(),
                    "--root".into(),
                    scratch.display().to_string(),
                    "--version".into(),
                    REFERENCE_CONFORMANCE_VERSION.into(),
                    "--target-dir".into(),
                    build.display().to_string(),
                    "--bin".into(),
                    REFERENCE_PROVIDER.into(),
                    REFERENCE_CONFORMANCE.into(),
                ],
            )]
        },
    );
    let _ = std::fs::remove_dir_all(&build);
    Ok(base?.join("bin").join(REFERENCE_PROVIDER))
}

/// The step that installs `requirement` with `python`'s pip, quietly.
fn pip_install(python: &str, options: &[&str], requirement: &str) -> (String, Vec<String>) {
    let mut args: Vec<String> = [
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
    ]
    .iter()
    .chain(options)
    .map(|arg| (*arg).to_owned())
    .collect();
    args.push(requirement.to_owned());
    (python.to_owned(), args)
}

/// Installs the set `name` into `dir()/name` by running `steps` (program and
/// arguments, given the scratch directory), unless `marker` says it is there.
fn install(
    name: &str,
    marker: &str,
    steps: impl FnOnce(&Path) -> Vec<(String, Vec<String>)>,
) -> Result<PathBuf, String> {
    let base = dir().join(name);
    let installed = |base: &Path| {
        std::fs::read_to_string(base.join("installed.txt")).is_ok_and(|found| found == marker)
    };
    if installed(&base) {
        return Ok(base);
    }
    let scratch = base.with_extension(format!("installing-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).map_err(|error| format!("{}: {error}", scratch.display()))?;
    for (program, args) in steps(&scratch) {
        let outcome = Command::new(&program).args(&args).output();
        let failure = match outcome {
            Ok(output) if output.status.success() => None,
            Ok(output) => Some(format!(
                "{program} {} failed: {}",
                args.join(" "),
                String::from_utf8_lossy(&output.stderr).trim()
            )),
            Err(error) => Some(format!(
                "cannot run {program} ({error}); install it to compare with the peers"
            )),
        };
        if let Some(failure) = failure {
            let _ = std::fs::remove_dir_all(&scratch);
            return Err(failure);
        }
    }
    std::fs::write(scratch.join("installed.txt"), marker).map_err(|error| error.to_string())?;
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
