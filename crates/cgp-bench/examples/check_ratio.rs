//! Times `cgp check` beside `contextgraph-inspect` alone, without the rest of
//! `cargo xtask bench`: `cargo run --release -p cgp-bench --example
//! check_ratio -- <path of a release cgp> [rounds]`. Prints the table the
//! bench writes to BENCHMARKS.md.

use std::path::PathBuf;

fn main() -> std::process::ExitCode {
    let mut args = std::env::args_os().skip(1);
    let Some(cgp) = args.next().map(PathBuf::from) else {
        eprintln!("usage: check_ratio <cgp binary> [rounds]");
        return std::process::ExitCode::from(2);
    };
    let rounds = args
        .next()
        .and_then(|rounds| rounds.to_str()?.parse().ok())
        .unwrap_or(5);
    let repo = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    match cgp_bench::checks::check_vs_inspect(&repo, &cgp, rounds) {
        Ok(runs) => {
            println!("| Provider | `cgp check` | `contextgraph-inspect` | ratio |");
            println!("|---|---|---|---|");
            for run in &runs {
                println!(
                    "| {} | {:.3} s | {:.3} s | {:.2} |",
                    run.provider,
                    run.cgp_seconds,
                    run.inspect_seconds,
                    run.ratio()
                );
            }
            std::process::ExitCode::SUCCESS
        }
        Err(problem) => {
            eprintln!("check_ratio: {problem}");
            std::process::ExitCode::FAILURE
        }
    }
}
