//! The benchmark transcript is reproducible, canonical, and valid under both
//! profiles.

use cgp_bench::transcript::write;
use cgp_check::Validator;
use cgp_schema::Profile;
use spec_tests::bundle;

#[test]
fn the_same_seed_gives_the_same_valid_canonical_bytes() {
    let mut first = Vec::new();
    let stats = write(&mut first, 256 * 1024, 7).expect("write");
    let mut second = Vec::new();
    write(&mut second, 256 * 1024, 7).expect("write");
    assert_eq!(first, second);
    assert_eq!(stats.bytes, first.len() as u64);
    assert!(stats.bytes >= 256 * 1024 && stats.frames > 0);
    let mut other = Vec::new();
    write(&mut other, 256 * 1024, 8).expect("write");
    assert_ne!(first, other);

    let interop = Validator::new(&bundle(Profile::Interop)).expect("interop");
    let strict = Validator::new(&bundle(Profile::Strict)).expect("strict");
    let text = String::from_utf8(first).expect("utf-8");
    let mut lines = 0;
    for line in text.lines() {
        let value: serde_json::Value = serde_json::from_str(line).expect("json");
        assert!(interop.validate_envelope(&value).is_empty(), "{line}");
        assert!(strict.validate_envelope(&value).is_empty(), "{line}");
        let decoded = cgp_types::decode_line(line).expect("decodes");
        assert_eq!(
            cgp_types::encode_line(&decoded)
                .expect("encodes")
                .trim_end(),
            line,
            "not canonical"
        );
        lines += 1;
    }
    assert_eq!(lines, stats.lines);
}
