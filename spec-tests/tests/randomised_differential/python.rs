//! The generated Python package with msgspec installed (its fast decoder) on
//! the generated and mutated lines and the `f32` lines of the TypeScript
//! module: the reference decoder's verdict on every line, byte-identical
//! re-encoding of every line it accepts, and, line by line, the same value,
//! bytes and message from the fast paths as from the exact ones (the
//! round-trip script compares them). Without msgspec the same package reads
//! the generated lines in `main.rs`.

use super::support;
use super::typescript::{f32_lines, generated_and_mutated_lines};

#[test]
#[ignore = "full tier"]
fn with_msgspec_the_python_package_agrees_with_the_reference_on_generated_and_mutated_lines() {
    let msgspec = spec_tests::peers::ensure_msgspec().unwrap_or_else(|problem| panic!("{problem}"));
    let mut lines = generated_and_mutated_lines();
    lines.extend(f32_lines());
    let cases: Vec<(String, String)> = lines
        .iter()
        .map(|line| ("Envelope".to_owned(), line.clone()))
        .collect();
    let (outcomes, fast) = spec_tests::python_package::round_trips_with(&cases, Some(&msgspec))
        .unwrap_or_else(|problem| panic!("{problem}"));
    let mut failures = Vec::new();
    for (line, ours) in lines.iter().zip(&outcomes) {
        let reference = support::reference("Envelope", line).expect("known target");
        match (&reference, ours) {
            (Ok(a), Ok(b)) if a == b => {}
            (Err(_), Err(_)) => {}
            // A mutation can push an f32 beyond the binary32 range: the
            // reference writes `null`, the package refuses (its README says
            // so; `python_package.rs` tests it).
            (Ok(a), Err(b)) if a.contains("null") && b.contains("non-finite") => {}
            _ => failures.push(format!(
                "{line}\n  reference: {reference:?}\n  cgp_types: {ours:?}"
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} lines differ:\n{}",
        failures.len(),
        lines.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        fast > lines.len() / 3,
        "the fast path decoded only {fast} of {} lines",
        lines.len()
    );
}
