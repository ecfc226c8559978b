//! What one [`Shape`] asserts, in the terms the classifier's messages use: its
//! JSON types, its closed set of values, and its constraints named by the
//! keyword a schema author writes (`maximum`, `pattern`, …).

use cgp_schema::model::{
    Annotations, ArrayShape, Branch, Limit, Member, ObjectShape, Place, Shape, TaggedUnion,
    UnknownMembers,
};
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// How a constraint orders the values it accepts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Order {
    /// A larger bound accepts less.
    Lower(f64),
    /// A smaller bound accepts less.
    Upper(f64),
    /// Two settings are equal or neither contains the other.
    None,
}

/// One constraint of a shape: the keyword that writes it, how it orders, and its
/// value as a message shows it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Constraint {
    pub(super) keyword: &'static str,
    pub(super) order: Order,
    pub(super) shown: String,
}

/// The JSON types a shape allows besides `null`: `integer` and `number` as
/// written, `string` for an open vocabulary, or the types of a closed set's
/// values. `None` means any type.
pub(super) fn json_types(shape: &Shape) -> Option<BTreeSet<String>> {
    let single = |name: &str| Some(BTreeSet::from([name.to_owned()]));
    match shape {
        Shape::Boolean => single("boolean"),
        Shape::Integer(_) => single("integer"),
        Shape::Number(_) => single("number"),
        Shape::String(_) | Shape::OpenVocabulary(_) => single("string"),
        Shape::Array(_) => single("array"),
        Shape::Object(_) => single("object"),
        Shape::Const(value) => inferred(std::slice::from_ref(value)),
        Shape::Enum(values) => inferred(values),
        Shape::Nullable(inner) | Shape::Excluding(inner, _) => json_types(inner),
        Shape::Any | Shape::Null | Shape::Named(_) | Shape::TaggedUnion(_) => None,
        Shape::Unsupported(_) => None,
    }
}

/// The JSON types of a closed set's values (`null` aside); an integer among
/// numbers with a fraction is a `number`.
fn inferred(values: &[Value]) -> Option<BTreeSet<String>> {
    let mut types: BTreeSet<String> = values
        .iter()
        .filter_map(|value| match value {
            Value::Null => None,
            Value::Bool(_) => Some("boolean"),
            Value::Number(number) if number.is_f64() => Some("number"),
            Value::Number(_) => Some("integer"),
            Value::String(_) => Some("string"),
            Value::Array(_) => Some("array"),
            Value::Object(_) => Some("object"),
        })
        .map(str::to_owned)
        .collect();
    if types.contains("number") {
        types.remove("integer");
    }
    (!types.is_empty()).then_some(types)
}

/// The values a shape is restricted to (`const` or `enum`), and the keyword
/// that lists them.
pub(super) fn value_set(shape: &Shape) -> Option<(&[Value], &'static str)> {
    match shape {
        Shape::Const(value) => Some((std::slice::from_ref(value), "const")),
        Shape::Enum(values) => Some((values, "enum")),
        Shape::Excluding(inner, _) => value_set(inner),
        _ => None,
    }
}

/// The constraints of a shape besides its type and value set. Settings that
/// assert nothing (`minLength: 0`, `uniqueItems: false`, unknown members
/// allowed) are left out, as if not written.
pub(super) fn constraints(shape: &Shape) -> Vec<Constraint> {
    let mut found = Vec::new();
    let mut push = |keyword: &'static str, order: Order, shown: String| {
        found.push(Constraint {
            keyword,
            order,
            shown,
        });
    };
    match shape {
        Shape::Integer(integer) => {
            let bound = |value: i128| (value as f64, value.to_string());
            if let Some((value, shown)) = integer.minimum.map(bound) {
                push("minimum", Order::Lower(value), shown);
            }
            if let Some((value, shown)) = integer.maximum.map(bound) {
                push("maximum", Order::Upper(value), shown);
            }
            if let Some(step) = &integer.multiple_of {
                push("multipleOf", Order::None, step.clone());
            }
            if let Some(format) = &integer.format {
                push("format", Order::None, format.clone());
            }
        }
        Shape::Number(number) => {
            let name = |limit: &Limit, inclusive, exclusive| {
                if limit.exclusive {
                    exclusive
                } else {
                    inclusive
                }
            };
            if let Some(limit) = &number.minimum {
                let keyword = name(limit, "minimum", "exclusiveMinimum");
                push(keyword, Order::Lower(limit.value), limit.value.to_string());
            }
            if let Some(limit) = &number.maximum {
                let keyword = name(limit, "maximum", "exclusiveMaximum");
                push(keyword, Order::Upper(limit.value), limit.value.to_string());
            }
            if let Some(step) = &number.multiple_of {
                push("multipleOf", Order::None, step.clone());
            }
            if let Some(format) = &number.format {
                push("format", Order::None, format.clone());
            }
        }
        Shape::String(string) => {
            if let Some(low) = string.min_length.filter(|low| *low > 0) {
                push("minLength", Order::Lower(low as f64), low.to_string());
            }
            if let Some(high) = string.max_length {
                push("maxLength", Order::Upper(high as f64), high.to_string());
            }
            if let Some(pattern) = &string.pattern {
                push("pattern", Order::None, pattern.clone());
            }
            if let Some(format) = &string.format {
                push("format", Order::None, format.clone());
            }
        }
        Shape::Array(array) => {
            if let Some(low) = array.min_items.filter(|low| *low > 0) {
                push("minItems", Order::Lower(low as f64), low.to_string());
            }
            if let Some(high) = array.max_items {
                push("maxItems", Order::Upper(high as f64), high.to_string());
            }
            if array.unique_items {
                push("uniqueItems", Order::None, "true".into());
            }
        }
        Shape::Object(object) if object.unknown_members == UnknownMembers::Rejected => {
            push("additionalProperties", Order::None, "false".into());
        }
        Shape::Excluding(inner, values) => {
            found = constraints(inner);
            let written = match values.as_slice() {
                [value] => json!({ "const": value }),
                values => json!({ "enum": values }),
            };
            found.push(Constraint {
                keyword: "not",
                order: Order::None,
                shown: written.to_string(),
            });
        }
        _ => {}
    }
    found
}

/// A member as it asserts: its shape and annotations without documentation,
/// version bookkeeping or places, to recognise a renamed member.
pub(super) fn essence(member: &Member) -> (Shape, Annotations, bool) {
    (
        essential_shape(&member.shape),
        essential(&member.annotations),
        member.required,
    )
}

fn essential(annotations: &Annotations) -> Annotations {
    Annotations {
        title: None,
        description: None,
        spec: None,
        since: None,
        documentation: Vec::new(),
        ..annotations.clone()
    }
}

fn essential_object(object: &ObjectShape) -> ObjectShape {
    ObjectShape {
        members: object
            .members
            .iter()
            .map(|member| Member {
                name: member.name.clone(),
                required: member.required,
                shape: essential_shape(&member.shape),
                annotations: essential(&member.annotations),
                at: Place::default(),
            })
            .collect(),
        unknown_members: object.unknown_members,
    }
}

fn essential_shape(shape: &Shape) -> Shape {
    match shape {
        Shape::Array(array) => Shape::Array(ArrayShape {
            items: Box::new(essential_shape(&array.items)),
            item_annotations: essential(&array.item_annotations),
            min_items: array.min_items,
            max_items: array.max_items,
            unique_items: array.unique_items,
        }),
        Shape::Object(object) => Shape::Object(essential_object(object)),
        Shape::TaggedUnion(union) => Shape::TaggedUnion(TaggedUnion {
            tag: union.tag.clone(),
            shared: essential_object(&union.shared),
            branches: union
                .branches
                .iter()
                .map(|branch| Branch {
                    tag: branch.tag.clone(),
                    object: essential_object(&branch.object),
                    annotations: essential(&branch.annotations),
                    at: Place::default(),
                })
                .collect(),
        }),
        Shape::Nullable(inner) => Shape::Nullable(Box::new(essential_shape(inner))),
        Shape::Excluding(inner, values) => {
            Shape::Excluding(Box::new(essential_shape(inner)), values.clone())
        }
        other => other.clone(),
    }
}
