//! `cargo xtask`: the maintainer front end. It parses arguments, calls
//! `cgp-codegen` (the plan, the gates, the release decisions of
//! `cgp_codegen::gates::releasing`), `cgp-dist` and the spec tests' installers,
//! prints what they return and sets the exit code.
//!
//! - `cargo xtask codegen`: regenerate everything under `generated/`.
//! - `cargo xtask check`: regenerate in memory and fail if `generated/` is stale
//!   or the SPEC.md corpus breaks its expectations, a released bundle changed, or
//!   the schemas changed without the protocol version bump they need. Never writes.
//! - `cargo xtask release`: freeze the working version's bundles in
//!   `generated/schema/releases.json` (only when every gate of `check` passes),
//!   or re-issue them when it is released and codegen now writes other bytes
//!   that judge the wire the same (`cgp_gates::reissue`). `--version V --from
//!   DIR` re-issues an older released version from a checkout of the tree that
//!   released it, with the same proof on that version's corpus.
//! - `cargo xtask set-version <version>`: declare another protocol version in
//!   `schema/` (a new major family also rewrites every `$id` and `x-cgp-since`).
//! - `cargo xtask package [-- <cargo package options>]`: `cargo package` every
//!   workspace crate whose manifest allows publishing (cargo's own `cargo package
//!   --workspace` also takes the `publish = false` tooling crates).
//! - `cargo xtask peers`: install the other-language validators the tests compare
//!   against (Python `jsonschema`, Node Ajv) under `target/peers`.
//! - `cargo xtask site [--out DIR]`: the protocol's site, `target/site/` by
//!   default (`cgp_codegen::site`).
//! - `cargo xtask test [--all]`: the fast test tier (`cargo test --workspace`);
//!   with `--all` the full tier too (the tests marked `#[ignore = "full tier"]`:
//!   peer installs, packaging, rehearsals, other toolchains) and then `check`.
//!   CI and README's test command run `--all`.
//! - `cargo xtask bench`: build `cgp` in release, then run the throughput bench
//!   (`crates/cgp-bench/benches/throughput.rs`), which measures, prints the table and
//!   writes `BENCHMARKS.md`. This binary is what it times codegen and check with.

use cgp_codegen::gates::releasing::{self, ChangelogStep, Released};
use cgp_codegen::gates::{Contracts, Gate, GateResult};
use cgp_codegen::output::{self, RealFileSystem};
use clap::{Parser, Subcommand};
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
    /// Build the protocol's site into target/site (or --out): the reference
    /// of every version, the rules, the changes, the conversation, SPEC.md and
    /// the guides under docs/, with its search index.
    Site {
        /// Where to write it (default: target/site under the root).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Install Python jsonschema, Node Ajv and the reference provider under
    /// target/peers for the tests.
    Peers,
    /// Freeze the working version's bundles in generated/schema/releases.json,
    /// or re-issue a released version's bundles under the same verdicts.
    Release {
        /// The released version to re-issue (default: the working version).
        #[arg(long)]
        version: Option<String>,
        /// For an older version: a checkout of the tree that released it, whose
        /// schema/ and SPEC.md the current bundler re-issues it from.
        #[arg(long)]
        from: Option<PathBuf>,
    },
    /// `cargo package` every crate whose manifest allows publishing.
    Package {
        /// Passed on to `cargo package` (e.g. `--allow-dirty`, `--list`).
        #[arg(last = true)]
        options: Vec<String>,
    },
    /// Build a release cgp and pack it into target/dist: a Python wheel and
    /// npm packages (launcher and this platform's), with the man page and
    /// completions.
    Dist,
    /// Declare another protocol version in schema/, `<name>/<major>.<minor>`.
    SetVersion {
        /// The new version, `<name>/<major>.<minor>`.
        version: String,
    },
    /// Run the tests: the fast tier, or with --all every tier and then the
    /// gates of `check`.
    Test {
        /// Also run the full tier (tests marked `#[ignore = "full tier"]`) and
        /// `cargo xtask check`.
        #[arg(long)]
        all: bool,
        /// Passed on to `cargo test` before `--` (e.g. `-p cgp-cli`).
        #[arg(last = true)]
        options: Vec<String>,
    },
    /// Measure validation, the decoders, the peers, codegen and check (release
    /// build) and write BENCHMARKS.md.
    Bench {
        /// The transcript's size, in MiB.
        #[arg(long, default_value = "100")]
        size_mb: u64,
        /// Rounds per figure (the best counts).
        #[arg(long, default_value = "5")]
        rounds: u64,
        /// The prefix of the transcript Python jsonschema validates, in MB.
        #[arg(long, default_value = "10")]
        python_mb: u64,
        /// Schema sizes to time codegen and check on, as multiples of the real one.
        #[arg(long, default_value = "1,10,100")]
        schema_factors: String,
        /// Where to write the table (relative to the root); `-` writes nothing.
        #[arg(long, default_value = "BENCHMARKS.md")]
        out: String,
    },
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
        Command::Site { out } => site(&root, out),
        Command::Peers => peers(),
        Command::Release { version, from } => match version {
            None if from.is_some() => fail(&"--from needs the --version it re-issues"),
            version => release(&root, version.as_deref(), from.as_deref()),
        },
        Command::Package { options } => package(&root, &options),
        Command::SetVersion { version } => set_version(&root, &version),
        Command::Test { all, options } => test(&root, all, &options),
        Command::Dist => match cgp_dist::dist(&root) {
            Ok(written) => {
                for path in written {
                    println!("{}", path.display());
                }
                ExitCode::SUCCESS
            }
            Err(problem) => fail(&problem),
        },
        Command::Bench {
            size_mb,
            rounds,
            python_mb,
            schema_factors,
            out,
        } => bench(
            &root,
            &[
                ("--size-mb", size_mb.to_string()),
                ("--rounds", rounds.to_string()),
                ("--python-mb", python_mb.to_string()),
                ("--schema-factors", schema_factors),
            ],
            &out,
        ),
    }
}

/// `cargo xtask bench`: orchestration only. The measuring lives in
/// `cgp_bench`, run by the `throughput` bench target, which has the
/// reference crates (dev-dependencies) and a release build.
fn bench(root: &std::path::Path, options: &[(&str, String)], out: &str) -> ExitCode {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let xtask = match std::env::current_exe() {
        Ok(path) => path,
        Err(error) => return fail(&format!("cannot find the xtask binary: {error}")),
    };
    let build = std::process::Command::new(&cargo)
        .args(["build", "--release", "--quiet", "-p", "cgp-cli"])
        .current_dir(root)
        .status();
    match build {
        Ok(status) if status.success() => {}
        Ok(_) => return fail(&"cargo build --release -p cgp-cli failed"),
        Err(error) => return fail(&format!("cannot run cargo: {error}")),
    }
    let mut bench = std::process::Command::new(&cargo);
    bench
        .args([
            "bench",
            "--quiet",
            "-p",
            "cgp-bench",
            "--bench",
            "throughput",
            "--",
        ])
        .arg("--cgp")
        .arg(root.join("target/release/cgp"))
        .arg("--xtask")
        .arg(xtask)
        .arg("--work")
        .arg(root.join("target/bench"));
    for (flag, value) in options {
        bench.arg(flag).arg(value);
    }
    if out != "-" {
        bench.arg("--out").arg(root.join(out));
    }
    match bench.current_dir(root).status() {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        Ok(_) => fail(&"the throughput bench failed"),
        Err(error) => fail(&format!("cannot run cargo bench: {error}")),
    }
}

/// `cargo xtask test`: `cargo test --workspace`, and with `all` the ignored
/// (full-tier) tests as well, followed by the gates of `check`.
fn test(root: &std::path::Path, all: bool, options: &[String]) -> ExitCode {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut tests = std::process::Command::new(&cargo);
    tests.args(["test", "--workspace"]).args(options);
    if all {
        tests.args(["--", "--include-ignored"]);
    }
    match tests.current_dir(root).status() {
        Ok(status) if status.success() => {}
        Ok(_) => return fail(&"cargo test failed"),
        Err(error) => return fail(&format!("cannot run cargo: {error}")),
    }
    if all { check(root) } else { ExitCode::SUCCESS }
}

/// `cargo xtask package`: `cargo package -p` each workspace crate that
/// allows publishing (`cgp_dist::package`).
fn package(root: &std::path::Path, options: &[String]) -> ExitCode {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    match cgp_dist::package::package(root, &cargo, options) {
        Ok(_) => ExitCode::SUCCESS,
        Err(problem) => fail(&problem),
    }
}

fn peers() -> ExitCode {
    use spec_tests::peers;
    let installed = peers::ensure_installed().and_then(|base| {
        Ok((
            base,
            peers::ensure_reference_provider()?,
            peers::ensure_typescript()?,
        ))
    });
    match installed {
        Ok((base, provider, typescript)) => {
            println!(
                "peers installed: {} and {} in {}, {}@{} as {}, typescript {} and {} in {}",
                peers::PYTHON_JSONSCHEMA,
                peers::NODE_AJV,
                base.display(),
                peers::REFERENCE_CONFORMANCE,
                peers::REFERENCE_CONFORMANCE_VERSION,
                provider.display(),
                cgp_codegen::typescript::TYPESCRIPT_VERSION,
                peers::NODE_JSON_SCHEMA_TO_TYPESCRIPT,
                typescript.display()
            );
            ExitCode::SUCCESS
        }
        Err(problem) => fail(&problem),
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
    if !generation.corpus_failures.is_empty() {
        let problems = cgp_schema::Diagnostics(generation.corpus_failures);
        eprintln!("{problems}");
        return fail(&"the SPEC.md corpus does not hold; nothing was written (the docs embed it)");
    }
    let overwrites =
        cgp_codegen::gates::release::overwrites(&generation.releases, &generation.files);
    if !overwrites.is_empty() {
        for problem in &overwrites {
            eprintln!("{problem}");
        }
        return fail(&format!(
            "{} is released and frozen; nothing was written. Declare a newer version in schema/ (`cargo xtask check` names the bump the changes need), or, if the wire is unchanged (a bundler fix), re-issue it with `cargo xtask release`",
            generation.set.version
        ));
    }
    match output::write(
        root,
        &generation.files,
        &generation.foreign,
        &RealFileSystem,
    ) {
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

fn site(root: &std::path::Path, out: Option<PathBuf>) -> ExitCode {
    let generation = match cgp_codegen::generate(root) {
        Ok(generation) => generation,
        Err(problems) => return fail(&problems),
    };
    let files = match cgp_codegen::site::build(root, &generation) {
        Ok(files) => files,
        Err(problems) => return fail(&problems),
    };
    let dir = out.unwrap_or_else(|| root.join(cgp_codegen::site::SITE_DIR));
    match cgp_codegen::site::write(&dir, &files) {
        Ok(()) => {
            println!("wrote {} files to {}", files.len(), dir.display());
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
    if gates_hold(root, &generation, &Gate::ALL) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The schemars contracts of the hand-written types this binary compiles,
/// which the sync gate compares with the bundles.
fn contracts() -> (serde_json::Value, serde_json::Value) {
    (
        cgp_types::schema_support::deserialize_contract(),
        cgp_types::schema_support::serialize_contract(),
    )
}

/// Runs `gates` and prints each outcome; returns whether all of them hold.
fn gates_hold(
    root: &std::path::Path,
    generation: &cgp_codegen::Generation,
    gates: &[Gate],
) -> bool {
    let (deserialize, serialize) = contracts();
    let contracts = Contracts {
        deserialize: &deserialize,
        serialize: &serialize,
    };
    print_gates(&cgp_codegen::gates::run(root, generation, contracts, gates))
}

/// Prints each gate's outcome; returns whether all of them hold.
fn print_gates(results: &[(Gate, GateResult)]) -> bool {
    let mut held = true;
    for (gate, result) in results {
        match result {
            Ok(summary) => println!("ok   {gate}: {summary}"),
            Err(problems) => {
                held = false;
                for problem in problems {
                    eprintln!("{problem}");
                }
                eprintln!("FAIL {gate}");
            }
        }
    }
    held
}

/// `cargo xtask release [--version V [--from DIR]]`: the decision is
/// `cgp_codegen::gates::releasing`'s; this prints it.
fn release(
    root: &std::path::Path,
    version: Option<&str>,
    from: Option<&std::path::Path>,
) -> ExitCode {
    let (deserialize, serialize) = contracts();
    let contracts = Contracts {
        deserialize: &deserialize,
        serialize: &serialize,
    };
    let attempt = match version {
        None => releasing::release(root, contracts),
        Some(version) => match version.parse::<cgp_schema::ProtocolVersion>() {
            Ok(version) => releasing::release_version(root, &version, from, contracts),
            Err(error) => return fail(&error),
        },
    };
    print_gates(&attempt.gates);
    match attempt.outcome {
        Ok(released) => print_released(&released),
        Err(refusal) => fail(&refusal),
    }
}

/// Prints what a release wrote, and what to commit.
fn print_released(released: &Released) -> ExitCode {
    let manifest = cgp_codegen::plan::MANIFEST_PATH;
    match released {
        Released::Released { version, changelog } => {
            println!(
                "released {version}: {manifest} records the SHA-256 of its bundles; commit it"
            );
            print_changelog(version, changelog)
        }
        Released::Unchanged {
            version,
            changelog: ChangelogStep::Present,
        } => {
            println!("{version} is already released with exactly these bundles; nothing to do");
            ExitCode::SUCCESS
        }
        Released::Unchanged { version, changelog } => {
            println!("{version} is already released with exactly these bundles");
            print_changelog(version, changelog)
        }
        Released::Reissued {
            version,
            changed,
            evidence,
            from,
        } => {
            for path in changed {
                println!("re-issued {path}");
            }
            let of = from
                .as_ref()
                .map(|from| format!(" of {}", from.display()))
                .unwrap_or_default();
            println!(
                "re-issued {version}: the same verdicts under both profiles on {} SPEC.md examples{of} and {} randomised envelopes, and no change the classifier sees; {manifest} keeps the earlier digests; commit it",
                evidence.examples, evidence.random_cases,
            );
            ExitCode::SUCCESS
        }
    }
}

/// Prints what became of a released version's CHANGELOG.md section.
fn print_changelog(version: &cgp_schema::ProtocolVersion, step: &ChangelogStep) -> ExitCode {
    match step {
        ChangelogStep::Present => ExitCode::SUCCESS,
        ChangelogStep::Added => {
            let file = cgp_report::changelog::CHANGELOG_FILE;
            println!("{file}: added the section of {version}; commit it");
            ExitCode::SUCCESS
        }
        ChangelogStep::Failed(problems) => fail(problems),
    }
}

/// `cargo xtask set-version <version>`: rewrites the version the schemas declare.
fn set_version(root: &std::path::Path, version: &str) -> ExitCode {
    let version: cgp_schema::ProtocolVersion = match version.parse() {
        Ok(version) => version,
        Err(error) => return fail(&error),
    };
    let written = match cgp_codegen::gates::release::set_version(root, &version) {
        Ok(written) => written,
        Err(problem) => return fail(&problem),
    };
    for path in &written {
        println!("wrote   {path}");
    }
    println!(
        "schema/ declares {version} ({} files changed); run `cargo xtask codegen`, then `cargo xtask check`",
        written.len()
    );
    ExitCode::SUCCESS
}
