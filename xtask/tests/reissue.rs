//! A released version freezes the wire, not the bytes: `cargo xtask release`
//! re-issues the working version's released bundles when codegen now writes
//! other bytes that judge everything the same, and refuses when a verdict would
//! change. Each test plays "released by an older bundler" by rewriting a
//! released bundle on a scratch tree and recording its digest, as a release
//! would have.

mod support;

use cgp_schema::release::{Manifest, sha256};
use serde_json::Value;
use support::{Tree, Versions, assert_reports};

const MANIFEST: &str = "generated/schema/releases.json";

/// Replaces the released interop bundle by `edit` of it, and records the new
/// bytes in the manifest as if they had been released so.
fn release_other_bytes(tree: &Tree, edit: impl FnOnce(&str) -> String) -> (String, String) {
    let path = Versions::derive().w.bundle("interop");
    let current = String::from_utf8(tree.read(&path)).expect("utf-8");
    let older = edit(&current);
    std::fs::write(tree.0.join(&path), &older).expect("write");
    let manifest_text = String::from_utf8(tree.read(MANIFEST)).expect("utf-8");
    let manifest_text =
        manifest_text.replacen(&sha256(current.as_bytes()), &sha256(older.as_bytes()), 1);
    std::fs::write(tree.0.join(MANIFEST), manifest_text).expect("write manifest");
    (path, older)
}

fn manifest(tree: &Tree) -> Manifest {
    let text = String::from_utf8(tree.read(MANIFEST)).expect("utf-8");
    Manifest::parse(MANIFEST, &text).expect("manifest")
}

#[test]
fn new_bytes_with_the_same_verdicts_are_reissued_keeping_the_old_digest() {
    let tree = Tree::new("reissue-same");
    let Versions { w, .. } = Versions::derive();
    let (path, older) = release_other_bytes(&tree, |text| {
        let value: Value = serde_json::from_str(text).expect("json");
        serde_json::to_string(&value).expect("json") + "\n"
    });
    let check = tree.xtask(&["check"]);
    assert!(!check.ok);
    assert_reports(
        &check.stderr,
        &format!("codegen would change a frozen file: {path}: changed, but {w} is released"),
    );
    let codegen = tree.xtask(&["codegen"]);
    assert!(!codegen.ok);
    assert_eq!(tree.read(&path), older.as_bytes());

    let release = tree.xtask(&["release"]);
    assert!(release.ok, "{}\n{}", release.stdout, release.stderr);
    assert_reports(&release.stdout, &format!("re-issued {path}\n"));
    assert_reports(
        &release.stdout,
        &format!("re-issued {w}: the same verdicts under both profiles on "),
    );
    let check = tree.xtask(&["check"]);
    assert!(check.ok, "{}", check.stderr);
    let history = manifest(&tree)
        .release(&w.0)
        .expect("released")
        .history(&path)
        .into_iter()
        .map(str::to_owned)
        .collect::<Vec<_>>();
    let current = tree.read(&path);
    // Earlier re-issues stay in the history before the two this test made.
    assert_eq!(
        history.get(history.len().saturating_sub(2)..),
        Some(&[sha256(older.as_bytes()), sha256(&current)][..])
    );
    // Nothing more to re-issue: a second release changes nothing.
    let again = tree.xtask(&["release"]);
    assert!(again.ok, "{}", again.stderr);
    assert_reports(&again.stdout, "already released with exactly these bundles");
}

#[test]
fn new_bytes_that_change_a_verdict_are_refused() {
    let tree = Tree::new("reissue-changed");
    let Versions { w, .. } = Versions::derive();
    // The "older" bundle had no upper bound on max_tokens: the current one
    // rejects what it accepted.
    let (path, older) = release_other_bytes(&tree, |text| {
        let mut value: Value = serde_json::from_str(text).expect("json");
        let bound = value
            .pointer_mut("/$defs/ContextQuery/properties/max_tokens")
            .and_then(Value::as_object_mut)
            .and_then(|schema| schema.shift_remove("maximum"));
        assert!(bound.is_some(), "max_tokens has a maximum");
        serde_json::to_string_pretty(&value).expect("json") + "\n"
    });
    let before = tree.read(MANIFEST);
    let release = tree.xtask(&["release"]);
    assert!(!release.ok);
    // The bump gate sees the released wire differ from schema/ first; the
    // verdict comparison itself is tested in cgp_schema::reissue.
    assert_reports(
        &release.stderr,
        "VALUE_SET_NARROWED /ContextQuery/max_tokens",
    );
    assert_reports(
        &release.stderr,
        &format!(
            "refusing to re-issue {w}: every other gate of `cargo xtask check` must pass first"
        ),
    );
    assert_eq!(tree.read(&path), older.as_bytes());
    assert_eq!(tree.read(MANIFEST), before);
}
