//! The generated Rust crate: typify's types for the `interop` bundle, made to
//! encode exactly like the canonical encoder.
//!
//! typify derives the *shape* of every type from the bundle: a `#[serde(tag =
//! "type")]` envelope enum, structs, closed enums, and open vocabularies that keep
//! unknown strings. Two things a JSON Schema cannot tell typify are applied
//! afterwards, from the bundle's own annotations, by `wire`:
//!
//! - member order: struct fields follow the schema's `properties` order (typify
//!   sorts them alphabetically), so encoding writes members in wire order;
//! - `x-cgp-emit`: an `always` array is written even when empty, and an
//!   `omit-if-default` member is skipped when it holds its default;
//! - `x-cgp-vocabulary: open`: an open vocabulary is read from a JSON string only.
//!   typify's untagged enum would also take the known half's derived
//!   `{"doc": null}` map form, which neither the schema nor the reference accepts.
//!
//! typify reports some unsupported schema shapes by panicking. [`generate`] turns
//! a panic into an error naming the bundle definition and member that caused it.

//!
//! - `typify`: typify run on a bundle, a failure narrowed to its definition.
//! - `wire`: the edits that make typify's types encode in wire order.

mod typify;
mod wire;

use crate::Files;
use crate::home::Home;
use crate::published::published_path;
use crate::targets::{Input, Language, Target};
use cgp_schema::bundle::Bundle;
use cgp_schema::diagnostic::{Diagnostic, Diagnostics};
use cgp_schema::model::Protocol;
use cgp_schema::{Profile, ProtocolVersion};
use quote::quote;
use wire::{MemberTable, apply_emit_rules, apply_open_vocabularies, apply_wire_order};

/// The command that regenerates the crate, named in its `@generated` header.
pub const COMMAND: &str = "cargo xtask codegen";

/// The generated Rust crate, relative to the repository root.
pub const RUST_CRATE_DIR: &str = "generated/rust";

/// The typify crate as a package target: the working types, the modules of
/// the newest release of each older major family, the library root, its
/// family tests and its manifest.
pub struct RustCrate;

impl Target for RustCrate {
    fn language(&self) -> Language {
        Language::Rust
    }

    fn dir(&self) -> &'static str {
        RUST_CRATE_DIR
    }

    fn generate(&self, input: &Input<'_>) -> Result<Files, Diagnostics> {
        let working = input.version;
        let mut files = Files::new();
        let types = generate(
            input.bundle,
            input.protocol,
            &working.to_string(),
            input.locate,
        )?;
        files.insert(format!("{RUST_CRATE_DIR}/src/types.rs"), types);
        let mut families = Vec::new();
        let mut family_tests = vec![("Envelope".to_owned(), working.slug())];
        for (older_version, bundle) in input.older {
            let newest_of_family = input.older.iter().all(|(other, _)| {
                other.major != older_version.major || other.key() <= older_version.key()
            });
            if older_version.major == working.major || !newest_of_family {
                continue;
            }
            let module = family_module(older_version);
            let path = published_path(older_version, Profile::Interop);
            let older_protocol = Protocol::of_frozen(bundle);
            let types = generate(bundle, &older_protocol, &older_version.to_string(), &|_| {
                Diagnostic::file(&path, String::new())
            })?;
            files.insert(format!("{RUST_CRATE_DIR}/src/{module}.rs"), types);
            family_tests.push((format!("{module}::Envelope"), older_version.slug()));
            families.push((module, older_version.to_string()));
        }
        let version = working.to_string();
        files.insert(
            format!("{RUST_CRATE_DIR}/src/lib.rs"),
            library_root(&version, &families),
        );
        files.insert(
            format!("{RUST_CRATE_DIR}/tests/families.rs"),
            family_tests_file(&family_tests),
        );
        files.insert(format!("{RUST_CRATE_DIR}/Cargo.toml"), manifest(&version));
        Ok(files)
    }

    fn install(&self, _home: &Home, _version: &ProtocolVersion) -> String {
        format!("cargo add cgp-generated --path {RUST_CRATE_DIR}")
    }
}

/// Generates `src/types.rs` of the generated crate from the interop bundle and
/// its protocol model (member order, emit rules, open vocabularies).
pub fn generate(
    bundle: &Bundle,
    protocol: &Protocol,
    protocol_version: &str,
    locate: &dyn Fn(&str) -> Diagnostic,
) -> Result<String, Diagnostics> {
    let tokens = match typify::run(&bundle.document) {
        Ok(tokens) => tokens,
        Err(failure) => {
            return Err(Diagnostics::one(typify::find_culprit(
                &bundle.document,
                &failure,
                locate,
            )));
        }
    };
    let mut file: syn::File = syn::parse2(tokens).map_err(|error| {
        Diagnostics::one(Diagnostic::file(
            "generated/rust/src/lib.rs",
            format!("typify produced code that does not parse: {error}"),
        ))
    })?;
    let members = MemberTable::of(protocol);
    apply_wire_order(&mut file, &members);
    let helpers = apply_emit_rules(&mut file, &members);
    file.items.extend(helpers);
    let open: Vec<String> = protocol
        .open_vocabularies()
        .into_iter()
        .map(|named| named.name.clone())
        .collect();
    let readers = apply_open_vocabularies(&mut file, &open);
    file.items.extend(readers);
    let version = protocol_version;
    let constant: syn::File = syn::parse2(quote! {
        /// The protocol version these types describe, as declared by the schemas.
        pub const PROTOCOL_VERSION: &str = #version;
    })
    .map_err(|error| {
        Diagnostics::one(Diagnostic::file(
            "generated/rust/src/lib.rs",
            error.to_string(),
        ))
    })?;
    file.items.extend(constant.items);
    let body = prettyplease::unparse(&file);
    Ok(format!(
        "// @generated by `{COMMAND}` from the interop bundle of {protocol_version}.\n\
         // Do not edit: change schema/ and run `{COMMAND}`.\n\
         #![allow(clippy::all, missing_docs)]\n\n{body}"
    ))
}

/// The generated crate's `src/lib.rs`: a thin root that includes the typify
/// module. The module is marked `#[rustfmt::skip]` because it is formatted by
/// prettyplease, whose output must not depend on the rustfmt version of
/// whoever runs `cargo fmt`.
///
/// `families` lists, for each older major family, the module that holds the
/// types of its latest release and that release's version.
pub fn library_root(protocol_version: &str, families: &[(String, String)]) -> String {
    let mut root = format!(
        "// @generated by `{COMMAND}`. Do not edit.\n\
         //! The {protocol_version} wire types, generated by typify from the `interop`\n\
         //! schema bundle. Unknown members are ignored, as the protocol requires.\n"
    );
    if !families.is_empty() {
        root.push_str(
            "//!\n//! Each older major family keeps the types of its latest release in a module\n//! of its own, generated from that release's frozen interop bundle.\n",
        );
    }
    root.push_str("\n#[rustfmt::skip]\nmod types;\n\npub use types::*;\n");
    for (module, version) in families {
        root.push_str(&format!(
            "\n/// The {version} wire types: the latest release of its family.\n#[rustfmt::skip]\npub mod {module};\n"
        ));
    }
    root
}

/// The module name of a major family's types: `<name>_<major>`, e.g. `demo_1`.
pub fn family_module(version: &cgp_schema::ProtocolVersion) -> String {
    version.family_slug().replace('-', "_")
}

/// The shared part of the generated crate's family test, formatted as rustfmt
/// formats it (the file is a crate root, which `cargo fmt` checks).
const FAMILY_TEST_HEAD: &str = r#"//! Each major family's generated types on the SPEC.md corpus: every envelope
//! example the family's interop bundle accepts decodes, and encodes to an
//! envelope the bundle accepts.

use cgp_check::Validator;
use cgp_gates::corpus;
use cgp_schema::Bundle;
use std::path::Path;

fn family_corpus<T: serde::de::DeserializeOwned + serde::Serialize>(slug: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let spec = std::fs::read_to_string(root.join("SPEC.md")).expect("SPEC.md");
    let examples = corpus::extract("SPEC.md", &spec).expect("the corpus");
    let path = root.join(format!("generated/schema/{slug}/interop.schema.json"));
    let text = std::fs::read_to_string(path).expect("the family's bundle");
    let bundle = Bundle::from_published(&text).expect("a bundle");
    let validator = Validator::new(&bundle).expect("compiles");
    let mut decoded = 0;
    for example in examples
        .iter()
        .filter(|e| e.target == "Envelope" && e.decoder_accepts())
    {
        let Ok(document) = example.parse() else {
            continue;
        };
        if !validator.validate_envelope(&document.value).is_empty() {
            continue;
        }
        let typed: T = serde_json::from_value(document.value.clone())
            .unwrap_or_else(|error| panic!("{slug}: {} does not decode: {error}", example.name));
        let back = serde_json::to_value(&typed).expect("encodes");
        let problems = validator.validate_envelope(&back);
        assert!(
            problems.is_empty(),
            "{slug}: {} re-encodes invalid: {problems:?}",
            example.name
        );
        decoded += 1;
    }
    assert!(decoded > 0, "{slug}: no example of the family's corpus");
}

"#;

/// The generated crate's test that each family's types decode every SPEC.md
/// envelope its interop bundle accepts, and encode something it accepts again.
/// `families` pairs a type path (`Envelope`, `demo_1::Envelope`) with the
/// directory of the bundle it is judged by under `generated/schema/`.
pub fn family_tests_file(families: &[(String, String)]) -> String {
    let mut text = format!("// @generated by `{COMMAND}`. Do not edit.\n{FAMILY_TEST_HEAD}");
    for (index, (type_path, slug)) in families.iter().enumerate() {
        let name = slug.replace(['-', '.'], "_");
        if index > 0 {
            text.push('\n');
        }
        text.push_str(&format!(
            "#[test]\nfn {name}_types_decode_their_corpus() {{\n    family_corpus::<cgp_generated::{type_path}>(\"{slug}\");\n}}\n"
        ));
    }
    text
}

/// The generated crate's `Cargo.toml`.
pub fn manifest(protocol_version: &str) -> String {
    format!(
        "# @generated by `{COMMAND}`. Do not edit.\n\
         [package]\n\
         name = \"cgp-generated\"\n\
         description = \"The {protocol_version} wire types, generated by typify from the interop schema bundle.\"\n\
         version = \"0.1.0\"\n\
         edition = \"2024\"\n\
         rust-version = \"1.85\"\n\
         license = \"MIT OR Apache-2.0\"\n\
         publish = false\n\
         \n\
         [dependencies]\n\
         serde = {{ version = \"1\", features = [\"derive\"] }}\n\
         serde_json = \"1\"\n\
         \n\
         [dev-dependencies]\n\
         cgp-check = {{ path = \"../../crates/cgp-check\" }}\n\
         cgp-gates = {{ path = \"../../crates/cgp-gates\" }}\n\
         cgp-schema = {{ path = \"../../crates/cgp-schema\" }}\n"
    )
}
