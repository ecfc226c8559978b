//! The SDK-style transcript holds the same envelopes as the canonical one,
//! spelled otherwise, and every line is decided as it is labelled: by the
//! validator of the interop bundle, by the reference crate and by the
//! hand-written types (which write the canonical line back).

use cgp_bench::{sdk, transcript};
use cgp_check::Validator;
use cgp_check::transcript::check_verdict;
use cgp_schema::Profile;
use spec_tests::bundle;

fn canonical(seed: u64, bytes: u64) -> Vec<u8> {
    let mut text = Vec::new();
    transcript::write(&mut text, bytes, seed).expect("write");
    text
}

#[test]
fn every_sdk_line_is_decided_as_labelled_and_keeps_its_canonical_line() {
    let validator = Validator::new(&bundle(Profile::Interop)).expect("interop");
    for (seed, every) in [(1, None), (2, Some(100)), (3, Some(7))] {
        let canonical = canonical(seed, 512 * 1024);
        let spelled = sdk::write(&canonical, seed, every).expect("re-spelled");
        assert_eq!(spelled, sdk::write(&canonical, seed, every).expect("again"));
        assert_eq!(every.is_none(), spelled.invalid.is_empty());
        let text = String::from_utf8(spelled.bytes).expect("utf-8");
        let originals = canonical.split(|byte| *byte == b'\n').count() - 1;
        assert_eq!(text.lines().count(), originals);
        for (index, line) in text.lines().enumerate() {
            let invalid = spelled.invalid.binary_search(&index).is_ok();
            let verdict = check_verdict(&validator, line.as_bytes()).is_valid();
            assert_eq!(verdict, !invalid, "the validator on line {index}: {line}");
            let reference = contextgraph_host::wire::decode_line(line).is_ok();
            assert_eq!(reference, !invalid, "the reference on line {index}: {line}");
            match cgp_types::decode_line(line) {
                Ok(envelope) => {
                    assert!(!invalid, "cgp_types accepted line {index}: {line}");
                    // The canonical line written back reads as the same envelope.
                    let written = cgp_types::encode_line(&envelope).expect("encodes");
                    let again = cgp_types::decode_line(&written).expect("decodes");
                    assert_eq!(again, envelope, "line {index}");
                }
                Err(_) => assert!(invalid, "cgp_types refused line {index}: {line}"),
            }
        }
    }
}

#[test]
fn every_habit_is_frequent() {
    let spelled = sdk::write(&canonical(1, 3 << 20), 1, None).expect("re-spelled");
    let text = String::from_utf8(spelled.bytes).expect("utf-8");
    let lines = text.lines().count();
    let share = |needle: &str| text.lines().filter(|line| line.contains(needle)).count();
    for needle in [
        "\": ",
        "\\u00e9",
        "\\ud83d\\ude42",
        "\\u003c",
        "\\u0026",
        "<li>",
        "\"relations\": []",
        "\"relations\":[]",
    ] {
        assert!(
            share(needle) * 20 > lines / 10,
            "{needle}: {} of {lines}",
            share(needle)
        );
    }
    let acks: Vec<&str> = text
        .lines()
        .filter(|line| line.contains("handshake_ack"))
        .collect();
    let without = acks
        .iter()
        .filter(|line| !line.contains("\"graph\":"))
        .count();
    assert!(
        without * 4 > acks.len() && without < acks.len(),
        "{without} of {}",
        acks.len()
    );
    let type_first = text
        .lines()
        .filter(|line| line.starts_with("{\"type\""))
        .count();
    assert!(
        type_first * 2 < lines,
        "{type_first} of {lines} start with type"
    );
}
