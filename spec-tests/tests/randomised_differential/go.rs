//! The generated Go module through its harness, on the same generated
//! envelopes, byte-level mutations and `f32` spellings the TypeScript package
//! faces.

use super::support;
use super::typescript::{f32_lines, generated_and_mutated_lines};

fn compare(lines: &[String], outcomes: &[spec_tests::Outcome]) -> (Vec<String>, usize) {
    let mut failures = Vec::new();
    let mut rejected = 0;
    for (line, theirs) in lines.iter().zip(outcomes) {
        let reference = support::reference("Envelope", line).expect("known target");
        match (&reference, theirs) {
            (Ok(a), Ok(b)) if a == b => {}
            (Err(_), Err(_)) => rejected += 1,
            _ => failures.push(format!(
                "{line}\n  reference: {reference:?}\n  go:        {theirs:?}"
            )),
        }
    }
    (failures, rejected)
}

/// Generated envelopes and mutations of them, through the Go module in one
/// batch: the reference decoder's verdict on every line, and byte-identical
/// re-encoding of every line it accepts.
#[test]
#[ignore = "full tier"]
fn generated_go_module_agrees_with_the_reference_on_generated_and_mutated_lines() {
    let lines = generated_and_mutated_lines();
    let outcomes = spec_tests::go::decode(&lines, false).unwrap_or_else(|error| panic!("{error}"));
    let (failures, rejected) = compare(&lines, &outcomes);
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
        rejected > lines.len() / 4,
        "only {rejected} of {} lines rejected: the mutations do not bite",
        lines.len()
    );
}

/// Every `f32` the Go module writes is spelled as the reference encoder
/// spells it: random bit patterns and values halfway between two shortest
/// spellings, as `embedding` items of query lines.
#[test]
#[ignore = "full tier"]
fn generated_go_module_spells_every_f32_like_the_reference_encoder() {
    let lines = f32_lines();
    let outcomes = spec_tests::go::decode(&lines, false).unwrap_or_else(|error| panic!("{error}"));
    let (failures, _) = compare(&lines, &outcomes);
    assert!(
        failures.is_empty(),
        "f32 spellings differ on {} lines:\n{}",
        failures.len(),
        failures
            .iter()
            .take(2)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
