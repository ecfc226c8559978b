//! The bodies of the fuzz targets. Each takes arbitrary bytes and must return
//! without panicking, hanging or allocating without bound; the `assert!`s state
//! invariants that, when broken, are bugs too.
//!
//! `cargo fuzz run <target>` drives them through libFuzzer (fuzz_targets/), and
//! crates/cgp-check/tests/fuzz_corpus.rs compiles this file into an ordinary
//! stable test that replays the committed corpus (fuzz/corpus/<target>/).

use cgp_check::Validator;
use cgp_check::stream::{LineVerdict, StreamOptions, check_stream};
use cgp_check::transcript::{
    Line, LineReader, TranscriptChecker, check_message, check_verdict, parse_unique,
};
use cgp_classify::{self as classify, ComparedVersion};
use cgp_schema::json_text;
use cgp_schema::{Bundle, Profile, SchemaSet};
use serde_json::Value;
use std::path::Path;
use std::sync::OnceLock;

/// The working version's published bundles, from the table `cgp` embeds (codegen
/// writes it), so the targets follow a version change with no edit here.
mod embedded {
    use cgp_schema::Profile;

    pub struct Embedded {
        pub version: &'static str,
        pub profile: Profile,
        pub text: &'static str,
    }

    include!("../../crates/cgp-cli/bundles/index.rs");

    pub fn working(profile: Profile) -> &'static str {
        EMBEDDED
            .iter()
            .find(|e| e.version == WORKING && e.profile == profile)
            .map(|e| e.text)
            .expect("codegen embeds the working version's bundles")
    }
}

fn validators() -> &'static (Validator, Validator) {
    static VALIDATORS: OnceLock<(Validator, Validator)> = OnceLock::new();
    VALIDATORS.get_or_init(|| {
        let compile = |text: &str| {
            let bundle = Bundle::from_published(text).expect("the published bundle");
            Validator::new(&bundle).expect("the published bundle compiles")
        };
        (
            compile(embedded::working(Profile::Interop)),
            compile(embedded::working(Profile::Strict)),
        )
    })
}

/// The line decoder: [`LineReader`] splits the bytes into lines, and each line
/// goes through both JSON parsers the checker uses — `parse_unique` (serde_json,
/// the fast path) and `json_text::parse` (the one that locates errors). They must
/// agree: a line one accepts and the other rejects would be reported without a
/// position or with a wrong one.
pub fn line_decoder(data: &[u8]) {
    for skip_blank in [true, false] {
        let mut reader = if skip_blank {
            LineReader::new(data)
        } else {
            LineReader::keeping_blank_lines(data)
        };
        let mut last = 0;
        let mut consumed = 0;
        while let Some(line) = reader.next_line().expect("reading a slice never fails") {
            let Line::Message {
                number,
                bytes,
                terminated,
            } = line
            else {
                panic!("a fuzz input is never over the line limit");
            };
            assert!(number > last, "line numbers increase");
            last = number;
            assert!(!bytes.contains(&b'\n'), "a line holds no line feed");
            consumed += bytes.len() + usize::from(terminated);
            let Ok(text) = std::str::from_utf8(bytes) else {
                continue;
            };
            let fast = parse_unique(text);
            let located = json_text::parse(text);
            match (&fast, &located) {
                (Ok(fast), Ok(located)) => assert_eq!(fast, &located.value),
                (Err(_), Err(_)) => {}
                _ => panic!(
                    "the parsers disagree on {text:?}: serde_json {:?}, json_text {:?}",
                    fast.as_ref().err().map(ToString::to_string),
                    located.as_ref().err().map(ToString::to_string)
                ),
            }
        }
        if !skip_blank {
            assert_eq!(consumed, data.len(), "every byte belongs to a line");
        }
    }
}

/// What `cgp validate` does with its input: the stream checker (one thread, the
/// semantic rules on) under both profiles, and the input as one JSON document
/// (`--json-document`). Every verdict has a position for each finding.
pub fn validate(data: &[u8]) {
    let (interop, strict) = validators();
    for validator in [interop, strict] {
        let mut lines = 0;
        check_stream(
            data,
            validator,
            StreamOptions {
                semantic: true,
                threads: 1,
            },
            |verdict: &LineVerdict| -> Result<(), ()> {
                lines += 1;
                for finding in &verdict.checked.findings {
                    assert!(finding.position.is_some(), "{finding:?} has no position");
                    assert!(!finding.message.is_empty());
                }
                Ok(())
            },
        )
        .expect("a slice is always readable");
        assert!(lines <= data.len());
        let document = TranscriptChecker::new(validator, true).check(data, "the document");
        for finding in &document.findings {
            assert!(finding.position.is_some(), "{finding:?} has no position");
        }
        let single = check_message(validator, data);
        assert_eq!(single.is_valid(), single.findings.is_empty());
    }
}

/// The generated single-pass check (`cgp-validator`) against the `jsonschema`
/// path: every line of the bytes, and the bytes as one message, get the same
/// verdict (and the same envelope tag) from the check codegen wrote for each
/// profile as from `check_verdict` on a validator without it.
pub fn single_pass(data: &[u8]) {
    let (interop, strict) = validators();
    for (validator, profile) in [(interop, Profile::Interop), (strict, Profile::Strict)] {
        let check = cgp_validator::for_bundle(embedded::WORKING, profile.as_str())
            .expect("codegen writes a check for every embedded bundle");
        let compare = |bytes: &[u8]| {
            let slow = check_verdict(validator, bytes);
            let fast = std::str::from_utf8(bytes).ok().and_then(check);
            assert_eq!(
                fast.is_some(),
                slow.is_valid(),
                "{profile}: the single-pass check and jsonschema disagree on {:?}: {:?}",
                String::from_utf8_lossy(bytes),
                slow.findings
            );
            if let Some(tag) = fast {
                assert_eq!(slow.variant.map(|variant| variant.as_str()), Some(tag));
            }
        };
        let mut lines = LineReader::keeping_blank_lines(data);
        while let Some(line) = lines.next_line().expect("reading a slice never fails") {
            if let Line::Message { bytes, .. } = line {
                compare(bytes);
            }
        }
        compare(data);
    }
}

/// The schema sources under `root` (the repository), read once.
fn sources(root: &Path) -> &'static Vec<(String, String)> {
    static SOURCES: OnceLock<Vec<(String, String)>> = OnceLock::new();
    SOURCES.get_or_init(|| {
        cgp_schema::source::read_schema_dir(&root.join("schema"), "schema")
            .expect("the repository's schemas")
    })
}

/// The bundler on arbitrary schema JSON. The first byte picks a source file
/// under `root/schema` (or a new file), the rest replaces its text; the set is
/// loaded and checked, and when that passes it is bundled in both profiles and
/// the interop bundle is compiled and compared with the published one.
pub fn bundle(root: &Path, data: &[u8]) {
    let Some((&selector, text)) = data.split_first() else {
        return;
    };
    let mut files = sources(root).clone();
    let text = String::from_utf8_lossy(text).into_owned();
    let index = usize::from(selector) % (files.len() + 1);
    match files.get_mut(index) {
        Some(file) => file.1 = text,
        None => files.push(("types/fuzz.schema.json".to_owned(), text)),
    }
    let Ok(set) = SchemaSet::from_sources("schema", files) else {
        return;
    };
    for profile in [Profile::Interop, Profile::Strict] {
        if let Ok(bundle) = set.bundle(profile) {
            let _ = Validator::new(&bundle);
        }
    }
    if let Ok(side) = ComparedVersion::from_source(set) {
        for change in classify::classify(published_side(), &side).changes {
            let _ = change.to_string();
        }
    }
}

fn published_side() -> &'static ComparedVersion {
    static SIDE: OnceLock<ComparedVersion> = OnceLock::new();
    SIDE.get_or_init(|| {
        ComparedVersion::from_bundle_text(
            "interop.schema.json",
            embedded::working(Profile::Interop),
        )
        .expect("the published bundle")
    })
}

/// The classifier on pairs of schemas. The bytes are JSON: an object whose
/// members replace (or add) `$defs` entries of the published interop bundle,
/// with `$root` members replacing members of the bundle's root; anything else
/// is read as a whole bundle. The result is compared with the published bundle
/// both ways, and every change is rendered.
pub fn classify(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(overlay) = parse_unique(text) else {
        let _ = ComparedVersion::from_bundle_text("fuzz.json", text);
        return;
    };
    let new_text = match overlay {
        Value::Object(members) => {
            let mut bundle: Value = serde_json::from_str(embedded::working(Profile::Interop))
                .expect("the published bundle");
            for (name, member) in members {
                if name == "$root" {
                    if let (Value::Object(root), Value::Object(bundle)) = (member, &mut bundle) {
                        bundle.extend(root);
                    }
                } else if let Some(defs) = bundle.get_mut("$defs").and_then(Value::as_object_mut) {
                    defs.insert(name, member);
                }
            }
            bundle.to_string()
        }
        _ => text.to_owned(),
    };
    let Ok(new) = ComparedVersion::from_bundle_text("fuzz.json", &new_text) else {
        return;
    };
    let old = published_side();
    for comparison in [classify::classify(old, &new), classify::classify(&new, old)] {
        for change in &comparison.changes {
            let _ = (change.location(), change.headline(), change.to_string());
        }
    }
}
