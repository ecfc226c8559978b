//! The schema half of `cargo xtask bench` on this binary: codegen and check on
//! the real tree and on a synthetic one twice its size. No timing is judged.

use cgp_bench as bench;

#[test]
fn codegen_and_check_run_on_the_real_and_a_scaled_schema() {
    let work_scratch = cgp_test_support::Scratch::new("xtask-bench");
    let work = work_scratch.path().to_path_buf();
    let runs = bench::schema_scaling(
        &cgp_test_support::repo(),
        &work,
        std::path::Path::new(env!("CARGO_BIN_EXE_xtask")),
        &[1, 2],
        1,
    )
    .expect("codegen runs on both trees");
    assert_eq!(runs.len(), 2);
    let (real, double) = (&runs[0], &runs[1]);
    assert_eq!(
        real.failed_gates,
        Vec::<String>::new(),
        "check passes on a copy of the real tree"
    );
    // The scaled tree is schemas, SPEC.md, CHANGELOG.md and the hand-written
    // types only, and its copies have neither hand-written types nor corpus
    // examples. Exactly the gates that need what it lacks fail; every other
    // gate passes on it.
    assert_eq!(
        double.failed_gates,
        ["sync", "coverage", "links", "changelog", "home"],
        "sync: no Rust types for the copies; coverage: no examples of them; \
         links: no README.md or ARCHITECTURE.md; changelog: no release manifest; \
         home: no README.md"
    );
    assert_eq!(double.files, 1 + (real.files - 1) * 2);
}
