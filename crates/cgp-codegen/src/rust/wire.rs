//! The edits that make typify's types encode like the canonical encoder:
//! fields in the schema's member order, `x-cgp-emit`'s rules, and open
//! vocabularies read from a string only.

use cgp_schema::model::{Emit, Member, Protocol, Shape};
use quote::{format_ident, quote};
use std::collections::BTreeMap;
use syn::punctuated::Punctuated;
use syn::{Attribute, Fields, Item, Meta, Token};

/// What the bundle says about the members of each generated type: keyed by the
/// Rust name (a `$defs` name, or `Envelope::<Variant>`), the JSON member names in
/// schema order with their emit rule and default function name.
pub(super) struct MemberTable {
    types: BTreeMap<String, Vec<MemberInfo>>,
}

struct MemberInfo {
    name: String,
    emit: Option<Emit>,
}

impl MemberTable {
    /// The members of every type of `protocol`.
    pub(super) fn of(protocol: &Protocol) -> Self {
        let members = |members: &[Member]| -> Vec<MemberInfo> {
            members
                .iter()
                .map(|member| MemberInfo {
                    name: member.name.clone(),
                    emit: member.emit(),
                })
                .collect()
        };
        let mut types = BTreeMap::new();
        for (name, named) in &protocol.types {
            let own = match &named.shape {
                Shape::Object(object) => members(&object.members),
                Shape::TaggedUnion(union) => members(&union.shared.members),
                _ => Vec::new(),
            };
            types.insert(name.clone(), own);
        }
        for variant in &protocol.variants {
            if let Some(title) = &variant.annotations.title {
                types.insert(
                    format!("Envelope::{title}"),
                    members(&variant.object.members),
                );
            }
        }
        Self { types }
    }
}

/// The JSON name of a field: its `#[serde(rename = "...")]`, or its identifier.
fn json_name(field: &syn::Field) -> String {
    for attr in &field.attrs {
        if !attr.path().is_ident("serde") {
            continue;
        }
        if let Ok(list) = attr.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated) {
            for meta in list {
                if let Meta::NameValue(pair) = meta {
                    if pair.path.is_ident("rename") {
                        if let syn::Expr::Lit(syn::ExprLit {
                            lit: syn::Lit::Str(text),
                            ..
                        }) = pair.value
                        {
                            return text.value();
                        }
                    }
                }
            }
        }
    }
    field
        .ident
        .as_ref()
        .map(|ident| ident.to_string().trim_start_matches("r#").to_owned())
        .unwrap_or_default()
}

fn for_each_named_fields(file: &mut syn::File, visit: &mut dyn FnMut(&str, &mut syn::FieldsNamed)) {
    for item in &mut file.items {
        match item {
            Item::Struct(item) => {
                if let Fields::Named(fields) = &mut item.fields {
                    visit(&item.ident.to_string(), fields);
                }
            }
            Item::Enum(item) if item.ident == "Envelope" => {
                for variant in &mut item.variants {
                    if let Fields::Named(fields) = &mut variant.fields {
                        visit(&format!("Envelope::{}", variant.ident), fields);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Reorders struct fields (and envelope variant fields) into schema order.
pub(super) fn apply_wire_order(file: &mut syn::File, members: &MemberTable) {
    for_each_named_fields(file, &mut |name, fields| {
        let Some(order) = members.types.get(name) else {
            return;
        };
        let rank = |field: &syn::Field| {
            let json = json_name(field);
            order
                .iter()
                .position(|member| member.name == json)
                .unwrap_or(usize::MAX)
        };
        let mut sorted: Vec<syn::Field> = fields.named.iter().cloned().collect();
        sorted.sort_by_key(rank);
        fields.named = sorted.into_iter().collect();
    });
}

/// Rewrites `skip_serializing_if` to follow `x-cgp-emit`; returns the helper
/// functions that `omit-if-default` members need.
pub(super) fn apply_emit_rules(file: &mut syn::File, members: &MemberTable) -> Vec<Item> {
    let mut helpers = Vec::new();
    for_each_named_fields(file, &mut |name, fields| {
        let Some(order) = members.types.get(name) else {
            return;
        };
        for field in fields.named.iter_mut() {
            let json = json_name(field);
            let Some(member) = order.iter().find(|member| member.name == json) else {
                continue;
            };
            match member.emit {
                Some(Emit::Always) => edit_serde(&mut field.attrs, |metas| {
                    metas.retain(|meta| !meta.path().is_ident("skip_serializing_if"));
                }),
                Some(Emit::OmitIfDefault) => {
                    let Some(default_fn) = serde_value(&field.attrs, "default") else {
                        continue;
                    };
                    let ty = &field.ty;
                    let helper = format_ident!(
                        "{}_is_default",
                        default_fn.rsplit("::").next().unwrap_or("member")
                    );
                    let default_path: syn::Path = match syn::parse_str(&default_fn) {
                        Ok(path) => path,
                        Err(_) => continue,
                    };
                    if let Ok(item) = syn::parse2::<Item>(quote! {
                        fn #helper(value: &#ty) -> bool {
                            *value == #default_path()
                        }
                    }) {
                        helpers.push(item);
                    }
                    let helper_name = helper.to_string();
                    edit_serde(&mut field.attrs, |metas| {
                        metas.retain(|meta| !meta.path().is_ident("skip_serializing_if"));
                        if let Ok(meta) = syn::parse_str::<Meta>(&format!(
                            "skip_serializing_if = \"{helper_name}\""
                        )) {
                            metas.push(meta);
                        }
                    });
                }
                _ => {}
            }
        }
    });
    helpers
}

/// Replaces the derived `Deserialize` of each open vocabulary enum (`Known(..)`
/// first, `Other(..)` second, as typify generates them) by one that reads a
/// string and sorts it into the known or the other half.
pub(super) fn apply_open_vocabularies(file: &mut syn::File, names: &[String]) -> Vec<Item> {
    let mut readers = Vec::new();
    for item in &mut file.items {
        let Item::Enum(item) = item else { continue };
        if !names.iter().any(|name| item.ident == name) || item.variants.len() != 2 {
            continue;
        }
        let halves: Vec<(syn::Ident, syn::Type)> = item
            .variants
            .iter()
            .filter_map(|variant| match &variant.fields {
                Fields::Unnamed(fields) if fields.unnamed.len() == 1 => fields
                    .unnamed
                    .first()
                    .map(|field| (variant.ident.clone(), field.ty.clone())),
                _ => None,
            })
            .collect();
        let [(known, known_type), (other, other_type)] = halves.as_slice() else {
            continue;
        };
        for attr in &mut item.attrs {
            if attr.path().is_ident("derive") {
                if let Ok(list) =
                    attr.parse_args_with(Punctuated::<syn::Path, Token![,]>::parse_terminated)
                {
                    let kept: Vec<syn::Path> = list
                        .into_iter()
                        .filter(|path| {
                            path.segments
                                .last()
                                .is_none_or(|last| last.ident != "Deserialize")
                        })
                        .collect();
                    *attr = syn::parse_quote!(#[derive(#(#kept),*)]);
                }
            }
        }
        let name = &item.ident;
        let reader: Result<Item, _> = syn::parse2(quote! {
            impl<'de> ::serde::Deserialize<'de> for #name {
                fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
                where
                    D: ::serde::Deserializer<'de>,
                {
                    let text = <::std::string::String as ::serde::Deserialize>::deserialize(deserializer)?;
                    match text.parse::<#known_type>() {
                        Ok(known) => Ok(Self::#known(known)),
                        Err(_) => <#other_type>::try_from(text)
                            .map(Self::#other)
                            .map_err(|error| <D::Error as ::serde::de::Error>::custom(error.to_string())),
                    }
                }
            }
        });
        if let Ok(reader) = reader {
            readers.push(reader);
        }
    }
    readers
}

fn serde_value(attrs: &[Attribute], key: &str) -> Option<String> {
    for attr in attrs {
        if !attr.path().is_ident("serde") {
            continue;
        }
        let list = attr
            .parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
            .ok()?;
        for meta in list {
            if let Meta::NameValue(pair) = meta {
                if pair.path.is_ident(key) {
                    if let syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(text),
                        ..
                    }) = pair.value
                    {
                        return Some(text.value());
                    }
                }
            }
        }
    }
    None
}

fn edit_serde(attrs: &mut Vec<Attribute>, edit: impl FnOnce(&mut Vec<Meta>)) {
    let Some(index) = attrs.iter().position(|attr| attr.path().is_ident("serde")) else {
        let mut metas = Vec::new();
        edit(&mut metas);
        if !metas.is_empty() {
            attrs.push(syn::parse_quote!(#[serde(#(#metas),*)]));
        }
        return;
    };
    let Some(attr) = attrs.get_mut(index) else {
        return;
    };
    let Ok(list) = attr.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated) else {
        return;
    };
    let mut metas: Vec<Meta> = list.into_iter().collect();
    edit(&mut metas);
    if metas.is_empty() {
        attrs.remove(index);
    } else {
        *attr = syn::parse_quote!(#[serde(#(#metas),*)]);
    }
}
