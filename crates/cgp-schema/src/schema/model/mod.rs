//! The protocol model: one typed reading of a schema document that every gate
//! and generator shares.
//!
//! A [`Protocol`] is read from a bundle-shaped document (variants inline in the
//! root `oneOf`, every other type a root `$defs` entry): a published bundle, the
//! bundle of a source [`SchemaSet`], or the schemars contract of the hand-written
//! types. It holds the envelope's variants, the named types, their members and
//! each value's [`Shape`] exactly as a validator reads it, and where each is
//! written ([`Place`]). Nothing outside the loader, the bundler and this module
//! interprets raw schema keywords.

mod accepts;
mod annotations;
mod find;
mod read;
mod shape;

pub use accepts::Misfit;
pub use find::Part;

pub(crate) use annotations::parse_direction;
pub use annotations::{Annotations, Emit};
pub use read::{definition_name, items_pointer, member_pointer};
pub use shape::{
    ArrayShape, Branch, IntegerShape, Limit, NumberShape, ObjectShape, Shape, StringShape,
    TaggedUnion, UnknownMembers, Vocabulary,
};

use crate::bundle::{Bundle, Profile};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::json_text::{self, Document};
use crate::source::SchemaSet;
use crate::version::ProtocolVersion;
use cgp_types::Direction;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// How a document's shapes are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// As a JSON Schema validator reads them: `format` is an annotation.
    Validator,
    /// As the Rust types a schemars contract describes decode: an integer
    /// `format` such as `uint32` is a range serde enforces.
    RustDecoder,
}

/// A place in a file, for messages: `schema/types/context-frame.schema.json:42:7`.
/// The one place type: the model's places, the gates' and `cgp diff`'s
/// (`cgp_classify::Location` is this type).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location {
    /// The file as shown.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// Where a part of the model was read: its pointer in the document read, and the
/// file position behind it when one is known.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Place {
    /// The JSON pointer in the document the model was read from.
    pub pointer: String,
    /// The source or bundle position.
    pub location: Option<Location>,
}

impl Place {
    /// A diagnostic at this place: its source position when known, else its
    /// pointer.
    pub fn diagnostic(&self, message: impl Into<String>) -> Diagnostic {
        diagnostic_at(self, message.into())
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Some(location) => location.fmt(f),
            None => write!(f, "#{}", self.pointer),
        }
    }
}

/// A member of an object.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// Its JSON name.
    pub name: String,
    /// Whether the object is invalid without it.
    pub required: bool,
    /// What its value may be.
    pub shape: Shape,
    /// Its annotations (`x-cgp-emit`, `default`, `x-cgp-since`, …).
    pub annotations: Annotations,
    /// Where it is written.
    pub at: Place,
}

impl Member {
    /// Whether `null` is accepted for it.
    pub fn nullable(&self) -> bool {
        self.shape.without_null().1
    }

    /// Its emit rule, if it declares one.
    pub fn emit(&self) -> Option<Emit> {
        self.annotations.emit
    }
}

/// One envelope variant.
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    /// The `type` tag, e.g. `handshake_ack`.
    pub tag: String,
    /// Its members, the tag member among them.
    pub object: ObjectShape,
    /// Its annotations (direction, since, spec anchor, …).
    pub annotations: Annotations,
    /// Where it is written.
    pub at: Place,
}

impl Variant {
    /// The variant's type name: its `title`, else the tag in CamelCase.
    pub fn name(&self) -> String {
        self.annotations
            .title
            .clone()
            .unwrap_or_else(|| pascal_case(&self.tag))
    }

    /// Who sends it.
    pub fn direction(&self) -> Option<Direction> {
        self.annotations.direction
    }
}

/// One named type (a root `$defs` entry).
#[derive(Debug, Clone, PartialEq)]
pub struct NamedType {
    /// The `$defs` name.
    pub name: String,
    /// What its values may be.
    pub shape: Shape,
    /// Its annotations.
    pub annotations: Annotations,
    /// Where it is written.
    pub at: Place,
}

/// The protocol as one document describes it.
#[derive(Debug, Clone, PartialEq)]
pub struct Protocol {
    /// The declared `x-cgp-protocol-version`, if any.
    pub version: Option<ProtocolVersion>,
    /// The declared `x-cgp-profile`, if any.
    pub profile: Option<Profile>,
    /// The envelope's tag member (`type`).
    pub tag: String,
    /// The variants, in the order the envelope lists them.
    pub variants: Vec<Variant>,
    /// The named types, by name.
    pub types: BTreeMap<String, NamedType>,
    /// The envelope's own annotations.
    pub annotations: Annotations,
}

/// A place the model could not describe: a schema it has no shape for.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Unsupported {
    /// Where.
    pub at: Place,
    /// Why.
    pub reason: String,
}

impl Protocol {
    /// Reads a bundle-shaped document. `locate` gives the file position of a
    /// pointer into `document`.
    pub fn read(
        document: &Value,
        reading: Reading,
        locate: &dyn Fn(&str) -> Option<Location>,
    ) -> Protocol {
        let place = |pointer: &str| Place {
            pointer: pointer.to_owned(),
            location: locate(pointer),
        };
        let reader = read::Reader {
            root: document,
            reading,
            locate: &place,
        };
        let root = document.as_object().cloned().unwrap_or_default();
        let annotations = Annotations::of(&root);
        let mut protocol = Protocol {
            version: root
                .get("x-cgp-protocol-version")
                .and_then(Value::as_str)
                .and_then(|text| text.parse().ok()),
            profile: root
                .get("x-cgp-profile")
                .and_then(Value::as_str)
                .and_then(|text| text.parse().ok()),
            tag: "type".into(),
            variants: Vec::new(),
            types: BTreeMap::new(),
            annotations,
        };
        if let Shape::TaggedUnion(union) = reader.shape(document, "") {
            protocol.tag = union.tag;
            protocol.variants = union
                .branches
                .into_iter()
                .map(|branch| Variant {
                    tag: branch.tag,
                    object: branch.object,
                    annotations: branch.annotations,
                    at: branch.at,
                })
                .collect();
        }
        for (name, schema) in root
            .get("$defs")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let pointer = format!("/$defs/{}", json_text::escape_token(name));
            protocol.types.insert(
                name.clone(),
                NamedType {
                    name: name.clone(),
                    shape: reader.shape(schema, &pointer),
                    annotations: schema.as_object().map(Annotations::of).unwrap_or_default(),
                    at: place(&pointer),
                },
            );
        }
        protocol
    }

    /// The model of a source set's bundle; places point into the source files.
    pub fn of_bundle(set: &SchemaSet, bundle: &Bundle) -> Protocol {
        Protocol::read(&bundle.document, Reading::Validator, &|pointer| {
            let target = bundle.origins.locate(pointer)?;
            let file = set.files.get(&target.path)?;
            let position = file.document.nearest_position(&target.pointer);
            Some(Location {
                file: set.shown(&target.path),
                line: position.line,
                column: position.column,
            })
        })
    }

    /// The model of a frozen bundle, with no sources behind it: its places
    /// carry bundle pointers only.
    pub fn of_frozen(bundle: &Bundle) -> Protocol {
        Protocol::read(&bundle.document, Reading::Validator, &|_| None)
    }

    /// The model of a published bundle's text; places point into that file.
    pub fn of_document(file: &str, document: &Document) -> Protocol {
        Protocol::read(&document.value, Reading::Validator, &|pointer| {
            let position = document.nearest_position(pointer);
            Some(Location {
                file: file.to_owned(),
                line: position.line,
                column: position.column,
            })
        })
    }

    /// The variant tagged `tag`.
    pub fn variant(&self, tag: &str) -> Option<&Variant> {
        self.variants.iter().find(|variant| variant.tag == tag)
    }

    /// The named type `name`.
    pub fn named(&self, name: &str) -> Option<&NamedType> {
        self.types.get(name)
    }

    /// Every place the model has no shape for, with where it is.
    pub fn unsupported(&self) -> Vec<Unsupported> {
        let mut found = Vec::new();
        let mut visit = |shape: &Shape, at: &Place| {
            if let Shape::Unsupported(reason) = shape {
                found.push(Unsupported {
                    at: at.clone(),
                    reason: reason.clone(),
                });
            }
        };
        for variant in &self.variants {
            for member in &variant.object.members {
                walk_shape(&member.shape, &member.at, &mut visit);
            }
        }
        for named in self.types.values() {
            walk_shape(&named.shape, &named.at, &mut visit);
        }
        found.sort();
        found.dedup();
        found
    }

    /// Every place the model has no shape for, as diagnostics at its source
    /// position: a schema every gate and generator would have to guess at.
    pub fn check_describable(&self) -> Result<(), Diagnostics> {
        let problems: Vec<Diagnostic> = self
            .unsupported()
            .into_iter()
            .map(|Unsupported { at, reason }| {
                diagnostic_at(
                    &at,
                    format!("the protocol model cannot describe this schema: {reason}"),
                )
            })
            .collect();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(Diagnostics(problems))
        }
    }

    /// Every member `default` that does not fit the member's own shape, as
    /// diagnostics at the member: a generator that fills in defaults, or a
    /// validator that applies them, would write invalid data.
    pub fn check_defaults(&self) -> Result<(), Diagnostics> {
        let mut problems = Vec::new();
        let mut check = |member: &Member| {
            let Some(default) = &member.annotations.default else {
                return;
            };
            if let Err(why) = self.accepts(&member.shape, default) {
                let message = format!(
                    "`default` {default} of `{}` does not fit the member's own schema: {why}",
                    member.name
                );
                problems.push(diagnostic_at(&member.at, message));
            }
        };
        for variant in &self.variants {
            variant.object.members.iter().for_each(&mut check);
        }
        for named in self.types.values() {
            match &named.shape {
                Shape::Object(object) => object.members.iter().for_each(&mut check),
                Shape::TaggedUnion(union) => union
                    .shared
                    .members
                    .iter()
                    .chain(
                        union
                            .branches
                            .iter()
                            .flat_map(|branch| branch.object.members.iter()),
                    )
                    .for_each(&mut check),
                _ => {}
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(Diagnostics(problems))
        }
    }

    /// The named types each variant reaches, directly or through other types.
    pub(crate) fn reached_by(&self, variant: &Variant) -> BTreeSet<String> {
        let mut pending = Vec::new();
        for member in &variant.object.members {
            member.shape.references(&mut pending);
        }
        let mut reached = BTreeSet::new();
        while let Some(name) = pending.pop() {
            if reached.insert(name.clone()) {
                if let Some(named) = self.types.get(&name) {
                    named.shape.references(&mut pending);
                }
            }
        }
        reached
    }

    /// For each named type, the directions of the variants that reach it: a shared
    /// type travels every way any of them does (SPEC.md §Compatibility).
    pub fn directions(&self) -> BTreeMap<String, BTreeSet<Direction>> {
        let mut directions: BTreeMap<String, BTreeSet<Direction>> = BTreeMap::new();
        for variant in &self.variants {
            let Some(direction) = variant.direction() else {
                continue;
            };
            for name in self.reached_by(variant) {
                directions.entry(name).or_default().insert(direction);
            }
        }
        directions
    }

    /// For each named type, the types and variants (`tag (envelope)`) that refer
    /// to it directly.
    pub fn used_by(&self) -> BTreeMap<String, BTreeSet<String>> {
        let mut used_by: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for named in self.types.values() {
            let mut targets = Vec::new();
            named.shape.references(&mut targets);
            for target in targets {
                used_by
                    .entry(target)
                    .or_default()
                    .insert(named.name.clone());
            }
        }
        for variant in &self.variants {
            for member in &variant.object.members {
                let mut targets = Vec::new();
                member.shape.references(&mut targets);
                for target in targets {
                    used_by
                        .entry(target)
                        .or_default()
                        .insert(format!("{} (envelope)", variant.tag));
                }
            }
        }
        used_by
    }

    /// The names of the open vocabularies among the named types.
    pub fn open_vocabularies(&self) -> Vec<&NamedType> {
        self.types
            .values()
            .filter(|named| matches!(named.shape, Shape::OpenVocabulary(_)))
            .collect()
    }
}

/// The shape of one schema inside a bundle-shaped `document`, as a validator
/// reads it.
pub fn shape_in(document: &Value, schema: &Value) -> Shape {
    let place = |pointer: &str| Place {
        pointer: pointer.to_owned(),
        location: None,
    };
    read::Reader {
        root: document,
        reading: Reading::Validator,
        locate: &place,
    }
    .shape(schema, "")
}

/// Calls `visit` on every shape inside `shape`, with the place of the member that
/// holds it.
pub(crate) fn walk_shape(shape: &Shape, at: &Place, visit: &mut dyn FnMut(&Shape, &Place)) {
    visit(shape, at);
    match shape {
        Shape::Array(array) => walk_shape(&array.items, at, visit),
        Shape::Nullable(inner) | Shape::Excluding(inner, _) => walk_shape(inner, at, visit),
        Shape::Object(object) => {
            for member in &object.members {
                walk_shape(&member.shape, &member.at, visit);
            }
        }
        Shape::TaggedUnion(union) => {
            for member in union
                .shared
                .members
                .iter()
                .chain(union.branches.iter().flat_map(|b| b.object.members.iter()))
            {
                walk_shape(&member.shape, &member.at, visit);
            }
        }
        _ => {}
    }
}

/// A diagnostic at a place: its source position when known, else its pointer.
fn diagnostic_at(at: &Place, message: String) -> Diagnostic {
    match &at.location {
        Some(location) => Diagnostic::at(
            &location.file,
            json_text::Position {
                line: location.line,
                column: location.column,
            },
            Some(at.pointer.clone()),
            message,
        ),
        None => Diagnostic::file(format!("#{}", at.pointer), message),
    }
}

/// `handshake_ack` → `HandshakeAck`.
pub fn pascal_case(tag: &str) -> String {
    tag.split('_')
        .map(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .map(|first| first.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

#[cfg(test)]
mod tests;
