//! The bump gate end to end: `cargo xtask` run on temporary copies of the tree
//! (schema/, SPEC.md, generated/ and the hand-written types' sources), with the
//! working version released (as committed, or on the copy when the tree sits
//! between a version bump and its release). Every version in the expected lines
//! is derived from it, so the tests hold across a version change.
//!
//! A copy whose schemas gain a member cannot pass every gate of `check` (the
//! hand-written types, compiled into xtask, do not have it, so the sync gate
//! fails), so these tests assert the lines of the `releases` and `bump` gates.

mod support;

use serde_json::json;
use support::{Tree, Version, Versions};

/// Adds the optional member `ContextQuery.language`.
fn add_optional_member(tree: &Tree) {
    let since = Versions::derive().w.number();
    tree.edit_json(QUERY, |schema| {
        schema["properties"]["language"] = json!({
            "type": "string",
            "description": "The natural language the host wants answers in.",
            "x-cgp-since": since,
            "x-cgp-emit": "omit-if-absent"
        });
    });
}

const QUERY: &str = "schema/types/context-query.schema.json";

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
fn a_released_working_version_is_unchanged() {
    let tree = Tree::released("unchanged");
    let Versions { w, .. } = Versions::derive();
    let check = tree.xtask(&["check"]);
    assert!(check.ok, "{}", check.stderr);
    assert_has(
        &check.stdout,
        &format!("ok   releases: {}\n", tree.releases_summary()),
    );
    assert_has(
        &check.stdout,
        &format!("ok   bump: schema/ is released {w}, unchanged\n"),
    );
    let release = tree.xtask(&["release"]);
    assert!(release.ok, "{}", release.stderr);
    assert_has(
        &release.stdout,
        &format!("{w} is already released with exactly these bundles; nothing to do\n"),
    );
}

#[test]
fn a_removed_member_without_a_bump_fails_naming_the_rule() {
    let tree = Tree::released("removed");
    let Versions { w, minor, major } = Versions::derive();
    let released_interop = w.bundle("interop");
    tree.edit_json(QUERY, |schema| {
        let removed = schema["properties"]
            .as_object_mut()
            .and_then(|members| members.shift_remove("as_of"));
        assert!(removed.is_some(), "as_of is a member of ContextQuery");
    });
    let properties = tree.value_place_of(QUERY, "properties");
    let check = tree.xtask(&["check"]);
    assert!(!check.ok);
    assert_has(
        &check.stderr,
        &format!(
            "{QUERY}:{properties}: FIELD_REMOVED /ContextQuery/as_of (host-to-provider) requires a major bump ({major}); schema says {w}\n\
             released {w} is frozen, and schema/ differs from it (1 change, largest bump major): run `cargo xtask set-version {major}` (a major bump changes the `$id`s and `x-cgp-since` of every file)\n\
             FAIL bump\n"
        ),
    );
    assert_has(
        &check.stderr,
        &format!(
            "codegen would change a frozen file: {released_interop}: changed, but {w} is released and this file is frozen (manifest sha256:"
        ),
    );
    assert_has(&check.stderr, "FAIL releases\n");

    // A minor bump is not enough either.
    let bump = tree.xtask(&["set-version", &minor.to_string()]);
    assert!(bump.ok, "{}", bump.stderr);
    let check = tree.xtask(&["check"]);
    assert_has(
        &check.stderr,
        &format!(
            "{QUERY}:{properties}: FIELD_REMOVED /ContextQuery/as_of (host-to-provider) requires a major bump ({major}); schema says {minor}\n\
             the changes since released {w} need {major}: run `cargo xtask set-version {major}` (a major bump changes the `$id`s and `x-cgp-since` of every file)\n\
             FAIL bump\n"
        ),
    );
}

#[test]
fn an_optional_member_with_a_minor_bump_passes_and_keeps_the_release() {
    let tree = Tree::released("minor");
    let Versions { w, minor, .. } = Versions::derive();
    let (released_interop, released_strict) = (w.bundle("interop"), w.bundle("strict"));
    let interop = tree.read(&released_interop);
    let strict = tree.read(&released_strict);
    let released_vectors = tree.read(&format!("generated/vectors/{}/corpus.ndjson", w.0.slug()));
    add_optional_member(&tree);
    let unbumped = tree.xtask(&["check"]);
    let line = tree.value_place_of(QUERY, "language");
    assert_has(
        &unbumped.stderr,
        &format!(
            "{QUERY}:{line}: FIELD_ADDED_OPTIONAL /ContextQuery/language (host-to-provider) requires a minor bump ({minor}); schema says {w}\n"
        ),
    );

    let bump = tree.xtask(&["set-version", &minor.to_string()]);
    assert!(bump.ok, "{}", bump.stderr);
    assert_eq!(
        bump.stdout,
        format!(
            "wrote   SPEC.md\nwrote   schema/envelope.schema.json\nschema/ declares {minor} (2 files changed); run `cargo xtask codegen`, then `cargo xtask check`\n"
        )
    );
    // SPEC.md's spellings of the working version moved with it.
    let spec = String::from_utf8(tree.read("SPEC.md")).expect("utf-8");
    assert!(
        spec.contains(&cgp_gates::release::header_line(&minor.0)),
        "SPEC.md's header line"
    );
    assert!(!spec.contains(&format!("\"protocol_version\": \"{w}\"")));
    assert!(spec.contains(&format!("\"protocol_version\": \"{minor}\"")));
    let codegen = tree.xtask(&["codegen"]);
    assert!(codegen.ok, "{}", codegen.stderr);
    assert_lacks(&codegen.stdout, "removed ");
    // The released 1.0 bundles survive beside the new 1.1 ones, byte for byte.
    assert_eq!(tree.read(&released_interop), interop);
    assert_eq!(tree.read(&released_strict), strict);
    assert!(tree.0.join(minor.bundle("interop")).exists());
    // So do its conformance vectors, published and embedded, beside the new
    // version's.
    let vectors =
        |version: &Version| format!("generated/vectors/{}/corpus.ndjson", version.0.slug());
    assert_eq!(tree.read(&vectors(&w)), released_vectors);
    assert!(tree.0.join(vectors(&minor)).exists());
    let index = String::from_utf8(tree.read("crates/cgp-cli/vectors/index.rs")).expect("UTF-8");
    assert!(
        index.contains(&format!("version: \"{w}\""))
            && index.contains(&format!("version: \"{minor}\"")),
        "{index}"
    );

    let check = tree.xtask(&["check"]);
    assert_has(
        &check.stdout,
        &format!("ok   releases: {}\n", tree.releases_summary()),
    );
    assert_has(
        &check.stdout,
        &format!(
            "ok   bump: 1 change since released {w} needs a minor bump; schema says {minor}\n"
        ),
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
    let tree = Tree::released("major");
    let Versions { w, minor, major } = Versions::derive();
    add_optional_member(&tree);
    let bump = tree.xtask(&["set-version", &major.to_string()]);
    assert!(bump.ok, "{}", bump.stderr);
    let envelope = String::from_utf8(tree.read("schema/envelope.schema.json")).expect("utf-8");
    assert_has(
        &envelope,
        &format!(
            "\"$id\": \"https://cgp-schema.dev/{}/envelope.schema.json\"",
            major.family_slug()
        ),
    );
    assert_has(
        &envelope,
        &format!("\"x-cgp-protocol-version\": \"{major}\""),
    );
    assert_has(
        &envelope,
        &format!("\"x-cgp-since\": \"{}\"", major.number()),
    );
    let codegen = tree.xtask(&["codegen"]);
    assert!(codegen.ok, "{}", codegen.stderr);
    let check = tree.xtask(&["check"]);
    assert_has(
        &check.stdout,
        &format!(
            "ok   bump: 1 change since released {w} needs a minor bump; schema says {major}\n     \
         note: {major} is a major bump, but the changes since released {w} need only {minor}; peers of the two families will not interoperate\n"
        ),
    );
    assert_has(
        &check.stdout,
        &format!("ok   releases: {}\n", tree.releases_summary()),
    );
    assert_lacks(&check.stderr, "FAIL bump");
}

#[test]
fn an_edited_release_fails_check() {
    let tree = Tree::released("edited-release");
    let Versions { w, .. } = Versions::derive();
    let released_strict = w.bundle("strict");
    let path = tree.0.join(&released_strict);
    let text = std::fs::read_to_string(&path).expect("read");
    std::fs::write(&path, text.replacen("\"title\"", "\"title\" ", 1)).expect("write");
    let check = tree.xtask(&["check"]);
    assert!(!check.ok);
    assert_has(
        &check.stderr,
        &format!(
            "{released_strict}: changed, but {w} is released and this file is frozen (manifest sha256:"
        ),
    );
    assert_has(&check.stderr, "FAIL releases\n");
    std::fs::remove_file(&path).expect("remove");
    let check = tree.xtask(&["check"]);
    assert_has(
        &check.stderr,
        &format!("{released_strict}: missing, but {w} is released and this file is frozen\n"),
    );
}

#[test]
fn codegen_refuses_to_overwrite_a_release() {
    let tree = Tree::released("frozen");
    let Versions { w, minor, .. } = Versions::derive();
    let released_interop = w.bundle("interop");
    tree.edit_json(QUERY, |schema| {
        schema["properties"]["goal"]["description"] = json!("What the context is for.");
    });
    let before = tree.read(&released_interop);
    let codegen = tree.xtask(&["codegen"]);
    assert!(!codegen.ok);
    assert_has(
        &codegen.stderr,
        &format!(
            "{w} is released and frozen; nothing was written. Declare a newer version in schema/ (`cargo xtask check` names the bump the changes need), or, if the wire is unchanged (a bundler fix), re-issue it with `cargo xtask release`\n"
        ),
    );
    assert_eq!(tree.read(&released_interop), before);
    let check = tree.xtask(&["check"]);
    assert!(!check.ok);
    assert_has(
        &check.stderr,
        &format!(
            "released {w} is frozen, and schema/ differs from it (1 change, largest bump none): set `x-cgp-protocol-version` in schema/envelope.schema.json to \"{minor}\"\nFAIL bump\n"
        ),
    );
}
