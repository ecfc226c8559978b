//! The gates of `cargo xtask check` on a scratch copy of the repository: each
//! holds on the committed tree and fails, with the typed problem it names, when
//! the promise it guards is broken.

use cgp_codegen::gates::{self, Contracts, Gate, GateProblem};
use cgp_codegen::output::Drift;
use cgp_schema::release::FrozenProblem;
use cgp_schema::sync::MismatchKind;
use serde_json::Value;

mod support;

use support::{Tree, repo};

/// The outcome of each gate but the sync gate, which reads the hand-written
/// sources and has tests of its own.
fn gates_of(tree: &Tree) -> Vec<(Gate, gates::GateResult)> {
    let generation = cgp_codegen::generate(&tree.0).unwrap_or_else(|e| panic!("{e}"));
    let nothing = Value::Null;
    let contracts = Contracts {
        deserialize: &nothing,
        serialize: &nothing,
    };
    let checked: Vec<Gate> = Gate::ALL
        .into_iter()
        .filter(|gate| *gate != Gate::Sync)
        .collect();
    gates::run(&tree.0, &generation, contracts, &checked)
}

/// The problems `gate` reports on `tree`; none when it holds.
fn problems(tree: &Tree, gate: Gate) -> Vec<GateProblem> {
    let (_, result) = gates_of(tree)
        .into_iter()
        .find(|(checked, _)| *checked == gate)
        .expect("the gate ran");
    result.err().unwrap_or_default()
}

fn released_bundle() -> (String, cgp_schema::ProtocolVersion) {
    let manifest = cgp_codegen::release::read_manifest(&repo()).expect("manifest");
    let release = manifest.releases().first().expect("a released version");
    let path = release
        .files
        .keys()
        .next()
        .expect("a released file")
        .clone();
    (path, release.version.clone())
}

#[test]
fn every_gate_holds_on_the_committed_tree() {
    let tree = Tree::new("current");
    for (gate, result) in gates_of(&tree) {
        assert!(result.is_ok(), "{gate}: {result:?}");
    }
}

#[test]
fn a_missing_generated_file_fails_the_generated_gate() {
    let tree = Tree::new("missing");
    let file = "generated/docs/README.md";
    std::fs::remove_file(tree.0.join(file)).expect("remove");
    assert_eq!(
        problems(&tree, Gate::Generated),
        vec![
            GateProblem::Stale(Drift::Missing(file.into())),
            GateProblem::RunCodegen { files: 1 },
        ]
    );
}

#[test]
fn a_removed_released_bundle_fails_the_releases_gate() {
    let tree = Tree::new("frozen");
    let (path, version) = released_bundle();
    std::fs::remove_file(tree.0.join(&path)).expect("remove");
    assert_eq!(
        problems(&tree, Gate::Releases),
        vec![GateProblem::Frozen(FrozenProblem::Missing {
            path,
            version
        })]
    );
}

#[test]
fn an_edited_version_constant_fails_the_version_gate() {
    let tree = Tree::new("version");
    let file = tree.0.join(cgp_codegen::embed::TYPES_VERSION_FILE);
    let text = std::fs::read_to_string(&file).expect("read");
    let declared = cgp_codegen::generate(&tree.0)
        .expect("generate")
        .set
        .version;
    let mut other = declared.clone();
    other.minor += 1;
    let declared = declared.to_string();
    assert!(text.contains(&declared), "{text}");
    std::fs::write(&file, text.replace(&declared, &other.to_string())).expect("write");
    let problems = problems(&tree, Gate::Version);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let GateProblem::Mismatch(mismatch) = &problems[0] else {
        panic!("{problems:?}");
    };
    assert_eq!(mismatch.kind, MismatchKind::Version, "{mismatch}");
}
