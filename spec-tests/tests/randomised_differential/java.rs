//! The generated Java package through its harness, on the same generated
//! envelopes, byte-level mutations and `f32` spellings the TypeScript package
//! and the Go module face.

use super::compare::{compare, none};
use super::typescript::f32_lines;

/// `lines`, mutations among them, through the Java package in one batch: the
/// reference's verdict on every line and its bytes for every line it accepts.
pub(super) fn agrees_with_the_reference(lines: &[String]) {
    let outcomes = spec_tests::java::decode(lines, false).unwrap_or_else(|error| panic!("{error}"));
    let comparison = compare("java", lines, &outcomes, none);
    comparison.assert_no_line_differs(20);
    comparison.assert_mutations_bite();
}

/// Every `f32` the Java package writes is spelled as the reference encoder
/// spells it: random bit patterns and values halfway between two shortest
/// spellings, as `embedding` items of query lines.
#[test]
#[ignore = "full tier"]
fn generated_java_package_spells_every_f32_like_the_reference_encoder() {
    let lines = f32_lines();
    let outcomes =
        spec_tests::java::decode(&lines, false).unwrap_or_else(|error| panic!("{error}"));
    compare("java", &lines, &outcomes, none).assert_no_line_differs(2);
}
