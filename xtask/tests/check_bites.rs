//! The sync and version gates bite: each test applies one mutation to a temporary
//! copy of the tree and asserts that `cargo xtask check` (or, for mutations of the
//! Rust types, which need a rebuild, the same gate through the library) fails with
//! a message naming the member and both files.

mod support;

use cgp_test_support::copy_dir;
use serde_json::Value;
use std::process::Command;
use support::{Tree, Versions, assert_reports, repo};

/// Runs `cargo xtask check` on the copy: (succeeded, stderr).
fn check(tree: &Tree) -> (bool, String) {
    let run = tree.xtask(&["check"]);
    (run.ok, run.stderr)
}

#[test]
fn the_unchanged_copy_passes() {
    let tree = Tree::new("unchanged");
    let (ok, stderr) = check(&tree);
    assert!(ok, "{stderr}");
}

#[test]
fn a_member_added_to_a_schema_but_not_to_the_types() {
    let tree = Tree::new("member-added");
    let file = "schema/types/context-frame.schema.json";
    tree.edit_json(file, |schema| {
        let properties = schema["properties"].as_object_mut().expect("properties");
        properties.insert(
            "summary".into(),
            serde_json::json!({"type": "string", "description": "A summary.", "x-cgp-since": format!("{}.0", Versions::derive().w.0.major), "x-cgp-emit": "omit-if-absent"}),
        );
    });
    let (ok, stderr) = check(&tree);
    assert!(!ok);
    let schema_at = tree.place_of(file, "\"summary\": {", "{");
    let rust_at = tree.place_of(
        "crates/cgp-types/src/frame.rs",
        "pub struct ContextFrame",
        "pub",
    );
    assert_reports(
        &stderr,
        &format!(
            "ContextFrame.summary: optional in {file}:{schema_at}, missing from crates/cgp-types/src/frame.rs:{rust_at}"
        ),
    );
}

#[test]
fn a_required_member_made_optional_in_the_schema_only() {
    let tree = Tree::new("required-optional");
    let file = "schema/types/context-frame.schema.json";
    tree.edit_json(file, |schema| {
        let required = schema["required"].as_array_mut().expect("required");
        required.retain(|name| name != "title");
        // An optional member must say when the encoder writes it.
        schema["properties"]["title"]["x-cgp-emit"] = "omit-if-absent".into();
    });
    let (ok, stderr) = check(&tree);
    assert!(!ok);
    let schema_at = tree.place_of(file, "\"title\": {", "{");
    let rust_at = tree.place_of("crates/cgp-types/src/frame.rs", "pub title: String", "pub");
    assert_reports(
        &stderr,
        &format!(
            "ContextFrame.title: required in crates/cgp-types/src/frame.rs:{rust_at}, optional in {file}:{schema_at} (interop profile)"
        ),
    );
}

#[test]
fn a_closed_enum_value_added_in_the_schema_only() {
    let tree = Tree::new("enum-value");
    let file = "schema/vocab/representation.schema.json";
    tree.edit_json(file, |schema| {
        schema["enum"]
            .as_array_mut()
            .expect("enum")
            .push("summary".into());
    });
    let (ok, stderr) = check(&tree);
    assert!(!ok);
    let rust_at = tree.place_of(
        "crates/cgp-types/src/frame.rs",
        "pub enum Representation",
        "pub",
    );
    assert_reports(
        &stderr,
        &format!(
            "Representation: value \"summary\" is in {file}:1:1, missing from crates/cgp-types/src/frame.rs:{rust_at}"
        ),
    );
}

#[test]
fn the_version_bumped_in_the_schema_only() {
    let tree = Tree::new("version-schema");
    let Versions { w, minor, .. } = Versions::derive();
    tree.edit_text(
        "schema/envelope.schema.json",
        &format!("\"{w}\""),
        &format!("\"{minor}\""),
    );
    let (ok, stderr) = check(&tree);
    assert!(!ok);
    let declared = tree.value_place_of("schema/envelope.schema.json", "x-cgp-protocol-version");
    for file in [
        "crates/cgp-types/generated/protocol_version.rs",
        "generated/rust/src/types.rs",
    ] {
        let at = tree.place_of(file, "pub const PROTOCOL_VERSION", "pub");
        assert_reports(
            &stderr,
            &format!(
                "PROTOCOL_VERSION: {file}:{at} says {w}, schema/envelope.schema.json:{declared} declares {minor}"
            ),
        );
        assert_reports(&stderr, &format!("{file}: out of date"));
    }
}

#[test]
fn the_version_edited_by_hand_in_a_generated_constant() {
    let tree = Tree::new("version-types");
    let Versions { w, minor, .. } = Versions::derive();
    let file = "crates/cgp-types/generated/protocol_version.rs";
    tree.edit_text(file, &format!("\"{w}\";"), &format!("\"{minor}\";"));
    let (ok, stderr) = check(&tree);
    assert!(!ok);
    let declared = tree.value_place_of("schema/envelope.schema.json", "x-cgp-protocol-version");
    let types = tree.place_of(file, "pub const PROTOCOL_VERSION", "pub");
    assert_reports(
        &stderr,
        &format!(
            "PROTOCOL_VERSION: {file}:{types} says {minor}, schema/envelope.schema.json:{declared} declares {w}"
        ),
    );
    assert_reports(&stderr, &format!("{file}: out of date"));
}

/// Mutations of the Rust types change what schemars derives, so they need the
/// types rebuilt: the test builds a mutated copy of `cgp-types` in a minimal
/// workspace, dumps its contracts, and runs the sync gate on them. Full tier:
/// it builds a second tree.
#[test]
#[ignore = "full tier"]
fn a_member_renamed_and_a_closed_enum_value_added_in_the_types_only() {
    let tree = Tree::new("types");
    let src = "crates/cgp-types/src";
    std::fs::copy(
        repo().join("crates/cgp-types/Cargo.toml"),
        tree.0.join("crates/cgp-types/Cargo.toml"),
    )
    .expect("manifest");
    copy_dir(
        &repo().join("crates/cgp-types/examples"),
        &tree.0.join("crates/cgp-types/examples"),
    );
    std::fs::copy(repo().join("Cargo.lock"), tree.0.join("Cargo.lock")).expect("lock");
    let manifest = std::fs::read_to_string(repo().join("Cargo.toml")).expect("manifest");
    let start = manifest
        .find("[workspace.package]")
        .expect("workspace.package");
    let workspace = format!(
        "[workspace]\nresolver = \"3\"\nmembers = [\"crates/cgp-types\"]\n\n{}",
        &manifest[start..]
    );
    std::fs::write(tree.0.join("Cargo.toml"), workspace).expect("write manifest");

    let frame = format!("{src}/frame.rs");
    let text = std::fs::read_to_string(tree.0.join(&frame)).expect("read");
    std::fs::write(
        tree.0.join(&frame),
        text.replace("citation_label", "citation"),
    )
    .expect("write");
    tree.edit_text(
        &frame,
        "        Omitted => \"omitted\",\n",
        "        Omitted => \"omitted\",\n        /// A mutation.\n        Approximate => \"approximate\",\n",
    );

    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args([
            "run",
            "--quiet",
            "--offline",
            "-p",
            "cgp-types",
            "--features",
            "schema",
            "--example",
            "dump_contracts",
        ])
        .current_dir(&tree.0)
        .env("CARGO_TARGET_DIR", repo().join("target/mutants"))
        .output()
        .expect("run cargo");
    assert!(
        output.status.success(),
        "building the mutated types failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let contracts: Value = serde_json::from_slice(&output.stdout).expect("contracts");

    let set = cgp_schema::SchemaSet::load(&repo().join("schema"), "schema").expect("schemas");
    let interop = set.bundle(cgp_schema::Profile::Interop).expect("interop");
    let strict = set.bundle(cgp_schema::Profile::Strict).expect("strict");
    let rust = cgp_gates::sync::RustSource::from_dir(&tree.0.join(src), src);
    let mismatches = cgp_gates::sync::compare(&cgp_gates::sync::Inputs {
        set: &set,
        interop: &interop,
        strict: &strict,
        deserialize: &contracts["deserialize"],
        serialize: &contracts["serialize"],
        rust: &rust,
    });
    let report = mismatches
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n");
    let renamed = tree.place_of(&frame, "pub citation: Option<String>", "pub");
    let frame_struct = tree.place_of(&frame, "pub struct ContextFrame", "pub");
    let fidelity = tree.place_of(&frame, "pub enum ContentFidelity", "pub");
    let schema_file = "schema/types/context-frame.schema.json";
    let schema_at = tree.place_of(schema_file, "\"citation_label\": {", "{");
    assert_reports(
        &report,
        &format!(
            "ContextFrame.citation: optional (accepted) in {frame}:{renamed}, missing from {schema_file}:1:1"
        ),
    );
    assert_reports(
        &report,
        &format!(
            "ContextFrame.citation_label: optional in {schema_file}:{schema_at}, missing from {frame}:{frame_struct}"
        ),
    );
    assert_reports(
        &report,
        &format!(
            "ContentFidelity: value \"approximate\" is in {frame}:{fidelity}, missing from schema/vocab/content-fidelity.schema.json:1:1"
        ),
    );
}

#[test]
fn a_schema_that_is_not_json_fails_with_file_line_and_column() {
    let tree = Tree::new("bad-json");
    let file = "schema/types/relation.schema.json";
    tree.edit_text(file, "\"rel\": {", "\"rel\" {");
    let output = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .arg("--root")
        .arg(&tree.0)
        .arg("check")
        .output()
        .expect("run xtask");
    assert_eq!(output.status.code(), Some(1));
    let line = tree.line_of(file, "\"rel\" {");
    let column = std::fs::read_to_string(tree.0.join(file))
        .expect("read")
        .lines()
        .nth(line - 1)
        .expect("line")
        .find("\"rel\" {")
        .expect("col")
        + 7;
    assert_reports(
        &String::from_utf8_lossy(&output.stderr),
        &format!("{file}:{line}:{column}: invalid JSON: expected `:` after the member name"),
    );
    let codegen = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .arg("--root")
        .arg(&tree.0)
        .arg("codegen")
        .output()
        .expect("run xtask");
    assert_eq!(codegen.status.code(), Some(1), "codegen must refuse too");
}

#[test]
fn a_stale_typescript_package_file_fails_and_what_a_build_leaves_does_not() {
    let tree = Tree::new("typescript-stale");
    let leftovers = [
        "generated/typescript/node_modules/typescript/package.json",
        "generated/typescript/dist/index.js",
        "generated/typescript/package-lock.json",
    ];
    for leftover in leftovers {
        let path = tree.0.join(leftover);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(&path, "{}\n").expect("write a leftover");
    }
    let (ok, stderr) = check(&tree);
    assert!(
        ok,
        "what `npm install && npm run build` leaves is not stale: {stderr}"
    );

    let file = "generated/typescript/src/json.ts";
    tree.edit_text(file, "const MAX_DEPTH = 127;", "const MAX_DEPTH = 128;");
    let (ok, stderr) = check(&tree);
    assert!(!ok);
    assert_reports(&stderr, &format!("{file}: out of date"));
    let codegen = tree.xtask(&["codegen"]);
    assert!(codegen.ok, "{}", codegen.stderr);
    let (ok, stderr) = check(&tree);
    assert!(ok, "{stderr}");
    for leftover in leftovers {
        assert!(tree.0.join(leftover).exists(), "codegen removed {leftover}");
    }
}
