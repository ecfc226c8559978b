//! `cargo xtask`: the maintainer front end. It parses arguments, calls
//! `cgp-codegen` / `cgp-schema`, prints what they return and sets the exit code.
//!
//! - `cargo xtask codegen`: regenerate everything under `generated/`.
//! - `cargo xtask check`: regenerate in memory and fail if `generated/` is stale
//!   or the SPEC.md corpus breaks its expectations. Never writes.

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

fn check(root: &std::path::Path) -> ExitCode {
    let generation = match cgp_codegen::generate(root) {
        Ok(generation) => generation,
        Err(problems) => return fail(&problems),
    };
    let drifts = match output::compare(root, &generation.files, &BTreeSet::new()) {
        Ok(drifts) => drifts,
        Err(problem) => return fail(&problem),
    };
    if drifts.is_empty() {
        println!(
            "ok: {} generated files are current; {} corpus examples hold under both profiles ({})",
            generation.files.len(),
            generation.examples.len(),
            generation.set.version
        );
        return ExitCode::SUCCESS;
    }
    for drift in &drifts {
        match drift {
            Drift::Missing(path) => eprintln!("{path}: missing"),
            Drift::Extra(path) => eprintln!("{path}: stale, no source generates it any more"),
            Drift::Changed { path, diff } => eprintln!("{path}: out of date\n{diff}"),
        }
    }
    eprintln!(
        "{} generated file(s) differ from what schema/ and SPEC.md produce; run `cargo xtask codegen` and commit the result",
        drifts.len()
    );
    ExitCode::FAILURE
}
