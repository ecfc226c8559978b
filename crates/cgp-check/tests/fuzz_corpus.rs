//! Replays the committed fuzz corpus (fuzz/corpus/<target>/) through the fuzz
//! targets' bodies (fuzz/src/lib.rs) on stable Rust, so every input the fuzzer
//! kept — every crash it found included — runs in every `cargo test`.

#[path = "../../../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod targets;

use cgp_test_support::repo;
use std::path::PathBuf;

fn replay(target: &str, run: impl Fn(&[u8])) {
    let dir = repo().join("fuzz/corpus").join(target);
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| entry.expect("entry").path())
        .collect();
    entries.sort();
    assert!(!entries.is_empty(), "{} is empty", dir.display());
    for path in entries {
        let data = std::fs::read(&path).expect("corpus file");
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(&data)));
        assert!(outcome.is_ok(), "{target}: {} fails", path.display());
    }
}

#[test]
fn line_decoder_corpus() {
    replay("line_decoder", targets::line_decoder);
}

#[test]
fn validate_corpus() {
    replay("validate", targets::validate);
}

/// The single-pass target's own corpus, and the lines of the other message
/// targets' corpora, which the fuzzer grew on the same code paths.
#[test]
fn single_pass_corpus() {
    for corpus in ["single_pass", "validate", "line_decoder"] {
        replay(corpus, targets::single_pass);
    }
}

#[test]
fn bundle_corpus() {
    let root = repo();
    replay("bundle", |data| targets::bundle(&root, data));
}

#[test]
fn classify_corpus() {
    replay("classify", targets::classify);
}
