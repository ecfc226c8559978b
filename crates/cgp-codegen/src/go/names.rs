//! How the Go module spells the model: exported names, field names with Go's
//! initialisms, string literals and comment lines.

use serde_json::Value;

/// A description as the lines of a Go comment.
pub(super) fn doc_lines(description: Option<&str>) -> Vec<String> {
    description
        .unwrap_or_default()
        .lines()
        .map(|line| line.trim_end().to_owned())
        .collect()
}

/// `text` as a Go (and JSON) string literal.
pub(super) fn quote(text: &str) -> String {
    Value::String(text.to_owned()).to_string()
}

/// The items as a comma-separated list of Go string literals.
pub(super) fn quoted_list<'a>(items: impl Iterator<Item = &'a str>) -> String {
    items.map(quote).collect::<Vec<_>>().join(", ")
}

/// `snake_case`, `kebab-case` or `a.b` as an exported Go name.
pub(super) fn pascal_case(text: &str) -> String {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// A member name as a Go field name, with Go's initialisms.
pub(super) fn field_name(member: &str) -> String {
    member
        .split('_')
        .map(|part| match part {
            "id" | "uri" | "url" | "json" | "http" => part.to_ascii_uppercase(),
            other => pascal_case(other),
        })
        .collect()
}
