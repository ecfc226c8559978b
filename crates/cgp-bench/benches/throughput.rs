//! `cargo xtask bench` runs this (release build): validation throughput next to
//! the parse it sits on, the decoders and the peer validators, and codegen and
//! check on growing schemas; prints the table and, with `--out`, writes it.
//!
//! ```sh
//! cargo bench -p cgp-bench --bench throughput -- [--size-mb 100] [--seed 1]
//!     [--rounds 5] [--python-mb 10] [--cgp PATH] [--xtask PATH] [--no-peers]
//!     [--schema-factors 1,10,100] [--work DIR] [--out BENCHMARKS.md]
//! ```
//!
//! Relative paths are taken from the repository root (`cargo bench` runs this
//! in `crates/cgp-bench/`). The measuring is in `cgp_bench`; this file parses
//! arguments and hands in the decoders of the dev-dependencies (the generated
//! and reference crates).

use cgp_bench::{self as bench, Config, Decoders};
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(problem) => {
            eprintln!("bench: {problem}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let repo = cgp_test_support::repo();
    let mut config = Config {
        work: repo.join("target/bench"),
        repo,
        transcript_bytes: 100 << 20,
        seed: 1,
        rounds: 5,
        python_bytes: 10_000_000,
        cgp: None,
        xtask: None,
        peers: None,
        schema_factors: vec![1, 10, 100],
    };
    let mut peers = true;
    let mut out = None;
    let root = config.repo.clone();
    let path = |text: String| root.join(text);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            // `cargo bench` passes `--bench` to every bench target.
            "--bench" => {}
            "--size-mb" => config.transcript_bytes = number(&value()?)? << 20,
            "--seed" => config.seed = number(&value()?)?,
            "--rounds" => config.rounds = number(&value()?)? as usize,
            "--python-mb" => config.python_bytes = number(&value()?)? * 1_000_000,
            "--cgp" => config.cgp = Some(path(value()?)),
            "--xtask" => config.xtask = Some(path(value()?)),
            "--work" => config.work = path(value()?),
            "--out" => out = Some(path(value()?)),
            "--no-peers" => peers = false,
            "--schema-factors" => {
                config.schema_factors = value()?
                    .split(',')
                    .map(|factor| number(factor).map(|f| f as usize))
                    .collect::<Result<_, _>>()?;
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if peers {
        config.peers = Some(spec_tests::peers::ensure_installed()?);
    }
    let decoders = Decoders {
        generated: bench::decoder(|text: &str| {
            serde_json::from_str::<cgp_generated::Envelope>(text)
        }),
        reference: bench::decoder(contextgraph_host::wire::decode_line),
        reference_version: contextgraph_host::PROTOCOL_VERSION.into(),
    };
    eprintln!(
        "bench: {} MiB transcript, {} rounds; this takes a few minutes",
        config.transcript_bytes >> 20,
        config.rounds
    );
    let report = bench::run(&config, decoders)?;
    let markdown = report.render();
    println!("{markdown}");
    if let Some(path) = out {
        let previous = std::fs::read_to_string(&path).ok();
        let markdown = bench::with_notes(&markdown, previous.as_deref());
        std::fs::write(&path, &markdown).map_err(|error| format!("{}: {error}", path.display()))?;
        eprintln!("bench: wrote {}", path.display());
    }
    Ok(())
}

fn number(text: &str) -> Result<u64, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a whole number"))
}
