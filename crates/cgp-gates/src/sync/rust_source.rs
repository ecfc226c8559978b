//! Where the hand-written types are written: a position index of their Rust
//! sources, so a mismatch can name `crates/cgp-types/src/frame.rs:120:5`, as
//! every other gate names a place (`cgp_schema::model::Location`).

use cgp_schema::model::Location;
use std::collections::BTreeMap;
use std::path::Path;

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

    /// Indexes one file's text.
    pub(crate) fn add_file(&mut self, file: &str, text: &str) {
        let mut current_type: Option<String> = None;
        let mut current_variant: Option<String> = None;
        let mut pending_rename: Option<String> = None;
        for (index, raw) in text.lines().enumerate() {
            let trimmed = raw.trim();
            // The 1-based character column of the line's first non-blank.
            let location = Location {
                file: file.to_owned(),
                line: index + 1,
                column: raw.chars().take_while(|c| c.is_whitespace()).count() + 1,
            };
            if let Some(name) = item_name(trimmed) {
                self.types.entry(name.clone()).or_insert(location);
                current_type = Some(name);
                current_variant = None;
                pending_rename = None;
                continue;
            }
            let Some(owner) = current_type.clone() else {
                continue;
            };
            if let Some(rename) = trimmed.strip_prefix("#[serde(").and_then(rename_of) {
                pending_rename = Some(rename);
                continue;
            }
            let indent = raw.len() - raw.trim_start().len();
            if indent == 4
                && trimmed.ends_with('{')
                && trimmed.chars().next().is_some_and(char::is_uppercase)
            {
                current_variant = trimmed
                    .split(|c: char| !c.is_alphanumeric())
                    .next()
                    .map(str::to_owned);
                pending_rename = None;
                continue;
            }
            if let Some(field) = field_name(trimmed) {
                let json = pending_rename.take().unwrap_or(field);
                let owner = match &current_variant {
                    Some(variant) if indent >= 8 => format!("{owner}::{variant}"),
                    _ => owner.clone(),
                };
                self.members.entry((owner, json)).or_insert(location);
            } else if !trimmed.starts_with("#[") && !trimmed.starts_with("//") {
                pending_rename = None;
            }
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

fn item_name(line: &str) -> Option<String> {
    let rest = line
        .strip_prefix("pub struct ")
        .or_else(|| line.strip_prefix("pub enum "))?;
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

fn rename_of(attribute: &str) -> Option<String> {
    let start = attribute.find("rename = \"")? + "rename = \"".len();
    let end = attribute[start..].find('"')?;
    Some(attribute[start..start + end].to_owned())
}

fn field_name(line: &str) -> Option<String> {
    let rest = line.strip_prefix("pub ").unwrap_or(line);
    let rest = rest.strip_prefix("r#").unwrap_or(rest);
    let (name, after) = rest.split_once(':')?;
    let simple = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    (simple && !after.starts_with(':')).then(|| name.to_owned())
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
