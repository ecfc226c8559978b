//! The table of shapes (`shapes.ts`) as typed Rust: what the exact path
//! (`runtime/exact.ts`, over `runtime/shape.ts`'s `Shape`) walks and what the
//! fast path (`codec/`) is written from. Serialised, a [`Descriptor`] is the
//! entry of `shapes.ts` for its shape, so the TypeScript `Shape` union and this
//! enum name the same kinds; the codec generators match it exhaustively, so a
//! kind added or renamed here does not compile until the fast path handles it.

use super::{PACKAGE, branch_members, needs_bigint};
use crate::unsupported::Unsupported;
use cgp_schema::model::{self, ObjectShape, Protocol, Shape, UnknownMembers};
use serde::{Serialize, Serializer};
use serde_json::Value;

/// What one place of a message accepts: an entry of `shapes.ts`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub(super) enum Descriptor {
    /// Any JSON value.
    Any,
    /// A named type of the table.
    Ref {
        name: String,
    },
    Null,
    Boolean,
    /// An integer within `min..=max` (written as decimal text, any size);
    /// `big` says a `number` cannot hold every value, so it decodes to a
    /// `bigint`.
    Integer {
        #[serde(serialize_with = "as_text")]
        min: Option<i128>,
        #[serde(serialize_with = "as_text")]
        max: Option<i128>,
        big: bool,
    },
    /// A number within its limits; `f32` rounds it to single precision.
    Number {
        f32: bool,
        min: Option<Limit>,
        max: Option<Limit>,
    },
    String {
        min_length: Option<u64>,
        max_length: Option<u64>,
    },
    /// Exactly `value`.
    Const {
        value: Value,
    },
    /// One of the strings `values`.
    Enum {
        values: Vec<String>,
    },
    /// An open vocabulary: any string.
    Vocabulary,
    Array {
        items: Box<Descriptor>,
        min_items: Option<u64>,
        max_items: Option<u64>,
    },
    Object {
        members: Vec<MemberDescriptor>,
        closed: bool,
    },
    /// A tagged union on the member `tag`: `index` says a branch may be
    /// given by its index, `positional` that the tag comes first (the
    /// envelope).
    Union {
        tag: String,
        index: bool,
        positional: bool,
        branches: Vec<BranchDescriptor>,
    },
    /// `null` or the inner shape.
    Nullable {
        inner: Box<Descriptor>,
    },
    /// The inner shape but none of `values`.
    Excluding {
        inner: Box<Descriptor>,
        values: Vec<Value>,
    },
}

/// One end of a number range.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(super) struct Limit {
    pub value: f64,
    pub exclusive: bool,
}

/// One member of an object or of a union branch, in the order the canonical
/// encoder writes them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(super) struct MemberDescriptor {
    pub name: String,
    pub required: bool,
    pub emit: Emit,
    pub default: Option<Value>,
    pub shape: Descriptor,
}

/// When a member is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) enum Emit {
    /// Always (a required member, or an optional one written with its default).
    Always,
    /// Unless absent or `null`.
    Absent,
    /// Unless absent, `null` or an empty array.
    Empty,
    /// Unless absent, `null` or the default.
    Default,
}

/// One branch of a tagged union.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(super) struct BranchDescriptor {
    pub tag: String,
    pub members: Vec<MemberDescriptor>,
}

/// The table: every named type, then `Envelope`, in that order (which is the
/// order `shapes.ts` and `codec.ts` write them in).
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Table {
    entries: Vec<(String, Descriptor)>,
}

impl Table {
    pub fn insert(&mut self, name: String, descriptor: Descriptor) {
        self.entries.push((name, descriptor));
    }

    /// The entry of the named type `name`.
    pub fn get(&self, name: &str) -> Option<&Descriptor> {
        self.entries
            .iter()
            .find(|(known, _)| known == name)
            .map(|(_, descriptor)| descriptor)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&String, &Descriptor)> {
        self.entries
            .iter()
            .map(|(name, descriptor)| (name, descriptor))
    }
}

/// A JSON object of the entries, by name, in order.
impl Serialize for Table {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

fn as_text<S: Serializer>(bound: &Option<i128>, serializer: S) -> Result<S::Ok, S::Error> {
    match bound {
        Some(bound) => serializer.serialize_str(&bound.to_string()),
        None => serializer.serialize_none(),
    }
}

/// The envelope's entry of the table: a positional union on its tag.
pub(super) fn envelope(protocol: &Protocol) -> Result<Descriptor, Unsupported> {
    let branches = protocol
        .variants
        .iter()
        .map(|variant| {
            Ok(BranchDescriptor {
                tag: variant.tag.clone(),
                members: members(&variant.object).map_err(|why| why.in_variant(&variant.tag))?,
            })
        })
        .collect::<Result<Vec<_>, Unsupported>>()?;
    Ok(Descriptor::Union {
        tag: protocol.tag.clone(),
        index: false,
        positional: true,
        branches,
    })
}

/// The table entry for a shape. `named` says the shape is a whole `$defs`
/// type (a tagged union is only allowed there).
pub(super) fn descriptor(shape: &Shape, named: bool) -> Result<Descriptor, Unsupported> {
    Ok(match shape {
        Shape::Any => Descriptor::Any,
        Shape::Named(name) => Descriptor::Ref { name: name.clone() },
        Shape::Null => Descriptor::Null,
        Shape::Boolean => Descriptor::Boolean,
        Shape::Integer(integer) => {
            if integer.multiple_of.is_some() {
                return Err(Unsupported::IntegerMultipleOf);
            }
            Descriptor::Integer {
                min: integer.minimum,
                max: integer.maximum,
                big: needs_bigint(integer.minimum, integer.maximum),
            }
        }
        Shape::Number(number) => {
            if number.multiple_of.is_some() {
                return Err(Unsupported::NumberMultipleOf);
            }
            let limit = |limit: &Option<model::Limit>| {
                limit.as_ref().map(|limit| Limit {
                    value: limit.value,
                    exclusive: limit.exclusive,
                })
            };
            Descriptor::Number {
                f32: number.format.as_deref() == Some("float"),
                min: limit(&number.minimum),
                max: limit(&number.maximum),
            }
        }
        Shape::String(string) => {
            if string.pattern.is_some() {
                return Err(Unsupported::Pattern);
            }
            Descriptor::String {
                min_length: string.min_length,
                max_length: string.max_length,
            }
        }
        Shape::Const(value) => Descriptor::Const {
            value: value.clone(),
        },
        Shape::Enum(values) => Descriptor::Enum {
            values: values
                .iter()
                .map(|value| value.as_str().map(str::to_owned))
                .collect::<Option<_>>()
                .ok_or(Unsupported::NonStringEnum)?,
        },
        Shape::OpenVocabulary(_) => Descriptor::Vocabulary,
        Shape::Array(array) => {
            if array.unique_items {
                return Err(Unsupported::UniqueItems);
            }
            Descriptor::Array {
                items: Box::new(descriptor(&array.items, false)?),
                min_items: array.min_items,
                max_items: array.max_items,
            }
        }
        Shape::Object(object) => Descriptor::Object {
            members: members(object)?,
            closed: object.unknown_members == UnknownMembers::Rejected,
        },
        Shape::TaggedUnion(union) if named => {
            let branches = union
                .branches
                .iter()
                .map(|branch| {
                    Ok(BranchDescriptor {
                        tag: branch.tag.clone(),
                        members: members(&ObjectShape {
                            members: branch_members(union, branch),
                            unknown_members: branch.object.unknown_members,
                        })?,
                    })
                })
                .collect::<Result<Vec<_>, Unsupported>>()?;
            Descriptor::Union {
                tag: union.tag.clone(),
                index: true,
                positional: false,
                branches,
            }
        }
        Shape::TaggedUnion(_) => return Err(Unsupported::UnnamedTaggedUnion),
        Shape::Nullable(inner) => Descriptor::Nullable {
            inner: Box::new(descriptor(inner, false)?),
        },
        Shape::Excluding(inner, values) => Descriptor::Excluding {
            inner: Box::new(descriptor(inner, false)?),
            values: values.clone(),
        },
        Shape::Unsupported(why) => return Err(Unsupported::Model(why.clone())),
    })
}

/// The members of an object, in the order the canonical encoder writes them.
fn members(object: &ObjectShape) -> Result<Vec<MemberDescriptor>, Unsupported> {
    if object.unknown_members == UnknownMembers::Rejected {
        return Err(Unsupported::ClosedObject);
    }
    object
        .members
        .iter()
        .map(|member| {
            let emit = match (member.required, member.emit()) {
                (true, _) | (false, Some(model::Emit::Always)) => Emit::Always,
                (false, Some(model::Emit::OmitIfAbsent) | None) => Emit::Absent,
                (false, Some(model::Emit::OmitIfEmpty)) => Emit::Empty,
                (false, Some(model::Emit::OmitIfDefault)) => Emit::Default,
            };
            Ok(MemberDescriptor {
                name: member.name.clone(),
                required: member.required,
                emit,
                default: member.annotations.default.clone(),
                shape: descriptor(&member.shape, false)
                    .map_err(|why| why.in_member(member, PACKAGE))?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// One descriptor of every kind.
    fn every_kind() -> Vec<Descriptor> {
        let string = Descriptor::String {
            min_length: Some(1),
            max_length: None,
        };
        vec![
            Descriptor::Any,
            Descriptor::Ref { name: "T".into() },
            Descriptor::Null,
            Descriptor::Boolean,
            Descriptor::Integer {
                min: Some(-1),
                max: None,
                big: true,
            },
            Descriptor::Number {
                f32: true,
                min: Some(Limit {
                    value: 0.0,
                    exclusive: true,
                }),
                max: None,
            },
            string.clone(),
            Descriptor::Const { value: json!(1) },
            Descriptor::Enum {
                values: vec!["a".into()],
            },
            Descriptor::Vocabulary,
            Descriptor::Array {
                items: Box::new(string.clone()),
                min_items: None,
                max_items: Some(2),
            },
            Descriptor::Object {
                members: vec![MemberDescriptor {
                    name: "m".into(),
                    required: false,
                    emit: Emit::Default,
                    default: Some(json!("x")),
                    shape: string.clone(),
                }],
                closed: false,
            },
            Descriptor::Union {
                tag: "type".into(),
                index: true,
                positional: false,
                branches: vec![BranchDescriptor {
                    tag: "a".into(),
                    members: Vec::new(),
                }],
            },
            Descriptor::Nullable {
                inner: Box::new(Descriptor::Null),
            },
            Descriptor::Excluding {
                inner: Box::new(string),
                values: vec![json!("")],
            },
        ]
    }

    #[test]
    fn a_descriptor_serialises_as_the_entry_runtime_shape_ts_declares() {
        let shown: Vec<Value> = every_kind()
            .iter()
            .map(|descriptor| serde_json::to_value(descriptor).expect("serialises"))
            .collect();
        assert_eq!(
            shown[4],
            json!({"kind": "integer", "min": "-1", "max": null, "big": true})
        );
        assert_eq!(
            shown[5],
            json!({"kind": "number", "f32": true, "min": {"value": 0.0, "exclusive": true}, "max": null})
        );
        assert_eq!(
            shown[10],
            json!({"kind": "array", "items": {"kind": "string", "minLength": 1, "maxLength": null}, "minItems": null, "maxItems": 2})
        );
        assert_eq!(
            shown[11]["members"][0],
            json!({"name": "m", "required": false, "emit": "default", "default": "x",
                   "shape": {"kind": "string", "minLength": 1, "maxLength": null}})
        );
        // Every kind here is one of the runtime's `Shape` union, and back.
        let runtime = include_str!("../../templates/typescript/runtime/shape.ts");
        let declared: std::collections::BTreeSet<&str> = runtime
            .split("readonly kind: \"")
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .collect();
        let kinds: std::collections::BTreeSet<&str> = shown
            .iter()
            .map(|entry| entry["kind"].as_str().expect("a kind"))
            .collect();
        assert_eq!(kinds, declared);
    }
}
