//! The latency `cgp proxy` adds per line, without the rest of `cargo xtask
//! bench`: `cargo run --release -p cgp-bench --example proxy_latency -- <path
//! of a release cgp> [round trips]`. Prints the table for BENCHMARKS.md.

use std::path::PathBuf;

fn main() -> std::process::ExitCode {
    let mut args = std::env::args_os().skip(1);
    let Some(cgp) = args.next().map(PathBuf::from) else {
        eprintln!("usage: proxy_latency <cgp binary> [round trips]");
        return std::process::ExitCode::from(2);
    };
    let count = args
        .next()
        .and_then(|count| count.to_str()?.parse().ok())
        .unwrap_or(5000);
    println!(
        "| Line | `cat` p50 / p99 | through `cgp proxy` p50 / p99 | added per pass p50 / p99 |"
    );
    println!("|---|---|---|---|");
    for bytes in [200, 1024, 4000, 64 * 1024] {
        match cgp_bench::proxy::proxy_latency(&cgp, bytes, count) {
            Ok(run) => println!(
                "| {bytes} B | {:.1} / {:.1} µs | {:.1} / {:.1} µs | {:.1} / {:.1} µs |",
                micros(run.direct.quantile(0.5)),
                micros(run.direct.quantile(0.99)),
                micros(run.proxied.quantile(0.5)),
                micros(run.proxied.quantile(0.99)),
                micros(run.added(0.5)),
                micros(run.added(0.99)),
            ),
            Err(problem) => {
                eprintln!("proxy_latency: {problem}");
                return std::process::ExitCode::FAILURE;
            }
        }
    }
    std::process::ExitCode::SUCCESS
}

fn micros(duration: std::time::Duration) -> f64 {
    duration.as_secs_f64() * 1e6
}
