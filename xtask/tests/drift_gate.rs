//! The drift gate end to end: `cargo xtask` run on temporary copies of the tree
//! (schema/, SPEC.md, generated/ and the hand-written types' sources), with
//! contextgraph/1.0 released as committed.
//!
//! A copy whose schemas gain a member cannot pass every gate of `check` (the
//! hand-written types, compiled into xtask, do not have it, so the sync gate
//! fails), so these tests assert the lines of the `releases` and `bump` gates.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create directory");
    for entry in std::fs::read_dir(from).expect("read directory") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy file");
        }
    }
}

struct Tree(PathBuf);

/// What one xtask run printed.
struct Run {
    ok: bool,
    stdout: String,
    stderr: String,
}

impl Tree {
    fn new(name: &str) -> Self {
        let root = std::env::temp_dir().join(format!("cgp-drift-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for part in ["schema", "generated", "crates/cgp-types/src"] {
            copy_dir(&repo().join(part), &root.join(part));
        }
        std::fs::copy(repo().join("SPEC.md"), root.join("SPEC.md")).expect("copy SPEC.md");
        Tree(root)
    }

    fn xtask(&self, args: &[&str]) -> Run {
        let output = Command::new(env!("CARGO_BIN_EXE_xtask"))
            .arg("--root")
            .arg(&self.0)
            .args(args)
            .output()
            .expect("run xtask");
        Run {
            ok: output.status.success(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    fn edit_json(&self, file: &str, edit: impl FnOnce(&mut Value)) {
        let path = self.0.join(file);
        let mut value: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
        edit(&mut value);
        std::fs::write(
            &path,
            serde_json::to_string_pretty(&value).expect("json") + "\n",
        )
        .expect("write");
    }

    fn read(&self, file: &str) -> Vec<u8> {
        std::fs::read(self.0.join(file)).unwrap_or_else(|error| panic!("{file}: {error}"))
    }

    fn line_of(&self, file: &str, needle: &str) -> usize {
        let text = std::fs::read_to_string(self.0.join(file)).expect("read");
        text.lines()
            .position(|line| line.contains(needle))
            .map(|index| index + 1)
            .unwrap_or_else(|| panic!("{needle} not in {file}"))
    }

    /// Adds the optional member `ContextQuery.language`.
    fn add_optional_member(&self) {
        self.edit_json(QUERY, |schema| {
            schema["properties"]["language"] = json!({
                "type": "string",
                "description": "The natural language the host wants answers in.",
                "x-cgp-since": "1.0",
                "x-cgp-emit": "omit-if-absent"
            });
        });
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const QUERY: &str = "schema/types/context-query.schema.json";
const RELEASED_INTEROP: &str = "generated/schema/contextgraph-1.0/interop.schema.json";
const RELEASED_STRICT: &str = "generated/schema/contextgraph-1.0/strict.schema.json";

fn assert_has(text: &str, expected: &str) {
    assert!(
        text.contains(expected),
        "expected the output to contain\n  {expected}\nbut it was:\n{text}"
    );
}

fn assert_lacks(text: &str, unexpected: &str) {
    assert!(
        !text.contains(unexpected),
        "expected the output not to contain\n  {unexpected}\nbut it was:\n{text}"
    );
}

#[test]
fn the_committed_tree_is_released_and_unchanged() {
    let tree = Tree::new("unchanged");
    let check = tree.xtask(&["check"]);
    assert!(check.ok, "{}", check.stderr);
    assert_has(
        &check.stdout,
        "ok   releases: 2 released files are unchanged (contextgraph/1.0)\n",
    );
    assert_has(
        &check.stdout,
        "ok   bump: schema/ is released contextgraph/1.0, unchanged\n",
    );
    let release = tree.xtask(&["release"]);
    assert!(release.ok, "{}", release.stderr);
    assert_has(
        &release.stdout,
        "contextgraph/1.0 is already released with exactly these bundles; nothing to do\n",
    );
}

#[test]
fn a_removed_member_without_a_bump_fails_naming_the_rule() {
    let tree = Tree::new("removed");
    tree.edit_json(QUERY, |schema| {
        let removed = schema["properties"]
            .as_object_mut()
            .and_then(|members| members.shift_remove("as_of"));
        assert!(removed.is_some(), "as_of is a member of ContextQuery");
    });
    let properties = tree.line_of(QUERY, "\"properties\"");
    let check = tree.xtask(&["check"]);
    assert!(!check.ok);
    assert_has(
        &check.stderr,
        &format!(
            "{QUERY}:{properties}: FIELD_REMOVED /ContextQuery/as_of (host-to-provider) requires a major bump (contextgraph/2.0); schema says contextgraph/1.0\n\
             released contextgraph/1.0 is frozen, and schema/ differs from it (1 change, largest bump major): run `cargo xtask set-version contextgraph/2.0` (a major bump changes the `$id`s and `x-cgp-since` of every file)\n\
             FAIL bump\n"
        ),
    );
    assert_has(
        &check.stderr,
        &format!(
            "codegen would change a frozen file: {RELEASED_INTEROP}: changed, but contextgraph/1.0 is released and this file is frozen (manifest sha256:"
        ),
    );
    assert_has(&check.stderr, "FAIL releases\n");

    // A minor bump is not enough either.
    let bump = tree.xtask(&["set-version", "contextgraph/1.1"]);
    assert!(bump.ok, "{}", bump.stderr);
    let check = tree.xtask(&["check"]);
    assert_has(
        &check.stderr,
        &format!(
            "{QUERY}:{properties}: FIELD_REMOVED /ContextQuery/as_of (host-to-provider) requires a major bump (contextgraph/2.0); schema says contextgraph/1.1\n\
             the changes since released contextgraph/1.0 need contextgraph/2.0: run `cargo xtask set-version contextgraph/2.0` (a major bump changes the `$id`s and `x-cgp-since` of every file)\n\
             FAIL bump\n"
        ),
    );
}

#[test]
fn an_optional_member_with_a_minor_bump_passes_and_keeps_the_release() {
    let tree = Tree::new("minor");
    let interop = tree.read(RELEASED_INTEROP);
    let strict = tree.read(RELEASED_STRICT);
    tree.add_optional_member();
    let unbumped = tree.xtask(&["check"]);
    let line = tree.line_of(QUERY, "\"language\"");
    assert_has(
        &unbumped.stderr,
        &format!(
            "{QUERY}:{line}: FIELD_ADDED_OPTIONAL /ContextQuery/language (host-to-provider) requires a minor bump (contextgraph/1.1); schema says contextgraph/1.0\n"
        ),
    );

    let bump = tree.xtask(&["set-version", "contextgraph/1.1"]);
    assert!(bump.ok, "{}", bump.stderr);
    assert_eq!(
        bump.stdout,
        "wrote   schema/envelope.schema.json\nschema/ declares contextgraph/1.1 (1 files changed); run `cargo xtask codegen`, then `cargo xtask check`\n"
    );
    let codegen = tree.xtask(&["codegen"]);
    assert!(codegen.ok, "{}", codegen.stderr);
    assert_lacks(&codegen.stdout, "removed ");
    // The released 1.0 bundles survive beside the new 1.1 ones, byte for byte.
    assert_eq!(tree.read(RELEASED_INTEROP), interop);
    assert_eq!(tree.read(RELEASED_STRICT), strict);
    assert!(
        tree.0
            .join("generated/schema/contextgraph-1.1/interop.schema.json")
            .exists()
    );

    let check = tree.xtask(&["check"]);
    assert_has(
        &check.stdout,
        "ok   releases: 2 released files are unchanged (contextgraph/1.0)\n",
    );
    assert_has(
        &check.stdout,
        "ok   bump: 1 change since released contextgraph/1.0 needs a minor bump; schema says contextgraph/1.1\n",
    );
    assert_has(&check.stdout, "ok   generated: ");
    assert_lacks(&check.stdout, "note:");
    assert_lacks(&check.stderr, "FAIL bump");
    assert_lacks(&check.stderr, "FAIL releases");
    assert_lacks(&check.stderr, "FAIL generated");

    // Releasing needs every gate; the hand-written types lack the member.
    let release = tree.xtask(&["release"]);
    assert!(!release.ok);
    assert_has(
        &release.stderr,
        "refusing to release: every gate of `cargo xtask check` must pass first\n",
    );
}

#[test]
fn a_major_bump_for_an_additive_change_passes_with_a_note() {
    let tree = Tree::new("major");
    tree.add_optional_member();
    let bump = tree.xtask(&["set-version", "contextgraph/2.0"]);
    assert!(bump.ok, "{}", bump.stderr);
    let envelope = String::from_utf8(tree.read("schema/envelope.schema.json")).expect("utf-8");
    assert_has(
        &envelope,
        "\"$id\": \"https://cgp-schema.dev/contextgraph-2/envelope.schema.json\"",
    );
    assert_has(
        &envelope,
        "\"x-cgp-protocol-version\": \"contextgraph/2.0\"",
    );
    assert_has(&envelope, "\"x-cgp-since\": \"2.0\"");
    let codegen = tree.xtask(&["codegen"]);
    assert!(codegen.ok, "{}", codegen.stderr);
    let check = tree.xtask(&["check"]);
    assert_has(
        &check.stdout,
        "ok   bump: 1 change since released contextgraph/1.0 needs a minor bump; schema says contextgraph/2.0\n     \
         note: contextgraph/2.0 is a major bump, but the changes since released contextgraph/1.0 need only contextgraph/1.1; peers of the two families will not interoperate\n",
    );
    assert_has(
        &check.stdout,
        "ok   releases: 2 released files are unchanged (contextgraph/1.0)\n",
    );
    assert_lacks(&check.stderr, "FAIL bump");
}

#[test]
fn an_edited_release_fails_check() {
    let tree = Tree::new("edited-release");
    let path = tree.0.join(RELEASED_STRICT);
    let text = std::fs::read_to_string(&path).expect("read");
    std::fs::write(&path, text.replacen("\"title\"", "\"title\" ", 1)).expect("write");
    let check = tree.xtask(&["check"]);
    assert!(!check.ok);
    assert_has(
        &check.stderr,
        &format!(
            "{RELEASED_STRICT}: changed, but contextgraph/1.0 is released and this file is frozen (manifest sha256:"
        ),
    );
    assert_has(&check.stderr, "FAIL releases\n");
    std::fs::remove_file(&path).expect("remove");
    let check = tree.xtask(&["check"]);
    assert_has(
        &check.stderr,
        &format!(
            "{RELEASED_STRICT}: missing, but contextgraph/1.0 is released and this file is frozen\n"
        ),
    );
}

#[test]
fn codegen_refuses_to_overwrite_a_release() {
    let tree = Tree::new("frozen");
    tree.edit_json(QUERY, |schema| {
        schema["properties"]["goal"]["description"] = json!("What the context is for.");
    });
    let before = tree.read(RELEASED_INTEROP);
    let codegen = tree.xtask(&["codegen"]);
    assert!(!codegen.ok);
    assert_has(
        &codegen.stderr,
        "contextgraph/1.0 is released and frozen; nothing was written. Declare a newer version in schema/ (`cargo xtask check` names the bump the changes need)\n",
    );
    assert_eq!(tree.read(RELEASED_INTEROP), before);
    let check = tree.xtask(&["check"]);
    assert!(!check.ok);
    assert_has(
        &check.stderr,
        "released contextgraph/1.0 is frozen, and schema/ differs from it (1 change, largest bump none): set `x-cgp-protocol-version` in schema/envelope.schema.json to \"contextgraph/1.1\"\nFAIL bump\n",
    );
}
