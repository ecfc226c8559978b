//! The scratch trees the codegen and gate tests work on: a copy of the sources
//! and of everything codegen owns.

#![allow(dead_code)]

use cgp_codegen::output;
use cgp_test_support::Scratch;
pub use cgp_test_support::{copy_dir, repo};
use std::path::PathBuf;

/// A scratch tree (its root, and the scratch directory that holds it, removed
/// when dropped).
pub struct Tree(pub PathBuf, Scratch);

impl Tree {
    /// What codegen reads and owns: `schema/`, SPEC.md, Cargo.toml, CHANGELOG.md and every
    /// directory codegen writes.
    pub fn new(name: &str) -> Self {
        let scratch = Scratch::new(&format!("codegen-{name}"));
        let root = scratch.path().to_path_buf();
        copy_dir(&repo().join("schema"), &root.join("schema"));
        for owned in output::OWNED_DIRS {
            copy_dir(&repo().join(owned), &root.join(owned));
        }
        std::fs::copy(repo().join("SPEC.md"), root.join("SPEC.md")).expect("copy SPEC.md");
        // The workspace manifest: the project's home.
        std::fs::copy(repo().join("Cargo.toml"), root.join("Cargo.toml")).expect("copy Cargo.toml");
        std::fs::copy(repo().join("CHANGELOG.md"), root.join("CHANGELOG.md"))
            .expect("copy CHANGELOG.md");
        Tree(root, scratch)
    }

    /// A copy of every source of the repository (not `target/`, `.git` or
    /// `node_modules`), for gates that read the hand-written docs and what
    /// they link to.
    pub fn whole(name: &str) -> Self {
        let scratch = Scratch::new(&format!("codegen-{name}"));
        let root = scratch.path().to_path_buf();
        cgp_test_support::copy_sources(&repo(), &root);
        Tree(root, scratch)
    }

    pub fn read(&self, file: &str) -> String {
        std::fs::read_to_string(self.0.join(file)).expect("read")
    }

    pub fn write(&self, file: &str, text: &str) {
        std::fs::write(self.0.join(file), text).expect("write");
    }
}
