//! Snapshot tests of every target: each renders a small demo protocol (two
//! variants, an open vocabulary, a tagged union, optional and f32 members),
//! and its files are compared with `snapshots/<language>.txt` (expect-test).
//! A runtime file copied as-is from `templates/` is listed by name only.
//!
//! Update every snapshot after an intended change with one command:
//!
//! ```sh
//! UPDATE_EXPECT=1 cargo test -p cgp-codegen --lib snapshots
//! ```

use crate::targets::{Input, Language};
use cgp_schema::bundle::Bundle;
use cgp_schema::diagnostic::Diagnostic;
use cgp_schema::model::Protocol;
use serde_json::json;
use std::path::Path;

/// The demo protocol, as a published interop bundle.
fn demo_bundle() -> Bundle {
    let document = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Envelope",
        "description": "A demo protocol for the generators' snapshots.",
        "x-cgp-protocol-version": "demo/1.0",
        "x-cgp-profile": "interop",
        "x-cgp-tag": "type",
        "type": "object",
        "discriminator": {"propertyName": "type"},
        "oneOf": [
            {
                "title": "Ping",
                "description": "Asks for a verdict.",
                "type": "object",
                "properties": {
                    "type": {"const": "ping"},
                    "seq": {"type": "integer", "minimum": 0, "maximum": 4294967295u32, "format": "uint32"},
                    "note": {"type": ["string", "null"], "x-cgp-emit": "omit-if-absent"},
                    "scope": {"$ref": "#/$defs/Scope"},
                    "tags": {"type": "array", "items": {"type": "string"}, "default": [], "x-cgp-emit": "omit-if-empty"}
                },
                "required": ["type", "seq", "scope"]
            },
            {
                "title": "Answer",
                "description": "The verdict on a ping.",
                "type": "object",
                "properties": {
                    "type": {"const": "answer"},
                    "verdict": {"$ref": "#/$defs/Verdict"},
                    "score": {"type": "number", "format": "float"}
                },
                "required": ["type", "verdict", "score"]
            }
        ],
        "$defs": {
            "KnownScope": {
                "title": "KnownScope",
                "description": "The scopes this version names.",
                "x-cgp-vocabulary": "closed",
                "type": "string",
                "enum": ["local", "remote-only"]
            },
            "Scope": {
                "title": "Scope",
                "description": "Where a ping may go; other scopes are kept.",
                "x-cgp-vocabulary": "open",
                "oneOf": [
                    {"$ref": "#/$defs/KnownScope"},
                    {"title": "Other", "type": "string", "not": {"enum": ["local", "remote-only"]}}
                ]
            },
            "Verdict": {
                "title": "Verdict",
                "description": "Whether the ping was answered.",
                "x-cgp-tag": "status",
                "oneOf": [
                    {
                        "title": "Ok",
                        "type": "object",
                        "properties": {"status": {"const": "ok"}},
                        "required": ["status"]
                    },
                    {
                        "title": "Failed",
                        "type": "object",
                        "properties": {"status": {"const": "failed"}, "reason": {"type": "string"}},
                        "required": ["status", "reason"]
                    }
                ]
            }
        }
    });
    Bundle::from_published(&document.to_string()).expect("the demo bundle")
}

/// Every runtime file under `templates/`, copied into packages as-is.
fn runtime_texts() -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("templates") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.components().any(|part| part.as_os_str() == "runtime") {
                out.push(std::fs::read_to_string(&path).expect("a template"));
            }
        }
    }
    let mut texts = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("templates"),
        &mut texts,
    );
    texts
}

/// The files of `language`'s package for the demo protocol, as one text.
fn rendered(language: Language) -> String {
    let bundle = demo_bundle();
    let protocol = Protocol::of_frozen(&bundle);
    let version = crate::test_model::version();
    let home = crate::test_model::home();
    let locate = |pointer: &str| Diagnostic::file(format!("#{pointer}"), String::new());
    let input = Input::new(&version, &bundle, &protocol, &[], &home, &locate);
    let files = language
        .target()
        .generate(&input)
        .unwrap_or_else(|problems| panic!("{language:?}: {problems}"));
    let runtime = runtime_texts();
    let mut text = String::new();
    for (path, contents) in &files {
        if runtime.contains(contents) {
            text.push_str(&format!("==== {path} (runtime, copied as-is)\n"));
        } else {
            text.push_str(&format!("==== {path}\n{contents}"));
            if !contents.ends_with('\n') {
                text.push('\n');
            }
        }
    }
    text
}

#[test]
fn rust_snapshot() {
    expect_test::expect_file!["../snapshots/rust.txt"].assert_eq(&rendered(Language::Rust));
}

#[test]
fn typescript_snapshot() {
    expect_test::expect_file!["../snapshots/typescript.txt"]
        .assert_eq(&rendered(Language::TypeScript));
}

#[test]
fn python_snapshot() {
    expect_test::expect_file!["../snapshots/python.txt"].assert_eq(&rendered(Language::Python));
}

#[test]
fn go_snapshot() {
    expect_test::expect_file!["../snapshots/go.txt"].assert_eq(&rendered(Language::Go));
}

#[test]
fn java_snapshot() {
    expect_test::expect_file!["../snapshots/java.txt"].assert_eq(&rendered(Language::Java));
}

/// Every target has a snapshot test above (a new language fails here until
/// it has one).
#[test]
fn every_target_is_snapshot_tested() {
    for language in Language::ALL {
        let file = match language {
            Language::Rust => "rust.txt",
            Language::TypeScript => "typescript.txt",
            Language::Python => "python.txt",
            Language::Go => "go.txt",
            Language::Java => "java.txt",
        };
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("snapshots")
            .join(file);
        assert!(
            path.is_file(),
            "{language:?} has no snapshot at {}",
            path.display()
        );
    }
}
