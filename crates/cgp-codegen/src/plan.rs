//! The generation plan: every file under `generated/`, computed in memory from
//! `schema/` and SPEC.md.
//!
//! [`generate`] loads and checks the sources, builds both bundles, validates the
//! SPEC.md corpus against them (the result records broken examples; codegen
//! refuses to publish docs that embed one), and renders the bundles, the typify
//! crate and the docs.
//! Nothing here touches the disk except reading the inputs.

use crate::packages::generate_all;
pub use crate::published::published_path;
use crate::targets::{Input, Language};
use crate::{docs, embed, validator, vectors};
use cgp_check::Validator;
use cgp_gates::corpus::{self, Example};
use cgp_gates::release::Manifest;
use cgp_schema::diagnostic::{Diagnostic, Diagnostics};
use cgp_schema::source::read_text_bounded;
use cgp_schema::{Bundle, Profile, ProtocolVersion, SchemaSet};
use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::Path;

/// Where the hand-authored schemas live, relative to the repository root.
pub const SCHEMA_DIR: &str = "schema";
/// The spec with the example corpus, relative to the repository root.
pub const SPEC_FILE: &str = "SPEC.md";
/// The generated Rust crate, relative to the repository root.
pub use crate::rust::RUST_CRATE_DIR;

/// Generated files: repository-relative path to contents.
pub type Files = BTreeMap<String, String>;

/// The release manifest, relative to the repository root.
pub const MANIFEST_PATH: &str = "generated/schema/releases.json";

/// Everything one generation run computed.
#[derive(Debug)]
pub struct Generation {
    /// The checked sources.
    pub set: SchemaSet,
    /// The interop and strict bundles, in that order.
    pub bundles: [Bundle; 2],
    /// The SPEC.md corpus.
    pub examples: Vec<Example>,
    /// Examples whose `expect=` does not hold. Codegen refuses to write while
    /// there are any (the docs embed the corpus); `check` reports them.
    pub corpus_failures: Vec<Diagnostic>,
    /// Every generated file: repository-relative path to contents. The release
    /// manifest is among them (re-rendered canonically) when it exists.
    pub files: BTreeMap<String, String>,
    /// The released versions (`generated/schema/releases.json`).
    pub releases: Manifest,
    /// Files under `generated/` that codegen keeps but does not generate: the
    /// frozen bundles of released versions other than the working one.
    pub foreign: BTreeSet<String>,
}

impl Generation {
    /// The bundle of `profile`.
    pub fn bundle(&self, profile: Profile) -> &Bundle {
        let [interop, strict] = &self.bundles;
        match profile {
            Profile::Interop => interop,
            Profile::Strict => strict,
        }
    }
}

/// Reads the release manifest; a missing manifest means nothing is released.
pub fn read_manifest(root: &Path) -> Result<Manifest, Diagnostics> {
    match read_text_bounded(&root.join(MANIFEST_PATH)) {
        Ok(text) => Manifest::parse(MANIFEST_PATH, &text),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(Manifest::default()),
        Err(error) => Err(Diagnostic::file(MANIFEST_PATH, format!("cannot read: {error}")).into()),
    }
}

/// Released files the plan does not generate: the bundles of released versions
/// other than the working one. The writer keeps them.
pub fn foreign(manifest: &Manifest, files: &BTreeMap<String, String>) -> BTreeSet<String> {
    manifest
        .files()
        .into_iter()
        .filter(|path| !files.contains_key(path))
        .collect()
}

/// Where a bundle's published files go, relative to the repository root.
pub fn bundle_path(set: &SchemaSet, profile: Profile) -> String {
    published_path(&set.version, profile)
}

/// Describes a bundle schema pointer by its source location, e.g.
/// `/$defs/ContextQuery/properties/max_tokens/maximum (schema/types/context-query.schema.json:61)`.
pub fn schema_location(set: &SchemaSet, bundle: &Bundle, pointer: &str) -> String {
    match bundle.origins.locate(pointer) {
        Some(target) => {
            let line = set
                .files
                .get(&target.path)
                .map(|file| file.document.nearest_position(&target.pointer).line)
                .unwrap_or(1);
            format!("{pointer} in {}:{line}", set.shown(&target.path))
        }
        None => pointer.to_owned(),
    }
}

/// A diagnostic at the source behind a bundle pointer.
pub fn diagnostic_for(set: &SchemaSet, bundle: &Bundle, pointer: &str) -> Diagnostic {
    match bundle.origins.locate(pointer) {
        Some(target) => set.diagnostic_at(&target.path, &target.pointer, String::new()),
        None => Diagnostic::file("bundle", String::new()),
    }
}

/// Every bundle under `generated/schema/`: the working version's as planned,
/// and each released version's as published on disk. A released file that
/// cannot be read is left out; the releases gate reports it.
pub fn published_bundles(
    root: &Path,
    working: &ProtocolVersion,
    releases: &Manifest,
    planned: &BTreeMap<String, String>,
) -> Vec<(ProtocolVersion, Profile, String)> {
    let mut versions: Vec<ProtocolVersion> = releases
        .releases()
        .iter()
        .map(|release| release.version.clone())
        .collect();
    if !versions.contains(working) {
        versions.push(working.clone());
    }
    let mut bundles = Vec::new();
    for version in versions {
        for profile in Profile::ALL {
            let path = published_path(&version, profile);
            let text = match planned.get(&path) {
                Some(text) => Some(text.clone()),
                None => read_text_bounded(&root.join(&path)).ok(),
            };
            if let Some(text) = text {
                bundles.push((version.clone(), profile, text));
            }
        }
    }
    bundles
}

/// The interop bundles of every published version but the working one, oldest
/// first.
fn older_versions(
    working: &ProtocolVersion,
    published: &[(ProtocolVersion, Profile, String)],
) -> Result<Vec<(ProtocolVersion, Bundle)>, Diagnostics> {
    let mut older = Vec::new();
    for (version, profile, text) in published {
        if version == working || *profile != Profile::Interop {
            continue;
        }
        let bundle = Bundle::from_published(text).map_err(|error| {
            Diagnostic::file(published_path(version, Profile::Interop), error.to_string())
        })?;
        older.push((version.clone(), bundle));
    }
    older.sort_by_key(|(version, _)| version.key());
    Ok(older)
}

/// Reads the inputs under `root` and computes every generated file.
pub fn generate(root: &Path) -> Result<Generation, Diagnostics> {
    let set = SchemaSet::load(&root.join(SCHEMA_DIR), SCHEMA_DIR)?;
    let bundles = [
        checked_bundle(&set, Profile::Interop)?,
        checked_bundle(&set, Profile::Strict)?,
    ];
    let mut validators = Vec::new();
    for bundle in &bundles {
        validators.push(Validator::new(bundle)?);
    }
    let (examples, failures) = read_corpus(root, &set, &bundles, &validators)?;
    let mut files = BTreeMap::new();
    for bundle in &bundles {
        files.insert(bundle_path(&set, bundle.profile), bundle.to_pretty_json());
    }
    // Every target renders from the model; a schema a target cannot describe
    // is an error at its source position. The Rust target (typify) comes
    // first, so a schema typify cannot handle is reported in typify's words.
    let models = bundles
        .each_ref()
        .map(|bundle| cgp_schema::model::Protocol::of_bundle(&set, bundle));
    let [interop, _] = &bundles;
    let [protocol, strict] = &models;
    let releases = read_manifest(root)?;
    let published = published_bundles(root, &set.version, &releases, &files);
    let older = older_versions(&set.version, &published)?;
    let home = crate::home::Home::read(root).map_err(Diagnostics::one)?;
    let locate = |pointer: &str| diagnostic_for(&set, interop, pointer);
    let input = Input::new(&set.version, interop, protocol, &older, &home, &locate);
    files.extend(generate_all(&input)?);
    strict.check_describable()?;
    strict.check_defaults()?;
    let packages: Vec<docs::Package> = Language::ALL
        .iter()
        .map(|language| docs::Package {
            language: language.name().to_owned(),
            dir: language.target().dir().to_owned(),
            install: language.target().install(&home, &set.version),
        })
        .collect();
    files.extend(docs_of_every_version(
        &set.version,
        protocol,
        &examples,
        &packages,
        &older,
    )?);
    if !releases.is_empty() {
        files.insert(MANIFEST_PATH.to_owned(), releases.render());
    }
    files.extend(single_pass_validators(&set.version, &models, &published)?);
    files.extend(embed::cli_bundles(&published, &set.version));
    files.extend(vectors_and_copies(
        root,
        &set.version,
        &examples,
        &validators,
        &published,
    ));
    let foreign = foreign(&releases, &files);
    Ok(Generation {
        set,
        bundles,
        examples,
        corpus_failures: failures,
        files,
        releases,
        foreign,
    })
}

/// The bundle of `profile`, refused unless it validates against the 2020-12
/// meta-schema.
fn checked_bundle(set: &SchemaSet, profile: Profile) -> Result<Bundle, Diagnostics> {
    let bundle = set.bundle(profile)?;
    if let Err(error) = jsonschema::meta::validate(&bundle.document) {
        return Err(Diagnostic::file(
            bundle_path(set, profile),
            format!(
                "the bundle does not validate against the 2020-12 meta-schema: {error} at {}",
                error.instance_path()
            ),
        )
        .into());
    }
    Ok(bundle)
}

/// The SPEC.md corpus, and the examples whose `expect=` does not hold under
/// the bundles' validators.
fn read_corpus(
    root: &Path,
    set: &SchemaSet,
    bundles: &[Bundle; 2],
    validators: &[Validator],
) -> Result<(Vec<Example>, Vec<Diagnostic>), Diagnostics> {
    let spec_text = read_text_bounded(&root.join(SPEC_FILE)).map_err(|error| {
        Diagnostics::one(Diagnostic::file(SPEC_FILE, format!("cannot read: {error}")))
    })?;
    let examples = corpus::extract(SPEC_FILE, &spec_text)?;
    let [interop, _] = bundles;
    let validator_refs: Vec<&Validator> = validators.iter().collect();
    let failures = corpus::check(SPEC_FILE, &examples, &validator_refs, &|pointer| {
        // Both bundles share their layout, so the interop origins locate either.
        schema_location(set, interop, pointer)
    });
    Ok((examples, failures))
}

/// The docs of every version: the working one with the SPEC.md corpus, each
/// older one from its frozen bundle under its own directory.
fn docs_of_every_version(
    working: &ProtocolVersion,
    protocol: &cgp_schema::model::Protocol,
    examples: &[Example],
    packages: &[docs::Package],
    older: &[(ProtocolVersion, Bundle)],
) -> Result<Files, Diagnostics> {
    let version = working.to_string();
    let mut files = BTreeMap::new();
    files.extend(
        docs::render(
            docs::Templates::BUILT_IN,
            protocol,
            &version,
            examples,
            SPEC_FILE,
            packages,
        )
        .map_err(Diagnostics::one)?,
    );
    for (older_version, bundle) in older {
        let pages = docs::render_older(
            docs::Templates::BUILT_IN,
            &cgp_schema::model::Protocol::of_frozen(bundle),
            &older_version.to_string(),
            SPEC_FILE,
        )
        .map_err(Diagnostics::one)?;
        let prefix = format!("{}/", docs::DOCS_DIR);
        for (path, text) in pages {
            let relative = path.strip_prefix(&prefix).unwrap_or(&path);
            files.insert(format!("{prefix}{}/{relative}", older_version.slug()), text);
        }
    }
    Ok(files)
}

/// The conformance vectors, the JSON Schemas of cgp's own outputs and the
/// copies the crates embed (the types' version, the mock's corpus).
fn vectors_and_copies(
    root: &Path,
    working: &ProtocolVersion,
    examples: &[Example],
    validators: &[Validator],
    published: &[(ProtocolVersion, Profile, String)],
) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    if let [interop_validator, strict_validator] = validators {
        let earlier: Vec<ProtocolVersion> = published
            .iter()
            .map(|(version, _, _)| version.clone())
            .collect();
        files.extend(vectors::render(
            root,
            &earlier,
            working,
            examples,
            interop_validator,
            strict_validator,
        ));
    }
    // The JSON Schemas of cgp's own outputs, beside the protocol versions.
    for output in cgp_report::Output::ALL {
        files.insert(output.published_path(), cgp_report::json_schema(output));
    }
    let (path, text) = embed::types_version(working);
    files.insert(path, text);
    let (path, text) = embed::mock_corpus(examples);
    files.insert(path, text);
    files
}

/// The single-pass validator crate: a module for every published bundle, the
/// working version's from its sources' models (errors point into `schema/`).
fn single_pass_validators(
    working: &ProtocolVersion,
    models: &[cgp_schema::model::Protocol; 2],
    published: &[(ProtocolVersion, Profile, String)],
) -> Result<Files, Diagnostics> {
    let mut frozen = Vec::new();
    for (version, profile, text) in published {
        if version != working {
            let bundle = Bundle::from_published(text).map_err(|error| {
                Diagnostic::file(published_path(version, *profile), error.to_string())
            })?;
            frozen.push((
                version,
                *profile,
                cgp_schema::model::Protocol::of_frozen(&bundle),
            ));
        }
    }
    let [interop, strict] = models;
    let mut compiled = vec![
        validator::Compiled {
            version: working,
            profile: Profile::Interop,
            protocol: interop,
        },
        validator::Compiled {
            version: working,
            profile: Profile::Strict,
            protocol: strict,
        },
    ];
    compiled.extend(
        frozen
            .iter()
            .map(|(version, profile, protocol)| validator::Compiled {
                version,
                profile: *profile,
                protocol,
            }),
    );
    validator::generate(&compiled)
}
