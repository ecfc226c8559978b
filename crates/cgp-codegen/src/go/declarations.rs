//! The Go declarations of the model: named objects, tagged unions (the
//! envelope among them) and string vocabularies, as the templates read them.

use super::names::{doc_lines, quote, quoted_list};
use super::unit::{Unit, unit};
use crate::naming::{branch_type, pascal_case, variant_type};
use crate::unsupported::Unsupported;
use cgp_schema::model::{ObjectShape, Protocol, Shape, TaggedUnion};
use serde::Serialize;

/// A tagged union (the envelope or a named one) over its branch units.
#[derive(Debug, Serialize)]
pub(super) struct Union {
    name: String,
    doc: Vec<String>,
    tag: String,
    tags: String,
    positional: bool,
    by_index: bool,
    /// The interface's marker method.
    method: String,
    branches: Vec<Unit>,
}

/// A string vocabulary: open (any string kept) or closed (validated).
#[derive(Debug, Serialize)]
pub(super) struct Vocabulary {
    name: String,
    doc: Vec<String>,
    open: bool,
    values: Vec<(String, String)>,
}

/// The named types of the model, by kind, in name order.
#[derive(Debug, Default)]
pub(super) struct NamedTypes {
    pub objects: Vec<Unit>,
    pub unions: Vec<Union>,
    pub vocabularies: Vec<Vocabulary>,
}

/// Every named type as a Go declaration.
pub(super) fn named_types(protocol: &Protocol) -> Result<NamedTypes, Unsupported> {
    let mut named_types = NamedTypes::default();
    for (name, named) in &protocol.types {
        let doc = doc_lines(named.annotations.description.as_deref());
        // A list of known values behind an open vocabulary is not a type of
        // its own in Go: the vocabulary's `Known…` constants carry them.
        if protocol.types.values().any(|other| {
            matches!(&other.shape, Shape::OpenVocabulary(v) if v.known_type.as_deref() == Some(name))
        }) {
            continue;
        }
        match &named.shape {
            Shape::Object(object) => named_types.objects.push(unit(name, doc, object, "", "")?),
            Shape::TaggedUnion(union) => named_types.unions.push(tagged_union(name, doc, union)?),
            Shape::Enum(values) => {
                let values = values
                    .iter()
                    .map(|value| {
                        value
                            .as_str()
                            .map(|text| (format!("{name}{}", pascal_case(text)), quote(text)))
                            .ok_or_else(|| Unsupported::NonStringEnumValue.in_type(name))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                named_types.vocabularies.push(Vocabulary {
                    name: name.clone(),
                    doc,
                    open: false,
                    values,
                });
            }
            Shape::OpenVocabulary(vocabulary) => named_types.vocabularies.push(Vocabulary {
                name: name.clone(),
                doc,
                open: true,
                values: vocabulary
                    .known
                    .iter()
                    .map(|text| (format!("Known{name}{}", pascal_case(text)), quote(text)))
                    .collect(),
            }),
            _ => return Err(Unsupported::TypeKind.in_type(name)),
        }
    }
    Ok(named_types)
}

/// A named tagged union: one unit per branch, holding the shared members the
/// branch does not redefine, then its own.
fn tagged_union(name: &str, doc: Vec<String>, union: &TaggedUnion) -> Result<Union, Unsupported> {
    let mut branches = Vec::new();
    for branch in &union.branches {
        let branch_name = branch_type(name, branch);
        let object = ObjectShape {
            members: union
                .members_with_tag(branch)
                .into_iter()
                .cloned()
                .collect(),
            unknown_members: branch.object.unknown_members,
        };
        branches.push(unit(
            &branch_name,
            doc_lines(branch.annotations.description.as_deref()),
            &object,
            &union.tag,
            &branch.tag,
        )?);
    }
    Ok(Union {
        name: name.to_owned(),
        doc,
        tag: quote(&union.tag),
        tags: quoted_list(union.branches.iter().map(|b| b.tag.as_str())),
        positional: false,
        by_index: true,
        method: format!("append{name}"),
        branches,
    })
}

/// The envelope: a positional union over one unit per variant.
pub(super) fn envelope(protocol: &Protocol) -> Result<Union, Unsupported> {
    let mut variants = Vec::new();
    for variant in &protocol.variants {
        variants.push(unit(
            &variant_type(variant),
            doc_lines(variant.annotations.description.as_deref()),
            &variant.object,
            &protocol.tag,
            &variant.tag,
        )?);
    }
    Ok(Union {
        name: "Envelope".into(),
        doc: doc_lines(protocol.annotations.description.as_deref()),
        tag: quote(&protocol.tag),
        tags: quoted_list(protocol.variants.iter().map(|v| v.tag.as_str())),
        positional: true,
        by_index: false,
        method: "appendEnvelope".into(),
        branches: variants,
    })
}
