//! `generated/` is committed; this test fails when it is stale, the way
//! rust-analyzer's codegen tests do. The fix is `cargo xtask codegen`.

use cgp_codegen::output;
use std::path::Path;

#[test]
fn generated_files_match_schema_and_spec() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let generation = cgp_codegen::generate(&root).unwrap_or_else(|problems| panic!("{problems}"));
    assert!(
        generation.corpus_failures.is_empty(),
        "{:?}",
        generation.corpus_failures
    );
    let drifts = output::compare(&root, &generation.files, &generation.foreign).expect("compare");
    let listed: Vec<String> = drifts.iter().map(|drift| format!("{drift:?}")).collect();
    assert!(
        drifts.is_empty(),
        "generated/ is stale; run `cargo xtask codegen` and commit:\n{}",
        listed.join("\n")
    );
}
