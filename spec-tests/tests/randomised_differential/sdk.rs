//! The SDK spellings (`spec_tests::sdk_spelling`): the generated envelopes'
//! canonical lines written again as the SDKs write them (defaulted members
//! left out, empty members written, other member orders, spaced separators,
//! Python's and Go's `\uXXXX` escapes, prose with markup and line feeds), and
//! each such line mutated once more. Every line goes through the reference
//! crate, the single-pass check and the jsonschema path, the hand-written
//! types, and every package decoder (Python fast and exact, TypeScript, Go):
//! the same verdicts, and byte-identical canonical lines for those accepted.

use super::compare::{compare, none};
use super::typescript::generated_and_mutated_lines;
use super::{support, verdicts};
use spec_tests::rng::Rng;
use spec_tests::sdk_spelling::respell;

/// The canonical lines of [`generated_and_mutated_lines`] spelled SDK-style,
/// each followed by the same line with its first member written twice (a
/// duplicate, which every decoder must refuse) or cut short.
fn sdk_lines() -> Vec<String> {
    let mut rng = Rng::new(37);
    let mut lines = Vec::new();
    for canonical in generated_and_mutated_lines().into_iter().skip(1).step_by(2) {
        let spelled = respell(canonical.as_bytes(), &mut rng).expect("a canonical line parses");
        let spoiled = match (rng.below(2), spelled.find(',')) {
            (0, Some(comma)) => format!("{},{}", &spelled[..comma], &spelled[1..]),
            _ => spelled[..spelled.len() - 1].to_owned(),
        };
        lines.push(spelled);
        lines.push(spoiled);
    }
    lines
}

/// The reference crate, the hand-written types and both paths of the
/// validator decide every SDK-spelled line alike.
#[test]
#[ignore = "full tier"]
fn sdk_spellings_get_the_same_verdict_from_the_reference_the_types_and_the_validator() {
    let lines = sdk_lines();
    let mut failures = Vec::new();
    for line in &lines {
        let reference = support::reference("Envelope", line).expect("known target");
        let ours = spec_tests::hand_written("Envelope", line).expect("known target");
        if reference.as_ref().ok() != ours.as_ref().ok() {
            failures.push(format!(
                "{line}\n  reference: {reference:?}\n  cgp_types: {ours:?}"
            ));
        }
        failures.extend(verdicts::disagreements(line));
    }
    assert!(
        failures.is_empty(),
        "{} of {} lines differ:\n{}",
        failures.len(),
        lines.len(),
        failures[..failures.len().min(10)].join("\n")
    );
}

#[test]
#[ignore = "full tier"]
fn sdk_spellings_through_the_typescript_package_agree_with_the_reference() {
    let lines = sdk_lines();
    let outcomes =
        spec_tests::typescript::decode_lines(&lines).unwrap_or_else(|error| panic!("{error}"));
    let comparison = compare("typescript", &lines, &outcomes, none);
    comparison.assert_no_line_differs(20);
    comparison.assert_mutations_bite();
    spec_tests::typescript::fast_path_agrees(&lines).unwrap_or_else(|error| panic!("{error}"));
}

#[test]
#[ignore = "full tier"]
fn sdk_spellings_through_the_go_module_agree_with_the_reference() {
    super::go::agrees_with_the_reference(&sdk_lines());
}

#[test]
#[ignore = "full tier"]
fn sdk_spellings_through_the_java_package_agree_with_the_reference() {
    super::java::agrees_with_the_reference(&sdk_lines());
}

/// With msgspec, so the fast paths run; the round-trip script compares them
/// with the exact ones line by line.
#[test]
#[ignore = "full tier"]
fn sdk_spellings_through_the_python_package_agree_with_the_reference() {
    let msgspec = spec_tests::peers::ensure_msgspec().unwrap_or_else(|problem| panic!("{problem}"));
    let lines = sdk_lines();
    let cases: Vec<(String, String)> = lines
        .iter()
        .map(|line| ("Envelope".to_owned(), line.clone()))
        .collect();
    let (outcomes, _fast) = spec_tests::python_package::round_trips_with(&cases, Some(&msgspec))
        .unwrap_or_else(|problem| panic!("{problem}"));
    let comparison = compare("cgp_types", &lines, &outcomes, none);
    comparison.assert_no_line_differs(20);
    comparison.assert_mutations_bite();
}
