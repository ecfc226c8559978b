//! The Java declarations of the model: named objects (records), tagged
//! unions (sealed interfaces, the envelope among them) and string
//! vocabularies (an enum when closed; a record holding the raw string with
//! an enum of the known values when open), as the templates read them.

use super::names::{doc_lines, quote, quoted_list};
use super::unit::{Unit, unit};
use crate::naming::{branch_type, java_constant as constant_name, variant_type};
use crate::unsupported::Unsupported;
use cgp_schema::model::{ObjectShape, Protocol, Shape, TaggedUnion};
use serde::Serialize;

/// A tagged union (the envelope or a named one) over its branch records.
#[derive(Debug, Serialize)]
pub(super) struct Union {
    pub name: String,
    doc: Vec<String>,
    tag: String,
    tags: String,
    positional: bool,
    by_index: bool,
    /// Whether this is the envelope (whose records name their tag).
    envelope: bool,
    pub branches: Vec<Unit>,
}

/// A string vocabulary: open (any string kept) or closed (validated).
#[derive(Debug, Serialize)]
pub(super) struct Vocabulary {
    pub name: String,
    doc: Vec<String>,
    open: bool,
    /// (enum constant, quoted value).
    values: Vec<(String, String)>,
    /// A closed vocabulary's values as the Java literal a refusal names.
    expected: String,
}

impl Vocabulary {
    fn new(name: &str, doc: Vec<String>, open: bool, texts: &[&str]) -> Self {
        Vocabulary {
            name: name.to_owned(),
            doc,
            open,
            values: texts
                .iter()
                .map(|text| (constant_name(text), quote(text)))
                .collect(),
            expected: quote(&format!("one of {}", quoted_list(texts.iter().copied()))),
        }
    }
}

/// The named types of the model, by kind, in name order.
#[derive(Debug, Default)]
pub(super) struct NamedTypes {
    pub objects: Vec<Unit>,
    pub unions: Vec<Union>,
    pub vocabularies: Vec<Vocabulary>,
}

/// Every named type as a Java declaration.
pub(super) fn named_types(protocol: &Protocol) -> Result<NamedTypes, Unsupported> {
    let mut named_types = NamedTypes::default();
    for (name, named) in &protocol.types {
        let doc = doc_lines(named.annotations.description.as_deref());
        // A list of known values behind an open vocabulary is not a type of
        // its own in Java: the vocabulary's `Known` enum carries them.
        if protocol.types.values().any(|other| {
            matches!(&other.shape, Shape::OpenVocabulary(v) if v.known_type.as_deref() == Some(name))
        }) {
            continue;
        }
        match &named.shape {
            Shape::Object(object) => named_types.objects.push(unit(name, doc, object, "", "")?),
            Shape::TaggedUnion(union) => named_types.unions.push(tagged_union(name, doc, union)?),
            Shape::Enum(values) => {
                let texts = values
                    .iter()
                    .map(|value| {
                        value
                            .as_str()
                            .ok_or_else(|| Unsupported::NonStringEnumValue.in_type(name))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                named_types
                    .vocabularies
                    .push(Vocabulary::new(name, doc, false, &texts));
            }
            Shape::OpenVocabulary(vocabulary) => {
                let texts: Vec<&str> = vocabulary.known.iter().map(String::as_str).collect();
                named_types
                    .vocabularies
                    .push(Vocabulary::new(name, doc, true, &texts));
            }
            _ => return Err(Unsupported::TypeKind.in_type(name)),
        }
    }
    Ok(named_types)
}

/// A named tagged union: one record per branch, holding the shared members
/// the branch does not redefine, then its own.
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
        envelope: false,
        branches,
    })
}

/// The envelope: a positional union over one record per variant.
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
        envelope: true,
        branches: variants,
    })
}
