//! Properties of `cargo xtask codegen` / `check`: deterministic output, atomic
//! writes, stale files removed and reported, `check` never writes, and a broken
//! schema, template or corpus example is named in the error.

use cgp_codegen::output::{self, FileSystem, RealFileSystem, Stale};
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::Path;

mod support;

use support::{Tree, repo};

#[test]
fn output_is_byte_identical_across_runs_and_locations() {
    let first = Tree::new("determinism-a");
    let second = Tree::new("determinism-b-with-a-longer-path");
    let a = cgp_codegen::generate(&first.0).expect("generate");
    let again = cgp_codegen::generate(&first.0).expect("generate");
    let b = cgp_codegen::generate(&second.0).expect("generate");
    assert_eq!(a.files, again.files);
    assert_eq!(a.files, b.files);
    for (path, contents) in &a.files {
        assert!(
            !contents.contains(&*first.0.to_string_lossy()),
            "{path} contains an absolute path"
        );
        assert!(
            !contents.contains("/work/"),
            "{path} contains an absolute path"
        );
    }
}

#[test]
fn codegen_removes_stale_files_that_check_reports() {
    let tree = Tree::new("stale");
    tree.write("generated/docs/types/Retired.md", "# Retired\n");
    let generation = cgp_codegen::generate(&tree.0).expect("generate");
    let drifts = output::compare(&tree.0, &generation.files, &generation.foreign).expect("compare");
    assert_eq!(
        drifts,
        vec![Stale::Extra("generated/docs/types/Retired.md".into())]
    );
    let report = output::write(
        &tree.0,
        &generation.files,
        &generation.foreign,
        &RealFileSystem,
    )
    .expect("write");
    assert_eq!(
        report.removed,
        vec!["generated/docs/types/Retired.md".to_owned()]
    );
    assert!(report.written.is_empty());
    assert!(!tree.0.join("generated/docs/types/Retired.md").exists());
    assert!(
        output::compare(&tree.0, &generation.files, &generation.foreign)
            .expect("compare")
            .is_empty()
    );
}

#[test]
fn check_reports_a_changed_file_with_a_diff_and_never_writes() {
    let tree = Tree::new("check-never-writes");
    let file = "generated/docs/types/Transform.md";
    let edited = tree.read(file).replace("# Transform", "# Transformation");
    tree.write(file, &edited);
    let generation = cgp_codegen::generate(&tree.0).expect("generate");
    let drifts = output::compare(&tree.0, &generation.files, &generation.foreign).expect("compare");
    assert_eq!(drifts.len(), 1);
    let Stale::Changed { path, diff } = &drifts[0] else {
        panic!("{drifts:?}")
    };
    assert_eq!(path, file);
    assert!(
        diff.contains("- # Transformation") && diff.contains("+ # Transform"),
        "{diff}"
    );
    assert_eq!(tree.read(file), edited, "compare wrote to the tree");
}

/// A file system that fails one chosen operation, to interrupt a write half-way.
struct Failing {
    fail_on: &'static str,
    after: usize,
    seen: Cell<usize>,
}

impl Failing {
    fn trip(&self, operation: &str) -> io::Result<()> {
        if operation == self.fail_on {
            let seen = self.seen.get();
            self.seen.set(seen + 1);
            if seen == self.after {
                return Err(io::Error::other("injected failure"));
            }
        }
        Ok(())
    }
}

impl FileSystem for Failing {
    fn create_dir_all(&self, path: &Path) -> io::Result<()> {
        RealFileSystem.create_dir_all(path)
    }
    fn write(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        self.trip("write")?;
        RealFileSystem.write(path, bytes)
    }
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        self.trip("rename")?;
        RealFileSystem.rename(from, to)
    }
    fn remove(&self, path: &Path) -> io::Result<()> {
        RealFileSystem.remove(path)
    }
}

/// A copy of the tree with three stale docs pages, the files codegen would
/// write, the files releases own, and the stale pages' contents.
struct StaleTree {
    tree: Tree,
    files: BTreeMap<String, String>,
    foreign: BTreeSet<String>,
    before: Vec<(String, String)>,
}

fn stale_tree(name: &str) -> StaleTree {
    let tree = Tree::new(name);
    let generation = cgp_codegen::generate(&tree.0).expect("generate");
    let targets = [
        "generated/docs/types/Transform.md",
        "generated/docs/types/Relation.md",
        "generated/docs/types/FrameId.md",
    ];
    let mut before = Vec::new();
    for file in targets {
        let old = format!("{}<!-- old -->\n", tree.read(file));
        tree.write(file, &old);
        before.push((file.to_owned(), old));
    }
    StaleTree {
        tree,
        files: generation.files,
        foreign: generation.foreign,
        before,
    }
}

fn leftovers(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for path in output::existing_files(root).expect("list") {
        if path.contains(".tmp-") {
            found.push(path);
        }
    }
    found
}

#[test]
fn a_write_failing_half_way_leaves_every_previous_file_intact() {
    let StaleTree {
        tree,
        files,
        foreign,
        before,
    } = stale_tree("write-fails");
    let failing = Failing {
        fail_on: "write",
        after: 1,
        seen: Cell::new(0),
    };
    let error = output::write(&tree.0, &files, &foreign, &failing).expect_err("injected");
    assert_eq!(
        error.to_string(),
        "generated/docs/types/Relation.md: cannot write: injected failure; nothing was changed"
    );
    for (file, old) in &before {
        assert_eq!(&tree.read(file), old, "{file} changed");
    }
    assert!(
        leftovers(&tree.0).is_empty(),
        "temporary files left behind: {:?}",
        leftovers(&tree.0)
    );
}

#[test]
fn a_rename_failing_half_way_names_the_file_and_keeps_it_whole() {
    let StaleTree {
        tree,
        files,
        foreign,
        before,
    } = stale_tree("rename-fails");
    let failing = Failing {
        fail_on: "rename",
        after: 1,
        seen: Cell::new(0),
    };
    let error = output::write(&tree.0, &files, &foreign, &failing).expect_err("injected");
    assert_eq!(
        error.to_string(),
        "generated/docs/types/Relation.md: cannot replace: injected failure; this file and the ones after it keep their previous contents (already updated: generated/docs/types/FrameId.md)"
    );
    assert_eq!(
        tree.read("generated/docs/types/FrameId.md"),
        files["generated/docs/types/FrameId.md"]
    );
    for (file, old) in before
        .iter()
        .filter(|(file, _)| !file.ends_with("FrameId.md"))
    {
        assert_eq!(&tree.read(file), old, "{file} changed");
    }
    assert!(
        leftovers(&tree.0).is_empty(),
        "temporary files left behind: {:?}",
        leftovers(&tree.0)
    );
}

#[test]
fn a_broken_corpus_example_is_named_with_its_line() {
    let tree = Tree::new("corpus");
    let spec = tree.read("SPEC.md");
    let needle = "```json cgp-example name=query.minimal target=Envelope expect=valid";
    let line = spec
        .lines()
        .position(|l| l.starts_with(needle))
        .expect("example")
        + 1;
    tree.write("SPEC.md", &spec.replacen(needle, &format!("{needle}\n{{\"type\": \"query\", \"query\": {{\"goal\": \"\", \"max_frames\": 1.5, \"max_tokens\": 1}}}}\n```\n\n```json cgp-example name=ignored target=Envelope expect=valid"), 1));
    let generation = cgp_codegen::generate(&tree.0).expect("generate");
    let failures: Vec<String> = generation
        .corpus_failures
        .iter()
        .map(ToString::to_string)
        .collect();
    let first = failures.first().expect("a failure");
    assert!(
        first.starts_with(&format!("SPEC.md:{}: query.minimal: /query/max_frames: expected integer, found number 1.5 (expected valid under interop; schema /$defs/ContextQuery/properties/max_frames/type in schema/types/context-query.schema.json:", line + 1)),
        "{failures:#?}"
    );
}

#[test]
fn a_broken_template_is_named() {
    let generation = cgp_codegen::generate(&repo()).expect("generate");
    let broken = cgp_codegen::docs::Templates {
        index: "{% for x in %}",
        page: cgp_codegen::docs::Templates::BUILT_IN.page,
    };
    let error = cgp_codegen::docs::render(
        broken,
        &cgp_schema::model::Protocol::of_bundle(&generation.set, &generation.bundles[0]),
        &generation.set.version.to_string(),
        &generation.examples,
        "SPEC.md",
        &[],
    )
    .expect_err("broken template");
    let text = error.to_string();
    assert!(
        text.starts_with("crates/cgp-codegen/templates/index.md.j2: syntax error"),
        "{text}"
    );
}

/// The first version of the working family, `<major>.0`: what a member added
/// to every version of it declares as `x-cgp-since`.
fn generation_start() -> String {
    let generation = cgp_codegen::generate(&repo()).expect("generate");
    format!("{}.0", generation.set.version.major)
}

#[test]
fn a_schema_typify_cannot_handle_is_named_with_its_member() {
    let tree = Tree::new("typify-panic");
    let file = "schema/types/transform.schema.json";
    let mut schema: serde_json::Value = serde_json::from_str(&tree.read(file)).expect("json");
    schema["properties"]["weird"] = serde_json::json!({
        "description": "Anything but a representation.",
        "not": {"$ref": "../vocab/representation.schema.json"},
        "x-cgp-since": generation_start(),
        "x-cgp-emit": "omit-if-absent"
    });
    tree.write(
        file,
        &(serde_json::to_string_pretty(&schema).expect("json") + "\n"),
    );
    let line = tree
        .read(file)
        .lines()
        .position(|l| l.contains("\"weird\""))
        .expect("member")
        + 1;
    let error = cgp_codegen::generate(&tree.0)
        .expect_err("typify refuses")
        .to_string();
    assert!(
        error.starts_with(&format!("{file}:{line}:")) && error.contains("/properties/weird: typify cannot generate this schema (bundle /$defs/Transform/properties/weird): typify panicked"),
        "{error}"
    );
}

#[test]
fn a_schema_the_protocol_model_cannot_describe_is_named_with_its_position() {
    let tree = Tree::new("model-gap");
    let file = "schema/types/relation.schema.json";
    let mut schema: serde_json::Value = serde_json::from_str(&tree.read(file)).expect("json");
    schema["patternProperties"] = serde_json::json!({"^x-": {"type": "string"}});
    tree.write(
        file,
        &(serde_json::to_string_pretty(&schema).expect("json") + "\n"),
    );
    let error = cgp_codegen::generate(&tree.0)
        .expect_err("the model refuses")
        .to_string();
    assert!(
        error.starts_with(&format!("{file}:1:1: /$defs/Relation: the protocol model cannot describe this schema: keyword `patternProperties` in this position")),
        "{error}"
    );
}

#[test]
fn a_shape_a_package_cannot_describe_is_refused_at_its_place_in_the_schema() {
    let tree = Tree::new("package-gap");
    let file = "schema/types/relation.schema.json";
    let mut schema: serde_json::Value = serde_json::from_str(&tree.read(file)).expect("json");
    // typify and the model take a pattern; the TypeScript package cannot
    // check one as the reference would, and refuses it.
    schema["properties"]["rel"]["pattern"] = serde_json::json!("^[a-z.]+$");
    tree.write(
        file,
        &(serde_json::to_string_pretty(&schema).expect("json") + "\n"),
    );
    let line = tree
        .read(file)
        .lines()
        .position(|l| l.contains("\"rel\": {"))
        .expect("member")
        + 1;
    let error = cgp_codegen::generate(&tree.0)
        .expect_err("a package refuses")
        .to_string();
    assert!(
        error.starts_with(&format!("{file}:{line}:"))
            && error.contains("member `rel`: the TypeScript package cannot describe `pattern`"),
        "{error}"
    );
    assert!(!error.contains("templates/"), "{error}");
}

/// `set-version` rewrites schema files through the same writer: a failure
/// while staging the second file leaves both files as they were, and no
/// temporary file behind.
#[test]
fn replace_changes_nothing_when_a_write_fails() {
    let tree = Tree::new("replace-fails");
    let first = "schema/envelope.schema.json";
    let second = "schema/types/transform.schema.json";
    let before = (tree.read(first), tree.read(second));
    let files = BTreeMap::from([(first, "{}\n"), (second, "{}\n")]);
    let failing = Failing {
        fail_on: "write",
        after: 1,
        seen: Cell::new(0),
    };
    let problem = output::replace(&tree.0, &files, &failing).expect_err("the write fails");
    assert!(
        problem.to_string().contains("injected failure")
            && problem.to_string().contains("nothing was changed"),
        "{problem}"
    );
    assert_eq!((tree.read(first), tree.read(second)), before);
    for directory in ["schema", "schema/types"] {
        let leftovers: Vec<_> = std::fs::read_dir(tree.0.join(directory))
            .expect("list")
            .filter_map(Result::ok)
            .filter(|entry| entry.file_name().to_string_lossy().contains(".tmp-"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }
    let written = output::replace(&tree.0, &files, &RealFileSystem).expect("replace");
    assert_eq!(written, vec![first.to_owned(), second.to_owned()]);
    assert_eq!(tree.read(first), "{}\n");
}
