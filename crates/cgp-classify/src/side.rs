//! One side of a comparison: a schema directory (loaded, checked and bundled)
//! or a published interop bundle, read once into its protocol model, with the
//! file positions of its pointers.

use super::Location;
use cgp_schema::bundle::{Origins, Profile};
use cgp_schema::diagnostic::{Diagnostic, Diagnostics};
use cgp_schema::json_text::{self, Document};
use cgp_schema::model::{self, Protocol, Shape};
use cgp_schema::source::{self, SchemaSet};
use cgp_schema::version::ProtocolVersion;
use cgp_types::Direction;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Where the parts of a side's bundle are in the files the user wrote.
#[derive(Debug, Clone)]
enum Positions {
    /// A schema directory: bundle pointers map back to source files.
    Source { set: SchemaSet, origins: Origins },
    /// A bundle file: bundle pointers are positions in it.
    Bundle { file: String, document: Document },
}

/// One version to compare: its interop bundle and the protocol model read from
/// it, where each part of it is written, and which directions reach each type.
#[derive(Debug, Clone)]
pub struct ComparedVersion {
    display: String,
    version: ProtocolVersion,
    document: Value,
    pub(super) protocol: Protocol,
    /// Why the model finds no variants in the envelope, when it cannot read it.
    pub(super) envelope_problem: Option<String>,
    directions: BTreeMap<String, BTreeSet<Direction>>,
    positions: Positions,
}

/// Loads one side of a comparison: a directory is a set of source schemas (loaded,
/// checked and bundled), a file is a published bundle. Paths are shown as given.
/// Unreadable or invalid input is reported as [`Diagnostics`].
pub fn load_side(path: &Path) -> Result<ComparedVersion, Diagnostics> {
    let shown = path.display().to_string();
    let shown = match shown.trim_end_matches('/') {
        "" => shown.clone(),
        trimmed => trimmed.to_owned(),
    };
    let metadata = std::fs::metadata(path)
        .map_err(|error| Diagnostic::file(&shown, format!("cannot read: {error}")))?;
    if metadata.is_dir() {
        ComparedVersion::from_source(SchemaSet::load(path, &shown)?)
    } else {
        let bytes = source::read_bounded(path)
            .map_err(|error| Diagnostic::file(&shown, format!("cannot read: {error}")))?;
        let text = String::from_utf8(bytes).map_err(|error| {
            Diagnostic::file(
                &shown,
                format!(
                    "is not valid UTF-8 (first bad byte at offset {})",
                    error.utf8_error().valid_up_to()
                ),
            )
        })?;
        ComparedVersion::from_bundle_text(&shown, &text)
    }
}

impl ComparedVersion {
    /// A side from checked source schemas, compared through their interop bundle;
    /// locations point into the source files.
    pub fn from_source(set: SchemaSet) -> Result<ComparedVersion, Diagnostics> {
        let bundle = set.bundle(Profile::Interop)?;
        let protocol = Protocol::of_bundle(&set, &bundle);
        Ok(ComparedVersion {
            display: set.display_root.clone(),
            version: set.version.clone(),
            directions: protocol.directions(),
            envelope_problem: envelope_problem(&bundle.document, &protocol),
            protocol,
            document: unwrap_annotated_references(bundle.document),
            positions: Positions::Source {
                set,
                origins: bundle.origins,
            },
        })
    }

    /// A side from the text of a published interop bundle; `file` is how the file
    /// is named in locations.
    pub fn from_bundle_text(file: &str, text: &str) -> Result<ComparedVersion, Diagnostics> {
        let document = json_text::parse_named(file, text)?;
        let at = |pointer: &str, message: String| -> Diagnostics {
            Diagnostic::at(
                file,
                document.nearest_position(pointer),
                Some(pointer.to_owned()),
                message,
            )
            .into()
        };
        let root = document.value.as_object().ok_or_else(|| {
            at(
                "",
                "a published bundle is a JSON object; pass a bundle file or a schema directory"
                    .into(),
            )
        })?;
        match root.get("x-cgp-profile").and_then(Value::as_str) {
            Some("interop") => {}
            Some("strict") => return Err(at("/x-cgp-profile", "this is the strict bundle; compare interop bundles (the receiver's contract), e.g. interop.schema.json beside it".into())),
            _ => return Err(at("", "not a published interop bundle (no `\"x-cgp-profile\": \"interop\"`); pass interop.schema.json or a schema directory".into())),
        }
        let version = root
            .get("x-cgp-protocol-version")
            .and_then(Value::as_str)
            .ok_or_else(|| at("", "the bundle declares no `x-cgp-protocol-version`".into()))?
            .parse::<ProtocolVersion>()
            .map_err(|error| at("/x-cgp-protocol-version", error.to_string()))?;
        if !root.get("oneOf").is_some_and(Value::is_array) {
            return Err(at(
                "",
                "the bundle lists no envelope variants in `oneOf`".into(),
            ));
        }
        let defs = root.get("$defs").and_then(Value::as_object);
        let mut problems = Vec::new();
        cgp_schema::keywords::walk(&document.value, "", &mut |schema, pointer| {
            let Some(reference) = schema.get("$ref") else {
                return;
            };
            let resolves = reference
                .as_str()
                .and_then(model::definition_name)
                .is_some_and(|name| defs.is_some_and(|defs| defs.contains_key(&name)));
            if !resolves {
                let at = format!("{pointer}/$ref");
                problems.push(Diagnostic::at(
                    file,
                    document.nearest_position(&at),
                    Some(at),
                    format!(
                        "`$ref` {reference} does not name an entry of the bundle's `$defs`; a published bundle has only local `#/$defs/<Name>` references"
                    ),
                ));
            }
        });
        if let Some(defs) = defs {
            reference_cycles(defs, &mut |name, cycle| {
                let at = format!("/$defs/{}/$ref", json_text::escape_token(name));
                problems.push(Diagnostic::at(
                    file,
                    document.nearest_position(&at),
                    Some(at),
                    format!("`$ref` cycle with no schema in between: {cycle}"),
                ));
            });
        }
        if !problems.is_empty() {
            return Err(Diagnostics(problems));
        }
        let protocol = Protocol::of_document(file, &document);
        Ok(ComparedVersion {
            display: file.to_owned(),
            version,
            directions: protocol.directions(),
            envelope_problem: envelope_problem(&document.value, &protocol),
            protocol,
            document: unwrap_annotated_references(document.value.clone()),
            positions: Positions::Bundle {
                file: file.to_owned(),
                document,
            },
        })
    }

    /// How the input is named: the schema directory or the bundle file as given.
    pub fn display(&self) -> &str {
        &self.display
    }

    /// The protocol version this side declares.
    pub fn version(&self) -> &ProtocolVersion {
        &self.version
    }

    /// The interop bundle document compared.
    pub fn document(&self) -> &Value {
        &self.document
    }

    /// The `file:line:col` behind a pointer into this side's bundle document; a
    /// pointer to something missing gives the closest enclosing schema.
    pub fn locate(&self, bundle_pointer: &str) -> Option<Location> {
        match &self.positions {
            Positions::Bundle { file, document } => {
                let position = document.nearest_position(bundle_pointer);
                Some(Location {
                    file: file.clone(),
                    line: position.line,
                    column: position.column,
                })
            }
            Positions::Source { set, origins } => {
                let target = origins.locate(bundle_pointer)?;
                let file = set.files.get(&target.path)?;
                let position = file.document.nearest_position(&target.pointer);
                Some(Location {
                    file: set.shown(&target.path),
                    line: position.line,
                    column: position.column,
                })
            }
        }
    }

    /// The schema at a pointer into the bundle document, as written.
    pub(super) fn schema_at(&self, bundle_pointer: &str) -> Option<&Value> {
        self.document.pointer(bundle_pointer)
    }

    pub(super) fn type_directions(&self, name: &str) -> BTreeSet<Direction> {
        self.directions.get(name).cloned().unwrap_or_default()
    }
}

/// Why the model reads no variants from a bundle's envelope, if it reads none.
fn envelope_problem(document: &Value, protocol: &Protocol) -> Option<String> {
    if !protocol.variants.is_empty() {
        return None;
    }
    match model::shape_in(document, document) {
        Shape::TaggedUnion(_) => None,
        Shape::Unsupported(reason) => Some(reason),
        _ => Some("the envelope is not a tagged union".into()),
    }
}

/// Calls `found` once for each chain of `$defs` entries that are nothing but a
/// `$ref` to the next and that comes back to its start (`A -> B -> A`), naming
/// the chain from its first entry in name order. Such a chain constrains nothing
/// and would send a comparison round in circles.
fn reference_cycles(defs: &Map<String, Value>, found: &mut dyn FnMut(&str, String)) {
    let next = |name: &str| {
        let target = defs
            .get(name)
            .and_then(Value::as_object)
            .and_then(source::pure_reference)
            .and_then(model::definition_name)?;
        defs.get_key_value(&target).map(|(key, _)| key.as_str())
    };
    for start in defs.keys() {
        let mut chain = vec![start.as_str()];
        while let Some(current) = chain.last().copied() {
            let Some(following) = next(current) else {
                break;
            };
            if let Some(loop_start) = chain.iter().position(|seen| *seen == following) {
                let is_first = chain.iter().all(|name| *name >= start.as_str());
                if loop_start == 0 && is_first {
                    chain.push(following);
                    found(start, chain.join(" -> "));
                }
                break;
            }
            chain.push(following);
        }
    }
}

/// The bundler writes a `$ref` with sibling keywords as `allOf: [{"$ref": …}]`
/// (bundles published before it did so have the bare `$ref`); the walk compares
/// references, so it reads either as the `$ref` itself.
fn unwrap_annotated_references(mut document: Value) -> Value {
    cgp_schema::keywords::walk_mut(&mut document, &mut |map| {
        let reference = match map.get("allOf") {
            Some(Value::Array(items)) if items.len() == 1 => items
                .first()
                .and_then(Value::as_object)
                .filter(|only| only.len() == 1)
                .and_then(|only| only.get("$ref"))
                .cloned(),
            _ => None,
        };
        let Some(reference) = reference else {
            return;
        };
        let mut unwrapped = Map::new();
        for (key, value) in std::mem::take(map) {
            if key == "allOf" {
                unwrapped.insert("$ref".into(), reference.clone());
            } else {
                unwrapped.insert(key, value);
            }
        }
        *map = unwrapped;
    });
    document
}
