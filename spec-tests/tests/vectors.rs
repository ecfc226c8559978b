//! The published conformance vectors (`generated/vectors/<version>/`) against
//! the reference crates: every case's decode expectation (verdict, canonical
//! bytes and rejection category) is the reference decoder's and encoder's on
//! the case's transport, and on the other transport the reference agrees with
//! `cgp_vectors::decode`, which produced the expectations. Every line
//! satisfies `case.schema.json`, and the cases cover every rejection
//! category, every variant and every vocabulary value.
//!
//! The reference crates speak one protocol version
//! (`contextgraph_types::PROTOCOL_VERSION`) and do not move with ours: once the
//! working version has added a variant, a member or a vocabulary value, the
//! cases that use it are not the reference's to decode (it rejects the variant
//! and the closed value, drops the member), so the comparison leaves them out
//! and says how many ([`beyond_the_reference`]).

use cgp_types::{
    ContentFidelity, EgressScope, ErrorCode, FrameKind, InlineContentRequirement, Representation,
    Variant,
};
use cgp_vectors::{Case, Decode, Reason, Transport, decode, format, read_cases};
use std::collections::BTreeSet;
use std::path::PathBuf;

fn folder() -> PathBuf {
    let version: cgp_schema::ProtocolVersion =
        cgp_types::PROTOCOL_VERSION.parse().expect("version");
    cgp_test_support::repo()
        .join(cgp_codegen::vectors::VECTORS_DIR)
        .join(version.slug())
}

fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let mut names: Vec<PathBuf> = std::fs::read_dir(folder())
        .expect("the vectors folder")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "ndjson"))
        .collect();
    names.sort();
    assert!(names.len() >= 4, "{names:?}");
    for path in names {
        let text = std::fs::read_to_string(&path).expect("readable");
        cases.extend(read_cases(&path.display().to_string(), &text).expect("cases"));
    }
    cases
}

/// The decoder's own words inside a reference error.
fn message(error: contextgraph_host::HostError) -> String {
    match error {
        contextgraph_host::HostError::Wire(message) => message,
        other => other.to_string(),
    }
}

/// What the reference host does with `bytes` on `transport`.
fn reference(transport: Transport, bytes: &[u8]) -> Decode {
    use contextgraph_host::wire;
    let decoded = match transport {
        Transport::Stdio => wire::decode_line(&String::from_utf8_lossy(bytes)).map_err(message),
        Transport::Http => {
            serde_json::from_slice::<wire::Envelope>(bytes).map_err(|error| error.to_string())
        }
    };
    match decoded.and_then(|envelope| wire::encode_line(&envelope).map_err(message)) {
        Ok(line) => Decode::accepted(line.strip_suffix('\n').unwrap_or(&line).to_owned()),
        Err(message) => Decode::rejected(Reason::of_message(&message)),
    }
}

/// What one version's interop bundle names: its variant tags
/// (`properties.type.const` of the root's branches), its member names, and the
/// string values of its enumerations (closed vocabularies and the known values
/// of open ones).
#[derive(Debug, Default)]
struct Names {
    tags: BTreeSet<String>,
    members: BTreeSet<String>,
    values: BTreeSet<String>,
}

impl Names {
    fn of_bundle(path: &std::path::Path) -> Self {
        fn walk(value: &serde_json::Value, names: &mut Names) {
            match value {
                serde_json::Value::Object(object) => {
                    if let Some(serde_json::Value::Object(properties)) = object.get("properties") {
                        names.members.extend(properties.keys().cloned());
                    }
                    if let Some(serde_json::Value::Array(values)) = object.get("enum") {
                        names.values.extend(
                            values
                                .iter()
                                .filter_map(serde_json::Value::as_str)
                                .map(str::to_owned),
                        );
                    }
                    object.values().for_each(|value| walk(value, names));
                }
                serde_json::Value::Array(items) => items.iter().for_each(|item| walk(item, names)),
                _ => {}
            }
        }
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        let bundle: serde_json::Value = serde_json::from_str(&text).expect("a bundle");
        let mut names = Names {
            tags: bundle["oneOf"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|branch| branch.pointer("/properties/type/const"))
                .filter_map(serde_json::Value::as_str)
                .map(str::to_owned)
                .collect(),
            ..Names::default()
        };
        walk(&bundle, &mut names);
        names
    }

    fn minus(&self, other: &Names) -> Names {
        Names {
            tags: self.tags.difference(&other.tags).cloned().collect(),
            members: self.members.difference(&other.members).cloned().collect(),
            values: self.values.difference(&other.values).cloned().collect(),
        }
    }

    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.members.is_empty() && self.values.is_empty()
    }

    /// Whether a case uses any of these: its tag, or any member name or string
    /// value anywhere in its JSON (or, in text no decoder reads, anywhere).
    fn used_by(&self, case: &Case, bytes: &[u8]) -> bool {
        fn any(value: &serde_json::Value, names: &Names) -> bool {
            match value {
                serde_json::Value::Object(object) => object
                    .iter()
                    .any(|(name, value)| names.members.contains(name) || any(value, names)),
                serde_json::Value::Array(items) => items.iter().any(|item| any(item, names)),
                serde_json::Value::String(text) => names.values.contains(text),
                _ => false,
            }
        }
        if case
            .variant
            .as_ref()
            .is_some_and(|tag| self.tags.contains(tag))
        {
            return true;
        }
        let text = String::from_utf8_lossy(bytes);
        serde_json::from_str::<serde_json::Value>(text.trim())
            .map(|value| any(&value, self))
            .unwrap_or_else(|_| {
                self.tags
                    .iter()
                    .chain(&self.members)
                    .chain(&self.values)
                    .any(|name| text.contains(&format!("\"{name}\"")))
            })
    }
}

/// What the working version's interop bundle has that the reference crates'
/// version's does not: variant tags, member names and enumeration values.
/// Empty while the working version is the reference's.
fn beyond_the_reference() -> Names {
    use cgp_schema::{Profile, ProtocolVersion};
    let reference = contextgraph_types::PROTOCOL_VERSION;
    if cgp_types::PROTOCOL_VERSION == reference {
        return Names::default();
    }
    let path = |version: &str| {
        let version: ProtocolVersion = version.parse().expect("a version");
        cgp_test_support::repo().join(cgp_codegen::plan::published_path(
            &version,
            Profile::Interop,
        ))
    };
    Names::of_bundle(&path(cgp_types::PROTOCOL_VERSION)).minus(&Names::of_bundle(&path(reference)))
}

#[test]
fn every_decode_expectation_is_the_reference_crates_on_both_transports() {
    let cases = cases();
    assert!(cases.len() >= 3000, "only {} cases", cases.len());
    let beyond = beyond_the_reference();
    let mut failures = Vec::new();
    let mut left_out = 0;
    for case in &cases {
        let bytes = case.bytes().expect("bytes");
        if !beyond.is_empty() && beyond.used_by(case, &bytes) {
            left_out += 1;
            continue;
        }
        let expected = reference(case.transport, &bytes);
        if case.decode != expected {
            failures.push(format!(
                "{}: the case says {:?}, the reference {:?}",
                case.id, case.decode, expected
            ));
        }
        let other = match case.transport {
            Transport::Stdio => Transport::Http,
            Transport::Http => Transport::Stdio,
        };
        let ours = decode::expectation(other, &bytes);
        let theirs = reference(other, &bytes);
        if ours != theirs {
            failures.push(format!(
                "{} over {other}: cgp_vectors::decode says {ours:?}, the reference {theirs:?}",
                case.id
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from the reference:\n{}",
        failures.len(),
        cases.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    if left_out > 0 {
        eprintln!(
            "{left_out} case(s) use a variant, member or value new since {} ({beyond:?}) and are left out of the comparison with the reference crates",
            contextgraph_types::PROTOCOL_VERSION
        );
    }
}

#[test]
fn every_line_satisfies_the_case_schema_and_ids_are_unique() {
    let text = std::fs::read_to_string(folder().join(format::CASE_SCHEMA_FILE)).expect("schema");
    let schema: serde_json::Value = serde_json::from_str(&text).expect("json");
    assert_eq!(schema, format::case_schema());
    let validator = jsonschema::validator_for(&schema).expect("compiles");
    let mut ids = BTreeSet::new();
    for case in cases() {
        let value = serde_json::to_value(&case).expect("json");
        let errors: Vec<String> = validator
            .iter_errors(&value)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", case.id);
        assert!(ids.insert(case.id.clone()), "duplicate id {}", case.id);
    }
    let broken = serde_json::json!({"id": "x", "description": "", "source": "", "transport": "stdio",
        "input": "", "input_base64": "", "decode": {"accept": true},
        "interop": {"valid": false}, "strict": {"valid": true, "at": ""}});
    assert!(validator.iter_errors(&broken).count() >= 4);
}

#[test]
fn the_cases_cover_every_category_variant_and_vocabulary_value() {
    let cases = cases();
    let categories: BTreeSet<&str> = cases.iter().map(Case::category).collect();
    for reason in Reason::ALL {
        assert!(categories.contains(reason.as_str()), "no {reason} case");
    }
    let accepted: BTreeSet<&str> = cases
        .iter()
        .filter(|case| case.decode.accept)
        .filter_map(|case| case.variant.as_deref())
        .collect();
    for variant in Variant::ALL {
        assert!(
            accepted.contains(variant.as_str()),
            "no accepted {variant:?}"
        );
    }
    for transport in [Transport::Stdio, Transport::Http] {
        for accept in [true, false] {
            assert!(
                cases
                    .iter()
                    .any(|case| case.transport == transport && case.decode.accept == accept),
                "{transport} {accept}"
            );
        }
    }
    // The transports differ on some bytes, and the cases show it.
    let differ = cases.iter().any(|case| {
        let bytes = case.bytes().expect("bytes");
        decode::expectation(Transport::Stdio, &bytes).accept
            != decode::expectation(Transport::Http, &bytes).accept
    });
    assert!(differ);
    let ids: BTreeSet<&str> = cases
        .iter()
        .filter(|case| case.decode.accept)
        .map(|case| case.id.as_str())
        .collect();
    let mut values: Vec<(String, String)> = Vec::new();
    values.extend(
        FrameKind::KNOWN
            .iter()
            .map(|v| ("frame-kind".into(), v.to_string())),
    );
    values.extend(
        ErrorCode::KNOWN
            .iter()
            .map(|v| ("error-code".into(), v.to_string())),
    );
    values.extend(
        EgressScope::KNOWN
            .iter()
            .map(|v| ("egress-scope".into(), v.to_string())),
    );
    values.extend(Representation::ALL.map(|v| ("representation".into(), v.as_str().into())));
    values.extend(ContentFidelity::ALL.map(|v| ("content-fidelity".into(), v.as_str().into())));
    values.extend(
        InlineContentRequirement::ALL
            .map(|v| ("inline-content-requirement".into(), v.as_str().into())),
    );
    values
        .extend(["valid", "stale", "gone", "unknown"].map(|v| ("verdict-status".into(), v.into())));
    for (kind, value) in values {
        for transport in ["stdio", "http"] {
            let id = format!("{kind}/{value}/{transport}");
            assert!(ids.contains(id.as_str()), "no accepted case {id}");
        }
    }
}
