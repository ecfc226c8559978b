//! Every valid envelope example of the SPEC.md corpus round-trips through the
//! hand-written types (`cgp_types`): it decodes, the canonical encoder writes
//! the same JSON value, and that line decodes to the same envelope and
//! re-encodes to the very same bytes. Every variant has such an example, so a
//! new variant's corpus examples (ARCHITECTURE.md, "Add an envelope variant")
//! are its round-trip test too.

use cgp_gates::corpus::Expect;
use cgp_types::{Variant, decode_line, encode_line};
use std::collections::BTreeSet;

#[test]
fn every_valid_envelope_example_round_trips_through_the_hand_written_types() {
    let mut covered = BTreeSet::new();
    for example in spec_tests::examples()
        .into_iter()
        .filter(|example| example.target == "Envelope" && example.expect == Expect::Valid)
    {
        let name = &example.name;
        let envelope = decode_line(&example.as_line())
            .unwrap_or_else(|error| panic!("{name}: does not decode: {error}"));
        let encoded = encode_line(&envelope)
            .unwrap_or_else(|error| panic!("{name}: does not encode: {error}"));
        assert!(
            spec_tests::same_value(encoded.trim_end(), &example.json),
            "{name}: the canonical line is another value:\n{encoded}"
        );
        let again = decode_line(&encoded)
            .unwrap_or_else(|error| panic!("{name}: its canonical line does not decode: {error}"));
        assert_eq!(again, envelope, "{name}: decoding the canonical line");
        assert_eq!(
            encode_line(&again).expect("encodes"),
            encoded,
            "{name}: re-encoding changed the line"
        );
        covered.insert(envelope.variant());
    }
    let missing: Vec<&str> = Variant::ALL
        .into_iter()
        .filter(|variant| !covered.contains(variant))
        .map(Variant::as_str)
        .collect();
    assert!(
        missing.is_empty(),
        "variants without a valid envelope example in SPEC.md: {missing:?}"
    );
}
