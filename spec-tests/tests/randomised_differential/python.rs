//! The generated Python package with msgspec installed (its fast decoder) on
//! the generated and mutated lines and the `f32` lines of the TypeScript
//! module: the reference decoder's verdict on every line, byte-identical
//! re-encoding of every line it accepts, and, line by line, the same value,
//! bytes and message from the fast paths as from the exact ones (the
//! round-trip script compares them). Without msgspec the same package reads
//! the generated lines in `main.rs`.

use super::compare::compare;
use super::typescript::f32_lines;

/// `lines` and the `f32` lines through the Python package with msgspec: the
/// reference's verdict on every line and its bytes for every line it accepts.
pub(super) fn agrees_with_the_reference(lines: &[String]) {
    let msgspec = spec_tests::peers::ensure_msgspec().unwrap_or_else(|problem| panic!("{problem}"));
    let mut lines = lines.to_vec();
    lines.extend(f32_lines());
    let cases: Vec<(String, String)> = lines
        .iter()
        .map(|line| ("Envelope".to_owned(), line.clone()))
        .collect();
    let (outcomes, fast) = spec_tests::python_package::round_trips_with(&cases, Some(&msgspec))
        .unwrap_or_else(|problem| panic!("{problem}"));
    // A mutation can push an f32 beyond the binary32 range: the reference
    // writes `null`, the package refuses (its README says so;
    // `python_package.rs` tests it).
    let out_of_range = |reference: &spec_tests::Outcome, ours: &spec_tests::Outcome| matches!((reference, ours), (Ok(a), Err(b)) if a.contains("null") && b.contains("non-finite"));
    compare("cgp_types", &lines, &outcomes, out_of_range).assert_no_line_differs(20);
    assert!(
        fast > lines.len() / 3,
        "the fast path decoded only {fast} of {} lines",
        lines.len()
    );
}
