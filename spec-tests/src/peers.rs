//! The other implementations the tests compare with, installed on demand.
//!
//! Each set of peers goes, pinned, into its own directory under `target/peers`
//! (or `$CGP_PEERS_DIR`), so every machine compares against the same versions:
//!
//! - `validators`: Python `jsonschema` and Node Ajv, installed with `pip` and
//!   `npm` ([`ensure_installed`]);
//! - `datamodel-code-generator`: the pydantic model generator, in a virtual
//!   environment of its own ([`ensure_datamodel_codegen`]);
//! - `mypy`: the type checker of the generated Python package, installed with
//!   `pip` ([`ensure_mypy`]);
//! - `typescript`: the TypeScript compiler that builds `generated/typescript`,
//!   and json-schema-to-typescript, installed with `npm` ([`ensure_typescript`]);
//! - `go-generators`: go-jsonschema (`go install`, under the Go environment of
//!   [`crate::go::go_command`]) and quicktype (`npm`) ([`ensure_go_generators`]);
//! - `contextgraph-conformance`: the reference provider
//!   `contextgraph-example-docs` and the reference conformance tool
//!   `contextgraph-inspect`, installed with `cargo install`
//!   ([`ensure_reference_provider`], [`ensure_reference_inspect`]);
//! - `packaging`: build, twine and validate-pyproject, in a virtual
//!   environment of their own, which build and judge the generated Python
//!   package ([`ensure_packaging_tools`]);
//! - `python-sdk`: the protocol's Python SDK `contextgraph-sdk`, in a virtual
//!   environment of its own ([`ensure_python_sdk`]);
//! - `go-sdk`: the Go SDK's example provider, built from the Go module proxy
//!   ([`ensure_go_sdk_example`]);
//! - `browser`: playwright-core, which drives the system's Chromium, and
//!   axe-core, the accessibility checker, both from npm ([`ensure_browser`]);
//! - `actionlint`: the GitHub Actions workflow linter, from the Go module
//!   proxy ([`ensure_actionlint`]).
//!
//! The first caller installs a set into a scratch directory that is renamed
//! into place, so concurrent callers never see half an installation.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The pinned Python validator.
pub const PYTHON_JSONSCHEMA: &str = "jsonschema==4.26.0";
/// The pinned Node validator.
pub const NODE_AJV: &str = "ajv@8.20.0";
/// The pinned Python type checker the generated Python package is checked with.
pub const PYTHON_MYPY: &str = "mypy==2.4.0";
/// The pinned msgspec, the optional native decoder of the generated Python
/// package (`cgp-types[fast]`).
pub const PYTHON_MSGSPEC: &str = "msgspec==0.22.0";
/// The pinned pydantic model generator.
pub const PYTHON_DATAMODEL_CODEGEN: &str = "datamodel-code-generator==0.89.0";
/// The pinned JSON Schema to TypeScript generator.
pub const NODE_JSON_SCHEMA_TO_TYPESCRIPT: &str = "json-schema-to-typescript@16.0.0";
/// The pinned JSON Schema to Go generator, from the Go module proxy.
pub const GO_JSONSCHEMA: &str = "github.com/atombender/go-jsonschema@v0.24.1";
/// The pinned quicktype, whose Go output the tests compare with.
pub const NODE_QUICKTYPE: &str = "quicktype@26.0.0";
/// The pinned crate holding the reference provider.
pub const REFERENCE_CONFORMANCE: &str = "contextgraph-conformance";
/// Its version.
pub const REFERENCE_CONFORMANCE_VERSION: &str = "2.0.0";
/// The reference provider's binary, with its `--misbehave` modes.
pub const REFERENCE_PROVIDER: &str = "contextgraph-example-docs";
/// The reference conformance tool's binary.
pub const REFERENCE_INSPECT: &str = "contextgraph-inspect";
/// The pinned Python SDK.
pub const PYTHON_SDK: &str = "contextgraph-sdk==0.1.0";
/// The Go SDK's module, and its first release.
pub const GO_SDK_MODULE: &str = "github.com/macanderson/context-graph-protocol/sdk/go";
/// Its version.
pub const GO_SDK_VERSION: &str = "v0.1.0";
/// The Go SDK's example provider, a package of that module.
pub const GO_SDK_EXAMPLE: &str = "examples/example-docs";
/// The pinned browser driver; the browser is the system's Chromium.
pub const NODE_PLAYWRIGHT_CORE: &str = "playwright-core@1.65.2";
/// The pinned accessibility checker run in that browser.
pub const NODE_AXE_CORE: &str = "axe-core@4.14.1";
/// The pinned workflow linter the Pages workflow is checked with.
pub const GO_ACTIONLINT: &str = "github.com/rhysd/actionlint/cmd/actionlint@v1.7.12";
/// The pinned pre-commit that runs the `cgp-validate` hook in its test.
pub const PYTHON_PRE_COMMIT: &str = "pre-commit==4.2.0";
/// The pinned PEP 517 front end that builds the generated Python package's
/// sdist and wheel (`python -m build`).
pub const PYTHON_BUILD: &str = "build==1.6.1";
/// The pinned twine, whose `twine check` judges both distributions.
pub const PYTHON_TWINE: &str = "twine==7.0.0";
/// The pinned validator of `pyproject.toml` (PEP 621, trove classifiers).
pub const PYTHON_VALIDATE_PYPROJECT: &str = "validate-pyproject[all]==0.27";
/// The pinned setuptools the hook's `pyproject.toml` builds with, offline.
pub const PYTHON_SETUPTOOLS: &str = "setuptools==80.9.0";

/// Where the peers live.
pub fn dir() -> PathBuf {
    std::env::var_os("CGP_PEERS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| cgp_test_support::repo().join("target/peers"))
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

/// The options of README's datamodel-code-generator recipe: strict scalar
/// types (no `"1"` for an integer), defaults that do not admit `null`, and
/// type names from titles (`--input`, `--output` and the bundle not included).
pub const DATAMODEL_CODEGEN_OPTIONS: &[&str] = &[
    "--input-file-type",
    "jsonschema",
    "--output-model-type",
    "pydantic_v2.BaseModel",
    "--strict-types",
    "str",
    "int",
    "float",
    "bool",
    "--strict-nullable",
    "--use-title-as-name",
    "--formatters",
    "builtin",
    "--disable-timestamp",
];

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

/// Installs the pinned packaging tools (build, twine, validate-pyproject) in a
/// virtual environment unless they are there already; returns that
/// environment's `python` (run `-m build`, `-m twine`, `-m validate_pyproject`).
pub fn ensure_packaging_tools() -> Result<PathBuf, String> {
    let venv = |base: &Path| base.join("venv");
    let python = |base: &Path| venv(base).join("bin").join("python");
    let base = install(
        "packaging",
        &format!("{PYTHON_BUILD}\n{PYTHON_TWINE}\n{PYTHON_VALIDATE_PYPROJECT}\n"),
        |scratch| {
            let python = python(scratch).display().to_string();
            vec![
                (
                    "python3".into(),
                    vec![
                        "-m".into(),
                        "venv".into(),
                        venv(scratch).display().to_string(),
                    ],
                ),
                pip_install(&python, &[], PYTHON_BUILD),
                pip_install(&python, &[], PYTHON_TWINE),
                pip_install(&python, &[], PYTHON_VALIDATE_PYPROJECT),
            ]
        },
    )?;
    Ok(python(&base))
}

/// Installs the pinned pre-commit in a virtual environment, and downloads the
/// pinned setuptools wheel beside it, unless they are there already; returns
/// the environment's python (run `python -m pre_commit`) and the directory
/// of wheels for `PIP_FIND_LINKS`.
pub fn ensure_pre_commit() -> Result<(PathBuf, PathBuf), String> {
    let venv = |base: &Path| base.join("venv");
    let python = |base: &Path| venv(base).join("bin").join("python");
    let wheels = |base: &Path| base.join("wheels");
    let base = install(
        "pre-commit",
        &format!("{PYTHON_PRE_COMMIT}\n{PYTHON_SETUPTOOLS}\n"),
        |scratch| {
            let python = python(scratch).display().to_string();
            vec![
                (
                    "python3".into(),
                    vec![
                        "-m".into(),
                        "venv".into(),
                        venv(scratch).display().to_string(),
                    ],
                ),
                pip_install(&python, &[], PYTHON_PRE_COMMIT),
                (
                    python.clone(),
                    [
                        "-m",
                        "pip",
                        "download",
                        "--quiet",
                        "--disable-pip-version-check",
                        "--no-deps",
                        "--only-binary=:all:",
                        "--dest",
                    ]
                    .iter()
                    .map(|arg| (*arg).to_owned())
                    .chain([
                        wheels(scratch).display().to_string(),
                        PYTHON_SETUPTOOLS.to_owned(),
                    ])
                    .collect(),
                ),
            ]
        },
    )?;
    Ok((python(&base), wheels(&base)))
}

/// Installs the pinned mypy unless it is there already; returns the directory
/// to put on `PYTHONPATH` to run it as `python3 -m mypy`.
pub fn ensure_mypy() -> Result<PathBuf, String> {
    let base = install("mypy", &format!("{PYTHON_MYPY}\n"), |scratch| {
        vec![pip_install(
            "python3",
            &["--target", &python_path(scratch).display().to_string()],
            PYTHON_MYPY,
        )]
    })?;
    Ok(python_path(&base))
}

/// Installs the pinned msgspec unless it is there already; returns the
/// directory to put on `PYTHONPATH` so that `cgp_types` takes its fast path.
pub fn ensure_msgspec() -> Result<PathBuf, String> {
    let base = install("msgspec", &format!("{PYTHON_MSGSPEC}\n"), |scratch| {
        vec![pip_install(
            "python3",
            &["--target", &python_path(scratch).display().to_string()],
            PYTHON_MSGSPEC,
        )]
    })?;
    Ok(python_path(&base))
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

/// Installs the pinned playwright-core and axe-core unless they are there
/// already; returns their directory (for [`node_path`]).
pub fn ensure_browser() -> Result<PathBuf, String> {
    install(
        "browser",
        &format!("{NODE_PLAYWRIGHT_CORE}\n{NODE_AXE_CORE}\n"),
        |scratch| vec![npm_install(scratch, &[NODE_PLAYWRIGHT_CORE, NODE_AXE_CORE])],
    )
}

/// Installs the pinned actionlint with `go install` unless it is there
/// already; returns the path of its binary.
pub fn ensure_actionlint() -> Result<PathBuf, String> {
    let go = dir().join("go");
    let base = install("actionlint", &format!("{GO_ACTIONLINT}\n"), |scratch| {
        vec![(
            "env".into(),
            vec![
                format!("GOBIN={}", scratch.join("bin").display()),
                format!("GOPATH={}", go.join("path").display()),
                format!("GOMODCACHE={}", go.join("mod").display()),
                format!("GOCACHE={}", go.join("cache").display()),
                "GOTOOLCHAIN=local".into(),
                "go".into(),
                "install".into(),
                GO_ACTIONLINT.into(),
            ],
        )]
    })?;
    Ok(base.join("bin").join("actionlint"))
}

/// Installs the pinned go-jsonschema and quicktype unless they are there
/// already; returns their directory: `bin/go-jsonschema` and
/// `node/node_modules/.bin/quicktype`.
pub fn ensure_go_generators() -> Result<PathBuf, String> {
    let go = dir().join("go");
    install(
        "go-generators",
        &format!("{GO_JSONSCHEMA}\n{NODE_QUICKTYPE}\n"),
        |scratch| {
            vec![
                (
                    "env".into(),
                    vec![
                        format!("GOBIN={}", scratch.join("bin").display()),
                        format!("GOPATH={}", go.join("path").display()),
                        format!("GOMODCACHE={}", go.join("mod").display()),
                        format!("GOCACHE={}", go.join("cache").display()),
                        "GOTOOLCHAIN=local".into(),
                        "go".into(),
                        "install".into(),
                        GO_JSONSCHEMA.into(),
                    ],
                ),
                npm_install(scratch, &[NODE_QUICKTYPE]),
            ]
        },
    )
}

/// Installs the pinned reference provider and conformance tool with `cargo
/// install --locked` unless they are there already; returns the path of the
/// provider's binary.
pub fn ensure_reference_provider() -> Result<PathBuf, String> {
    Ok(ensure_reference_binaries()?.join(REFERENCE_PROVIDER))
}

/// Like [`ensure_reference_provider`]; returns the path of
/// `contextgraph-inspect`, the reference conformance tool.
pub fn ensure_reference_inspect() -> Result<PathBuf, String> {
    Ok(ensure_reference_binaries()?.join(REFERENCE_INSPECT))
}

/// Installs both binaries of the reference crate; returns their directory.
fn ensure_reference_binaries() -> Result<PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // A build directory of its own: never the one of the `cargo test` that
    // may be running this, whose lock it would wait for.
    let build = dir().join(format!(
        "{REFERENCE_CONFORMANCE}.build-{}",
        std::process::id()
    ));
    let base = install(
        REFERENCE_CONFORMANCE,
        &format!(
            "{REFERENCE_CONFORMANCE}@{REFERENCE_CONFORMANCE_VERSION} {REFERENCE_PROVIDER} {REFERENCE_INSPECT}\n"
        ),
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
                    "--bin".into(),
                    REFERENCE_INSPECT.into(),
                    REFERENCE_CONFORMANCE.into(),
                ],
            )]
        },
    );
    let _ = std::fs::remove_dir_all(&build);
    Ok(base?.join("bin"))
}

/// Installs the pinned Python SDK into a virtual environment unless it is
/// there already; returns that environment's `python`, which imports
/// `contextgraph_sdk`.
pub fn ensure_python_sdk() -> Result<PathBuf, String> {
    let venv = |base: &Path| base.join("venv");
    let python = |base: &Path| venv(base).join("bin").join("python");
    let base = install("python-sdk", &format!("{PYTHON_SDK}\n"), |scratch| {
        vec![
            (
                "python3".into(),
                vec![
                    "-m".into(),
                    "venv".into(),
                    venv(scratch).display().to_string(),
                ],
            ),
            pip_install(&python(scratch).display().to_string(), &[], PYTHON_SDK),
        ]
    })?;
    Ok(python(&base))
}

/// Builds the Go SDK's example provider from the Go module proxy (never
/// straight from the repository) unless it is there already; returns its
/// binary. The error says what the proxy answered: it does not serve the
/// module's first release (`403 Forbidden`, "This module version is not
/// available"), as of this writing.
pub fn ensure_go_sdk_example() -> Result<PathBuf, String> {
    let package = format!("{GO_SDK_MODULE}/{GO_SDK_EXAMPLE}@{GO_SDK_VERSION}");
    let base = install("go-sdk", &format!("{package}\n"), |scratch| {
        vec![(
            "sh".into(),
            vec![
                "-c".into(),
                // A module cache of its own, writable so it can be removed.
                format!(
                    "GOPATH='{root}/gopath' GOBIN='{root}/bin' GOFLAGS=-modcacherw GOPROXY=https://proxy.golang.org GONOSUMDB= go install '{package}' && rm -rf '{root}/gopath'",
                    root = scratch.display()
                ),
            ],
        )]
    })?;
    Ok(base.join("bin").join("example-docs"))
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
    // The tests of one binary run on threads of one process, and the scratch
    // directory is named by the process: one install at a time per process.
    static INSTALLING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one_at_a_time = INSTALLING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
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
