//! Finding what the model read at a pointer of its document: the object, union
//! or member schema behind a validator's keyword location, so an explanation
//! of a failed keyword reads the model instead of the raw schema.

use super::{Annotations, ObjectShape, Protocol, Shape, items_pointer};

/// The part of the model read at one pointer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Part<'p> {
    /// The members of a variant, a union branch or an object schema.
    Object(&'p ObjectShape, &'p Annotations),
    /// Any other schema (a named type, a member's or an item's schema).
    Schema(&'p Shape, &'p Annotations),
}

impl<'p> Part<'p> {
    /// The annotations written on the schema at the pointer.
    pub fn annotations(&self) -> &'p Annotations {
        match self {
            Part::Object(_, annotations) | Part::Schema(_, annotations) => annotations,
        }
    }

    /// The members, when the part is an object.
    pub fn object(&self) -> Option<&'p ObjectShape> {
        match self {
            Part::Object(object, _) => Some(object),
            Part::Schema(shape, _) => match shape.without_null().0 {
                Shape::Object(object) => Some(object),
                _ => None,
            },
        }
    }

    /// The shape, when the part is a schema rather than a variant or a branch.
    pub fn shape(&self) -> Option<&'p Shape> {
        match self {
            Part::Object(..) => None,
            Part::Schema(shape, _) => Some(shape),
        }
    }
}

impl Protocol {
    /// What the model read at `pointer`, a pointer into the document it was
    /// read from (`/oneOf/2`, `/$defs/FrameVerdict`, `/$defs/Query/properties/kinds`).
    /// `None` for a pointer that is not the start of a variant, a named type, a
    /// union branch, a member's schema or an item schema.
    pub fn part_at(&self, pointer: &str) -> Option<Part<'_>> {
        for variant in &self.variants {
            if variant.at.pointer == pointer {
                return Some(Part::Object(&variant.object, &variant.annotations));
            }
            if let Some(found) = in_object(&variant.object, pointer) {
                return Some(found);
            }
        }
        self.types.values().find_map(|named| {
            in_shape(&named.shape, &named.annotations, &named.at.pointer, pointer)
        })
    }
}

fn in_object<'p>(object: &'p ObjectShape, pointer: &str) -> Option<Part<'p>> {
    object.members.iter().find_map(|member| {
        in_shape(
            &member.shape,
            &member.annotations,
            &member.at.pointer,
            pointer,
        )
    })
}

fn in_shape<'p>(
    shape: &'p Shape,
    annotations: &'p Annotations,
    at: &str,
    pointer: &str,
) -> Option<Part<'p>> {
    if at == pointer {
        return Some(Part::Schema(shape, annotations));
    }
    if !pointer.starts_with(at) {
        return None;
    }
    match shape {
        Shape::Object(object) => in_object(object, pointer),
        Shape::TaggedUnion(union) => in_object(&union.shared, pointer).or_else(|| {
            union.branches.iter().find_map(|branch| {
                if branch.at.pointer == pointer {
                    Some(Part::Object(&branch.object, &branch.annotations))
                } else {
                    in_object(&branch.object, pointer)
                }
            })
        }),
        Shape::Array(array) => in_shape(
            &array.items,
            &array.item_annotations,
            &items_pointer(at),
            pointer,
        ),
        // `type: [.., "null"]` and `not` sit beside the inner shape's keywords.
        Shape::Nullable(inner) | Shape::Excluding(inner, _) => {
            in_shape(inner, annotations, at, pointer)
        }
        _ => None,
    }
}
