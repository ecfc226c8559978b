//! Value shapes: what a JSON Schema validator accepts at one place, as typed
//! data. The reader that builds them is in `read`; the annotations beside them
//! are in `annotations`.

use super::{Annotations, Member, Place};
use serde_json::Value;

/// What a validator accepts at one place in a schema.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// Any JSON value (`{}`).
    Any,
    /// A named type of the document's `$defs`.
    Named(String),
    /// `null` only.
    Null,
    /// `true` or `false`.
    Boolean,
    /// An integer within a range.
    Integer(IntegerShape),
    /// A number within a range.
    Number(NumberShape),
    /// A string with length and pattern constraints.
    String(StringShape),
    /// Exactly one value (`const`, or an `enum` of one value).
    Const(Value),
    /// A closed set of values (`enum`).
    Enum(Vec<Value>),
    /// A string vocabulary whose known values are listed and whose other strings
    /// are kept too (SPEC.md §Vocabularies).
    OpenVocabulary(Vocabulary),
    /// An array.
    Array(ArrayShape),
    /// An object with named members.
    Object(ObjectShape),
    /// A flat object whose tag member selects the other members it may carry.
    TaggedUnion(TaggedUnion),
    /// The inner shape, or `null`.
    Nullable(Box<Shape>),
    /// The inner shape, except these values (`not: {const}` / `not: {enum}`).
    Excluding(Box<Shape>, Vec<Value>),
    /// A schema this model does not describe.
    Unsupported(String),
}

impl Shape {
    /// The shape without a `null` alternative, and whether it had one.
    pub fn without_null(&self) -> (&Shape, bool) {
        match self {
            Shape::Nullable(inner) => (inner, true),
            other => (other, false),
        }
    }

    /// The names of the `$defs` types this shape refers to directly.
    pub fn references(&self, out: &mut Vec<String>) {
        match self {
            Shape::Named(name) => out.push(name.clone()),
            Shape::OpenVocabulary(vocabulary) => out.extend(vocabulary.known_type.clone()),
            Shape::Array(array) => array.items.references(out),
            Shape::Object(object) => object.references(out),
            Shape::TaggedUnion(union) => {
                union.shared.references(out);
                for branch in &union.branches {
                    branch.object.references(out);
                }
            }
            Shape::Nullable(inner) | Shape::Excluding(inner, _) => inner.references(out),
            _ => {}
        }
    }
}

/// An integer range, inclusive at both ends; `None` is unbounded.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct IntegerShape {
    /// The least value accepted.
    pub minimum: Option<i128>,
    /// The greatest value accepted.
    pub maximum: Option<i128>,
    /// `multipleOf`, as written.
    pub multiple_of: Option<String>,
    /// The `format` annotation (`uint32`, …). A validator does not enforce it.
    pub format: Option<String>,
}

impl IntegerShape {
    /// The range as text, e.g. `integer 0..=4294967295`.
    pub fn describe(&self) -> String {
        let mut text = match (self.minimum, self.maximum) {
            (Some(low), Some(high)) => format!("integer {low}..={high}"),
            (Some(low), None) => format!("integer {low}.."),
            (None, Some(high)) => format!("integer ..={high}"),
            (None, None) => "integer".into(),
        };
        if let Some(step) = &self.multiple_of {
            text.push_str(&format!(" (multiple of {step})"));
        }
        text
    }
}

/// One end of a number range.
#[derive(Debug, Clone, PartialEq)]
pub struct Limit {
    /// The bound.
    pub value: f64,
    /// Whether the bound itself is excluded.
    pub exclusive: bool,
}

/// A number range.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NumberShape {
    /// The lower end.
    pub minimum: Option<Limit>,
    /// The upper end.
    pub maximum: Option<Limit>,
    /// `multipleOf`, as written.
    pub multiple_of: Option<String>,
    /// The `format` annotation (`float`, `double`). A validator does not enforce it.
    pub format: Option<String>,
}

impl NumberShape {
    /// The range as text, e.g. `number [0, 1]`.
    pub fn describe(&self) -> String {
        let low = self
            .minimum
            .as_ref()
            .map(|limit| format!("{}{}", if limit.exclusive { "(" } else { "[" }, limit.value));
        let high = self
            .maximum
            .as_ref()
            .map(|limit| format!("{}{}", limit.value, if limit.exclusive { ")" } else { "]" }));
        let mut text = match (low, high) {
            (None, None) => "number".to_owned(),
            (low, high) => format!(
                "number {}, {}",
                low.unwrap_or_else(|| "(-inf".into()),
                high.unwrap_or_else(|| "inf)".into())
            ),
        };
        if let Some(step) = &self.multiple_of {
            text.push_str(&format!(" (multiple of {step})"));
        }
        text
    }
}

/// String constraints.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StringShape {
    /// `minLength`.
    pub min_length: Option<u64>,
    /// `maxLength`.
    pub max_length: Option<u64>,
    /// `pattern`.
    pub pattern: Option<String>,
    /// The `format` annotation. A validator does not enforce it.
    pub format: Option<String>,
}

impl StringShape {
    /// The constraints as text, e.g. `string of 1.. characters`.
    pub fn describe(&self) -> String {
        let mut text = "string".to_owned();
        match (self.min_length, self.max_length) {
            (None, None) => {}
            (low, high) => text.push_str(&format!(
                " of {}..{} characters",
                low.unwrap_or(0),
                high.map(|high| format!("={high}")).unwrap_or_default()
            )),
        }
        if let Some(pattern) = &self.pattern {
            text.push_str(&format!(" matching /{pattern}/"));
        }
        text
    }
}

/// An open vocabulary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vocabulary {
    /// The known values, in schema order.
    pub known: Vec<String>,
    /// The `$defs` entry that lists the known values, when they are behind a `$ref`.
    pub known_type: Option<String>,
}

/// An array.
#[derive(Debug, Clone, PartialEq)]
pub struct ArrayShape {
    /// Every item's shape.
    pub items: Box<Shape>,
    /// The annotations of the item schema.
    pub item_annotations: Annotations,
    /// `minItems`.
    pub min_items: Option<u64>,
    /// `maxItems`.
    pub max_items: Option<u64>,
    /// `uniqueItems`.
    pub unique_items: bool,
}

/// What an object does with members it does not name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnknownMembers {
    /// They are accepted (and ignored by a receiver).
    Allowed,
    /// They make the object invalid (`additionalProperties: false`).
    Rejected,
}

/// An object.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectShape {
    /// The members, in schema order.
    pub members: Vec<Member>,
    /// What happens to other members.
    pub unknown_members: UnknownMembers,
}

impl ObjectShape {
    /// The member called `name`.
    pub fn member(&self, name: &str) -> Option<&Member> {
        self.members.iter().find(|member| member.name == name)
    }

    fn references(&self, out: &mut Vec<String>) {
        for member in &self.members {
            member.shape.references(out);
        }
    }
}

/// A flat object tagged by one member (`FrameVerdict` on `status`, the envelope on
/// `type`).
#[derive(Debug, Clone, PartialEq)]
pub struct TaggedUnion {
    /// The tag member's name.
    pub tag: String,
    /// Members every branch has, written beside the `oneOf`.
    pub shared: ObjectShape,
    /// The branches, in schema order.
    pub branches: Vec<Branch>,
}

impl TaggedUnion {
    /// The branch whose tag is `value`.
    pub fn branch(&self, value: &str) -> Option<&Branch> {
        self.branches.iter().find(|branch| branch.tag == value)
    }

    /// A branch's members with the shared ones, the tag member left out.
    pub fn members_of<'u>(&'u self, branch: &'u Branch) -> Vec<&'u Member> {
        self.members_with_tag(branch)
            .into_iter()
            .filter(|member| member.name != self.tag)
            .collect()
    }

    /// A branch's members in the order the canonical encoder writes them: the
    /// shared ones the branch does not redefine, then its own (the tag member
    /// among them when the branch declares it).
    pub fn members_with_tag<'u>(&'u self, branch: &'u Branch) -> Vec<&'u Member> {
        self.shared
            .members
            .iter()
            .filter(|member| branch.object.member(&member.name).is_none())
            .chain(branch.object.members.iter())
            .collect()
    }
}

/// One branch of a tagged union.
#[derive(Debug, Clone, PartialEq)]
pub struct Branch {
    /// The tag value that selects it.
    pub tag: String,
    /// The branch's own members (the tag member among them).
    pub object: ObjectShape,
    /// Its annotations.
    pub annotations: Annotations,
    /// Where it is.
    pub at: Place,
}
