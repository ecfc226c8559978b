//! The [`Writer`]: a shape of the model as a visitor of the validator's
//! runtime, with the unit structs it needs; a shape the runtime has no check
//! for is a diagnostic at its place.

use super::MAX_MEMBERS;
use cgp_schema::diagnostic::Diagnostic;
use cgp_schema::model::{
    Member, NumberShape, ObjectShape, Place, Shape, StringShape, TaggedUnion, UnknownMembers,
    pascal_case,
};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{ToTokens, quote};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::str::FromStr;

/// What one module is written from, and what it has written so far.
pub(super) struct Writer {
    /// Rust names of the named types, by `$defs` name.
    named: BTreeMap<String, String>,
    /// Every struct name taken.
    taken: BTreeSet<String>,
    /// The items written, in order.
    items: Vec<TokenStream>,
    pub(super) problems: Vec<Diagnostic>,
}

impl Writer {
    /// A writer with nothing written, `Envelope` taken.
    pub(super) fn new() -> Self {
        Self {
            named: BTreeMap::new(),
            taken: ["Envelope".to_owned()].into_iter().collect(),
            items: Vec::new(),
            problems: Vec::new(),
        }
    }

    /// Gives the named type `name` its Rust name.
    pub(super) fn name_type(&mut self, name: &str) {
        let rust = self.fresh(&pascal_case(&rust_ident(name)));
        self.named.insert(name.to_owned(), rust);
    }

    /// The Rust name [`Self::name_type`] gave `name`.
    pub(super) fn rust_name(&self, name: &str) -> String {
        self.named.get(name).cloned().unwrap_or_default()
    }

    /// The items written, in order.
    pub(super) fn items(&self) -> &[TokenStream] {
        &self.items
    }

    /// `base`, or `base2`, `base3`, … when it is taken.
    fn fresh(&mut self, base: &str) -> String {
        let mut name = base.to_owned();
        let mut counter = 1;
        while self.taken.contains(&name) || RESERVED.contains(&name.as_str()) {
            counter += 1;
            name = format!("{base}{counter}");
        }
        self.taken.insert(name.clone());
        name
    }

    fn refuse(&mut self, at: &Place, what: impl Into<String>) {
        self.problems.push(at.diagnostic(format!(
            "the single-pass validator has no check for this schema: {}",
            what.into()
        )));
    }

    /// The unit struct of a named type.
    pub(super) fn named_type(&mut self, rust: &str, shape: &Shape, at: &Place) {
        match shape {
            Shape::Object(object) => self.object(rust, object, at),
            Shape::TaggedUnion(union) => self.union(rust, union, at, true),
            other => {
                let check = self.check(other, rust, at);
                let rust = ident(rust);
                self.items.push(quote! {
                    #[derive(Clone, Copy)]
                    struct #rust;
                    rt::delegate_visitor!(#rust => #check);
                });
            }
        }
    }

    /// The visitor expression of `shape`; `hint` names any struct it needs.
    fn check(&mut self, shape: &Shape, hint: &str, at: &Place) -> TokenStream {
        match shape {
            Shape::Any => quote!(rt::AnyValue),
            Shape::Named(name) => match self.named.get(name) {
                Some(rust) => ident(rust).into_token_stream(),
                None => {
                    self.refuse(at, format!("the type `{name}` is not defined"));
                    TokenStream::new()
                }
            },
            Shape::Null => quote!(rt::NullCheck),
            Shape::Boolean => quote!(rt::BoolCheck),
            Shape::Integer(range) => {
                if range.multiple_of.is_some() {
                    self.refuse(at, "`multipleOf`");
                }
                let minimum = option(range.minimum.map(Literal::i128_unsuffixed));
                let maximum = option(range.maximum.map(Literal::i128_unsuffixed));
                quote!(rt::IntegerCheck { minimum: #minimum, maximum: #maximum })
            }
            Shape::Number(range) => self.number(range, at),
            Shape::String(rule) => self.string(rule, at),
            Shape::Const(Value::String(text)) => {
                let text = Literal::string(text);
                quote!(rt::ConstString(#text))
            }
            Shape::Const(Value::Bool(value)) => quote!(rt::ConstBool(#value)),
            Shape::Const(Value::Null) => quote!(rt::NullCheck),
            Shape::Const(other) => {
                self.refuse(
                    at,
                    format!("`const` {other}, which is not a string or boolean"),
                );
                TokenStream::new()
            }
            Shape::Enum(values) => match strings(values) {
                Some(list) => quote!(rt::StringEnum(&[#(#list),*])),
                None => {
                    self.refuse(at, "an `enum` with a value that is not a string");
                    TokenStream::new()
                }
            },
            Shape::OpenVocabulary(_) => quote!(rt::StringCheck::ANY),
            Shape::Array(array) => {
                if array.unique_items {
                    self.refuse(at, "`uniqueItems`");
                }
                let items = self.check(&array.items, &format!("{hint}Item"), at);
                let low = option(array.min_items.map(Literal::u64_unsuffixed));
                let high = option(array.max_items.map(Literal::u64_unsuffixed));
                quote!(rt::ArrayCheck { items: #items, min_items: #low, max_items: #high })
            }
            Shape::Object(object) => {
                let name = self.fresh(hint);
                self.object(&name, object, at);
                ident(&name).into_token_stream()
            }
            Shape::TaggedUnion(union) => {
                let name = self.fresh(hint);
                self.union(&name, union, at, true);
                ident(&name).into_token_stream()
            }
            Shape::Nullable(inner) => {
                let inner = self.check(inner, hint, at);
                quote!(rt::Nullable(#inner))
            }
            Shape::Excluding(inner, excluded) => {
                let inner = self.check(inner, hint, at);
                match strings(excluded) {
                    Some(list) => quote!(rt::ExcludingStrings(#inner, &[#(#list),*])),
                    None => {
                        self.refuse(at, "a `not` of a value that is not a string");
                        TokenStream::new()
                    }
                }
            }
            Shape::Unsupported(reason) => {
                self.refuse(at, reason.clone());
                TokenStream::new()
            }
        }
    }

    /// The visitor expression of a number range.
    fn number(&mut self, range: &NumberShape, at: &Place) -> TokenStream {
        if range.multiple_of.is_some() {
            self.refuse(at, "`multipleOf`");
        }
        let mut limit = |limit: &cgp_schema::model::Limit| {
            let value = float(limit.value).unwrap_or_else(|| {
                // Refused, so the module is never written.
                self.refuse(at, format!("the non-finite limit {}", limit.value));
                quote!(0.0_f64)
            });
            let exclusive = limit.exclusive;
            quote!(rt::Limit { value: #value, exclusive: #exclusive })
        };
        let minimum = option(range.minimum.as_ref().map(&mut limit));
        let maximum = option(range.maximum.as_ref().map(&mut limit));
        quote!(rt::NumberCheck { minimum: #minimum, maximum: #maximum })
    }

    /// The visitor expression of a string rule.
    fn string(&mut self, rule: &StringShape, at: &Place) -> TokenStream {
        if rule.pattern.is_some() {
            self.refuse(at, "`pattern`");
        }
        match (rule.min_length, rule.max_length) {
            (None, None) => quote!(rt::StringCheck::ANY),
            (low, high) => {
                let low = option(low.map(Literal::u64_unsuffixed));
                let high = option(high.map(Literal::u64_unsuffixed));
                quote!(rt::StringCheck { min_length: #low, max_length: #high })
            }
        }
    }

    /// A struct implementing `Members` for `members`, and, when `visitor`, the
    /// object visitor that uses it.
    fn members(
        &mut self,
        rust: &str,
        members: &[&Member],
        unknown: UnknownMembers,
        at: &Place,
        visitor: bool,
    ) {
        if members.len() > MAX_MEMBERS {
            self.refuse(at, format!("an object of more than {MAX_MEMBERS} members"));
            return;
        }
        let mut names = Vec::new();
        let mut checks = Vec::new();
        let mut required: u64 = 0;
        for (index, member) in members.iter().enumerate() {
            let hint = format!("{rust}{}", pascal_case(&rust_ident(&member.name)));
            let check = self.check(&member.shape, &hint, &member.at);
            checks.push(if reads_no_string(&member.shape) {
                quote!(value.deserialize_ignored_any(#check))
            } else {
                quote!(value.deserialize_any(#check))
            });
            names.push(Literal::string(&member.name));
            if member.required {
                required |= 1 << index;
            }
        }
        let indices = (0..members.len()).map(|index| {
            u32::try_from(index).map_or_else(
                |_| Literal::usize_unsuffixed(index),
                Literal::u32_unsuffixed,
            )
        });
        let indices: Vec<Literal> = indices.collect();
        let open = unknown == UnknownMembers::Allowed;
        let required = binary(required);
        let (index, check) = if members.is_empty() {
            (
                quote! {
                    fn index(_: &str) -> Option<u32> {
                        None
                    }
                },
                quote! {
                    fn check<'de, D: Deserializer<'de>>(self, _: u32, _: D) -> Result<(), D::Error> {
                        Err(rt::refuse())
                    }
                },
            )
        } else {
            (
                quote! {
                    fn index(name: &str) -> Option<u32> {
                        match name {
                            #(#names => Some(#indices),)*
                            _ => None,
                        }
                    }
                },
                quote! {
                    fn check<'de, D: Deserializer<'de>>(self, index: u32, value: D) -> Result<(), D::Error> {
                        match index {
                            #(#indices => #checks,)*
                            _ => Err(rt::refuse()),
                        }
                    }
                },
            )
        };
        let name = ident(rust);
        let visitor = visitor.then(|| quote!(rt::object_visitor!(#name);));
        self.items.push(quote! {
            #[derive(Clone, Copy)]
            struct #name;
            impl rt::Members for #name {
                const OPEN: bool = #open;
                const REQUIRED: u64 = #required;
                #index
                #check
            }
            #visitor
        });
    }

    fn object(&mut self, rust: &str, object: &ObjectShape, at: &Place) {
        let members: Vec<&Member> = object.members.iter().collect();
        self.members(rust, &members, object.unknown_members, at, true);
    }

    /// A struct implementing `Union`, one `Members` struct per branch, and, when
    /// `visitor`, the visitor of the union as a value.
    pub(super) fn union(&mut self, rust: &str, union: &TaggedUnion, at: &Place, visitor: bool) {
        if union.shared.unknown_members == UnknownMembers::Rejected {
            self.refuse(
                at,
                "`additionalProperties: false` beside a tagged union's `oneOf`",
            );
            return;
        }
        let mut tags = Vec::new();
        let mut indices = Vec::new();
        let mut finishes = Vec::new();
        for (index, branch) in union.branches.iter().enumerate() {
            let mut members: Vec<&Member> = branch.object.members.iter().collect();
            for shared in &union.shared.members {
                match branch.object.member(&shared.name) {
                    None => members.push(shared),
                    Some(own) if own.shape == shared.shape || shared.shape == Shape::Any => {}
                    Some(own) => {
                        let message = format!(
                            "`{}` has one schema beside the union's `oneOf` and another in branch `{}`",
                            own.name, branch.tag
                        );
                        self.refuse(&own.at, message);
                    }
                }
            }
            let required_shared: BTreeSet<&str> = union
                .shared
                .members
                .iter()
                .filter(|member| member.required)
                .map(|member| member.name.as_str())
                .collect();
            let merged: Vec<Member> = members
                .iter()
                .map(|member| Member {
                    required: member.required || required_shared.contains(member.name.as_str()),
                    ..(*member).clone()
                })
                .collect();
            let merged: Vec<&Member> = merged.iter().collect();
            let Some(tag_index) = merged.iter().position(|member| member.name == union.tag) else {
                self.refuse(
                    &branch.at,
                    format!("branch `{}` has no tag member", branch.tag),
                );
                continue;
            };
            let name = self.fresh(&format!("{rust}{}", pascal_case(&rust_ident(&branch.tag))));
            self.members(
                &name,
                &merged,
                branch.object.unknown_members,
                &branch.at,
                false,
            );
            let name = ident(&name);
            let tag_index = Literal::usize_unsuffixed(tag_index);
            tags.push(Literal::string(&branch.tag));
            indices.push(Literal::usize_unsuffixed(index));
            finishes.push(quote!(rt::check_members(#name, map, before, 1 << #tag_index)));
        }
        let tag = Literal::string(&union.tag);
        let name = ident(rust);
        let visitor = visitor.then(|| quote!(rt::union_visitor!(#name);));
        self.items.push(quote! {
            #[derive(Clone, Copy)]
            struct #name;
            impl rt::Union for #name {
                const TAG: &'static str = #tag;
                fn branch(tag: &str) -> Option<u32> {
                    match tag {
                        #(#tags => Some(#indices),)*
                        _ => None,
                    }
                }
                fn finish<'de, A: MapAccess<'de>>(self, branch: u32, map: A, before: rt::Before<'de>) -> Result<(), A::Error> {
                    match branch {
                        #(#indices => #finishes,)*
                        _ => Err(rt::refuse()),
                    }
                }
            }
            #visitor
        });
    }
}

/// Names the runtime's items use in a module, which a generated struct must
/// not shadow.
const RESERVED: [&str; 3] = ["TAGS", "Deserializer", "MapAccess"];

fn ident(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

fn option(value: Option<impl ToTokens>) -> TokenStream {
    match value {
        Some(value) => quote!(Some(#value)),
        None => quote!(None),
    }
}

/// An `f64` literal as Rust's `{:?}` spells it, with the `_f64` suffix.
pub(super) fn float(value: f64) -> Option<TokenStream> {
    // A non-finite value has no literal: the caller refuses it at its place.
    if !value.is_finite() {
        return None;
    }
    let text = format!("{value:?}_f64");
    let literal = Literal::from_str(text.trim_start_matches('-')).ok()?;
    Some(if value.is_sign_negative() {
        quote!(-#literal)
    } else {
        literal.into_token_stream()
    })
}

/// A `u64` literal written in binary (`0b…`), one bit a member.
fn binary(value: u64) -> TokenStream {
    Literal::from_str(&format!("{value:#b}")).map_or_else(
        |_| Literal::u64_unsuffixed(value).into_token_stream(),
        ToTokens::into_token_stream,
    )
}

/// The string literals of `values` when every value is a string.
fn strings(values: &[Value]) -> Option<Vec<Literal>> {
    values
        .iter()
        .map(|value| value.as_str().map(Literal::string))
        .collect()
}

/// A `$defs` name as a Rust identifier.
fn rust_ident(name: &str) -> String {
    let ident: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    match ident.chars().next() {
        Some(first) if first.is_ascii_alphabetic() => ident,
        _ => format!("T{ident}"),
    }
}

/// Whether the check of `shape` never reads a string's contents (it accepts
/// any string, or only asks that a value be one): the runtime's reader then
/// hands strings over without reading their escapes.
fn reads_no_string(shape: &Shape) -> bool {
    match shape {
        Shape::Any | Shape::OpenVocabulary(_) => true,
        Shape::String(rule) => {
            rule.min_length.is_none() && rule.max_length.is_none() && rule.pattern.is_none()
        }
        Shape::Nullable(inner) => reads_no_string(inner),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A limit with no Rust literal (the model reads none from JSON, but a
    /// hand-made one may hold it) is refused at the schema's file and pointer
    /// rather than written as `f64::NAN`.
    #[test]
    fn a_non_finite_limit_is_refused_at_its_file_and_pointer() {
        let mut writer = Writer {
            named: BTreeMap::new(),
            taken: BTreeSet::new(),
            items: Vec::new(),
            problems: Vec::new(),
        };
        let at = Place {
            pointer: "/$defs/Score/maximum".to_owned(),
            location: Some(cgp_schema::model::Location {
                file: "schema/types/score.schema.json".to_owned(),
                line: 3,
                column: 14,
            }),
        };
        let shape = Shape::Number(cgp_schema::model::NumberShape {
            maximum: Some(cgp_schema::model::Limit {
                value: f64::INFINITY,
                exclusive: false,
            }),
            ..Default::default()
        });
        writer.check(&shape, "score", &at);
        let problems: Vec<String> = writer.problems.iter().map(ToString::to_string).collect();
        assert_eq!(problems.len(), 1, "{problems:?}");
        for part in [
            "schema/types/score.schema.json:3:14",
            "/$defs/Score/maximum",
            "the non-finite limit inf",
        ] {
            assert!(problems[0].contains(part), "{part} in {}", problems[0]);
        }
        assert!(float(f64::NAN).is_none() && float(f64::NEG_INFINITY).is_none());
    }
}
