//! The open vocabularies keep unknown strings verbatim and reject anything
//! that is not a string; the closed enums accept only their own values.

use cgp_types::{
    ContentFidelity, EgressScope, ErrorCode, FrameKind, InlineContentRequirement, Representation,
    decode_line, encode_line,
};
use serde::Serialize;
use serde::de::DeserializeOwned;

fn round_trips_verbatim<T: DeserializeOwned + Serialize>(json: &str) -> T {
    let value: T = serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
    assert_eq!(serde_json::to_string(&value).unwrap(), json);
    value
}

const ODD_STRINGS: &[&str] = &[
    r#""""#,
    r#""DOC""#,
    r#""Doc""#,
    r#"" doc""#,
    r#""doc ""#,
    r#""local_only""#,
    r#""LOCAL-ONLY""#,
    r#""notnamespaced""#,
    r#""acme:vector-store""#,
    r#""BAD_REQUEST""#,
    r#""é\u0000\"\\""#,
    r#""😀""#,
];

#[test]
fn unknown_values_round_trip_byte_identically() {
    for json in ODD_STRINGS {
        let kind: FrameKind = round_trips_verbatim(json);
        assert!(!kind.is_known(), "{json}");
        assert!(matches!(kind, FrameKind::Other(_)));
        let code: ErrorCode = round_trips_verbatim(json);
        assert!(!code.is_known());
        let scope: EgressScope = round_trips_verbatim(json);
        assert!(!scope.is_known());
    }
    assert_eq!(
        serde_json::from_str::<FrameKind>(r#""""#).unwrap(),
        FrameKind::Other(String::new())
    );
    assert_eq!(
        serde_json::from_str::<FrameKind>(r#""DOC""#)
            .unwrap()
            .as_str(),
        "DOC"
    );
}

#[test]
fn escaped_spellings_decode_to_the_same_value() {
    // `"\u0064oc"` is the string `doc`: the escape is not preserved, the
    // value is.
    let kind: FrameKind = serde_json::from_str(r#""\u0064oc""#).unwrap();
    assert_eq!(kind, FrameKind::Doc);
    assert_eq!(serde_json::to_string(&kind).unwrap(), r#""doc""#);
}

#[test]
fn known_values_round_trip() {
    for raw in FrameKind::KNOWN {
        let kind: FrameKind = round_trips_verbatim(&format!("\"{raw}\""));
        assert!(kind.is_known());
        assert_eq!(kind.to_string(), *raw);
    }
    for raw in ErrorCode::KNOWN {
        let code: ErrorCode = round_trips_verbatim(&format!("\"{raw}\""));
        assert_eq!(code, ErrorCode::from(*raw));
        assert!(!matches!(code, ErrorCode::Other(_)));
    }
    for raw in EgressScope::KNOWN {
        let scope: EgressScope = round_trips_verbatim(&format!("\"{raw}\""));
        assert!(!matches!(scope, EgressScope::Other(_)));
    }
}

#[test]
fn non_strings_are_rejected() {
    for json in [
        "1",
        "0",
        "null",
        "true",
        "[]",
        r#"["doc"]"#,
        "{}",
        r#"{"doc":null}"#,
        "1.5",
    ] {
        assert!(serde_json::from_str::<FrameKind>(json).is_err(), "{json}");
        assert!(serde_json::from_str::<ErrorCode>(json).is_err(), "{json}");
        assert!(serde_json::from_str::<EgressScope>(json).is_err(), "{json}");
    }
    // The same inside an envelope.
    for line in [
        r#"{"type":"error","code":1,"message":""}"#,
        r#"{"type":"error","code":{"internal":null},"message":""}"#,
        r#"{"type":"query","query":{"goal":"","kinds":[null],"max_frames":1,"max_tokens":1}}"#,
    ] {
        assert!(decode_line(line).is_err(), "{line}");
    }
}

#[test]
fn open_vocabularies_in_envelopes_survive_relay() {
    let line = concat!(
        r#"{"type":"query","query":{"goal":"g","kinds":["DOC","","trajectory","doc"],"#,
        r#""max_frames":1,"max_tokens":1}}"#,
        "\n"
    );
    let env = decode_line(line).unwrap();
    assert_eq!(encode_line(&env).unwrap(), line);
}

#[test]
fn closed_enums_accept_only_their_values() {
    for r in Representation::ALL {
        round_trips_verbatim::<Representation>(&format!("\"{r}\""));
    }
    for f in ContentFidelity::ALL {
        round_trips_verbatim::<ContentFidelity>(&format!("\"{f}\""));
    }
    for i in InlineContentRequirement::ALL {
        round_trips_verbatim::<InlineContentRequirement>(&format!("\"{i}\""));
    }
    for json in [
        r#""Full""#,
        r#""FULL""#,
        r#""""#,
        "0",
        "null",
        r#"{"compact":1}"#,
    ] {
        assert!(
            serde_json::from_str::<Representation>(json).is_err(),
            "{json}"
        );
    }
    assert!(
        serde_json::from_str::<InlineContentRequirement>(r#""resolvable-reference-allowed""#)
            .is_err()
    );
}

#[test]
fn closed_enums_accept_the_unit_object_form() {
    // serde's externally tagged unit form: accepted, written back as a string.
    let r: Representation = serde_json::from_str(r#"{"compact":null}"#).unwrap();
    assert_eq!(r, Representation::Compact);
    assert_eq!(serde_json::to_string(&r).unwrap(), r#""compact""#);
    let f: ContentFidelity = serde_json::from_str(r#"{"exact":null}"#).unwrap();
    assert_eq!(f, ContentFidelity::Exact);
}
