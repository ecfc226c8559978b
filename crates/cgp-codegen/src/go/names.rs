//! How the Go module writes text: string literals and comment lines (names
//! come from [`crate::naming`]).

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
