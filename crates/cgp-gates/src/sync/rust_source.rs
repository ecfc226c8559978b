//! Where the hand-written types are written: a position index of their Rust
//! sources, so a mismatch can name `crates/cgp-types/src/frame.rs:120:5`, as
//! every other gate names a place ([`Location`]). syn parses each file; the
//! public structs and enums, their named fields and those of struct-like enum
//! variants are found by the parser, each at `file:line:col` from
//! proc-macro2's span locations.

use cgp_schema::model::Location;
use proc_macro2::{Span, TokenStream, TokenTree};
use std::collections::BTreeMap;
use std::path::Path;
use syn::ext::IdentExt as _;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned as _;
use syn::{Attribute, Expr, ExprLit, Fields, Item, Lit, Meta, Token, Visibility};

/// Where the hand-written types are written: a position index of the Rust
/// sources.
#[derive(Debug, Clone, Default)]
pub struct RustSource {
    /// Type name to where its `pub struct` or `pub enum` starts.
    types: BTreeMap<String, Location>,
    /// (type or `Type::Variant`, JSON member name) to where its field starts.
    members: BTreeMap<(String, String), Location>,
}

impl RustSource {
    /// Indexes every `*.rs` file directly in `dir`; `display` is how `dir` is
    /// shown (e.g. `crates/cgp-types/src`). Unreadable files are skipped: the index
    /// only improves messages.
    pub fn from_dir(dir: &Path, display: &str) -> Self {
        let mut index = RustSource::default();
        let Ok(entries) = std::fs::read_dir(dir) else {
            return index;
        };
        let mut files: Vec<_> = entries
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
            .collect();
        files.sort();
        for path in files {
            let Ok(text) = cgp_schema::source::read_text_bounded(&path) else {
                continue;
            };
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            index.add_file(&format!("{display}/{name}"), &text);
        }
        index
    }

    /// Indexes one file's text, parsed with syn; a file that does not parse
    /// is skipped (the index only improves messages).
    pub(crate) fn add_file(&mut self, file: &str, text: &str) {
        if let Ok(parsed) = syn::parse_file(text) {
            self.add_items(file, &parsed.items);
        }
    }

    /// Indexes the public structs and enums of `items`, and of the inline
    /// modules among them, in source order (the first place of a name wins).
    fn add_items(&mut self, file: &str, items: &[Item]) {
        for item in items {
            match item {
                Item::Struct(item) if public(&item.vis) => {
                    let name = item.ident.to_string();
                    self.add_type(file, &name, item.vis.span());
                    self.add_fields(file, &name, &item.fields);
                }
                Item::Enum(item) if public(&item.vis) => {
                    let name = item.ident.to_string();
                    self.add_type(file, &name, item.vis.span());
                    for variant in &item.variants {
                        if matches!(variant.fields, Fields::Named(_)) {
                            let owner = format!("{name}::{}", variant.ident);
                            self.add_fields(file, &owner, &variant.fields);
                        }
                    }
                }
                // A type declared through a macro (`open_vocabulary!`): its
                // `pub enum Name` or `pub struct Name` among the tokens.
                Item::Macro(item) => self.add_macro_types(file, item.mac.tokens.clone()),
                Item::Mod(module) => {
                    if let Some((_, items)) = &module.content {
                        self.add_items(file, items);
                    }
                }
                _ => {}
            }
        }
    }

    /// Indexes every `pub enum Name` and `pub struct Name` among `tokens`,
    /// at any depth of delimiters.
    fn add_macro_types(&mut self, file: &str, tokens: TokenStream) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        for (index, token) in tokens.iter().enumerate() {
            if let TokenTree::Group(group) = token {
                self.add_macro_types(file, group.stream());
            }
            let words = tokens.get(index..index + 3);
            if let Some(
                [
                    TokenTree::Ident(public),
                    TokenTree::Ident(kind),
                    TokenTree::Ident(name),
                ],
            ) = words
                && public == "pub"
                && (kind == "enum" || kind == "struct")
            {
                self.add_type(file, &name.to_string(), public.span());
            }
        }
    }

    fn add_type(&mut self, file: &str, name: &str, at: Span) {
        self.types
            .entry(name.to_owned())
            .or_insert_with(|| location(file, at));
    }

    /// Indexes named fields under `owner` by their JSON name: the serde
    /// `rename` when there is one, else the field's name without `r#`.
    fn add_fields(&mut self, file: &str, owner: &str, fields: &Fields) {
        for field in fields {
            let Some(ident) = &field.ident else {
                continue;
            };
            let json = serde_rename(&field.attrs).unwrap_or_else(|| ident.unraw().to_string());
            // Where the field's line starts: `pub`, or its name.
            let at = if public(&field.vis) {
                field.vis.span()
            } else {
                ident.span()
            };
            self.members
                .entry((owner.to_owned(), json))
                .or_insert_with(|| location(file, at));
        }
    }

    pub(super) fn type_location(&self, name: &str) -> String {
        match self.types.get(name) {
            Some(location) => location.to_string(),
            None => format!("the Rust type `{name}`"),
        }
    }

    /// The location of a member: looked up on the type, then on its variants.
    pub(super) fn member_location(
        &self,
        owner: &str,
        variant: Option<&str>,
        member: &str,
    ) -> String {
        let mut keys = Vec::new();
        if let Some(variant) = variant {
            keys.push(format!("{owner}::{variant}"));
        }
        keys.push(owner.to_owned());
        for key in &keys {
            if let Some(location) = self.members.get(&(key.clone(), member.to_owned())) {
                return location.to_string();
            }
        }
        if let Some((_, location)) = self.members.iter().find(|((holder, name), _)| {
            name == member && variant.is_some_and(|v| holder.ends_with(&format!("::{v}")))
        }) {
            return location.to_string();
        }
        self.type_location(owner)
    }
}

fn public(visibility: &Visibility) -> bool {
    matches!(visibility, Visibility::Public(_))
}

/// `file:line:col` of where `span` starts (proc-macro2 counts columns from 0).
fn location(file: &str, span: Span) -> Location {
    let start = span.start();
    Location {
        file: file.to_owned(),
        line: start.line,
        column: start.column + 1,
    }
}

/// The last `rename = "…"` of the `#[serde(…)]` attributes.
fn serde_rename(attributes: &[Attribute]) -> Option<String> {
    let mut rename = None;
    for attribute in attributes {
        if !attribute.path().is_ident("serde") {
            continue;
        }
        let Ok(metas) = attribute.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
        else {
            continue;
        };
        for meta in metas {
            if let Meta::NameValue(pair) = meta
                && pair.path.is_ident("rename")
                && let Expr::Lit(ExprLit {
                    lit: Lit::Str(text),
                    ..
                }) = &pair.value
            {
                rename = Some(text.value());
            }
        }
    }
    rename
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexes_rust_members_with_renames_and_variants() {
        let mut index = RustSource::default();
        index.add_file(
            "src/frame.rs",
            "pub struct Provenance {\n    #[serde(rename = \"type\")]\n    pub kind: String,\n    pub uri: Option<String>,\n}\npub enum Envelope {\n    Query {\n        id: Option<String>,\n    },\n}\n",
        );
        assert_eq!(
            index.member_location("Provenance", None, "type"),
            "src/frame.rs:3:5"
        );
        assert_eq!(
            index.member_location("Provenance", None, "uri"),
            "src/frame.rs:4:5"
        );
        assert_eq!(
            index.member_location("Envelope", Some("Query"), "id"),
            "src/frame.rs:8:9"
        );
        assert_eq!(
            index.member_location("Missing", None, "x"),
            "the Rust type `Missing`"
        );
    }
}
