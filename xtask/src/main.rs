//! `cargo xtask`: the maintainer front end. It parses arguments, calls
//! `cgp-codegen` / `cgp-schema`, prints what they return and sets the exit code.
//!
//! - `cargo xtask codegen`: regenerate everything under `generated/`.
//! - `cargo xtask check`: regenerate in memory and fail if `generated/` is stale
//!   or the SPEC.md corpus breaks its expectations. Never writes.
//! - `cargo xtask peers`: install the other-language validators the tests compare
//!   against (Python `jsonschema`, Node Ajv) under `target/peers`.
//! - `cargo xtask test`: `peers`, then `cargo test --workspace`.

use cgp_codegen::output::{self, Drift, RealFileSystem};
use clap::{Parser, Subcommand};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "cargo xtask", about = "cgp-schema maintainer tasks")]
struct Cli {
    /// The repository root (defaults to the workspace this xtask belongs to).
    #[arg(long, global = true)]
    root: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Regenerate everything under generated/ from schema/ and SPEC.md.
    Codegen,
    /// Fail if generated/ is stale or the corpus breaks; never writes.
    Check,
    /// Install Python jsonschema and Node Ajv under target/peers for the tests.
    Peers,
    /// Install the peers, then run every test in the workspace.
    Test,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let root = cli.root.unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .map(PathBuf::from)
            .unwrap_or_default()
    });
    match cli.command {
        Command::Codegen => codegen(&root),
        Command::Check => check(&root),
        Command::Peers => peers(&root),
        Command::Test => match peers(&root) {
            code if code == ExitCode::SUCCESS => cargo_test(&root),
            code => code,
        },
    }
}

/// The peer validators, pinned so every machine compares against the same versions.
const PYTHON_JSONSCHEMA: &str = "jsonschema==4.26.0";
const NODE_AJV: &str = "ajv@8.20.0";

fn peers(root: &std::path::Path) -> ExitCode {
    let base = root.join("target/peers");
    let marker = base.join("installed.txt");
    let wanted = format!("{PYTHON_JSONSCHEMA}\n{NODE_AJV}\n");
    if std::fs::read_to_string(&marker).is_ok_and(|found| found == wanted) {
        println!("peers already installed in {}", base.display());
        return ExitCode::SUCCESS;
    }
    let python = base.join("python");
    let node = base.join("node");
    let steps: [(&str, Vec<String>); 2] = [
        (
            "python3",
            vec![
                "-m".into(),
                "pip".into(),
                "install".into(),
                "--quiet".into(),
                "--disable-pip-version-check".into(),
                "--upgrade".into(),
                "--target".into(),
                python.display().to_string(),
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
                node.display().to_string(),
                NODE_AJV.into(),
            ],
        ),
    ];
    for (program, args) in steps {
        println!("installing: {program} {}", args.join(" "));
        match std::process::Command::new(program).args(&args).status() {
            Ok(status) if status.success() => {}
            Ok(status) => {
                return fail(&format!(
                    "{program} failed ({status}); the peer validator tests need it"
                ));
            }
            Err(error) => {
                return fail(&format!(
                    "cannot run {program}: {error}; install it to run the peer validator tests"
                ));
            }
        }
    }
    if let Err(error) = std::fs::write(&marker, wanted) {
        return fail(&format!("{}: {error}", marker.display()));
    }
    ExitCode::SUCCESS
}

fn cargo_test(root: &std::path::Path) -> ExitCode {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    match std::process::Command::new(cargo)
        .args(["test", "--workspace"])
        .current_dir(root)
        .status()
    {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(error) => fail(&format!("cannot run cargo test: {error}")),
    }
}

fn fail(problems: &impl std::fmt::Display) -> ExitCode {
    eprintln!("{problems}");
    ExitCode::FAILURE
}

fn codegen(root: &std::path::Path) -> ExitCode {
    let generation = match cgp_codegen::generate(root) {
        Ok(generation) => generation,
        Err(problems) => return fail(&problems),
    };
    match output::write(root, &generation.files, &BTreeSet::new(), &RealFileSystem) {
        Ok(report) => {
            for path in &report.written {
                println!("wrote   {path}");
            }
            for path in &report.removed {
                println!("removed {path}");
            }
            println!(
                "{} written, {} removed, {} unchanged ({})",
                report.written.len(),
                report.removed.len(),
                report.unchanged,
                generation.set.version
            );
            ExitCode::SUCCESS
        }
        Err(problem) => fail(&problem),
    }
}

/// The outcome of one gate of `check`: a one-line summary when it holds, the
/// problems when it does not.
type GateResult = Result<String, Vec<String>>;

fn check(root: &std::path::Path) -> ExitCode {
    let generation = match cgp_codegen::generate(root) {
        Ok(generation) => generation,
        Err(problems) => return fail(&problems),
    };
    let gates: Vec<(&str, GateResult)> = vec![
        (
            "corpus",
            Ok(format!(
                "{} SPEC.md examples hold under both profiles",
                generation.examples.len()
            )),
        ),
        ("generated", generated_gate(root, &generation)),
    ];
    let mut failed = false;
    for (name, result) in gates {
        match result {
            Ok(summary) => println!("ok   {name}: {summary}"),
            Err(problems) => {
                failed = true;
                for problem in problems {
                    eprintln!("{problem}");
                }
                eprintln!("FAIL {name}");
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// `generated/` must be exactly what `schema/` and SPEC.md produce.
fn generated_gate(root: &std::path::Path, generation: &cgp_codegen::Generation) -> GateResult {
    let drifts = output::compare(root, &generation.files, &BTreeSet::new())
        .map_err(|problem| vec![problem.to_string()])?;
    if drifts.is_empty() {
        return Ok(format!(
            "{} generated files are current ({})",
            generation.files.len(),
            generation.set.version
        ));
    }
    let mut problems: Vec<String> = drifts
        .iter()
        .map(|drift| match drift {
            Drift::Missing(path) => format!("{path}: missing"),
            Drift::Extra(path) => format!("{path}: stale, no source generates it any more"),
            Drift::Changed { path, diff } => format!("{path}: out of date\n{diff}"),
        })
        .collect();
    problems.push(format!(
        "{} generated file(s) differ from what schema/ and SPEC.md produce; run `cargo xtask codegen` and commit the result",
        drifts.len()
    ));
    Err(problems)
}
