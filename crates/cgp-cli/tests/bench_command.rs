//! The `cgp validate` half of `cargo xtask bench`, on this binary and a small
//! transcript: every line passes with one job and with two, in every format.
//! No timing is judged.

use cgp_bench::{self as bench, CliFormat, Corpus};

#[test]
fn the_bench_times_cgp_validate_with_one_and_two_jobs() {
    let mut text = Vec::new();
    cgp_bench::transcript::write(&mut text, 300_000, 5).expect("transcript");
    let path_scratch = cgp_test_support::Scratch::new("bench-cli");
    let path = path_scratch.join("transcript.ndjson");
    std::fs::write(&path, &text).expect("write transcript");
    let corpus = Corpus::new(text);
    let cgp = std::path::Path::new(env!("CARGO_BIN_EXE_cgp"));
    for &format in CliFormat::ALL {
        for jobs in [1, 2] {
            let figure =
                bench::cgp_validate(cgp, jobs, format, &path, &corpus, 1).expect("cgp validate");
            assert_eq!(figure.lines, corpus.line_count());
            assert!(figure.seconds > 0.0);
        }
    }
}
