//! The comparison itself: the model of a schemars contract against the model of
//! a bundle, member by member and shape by shape.

use super::describe::{describe, list, strings};
use super::{Contract, Inputs, Mismatch, MismatchKind, RustSource};
use cgp_schema::bundle::Bundle;
use cgp_schema::model::{
    ArrayShape, Emit, IntegerShape, Member, NumberShape, ObjectShape, Place, Protocol, Reading,
    Shape, StringShape, TaggedUnion, UnknownMembers, pascal_case,
};
use serde_json::Value;
use std::collections::BTreeSet;

/// Compares one contract with the bundle of its profile.
pub(super) fn compare_contract(
    contract: Contract,
    types: &Value,
    bundle: &Bundle,
    inputs: &Inputs<'_>,
) -> Vec<Mismatch> {
    let rust = Protocol::read(types, Reading::RustDecoder, &|_| None);
    let schema = Protocol::of_bundle(inputs.set, bundle);
    let mut walk = Walk {
        contract,
        rust: &rust,
        schema: &schema,
        source: inputs.rust,
        seen: BTreeSet::new(),
        out: Vec::new(),
    };
    for problem in rust.unsupported() {
        walk.report(
            MismatchKind::Unsupported,
            problem.at.pointer.clone(),
            format!(
                "the Rust {} contract has a schema the gate cannot compare: {}",
                contract.verb_noun(),
                problem.reason
            ),
        );
    }
    for problem in schema.unsupported() {
        walk.report(
            MismatchKind::Unsupported,
            problem.at.pointer.clone(),
            format!(
                "{}: a schema the gate cannot compare: {}",
                problem.at, problem.reason
            ),
        );
    }
    walk.envelope();
    walk.out
}

/// Who owns the members being compared: a named type, or a branch of a union.
#[derive(Debug, Clone)]
enum Owner {
    Type(String),
    Branch { owner: String, tag_value: String },
}

impl Owner {
    fn name(&self) -> &str {
        match self {
            Owner::Type(name) | Owner::Branch { owner: name, .. } => name,
        }
    }

    fn member_path(&self, member: &str) -> String {
        match self {
            Owner::Type(name) if name == "Envelope" => member.to_owned(),
            Owner::Type(name) => format!("{name}.{member}"),
            Owner::Branch { owner, tag_value } if owner == "Envelope" => {
                format!("{tag_value}.{member}")
            }
            Owner::Branch { owner, tag_value } => format!("{owner}({tag_value}).{member}"),
        }
    }

    fn rust_location(&self, rust: &RustSource, member: &str) -> String {
        match self {
            Owner::Type(name) => rust.member_location(name, None, member),
            Owner::Branch { owner, tag_value } => {
                rust.member_location(owner, Some(&pascal_case(tag_value)), member)
            }
        }
    }
}

struct Walk<'a> {
    contract: Contract,
    rust: &'a Protocol,
    schema: &'a Protocol,
    source: &'a RustSource,
    seen: BTreeSet<String>,
    out: Vec<Mismatch>,
}

/// `file:line:col` of a place, or the bundle pointer when it has no file position.
fn shown(place: &Place, contract: Contract) -> String {
    match &place.location {
        Some(location) => location.to_string(),
        None => format!("the {} bundle at {}", contract.profile(), place.pointer),
    }
}

impl Walk<'_> {
    fn report(&mut self, kind: MismatchKind, path: String, message: String) {
        self.out.push(Mismatch {
            path,
            kind,
            message,
        });
    }

    fn at(&self, place: &Place) -> String {
        shown(place, self.contract)
    }

    fn envelope(&mut self) {
        let owner = |tag: &str| Owner::Branch {
            owner: "Envelope".into(),
            tag_value: tag.to_owned(),
        };
        let rust_at = self.source.type_location("Envelope");
        for variant in &self.rust.variants {
            match self.schema.variant(&variant.tag) {
                None => {
                    let at = self.at(&Place::default());
                    self.report(
                        MismatchKind::MissingFromSchema,
                        format!("Envelope.{}", self.rust.tag),
                        format!(
                            "value \"{}\" is {} by {rust_at}, missing from {at}",
                            variant.tag,
                            self.contract.verb()
                        ),
                    );
                }
                Some(other) => {
                    let rust_members: Vec<&Member> = without(&variant.object, &self.rust.tag);
                    let schema_members: Vec<&Member> = without(&other.object, &self.schema.tag);
                    self.compare_members(
                        &owner(&variant.tag),
                        &rust_members,
                        &schema_members,
                        &other.at,
                    );
                }
            }
        }
        for variant in &self.schema.variants {
            if self.rust.variant(&variant.tag).is_none() {
                let at = self.at(&variant.at);
                self.report(
                    MismatchKind::MissingFromRust,
                    format!("Envelope.{}", self.schema.tag),
                    format!(
                        "value \"{}\" is in {at}, missing from {rust_at}",
                        variant.tag
                    ),
                );
            }
        }
    }

    /// Compares two named types once.
    fn named(&mut self, path: &str, a: &str, b: &str, schema_at: &Place) {
        if a != b {
            let at = self.at(schema_at);
            self.report(
                MismatchKind::TypeName,
                path.to_owned(),
                format!("is `{a}` in the Rust types but `{b}` in {at}"),
            );
            return;
        }
        if !self.seen.insert(a.to_owned()) {
            return;
        }
        // The models outlive the walk, so their types are borrowed past `self`.
        let (rust_model, schema_model) = (self.rust, self.schema);
        match (rust_model.named(a), schema_model.named(b)) {
            (Some(rust), Some(schema)) => {
                self.shapes(
                    a,
                    &Owner::Type(a.to_owned()),
                    &rust.shape,
                    &schema.shape,
                    &schema.at,
                );
            }
            (None, _) => self.report(
                MismatchKind::MissingFromRust,
                a.to_owned(),
                format!("the Rust contract has no definition of `{a}`"),
            ),
            (_, None) => {
                let at = self.source.type_location(a);
                self.report(
                    MismatchKind::MissingFromSchema,
                    a.to_owned(),
                    format!(
                        "defined in {at}, missing from the {} bundle",
                        self.contract.profile()
                    ),
                );
            }
        }
    }

    /// A named type's shape, for comparing with an inline one.
    fn resolved<'p>(protocol: &'p Protocol, shape: &'p Shape) -> &'p Shape {
        match shape {
            Shape::Named(name) => protocol.named(name).map_or(shape, |named| &named.shape),
            other => other,
        }
    }

    fn shapes(
        &mut self,
        path: &str,
        owner: &Owner,
        rust: &Shape,
        schema: &Shape,
        schema_at: &Place,
    ) {
        let rust = match (self.contract, rust) {
            (Contract::Serialize, Shape::Nullable(inner)) => inner,
            _ => rust,
        };
        match (rust, schema) {
            (Shape::Named(a), Shape::Named(b)) => self.named(path, a, b, schema_at),
            (Shape::Named(_), other) if !matches!(other, Shape::Unsupported(_)) => {
                let resolved = Self::resolved(self.rust, rust);
                if !matches!(resolved, Shape::Named(_)) {
                    self.shapes(path, owner, resolved, schema, schema_at);
                }
            }
            (other, Shape::Named(_)) if !matches!(other, Shape::Unsupported(_)) => {
                let resolved = Self::resolved(self.schema, schema);
                if !matches!(resolved, Shape::Named(_)) {
                    self.shapes(path, owner, rust, resolved, schema_at);
                }
            }
            (Shape::Object(a), Shape::Object(b)) => self.objects(owner, a, b, schema_at),
            (Shape::TaggedUnion(a), Shape::TaggedUnion(b)) => {
                self.unions(path, owner, a, b, schema_at)
            }
            (Shape::OpenVocabulary(a), Shape::OpenVocabulary(b)) => {
                self.values(path, strings(&a.known), strings(&b.known), schema_at);
            }
            (Shape::Enum(a), Shape::Enum(b)) => self.values(path, a.clone(), b.clone(), schema_at),
            (Shape::Enum(_), Shape::OpenVocabulary(_))
            | (Shape::OpenVocabulary(_), Shape::Enum(_)) => {
                let kind = |shape: &Shape| {
                    if matches!(shape, Shape::Enum(_)) {
                        "closed"
                    } else {
                        "open"
                    }
                };
                let (rust_at, at) = (self.source.type_location(path), self.at(schema_at));
                self.report(
                    MismatchKind::VocabularyKind,
                    path.to_owned(),
                    format!(
                        "{} vocabulary in {rust_at}, {} in {at}",
                        kind(rust),
                        kind(schema)
                    ),
                );
            }
            (Shape::Array(a), Shape::Array(b)) => self.arrays(path, owner, a, b, schema_at),
            (Shape::Nullable(a), Shape::Nullable(b)) => self.shapes(path, owner, a, b, schema_at),
            (Shape::Excluding(a, x), Shape::Excluding(b, y)) => {
                self.shapes(path, owner, a, b, schema_at);
                if x != y {
                    self.differs(
                        path,
                        &format!("excludes {}", list(x)),
                        &format!("excludes {}", list(y)),
                        schema_at,
                    );
                }
            }
            (Shape::Integer(a), Shape::Integer(b)) => self.integers(path, a, b, schema_at),
            (Shape::Number(a), Shape::Number(b)) => self.numbers(path, a, b, schema_at),
            (Shape::String(a), Shape::String(b)) => self.strings(path, a, b, schema_at),
            (Shape::Unsupported(_), _) | (_, Shape::Unsupported(_)) => {}
            (a, b) if a == b => {}
            (a, b) => self.differs(path, &describe(a), &describe(b), schema_at),
        }
    }

    fn differs(&mut self, path: &str, rust: &str, schema: &str, schema_at: &Place) {
        let at = self.at(schema_at);
        self.report(
            MismatchKind::Shape,
            path.to_owned(),
            format!("is {rust} in the Rust types but {schema} in {at}"),
        );
    }

    fn format(
        &mut self,
        path: &str,
        rust: &Option<String>,
        schema: &Option<String>,
        schema_at: &Place,
    ) {
        if rust != schema {
            let show = |format: &Option<String>| match format {
                Some(format) => format!("format `{format}`"),
                None => "no format".to_owned(),
            };
            self.differs(path, &show(rust), &show(schema), schema_at);
        }
    }

    fn integers(&mut self, path: &str, a: &IntegerShape, b: &IntegerShape, schema_at: &Place) {
        if (a.minimum, a.maximum, &a.multiple_of) != (b.minimum, b.maximum, &b.multiple_of) {
            self.differs(path, &a.describe(), &b.describe(), schema_at);
        }
        self.format(path, &a.format, &b.format, schema_at);
    }

    fn numbers(&mut self, path: &str, a: &NumberShape, b: &NumberShape, schema_at: &Place) {
        if (&a.minimum, &a.maximum, &a.multiple_of) != (&b.minimum, &b.maximum, &b.multiple_of) {
            self.differs(path, &a.describe(), &b.describe(), schema_at);
        }
        self.format(path, &a.format, &b.format, schema_at);
    }

    fn strings(&mut self, path: &str, a: &StringShape, b: &StringShape, schema_at: &Place) {
        if (a.min_length, a.max_length, &a.pattern) != (b.min_length, b.max_length, &b.pattern) {
            self.differs(path, &a.describe(), &b.describe(), schema_at);
        }
        self.format(path, &a.format, &b.format, schema_at);
    }

    fn arrays(
        &mut self,
        path: &str,
        owner: &Owner,
        a: &ArrayShape,
        b: &ArrayShape,
        schema_at: &Place,
    ) {
        let bounds = |array: &ArrayShape| (array.min_items, array.max_items, array.unique_items);
        if bounds(a) != bounds(b) {
            let show = |array: &ArrayShape| {
                let (low, high, unique) = bounds(array);
                format!(
                    "an array of {}..{} items{}",
                    low.unwrap_or(0),
                    high.map(|high| format!("={high}")).unwrap_or_default(),
                    if unique { ", unique" } else { "" }
                )
            };
            self.differs(path, &show(a), &show(b), schema_at);
        }
        self.shapes(&format!("{path}[]"), owner, &a.items, &b.items, schema_at);
    }

    fn values(&mut self, path: &str, rust: Vec<Value>, schema: Vec<Value>, schema_at: &Place) {
        let (rust_at, at) = (self.source.type_location(path), self.at(schema_at));
        for value in rust.iter().filter(|value| !schema.contains(value)) {
            self.report(
                MismatchKind::MissingFromSchema,
                path.to_owned(),
                format!("value {value} is in {rust_at}, missing from {at}"),
            );
        }
        for value in schema.iter().filter(|value| !rust.contains(value)) {
            self.report(
                MismatchKind::MissingFromRust,
                path.to_owned(),
                format!("value {value} is in {at}, missing from {rust_at}"),
            );
        }
    }

    fn objects(&mut self, owner: &Owner, a: &ObjectShape, b: &ObjectShape, schema_at: &Place) {
        if self.contract == Contract::Deserialize && a.unknown_members != b.unknown_members {
            let says = |unknown: UnknownMembers| match unknown {
                UnknownMembers::Allowed => "accepts unknown members",
                UnknownMembers::Rejected => "rejects unknown members",
            };
            let (rust_at, at) = (self.source.type_location(owner.name()), self.at(schema_at));
            self.report(
                MismatchKind::UnknownMembers,
                owner.name().to_owned(),
                format!(
                    "{} in {rust_at}, {} in {at}",
                    says(a.unknown_members),
                    says(b.unknown_members)
                ),
            );
        }
        let rust: Vec<&Member> = a.members.iter().collect();
        let schema: Vec<&Member> = b.members.iter().collect();
        self.compare_members(owner, &rust, &schema, schema_at);
    }

    fn unions(
        &mut self,
        path: &str,
        owner: &Owner,
        a: &TaggedUnion,
        b: &TaggedUnion,
        schema_at: &Place,
    ) {
        let name = owner.name().to_owned();
        if a.tag != b.tag {
            let at = self.at(schema_at);
            self.report(
                MismatchKind::Tag,
                path.to_owned(),
                format!(
                    "tagged on `{}` in the Rust types but on `{}` in {at}",
                    a.tag, b.tag
                ),
            );
            return;
        }
        let rust_at = self.source.type_location(&name);
        for branch in a
            .branches
            .iter()
            .filter(|branch| b.branch(&branch.tag).is_none())
        {
            let at = self.at(schema_at);
            self.report(
                MismatchKind::MissingFromSchema,
                format!("{path}.{}", a.tag),
                format!(
                    "value \"{}\" is {} by {rust_at}, missing from {at}",
                    branch.tag,
                    self.contract.verb()
                ),
            );
        }
        for branch in b
            .branches
            .iter()
            .filter(|branch| a.branch(&branch.tag).is_none())
        {
            let at = self.at(&branch.at);
            self.report(
                MismatchKind::MissingFromRust,
                format!("{path}.{}", a.tag),
                format!(
                    "value \"{}\" is in {at}, missing from {rust_at}",
                    branch.tag
                ),
            );
        }
        for branch in &a.branches {
            if let Some(other) = b.branch(&branch.tag) {
                let owner = Owner::Branch {
                    owner: name.clone(),
                    tag_value: branch.tag.clone(),
                };
                self.compare_members(
                    &owner,
                    &a.members_of(branch),
                    &b.members_of(other),
                    &other.at,
                );
            }
        }
    }

    fn compare_members(
        &mut self,
        owner: &Owner,
        rust: &[&Member],
        schema: &[&Member],
        schema_at: &Place,
    ) {
        let optional = |required: bool| if required { "required" } else { "optional" };
        for member in rust {
            let path = owner.member_path(&member.name);
            let rust_at = owner.rust_location(self.source, &member.name);
            let Some(other) = schema.iter().find(|other| other.name == member.name) else {
                let at = self.at(schema_at);
                self.report(
                    MismatchKind::MissingFromSchema,
                    path,
                    format!(
                        "{} ({}) in {rust_at}, missing from {at}",
                        optional(member.required),
                        self.contract.verb()
                    ),
                );
                continue;
            };
            let at = self.at(&other.at);
            if member.required != other.required {
                self.report(
                    MismatchKind::Required,
                    path.clone(),
                    format!(
                        "{} in {rust_at}, {} in {at} ({} profile)",
                        optional(member.required),
                        optional(other.required),
                        self.contract.profile()
                    ),
                );
            }
            let (rust_shape, rust_null) = member.shape.without_null();
            let (schema_shape, schema_null) = other.shape.without_null();
            if self.contract == Contract::Deserialize && rust_null != schema_null {
                let says = |nullable: bool| {
                    if nullable {
                        "accepts null"
                    } else {
                        "rejects null"
                    }
                };
                self.report(
                    MismatchKind::Nullability,
                    path.clone(),
                    format!(
                        "{} in {rust_at}, {} in {at}",
                        says(rust_null),
                        says(schema_null)
                    ),
                );
            }
            let schema_shape = match self.contract {
                Contract::Serialize => emit_neutral(other, schema_shape),
                Contract::Deserialize => schema_shape.clone(),
            };
            self.shapes(&path, owner, rust_shape, &schema_shape, &other.at);
        }
        for member in schema {
            if rust.iter().any(|other| other.name == member.name) {
                continue;
            }
            let path = owner.member_path(&member.name);
            let at = self.at(&member.at);
            let rust_at = self.source.type_location(owner.name());
            self.report(
                MismatchKind::MissingFromRust,
                path,
                format!(
                    "{} in {at}, missing from {rust_at}",
                    optional(member.required)
                ),
            );
        }
    }
}

/// A strict member's shape without the constraints the bundler derives from its
/// emit rule, which a serialize contract cannot state.
fn emit_neutral(member: &Member, shape: &Shape) -> Shape {
    match (member.emit(), shape) {
        (Some(Emit::OmitIfEmpty), Shape::Array(array)) if array.min_items == Some(1) => {
            Shape::Array(ArrayShape {
                min_items: None,
                ..array.clone()
            })
        }
        // The strict bundle states no `default` for these (the encoder never
        // writes it); the one excluded value is the default the interop side
        // states and the deserialize comparison checks.
        (Some(Emit::OmitIfDefault), Shape::Excluding(inner, values)) if values.len() == 1 => {
            (**inner).clone()
        }
        _ => shape.clone(),
    }
}

fn without<'o>(object: &'o ObjectShape, tag: &str) -> Vec<&'o Member> {
    object
        .members
        .iter()
        .filter(|member| member.name != tag)
        .collect()
}
