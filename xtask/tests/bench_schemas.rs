//! The schema half of `cargo xtask bench` on this binary: codegen and check on
//! the real tree and on a synthetic one twice its size. No timing is judged.

use cgp_bench as bench;

#[test]
fn codegen_and_check_run_on_the_real_and_a_scaled_schema() {
    let work = std::env::temp_dir().join(format!("cgp-xtask-bench-{}", std::process::id()));
    let runs = bench::schema_scaling(
        &spec_tests::repo_root(),
        &work,
        std::path::Path::new(env!("CARGO_BIN_EXE_xtask")),
        &[1, 2],
        1,
    )
    .expect("codegen runs on both trees");
    let _ = std::fs::remove_dir_all(&work);
    assert_eq!(runs.len(), 2);
    let (real, double) = (&runs[0], &runs[1]);
    assert!(real.check_passed, "check passes on a copy of the real tree");
    // The copies are unknown to the hand-written types, so the sync gate fails.
    assert!(!double.check_passed);
    assert_eq!(double.files, 1 + (real.files - 1) * 2);
    assert!(real.codegen > 0.0 && double.check > 0.0);
}
