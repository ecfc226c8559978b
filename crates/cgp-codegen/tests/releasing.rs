//! The decisions of `cargo xtask release`, called as the library on scratch
//! copies of the repository: what is released, re-issued or refused, and that
//! a refusal writes nothing.

use cgp_codegen::gates::releasing::{self, ChangelogStep, Refusal, Reissue, Released};
use cgp_codegen::gates::{Contracts, Gate};
use cgp_codegen::plan::MANIFEST_PATH;
use cgp_schema::ProtocolVersion;
use cgp_schema::digest::of as sha256;
use serde_json::Value;

mod support;

use support::Tree;

/// Runs `decide` with the contracts of the hand-written types.
fn with_contracts<T>(decide: impl FnOnce(Contracts<'_>) -> T) -> T {
    let deserialize = cgp_types::schema_support::deserialize_contract();
    let serialize = cgp_types::schema_support::serialize_contract();
    decide(Contracts {
        deserialize: &deserialize,
        serialize: &serialize,
    })
}

fn working(tree: &Tree) -> ProtocolVersion {
    cgp_codegen::generate(&tree.0)
        .unwrap_or_else(|problems| panic!("{problems}"))
        .set
        .version
}

/// A scratch copy of the repository with its working version released: as
/// committed, or released on the copy when the tree sits between a version
/// bump and its release.
fn released_tree(name: &str) -> Tree {
    let tree = Tree::whole(name);
    let version = working(&tree);
    let manifest = cgp_codegen::plan::read_manifest(&tree.0).expect("manifest");
    if manifest.release(&version).is_none() {
        let attempt = with_contracts(|contracts| releasing::release(&tree.0, contracts));
        assert!(
            matches!(attempt.outcome, Ok(Released::Released { .. })),
            "{:?}",
            attempt.outcome
        );
    }
    tree
}

fn failed_gates(attempt: &releasing::Attempt) -> Vec<Gate> {
    attempt
        .gates
        .iter()
        .filter(|(_, result)| result.is_err())
        .map(|(gate, _)| *gate)
        .collect()
}

#[test]
fn the_released_working_version_with_the_same_bundles_is_left_as_it_is() {
    let tree = released_tree("release-unchanged");
    let manifest = tree.read(MANIFEST_PATH);
    let attempt = with_contracts(|contracts| releasing::release(&tree.0, contracts));
    assert_eq!(failed_gates(&attempt), vec![]);
    assert!(
        !attempt
            .gates
            .iter()
            .any(|(gate, _)| *gate == Gate::Changelog),
        "the release writes the changelog: its gate is no precondition"
    );
    match attempt.outcome {
        Ok(Released::Unchanged {
            version,
            changelog: ChangelogStep::Present,
        }) => assert_eq!(version, working(&tree)),
        other => panic!("{other:?}"),
    }
    assert_eq!(tree.read(MANIFEST_PATH), manifest);
}

#[test]
fn a_release_is_refused_while_a_gate_fails() {
    let tree = Tree::whole("release-refused");
    let readme = tree.read("README.md");
    tree.write("README.md", &format!("{readme}\n[gone](no-such-file.md)\n"));
    let manifest = tree.read(MANIFEST_PATH);
    let attempt = with_contracts(|contracts| releasing::release(&tree.0, contracts));
    assert_eq!(failed_gates(&attempt), vec![Gate::Links]);
    let refusal = attempt.outcome.expect_err("refused");
    assert!(
        matches!(refusal, Refusal::GatesFail { reissue: None, .. }),
        "{refusal:?}"
    );
    assert_eq!(
        refusal.to_string(),
        "refusing to release: every gate of `cargo xtask check` must pass first"
    );
    assert_eq!(tree.read(MANIFEST_PATH), manifest);
}

#[test]
fn a_reissue_that_would_change_a_verdict_is_refused() {
    let tree = released_tree("reissue-refused");
    let version = working(&tree);
    // "Released by an older bundler": the released interop bundle had no upper
    // bound on max_tokens, and the manifest recorded those bytes.
    let path = cgp_codegen::plan::published_path(&version, cgp_schema::Profile::Interop);
    let current = tree.read(&path);
    let mut value: Value = serde_json::from_str(&current).expect("json");
    let bound = value
        .pointer_mut("/$defs/ContextQuery/properties/max_tokens")
        .and_then(Value::as_object_mut)
        .and_then(|schema| schema.shift_remove("maximum"));
    assert!(bound.is_some(), "max_tokens has a maximum");
    let older = serde_json::to_string_pretty(&value).expect("json") + "\n";
    tree.write(&path, &older);
    let manifest = tree.read(MANIFEST_PATH).replacen(
        &sha256(current.as_bytes()),
        &sha256(older.as_bytes()),
        1,
    );
    tree.write(MANIFEST_PATH, &manifest);

    let attempt = with_contracts(|contracts| releasing::release(&tree.0, contracts));
    let ran: Vec<Gate> = attempt.gates.iter().map(|(gate, _)| *gate).collect();
    assert!(
        !ran.contains(&Gate::Generated) && !ran.contains(&Gate::Releases),
        "a re-issue is about the bundles' bytes: {ran:?}"
    );
    assert_eq!(failed_gates(&attempt), vec![Gate::Bump]);
    let refusal = attempt.outcome.expect_err("refused");
    assert!(
        matches!(
            refusal,
            Refusal::GatesFail {
                reissue: Some(Reissue::Working),
                ..
            }
        ),
        "{refusal:?}"
    );
    assert_eq!(tree.read(&path), older);
    assert_eq!(tree.read(MANIFEST_PATH), manifest);
}

#[test]
fn release_version_refuses_what_it_cannot_reissue() {
    let tree = released_tree("release-version");
    let version = working(&tree);
    let decide = |asked: &ProtocolVersion, from: Option<&std::path::Path>| {
        let attempt =
            with_contracts(|contracts| releasing::release_version(&tree.0, asked, from, contracts));
        assert!(attempt.gates.is_empty(), "decided before any gate");
        attempt.outcome.expect_err("refused")
    };
    let refusal = decide(&version, Some(&tree.0));
    assert!(
        matches!(refusal, Refusal::WorkingFromCheckout(_)),
        "{refusal:?}"
    );
    assert!(refusal.to_string().contains("without --from"), "{refusal}");

    let mut unreleased = version.clone();
    unreleased.minor += 7;
    let refusal = decide(&unreleased, None);
    assert!(
        matches!(refusal, Refusal::NotReleased { .. }),
        "{refusal:?}"
    );
    assert!(refusal.to_string().contains("is not released"), "{refusal}");

    // Moved on to the next minor: the released version needs a checkout.
    let mut next = version.clone();
    next.minor += 1;
    cgp_codegen::gates::release::set_version(&tree.0, &next).expect("set-version");
    let refusal = decide(&version, None);
    assert!(
        matches!(refusal, Refusal::NeedsCheckout { .. }),
        "{refusal:?}"
    );
    assert!(refusal.to_string().contains("--from DIR"), "{refusal}");
}
