//! The scratch trees the codegen and gate tests work on: a copy of the sources
//! and of everything codegen owns.

#![allow(dead_code)]

use cgp_codegen::output;
use std::path::{Path, PathBuf};

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn copy_dir(from: &Path, to: &Path) {
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

fn copy_sources(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create directory");
    for entry in std::fs::read_dir(from).expect("read directory") {
        let entry = entry.expect("entry");
        let name = entry.file_name();
        if matches!(name.to_str(), Some("target" | ".git" | "node_modules")) {
            continue;
        }
        let kind = entry.file_type().expect("file type");
        if kind.is_dir() {
            copy_sources(&entry.path(), &to.join(&name));
        } else if kind.is_file() {
            std::fs::copy(entry.path(), to.join(&name)).expect("copy file");
        }
    }
}

pub struct Tree(pub PathBuf);

impl Tree {
    pub fn new(name: &str) -> Self {
        let root = std::env::temp_dir().join(format!("cgp-codegen-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        copy_dir(&repo().join("schema"), &root.join("schema"));
        for owned in output::OWNED_DIRS {
            copy_dir(&repo().join(owned), &root.join(owned));
        }
        std::fs::copy(repo().join("SPEC.md"), root.join("SPEC.md")).expect("copy SPEC.md");
        std::fs::copy(repo().join("CHANGELOG.md"), root.join("CHANGELOG.md"))
            .expect("copy CHANGELOG.md");
        Tree(root)
    }

    /// A copy of every source of the repository (not `target/`, `.git` or
    /// `node_modules`), for gates that read the hand-written docs and what
    /// they link to.
    pub fn whole(name: &str) -> Self {
        let root = std::env::temp_dir().join(format!("cgp-codegen-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        copy_sources(&repo(), &root);
        Tree(root)
    }

    pub fn read(&self, file: &str) -> String {
        std::fs::read_to_string(self.0.join(file)).expect("read")
    }

    pub fn write(&self, file: &str, text: &str) {
        std::fs::write(self.0.join(file), text).expect("write");
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
