//! The gates of `cargo xtask check` on a scratch copy of the repository: each
//! holds on the committed tree and fails, with the typed problem it names, when
//! the promise it guards is broken.

use cgp_codegen::gates::{self, Contracts, Gate, GateProblem};
use cgp_codegen::output::{self, Drift};
use cgp_schema::release::FrozenProblem;
use cgp_schema::sync::MismatchKind;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
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

/// A copy of what the gates read: the sources and everything codegen owns.
struct Tree(PathBuf);

impl Tree {
    fn new(name: &str) -> Self {
        let root = std::env::temp_dir().join(format!("cgp-gates-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        copy_dir(&repo().join("schema"), &root.join("schema"));
        for owned in output::OWNED_DIRS {
            copy_dir(&repo().join(owned), &root.join(owned));
        }
        std::fs::copy(repo().join("SPEC.md"), root.join("SPEC.md")).expect("copy SPEC.md");
        Tree(root)
    }

    /// The outcome of each gate but the sync gate, which reads the hand-written
    /// sources and has tests of its own.
    fn gates(&self) -> Vec<(Gate, gates::GateResult)> {
        let generation = cgp_codegen::generate(&self.0).unwrap_or_else(|e| panic!("{e}"));
        let nothing = Value::Null;
        let contracts = Contracts {
            deserialize: &nothing,
            serialize: &nothing,
        };
        let checked: Vec<Gate> = Gate::ALL
            .into_iter()
            .filter(|gate| *gate != Gate::Sync)
            .collect();
        gates::run(&self.0, &generation, contracts, &checked)
    }

    fn problems(&self, gate: Gate) -> Vec<GateProblem> {
        let (_, result) = self
            .gates()
            .into_iter()
            .find(|(checked, _)| *checked == gate)
            .expect("the gate ran");
        result.err().unwrap_or_default()
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
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
    for (gate, result) in tree.gates() {
        assert!(result.is_ok(), "{gate}: {result:?}");
    }
}

#[test]
fn a_missing_generated_file_fails_the_generated_gate() {
    let tree = Tree::new("missing");
    let file = "generated/docs/README.md";
    std::fs::remove_file(tree.0.join(file)).expect("remove");
    assert_eq!(
        tree.problems(Gate::Generated),
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
        tree.problems(Gate::Releases),
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
    let problems = tree.problems(Gate::Version);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let GateProblem::Mismatch(mismatch) = &problems[0] else {
        panic!("{problems:?}");
    };
    assert_eq!(mismatch.kind, MismatchKind::Version, "{mismatch}");
}
