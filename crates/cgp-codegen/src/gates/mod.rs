//! The gates of `cargo xtask check`: each judges one promise a [`Generation`]
//! must keep and either holds, with a one-line summary, or fails with typed
//! [`GateProblem`]s, which front ends print and tests compare.
//!
//! The gates depend on the [plan](crate::plan), never the other way round:
//! [`release`] is the release manifest and the frozen bundles on disk,
//! [`changelog`] CHANGELOG.md's sections and their gate, [`releasing`] the
//! decisions of `cargo xtask release`, and every problem is a
//! [`GateProblem`], declared in one module they all import.

use crate::Generation;
use crate::output;
use crate::targets::Language;
use cgp_gates::coverage::Coverage;
use cgp_gates::links;
use cgp_gates::sync::{self, RustSource};
use cgp_schema::model::{Location, Protocol};
use cgp_schema::{Diagnostic, Profile};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

pub mod changelog;
mod problem;
pub mod release;
pub mod releasing;

pub use problem::{ChangelogProblem, GateProblem};

/// Where the hand-written types live, relative to the repository root.
pub const TYPES_SOURCE: &str = "crates/cgp-types/src";

/// Declares [`Gate`] from one table: each gate's doc, its name and its check.
/// [`Gate::ALL`], [`Gate::name`] and the dispatch of [`run`] all follow from
/// it, so adding a gate is one entry here plus its check function.
macro_rules! gates {
    ($($(#[doc = $doc:literal])* $variant:ident => $name:literal, $check:expr;)*) => {
        /// One gate of `check`, in the order [`Gate::ALL`] reports them.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Gate {
            $($(#[doc = $doc])* $variant,)*
        }

        impl Gate {
            /// Every gate, in the order `check` reports them.
            pub const ALL: [Gate; [$($name),*].len()] = [$(Gate::$variant,)*];

            /// The name `check` prints: `corpus`, `generated`, ….
            pub fn name(self) -> &'static str {
                match self {
                    $(Gate::$variant => $name,)*
                }
            }

            /// Runs this gate's check.
            fn check(
                self,
                root: &Path,
                generation: &Generation,
                contracts: Contracts<'_>,
            ) -> GateResult {
                let check: fn(&Path, &Generation, Contracts<'_>) -> GateResult = match self {
                    $(Gate::$variant => $check,)*
                };
                check(root, generation, contracts)
            }
        }
    };
}

gates! {
    /// Every SPEC.md example does what its `expect=` says, under both profiles.
    Corpus => "corpus", |_, generation, _| corpus(generation);
    /// `generated/` is exactly what `schema/` and SPEC.md produce.
    Generated => "generated", |root, generation, _| generated(root, generation);
    /// The hand-written types accept what the interop profile accepts and emit
    /// what the strict profile allows.
    Sync => "sync", sync_gate;
    /// The declared protocol version, the constants codegen wrote and SPEC.md
    /// (its header line, the version rule's table, its valid acknowledgements)
    /// agree.
    Version => "version", |root, generation, _| version(root, generation);
    /// Released files keep their recorded digests, and codegen would not change
    /// them.
    Releases => "releases", |root, generation, _| releases(root, generation);
    /// The schemas carry the version bump their changes since the latest
    /// release require.
    Bump => "bump", |root, generation, _| bump(root, generation);
    /// Every variant, named type, member and vocabulary value of the working
    /// version appears in a valid SPEC.md example.
    Coverage => "coverage", |_, generation, _| coverage(generation);
    /// Every `x-cgp-spec` reference and every relative link in the Markdown
    /// codegen writes and in [`LINKED_DOCS`] leads to a file and anchor that
    /// exist.
    Links => "links", |root, generation, _| links_gate(root, generation);
    /// CHANGELOG.md has one section for each released version, and no other.
    Changelog => "changelog", |root, generation, _| changelog_gate(root, generation);
    /// The published crates' manifests and README.md's `uses:` lines agree
    /// with the one `repository` of the workspace manifest ([`crate::home`]).
    Home => "home", |root, _, _| home_gate(root);
}

/// The hand-written Markdown files the links gate reads, besides every
/// Markdown file the codegen plan writes and every guide under `docs/`
/// (`crate::site::GUIDES_DIR`), which the site renders.
pub const LINKED_DOCS: [&str; 3] = ["README.md", "SPEC.md", "ARCHITECTURE.md"];

impl fmt::Display for Gate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What one gate found: a one-line summary when it holds, its problems when
/// it does not.
pub type GateResult = Result<String, Vec<GateProblem>>;

/// The schemars contracts of the hand-written types, which the sync gate
/// compares with the bundles. The front end passes them in: it is the binary
/// that compiles the hand-written types.
#[derive(Debug, Clone, Copy)]
pub struct Contracts<'a> {
    /// What the types decode.
    pub deserialize: &'a Value,
    /// What the types encode.
    pub serialize: &'a Value,
}

/// Runs `gates` on `generation`, whose tree is at `root`, in the order given.
pub fn run(
    root: &Path,
    generation: &Generation,
    contracts: Contracts<'_>,
    gates: &[Gate],
) -> Vec<(Gate, GateResult)> {
    gates
        .iter()
        .map(|&gate| (gate, gate.check(root, generation, contracts)))
        .collect()
}

/// CHANGELOG.md has a section for each released version, and no other.
fn changelog_gate(root: &Path, generation: &Generation) -> GateResult {
    changelog::problems(root, generation).map(|count| {
        format!("CHANGELOG.md has a section for each of the {count} released version(s)")
    })
}

/// The hand-written files that repeat the project's public home agree with
/// its one declaration (`crate::home`).
fn home_gate(root: &Path) -> GateResult {
    let diagnostic = |problem: Diagnostic| vec![GateProblem::Diagnostic(problem)];
    let home = crate::home::Home::read(root).map_err(diagnostic)?;
    let mut manifests = Vec::new();
    for parent in ["crates", "generated"] {
        let Ok(entries) = std::fs::read_dir(root.join(parent)) else {
            continue;
        };
        let mut names: Vec<String> = entries
            .filter_map(|entry| entry.ok())
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        for name in names {
            let path = format!("{parent}/{name}/Cargo.toml");
            if let Ok(text) = std::fs::read_to_string(root.join(&path)) {
                manifests.push((path, text));
            }
        }
    }
    let mut guide_paths = vec!["README.md".to_owned()];
    if let Ok(entries) = std::fs::read_dir(root.join("docs")) {
        let mut names: Vec<String> = entries
            .filter_map(|entry| entry.ok())
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".md"))
            .collect();
        names.sort();
        guide_paths.extend(names.into_iter().map(|name| format!("docs/{name}")));
    }
    let mut guides = Vec::new();
    for path in guide_paths {
        let text = std::fs::read_to_string(root.join(&path)).map_err(|error| {
            vec![GateProblem::Unreadable {
                path: path.clone(),
                error: error.to_string(),
            }]
        })?;
        guides.push((path, text));
    }
    let problems = crate::home::disagreements(&home, &manifests, &guides);
    if problems.is_empty() {
        Ok(format!(
            "{} crate manifests, README.md and {} guides agree with the home {}",
            manifests.len(),
            guides.len() - 1,
            home.url
        ))
    } else {
        Err(problems.into_iter().map(GateProblem::Diagnostic).collect())
    }
}

fn corpus(generation: &Generation) -> GateResult {
    if generation.corpus_failures.is_empty() {
        Ok(format!(
            "{} SPEC.md examples hold under both profiles",
            generation.examples.len()
        ))
    } else {
        Err(generation
            .corpus_failures
            .iter()
            .cloned()
            .map(GateProblem::Example)
            .collect())
    }
}

fn generated(root: &Path, generation: &Generation) -> GateResult {
    let stale = output::compare(root, &generation.files, &generation.foreign)
        .map_err(|problem| vec![GateProblem::Diagnostic(problem)])?;
    if stale.is_empty() {
        let packages: Vec<String> = Language::ALL
            .iter()
            .map(|language| {
                let dir = format!("{}/", language.target().dir());
                let count = generation
                    .files
                    .keys()
                    .filter(|path| path.starts_with(&dir))
                    .count();
                format!("{} {count}", language.name())
            })
            .collect();
        return Ok(format!(
            "{} generated files are current ({}); packages: {}",
            generation.files.len(),
            generation.set.version,
            packages.join(", ")
        ));
    }
    let files = stale.len();
    let mut problems: Vec<GateProblem> = stale.into_iter().map(GateProblem::Stale).collect();
    problems.push(GateProblem::RunCodegen { files });
    Err(problems)
}

fn sync_gate(root: &Path, generation: &Generation, contracts: Contracts<'_>) -> GateResult {
    let rust = RustSource::from_dir(&root.join(TYPES_SOURCE), TYPES_SOURCE);
    let mismatches = sync::compare(&sync::Inputs {
        set: &generation.set,
        interop: generation.bundle(Profile::Interop),
        strict: generation.bundle(Profile::Strict),
        deserialize: contracts.deserialize,
        serialize: contracts.serialize,
        rust: &rust,
    });
    if mismatches.is_empty() {
        Ok("the hand-written types accept the interop profile and emit the strict profile".into())
    } else {
        Err(mismatches.into_iter().map(GateProblem::Mismatch).collect())
    }
}

fn version(root: &Path, generation: &Generation) -> GateResult {
    let files = [
        crate::embed::TYPES_VERSION_FILE,
        "generated/rust/src/types.rs",
    ];
    let mut sources = Vec::new();
    for file in files {
        let text = cgp_schema::source::read_text_bounded(&root.join(file)).map_err(|error| {
            vec![GateProblem::Unreadable {
                path: file.to_owned(),
                error: error.to_string(),
            }]
        })?;
        sources.push((file.to_owned(), text));
    }
    let mismatches = sync::version_agreement(&generation.set, &sources);
    let spec = cgp_schema::source::read_text_bounded(&root.join(cgp_gates::release::SPEC_FILE))
        .map_err(|error| {
            vec![GateProblem::Unreadable {
                path: cgp_gates::release::SPEC_FILE.to_owned(),
                error: error.to_string(),
            }]
        })?;
    let spec_problems = cgp_gates::release::spec_problems(&spec, &generation.set.version);
    if mismatches.is_empty() && spec_problems.is_empty() {
        Ok(format!(
            "schema/, {}, {} and {} all say {}",
            files[0],
            files[1],
            cgp_gates::release::SPEC_FILE,
            generation.set.version
        ))
    } else {
        Err(mismatches
            .into_iter()
            .map(GateProblem::Mismatch)
            .chain(spec_problems.into_iter().map(GateProblem::Diagnostic))
            .collect())
    }
}

fn releases(root: &Path, generation: &Generation) -> GateResult {
    let problems = release::frozen_problems(root, generation);
    if !problems.is_empty() {
        return Err(problems);
    }
    let releases = generation.releases.releases();
    if releases.is_empty() {
        return Ok("no protocol version is released yet".into());
    }
    let versions: Vec<String> = releases.iter().map(|r| r.version.to_string()).collect();
    let files: usize = releases.iter().map(|r| r.files.len()).sum();
    Ok(format!(
        "{files} released files are unchanged ({})",
        versions.join(", ")
    ))
}

fn bump(root: &Path, generation: &Generation) -> GateResult {
    let verdict = release::bump_verdict(root, generation).map_err(|problems| {
        problems
            .0
            .into_iter()
            .map(GateProblem::Diagnostic)
            .collect::<Vec<_>>()
    })?;
    if !verdict.passed() {
        return Err(verdict
            .problems
            .into_iter()
            .map(GateProblem::Bump)
            .collect());
    }
    let mut summary = verdict.summary();
    for note in &verdict.notes {
        summary.push_str(&format!("\n     note: {note}"));
    }
    Ok(summary)
}

fn coverage(generation: &Generation) -> GateResult {
    let set = &generation.set;
    let interop = generation.bundle(Profile::Interop);
    let protocol = Protocol::of_bundle(set, interop);
    let locate = |pointer: &str| {
        let target = interop.origins.locate(pointer)?;
        let file = set.files.get(&target.path)?;
        let position = file.document.position(&target.pointer)?;
        Some(Location {
            file: set.shown(&target.path),
            line: position.line,
            column: position.column,
        })
    };
    let coverage = Coverage::of(&protocol, &generation.examples, &locate);
    let missing = coverage.missing();
    if missing.is_empty() {
        return Ok(format!("corpus: {}", coverage.summary()));
    }
    Err(missing
        .into_iter()
        .map(|(item, at)| GateProblem::Uncovered {
            item: item.clone(),
            at: at.clone(),
        })
        .collect())
}

/// The repository as the links gate sees it: the files on disk, with what
/// codegen plans to write in place of `generated/`.
struct Planned<'a> {
    root: &'a Path,
    files: &'a BTreeMap<String, String>,
}

impl links::Tree for Planned<'_> {
    fn exists(&self, path: &str) -> bool {
        let directory = format!("{path}/");
        self.files.contains_key(path)
            || self
                .files
                .range(directory.clone()..)
                .next()
                .is_some_and(|(file, _)| file.starts_with(&directory))
            || self.root.join(path).exists()
    }

    fn markdown(&self, path: &str) -> Option<String> {
        match self.files.get(path) {
            Some(text) => Some(text.clone()),
            None => cgp_schema::source::read_text_bounded(&self.root.join(path)).ok(),
        }
    }
}

fn links_gate(root: &Path, generation: &Generation) -> GateResult {
    let tree = Planned {
        root,
        files: &generation.files,
    };
    let mut resolver = links::Resolver::new(&tree);
    let mut problems = Vec::new();
    let mut references = 0;
    for (path, file) in &generation.set.files {
        let mut found = Vec::new();
        spec_references(&file.document.value, "", &mut found);
        for (pointer, reference) in found {
            references += 1;
            let position = file.document.nearest_position(&pointer);
            if let Err(fault) = resolver.resolve("", &reference) {
                problems.push(GateProblem::SpecReference {
                    at: Location {
                        file: generation.set.shown(path),
                        line: position.line,
                        column: position.column,
                    },
                    reference,
                    fault,
                });
            }
        }
    }
    let mut documents: Vec<(String, String)> = Vec::new();
    for file in LINKED_DOCS {
        match cgp_schema::source::read_text_bounded(&root.join(file)) {
            Ok(text) => documents.push((file.to_owned(), text)),
            Err(error) => problems.push(GateProblem::Unreadable {
                path: file.to_owned(),
                error: error.to_string(),
            }),
        }
    }
    let mut guides: Vec<String> = std::fs::read_dir(root.join(crate::site::GUIDES_DIR))
        .map(|entries| {
            entries
                .flatten()
                .map(|entry| entry.file_name().to_string_lossy().into_owned())
                .filter(|name| name.ends_with(".md"))
                .map(|name| format!("{}/{name}", crate::site::GUIDES_DIR))
                .collect()
        })
        .unwrap_or_default();
    guides.sort();
    for file in guides {
        match cgp_schema::source::read_text_bounded(&root.join(&file)) {
            Ok(text) => documents.push((file, text)),
            Err(error) => problems.push(GateProblem::Unreadable {
                path: file,
                error: error.to_string(),
            }),
        }
    }
    documents.extend(
        generation
            .files
            .iter()
            .filter(|(path, _)| path.ends_with(".md"))
            .map(|(path, text)| (path.clone(), text.clone())),
    );
    let mut checked = 0;
    for (file, text) in &documents {
        for link in links::links(text) {
            checked += 1;
            if let Err(fault) = resolver.resolve(file, &link.target) {
                problems.push(GateProblem::BrokenLink {
                    file: file.clone(),
                    line: link.line,
                    link: link.target,
                    fault,
                });
            }
        }
    }
    if problems.is_empty() {
        Ok(format!(
            "{references} x-cgp-spec references and {checked} relative links in {} Markdown files lead somewhere",
            documents.len()
        ))
    } else {
        Err(problems)
    }
}

/// Every `x-cgp-spec` string in a schema document, with the pointer of its
/// value.
fn spec_references(value: &Value, pointer: &str, out: &mut Vec<(String, String)>) {
    match value {
        Value::Object(members) => {
            for (name, member) in members {
                let here = format!("{pointer}/{}", cgp_schema::json_text::escape_token(name));
                match member {
                    Value::String(reference) if name == "x-cgp-spec" => {
                        out.push((here, reference.clone()));
                    }
                    _ => spec_references(member, &here, out),
                }
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                spec_references(item, &format!("{pointer}/{index}"), out);
            }
        }
        _ => {}
    }
}
