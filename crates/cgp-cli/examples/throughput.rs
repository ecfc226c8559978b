//! Throughput of `cgp validate` against a plain `serde_json` parse of the same
//! lines.
//!
//! ```sh
//! cargo run --release -p cgp-cli --example throughput -- generate big.ndjson 1024
//! cargo run --release -p cgp-cli --example throughput -- parse big.ndjson
//! time target/release/cgp validate big.ndjson
//! ```
//!
//! `generate` writes about SIZE MiB of the reproducible synthetic transcript of
//! `spec_tests::transcript` (valid under both profiles and the semantic rules).
//! `parse` reads the lines with the line reader `cgp validate` uses and parses
//! each into a `serde_json::Value`: the baseline.

use cgp_schema::transcript::{Line, LineReader};
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["generate", path, size] => generate(path, size),
        ["parse", path] => parse(path),
        _ => {
            eprintln!("usage: throughput generate PATH SIZE_MIB | throughput parse PATH");
            std::process::exit(2);
        }
    }
}

fn generate(path: &str, size: &str) {
    let mib: u64 = size.parse().expect("SIZE in MiB");
    let mut out = BufWriter::new(File::create(path).expect("create"));
    let stats = spec_tests::transcript::write(&mut out, mib << 20, 1).expect("write");
    out.flush().expect("flush");
    eprintln!("{stats:?}");
}

fn parse(path: &str) {
    let file = File::open(path).expect("open");
    let mut reader = LineReader::new(BufReader::with_capacity(1 << 16, file));
    let start = Instant::now();
    let (mut lines, mut bytes, mut objects) = (0u64, 0u64, 0u64);
    while let Some(line) = reader.next_line().expect("read") {
        if let Line::Message { bytes: text, .. } = line {
            lines += 1;
            bytes += text.len() as u64 + 1;
            if let Ok(value) = serde_json::from_slice::<serde_json::Value>(text) {
                objects += u64::from(value.is_object());
            }
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    let mib = bytes as f64 / f64::from(1 << 20);
    println!(
        "serde_json parse: {lines} lines ({objects} objects), {mib:.1} MiB in {seconds:.2} s: {:.1} MiB/s",
        mib / seconds
    );
}
