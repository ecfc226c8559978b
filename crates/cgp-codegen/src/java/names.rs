//! How the Java package writes text: string literals and Javadoc lines (names
//! come from [`crate::naming`]).

use serde_json::Value;

/// A description as the lines of a Javadoc comment: nothing in it may end the
/// comment or start a unicode escape (javac reads `\u` even in comments), and
/// `<`, `>`, `&` and `@` are HTML entities, so javadoc reads no tag.
pub(super) fn doc_lines(description: Option<&str>) -> Vec<String> {
    description
        .unwrap_or_default()
        .lines()
        .map(|line| {
            line.trim_end()
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
                .replace('@', "&#64;")
                .replace("*/", "*&#47;")
                .replace("\\u", "&#92;u")
        })
        .collect()
}

/// `text` as a Java (and JSON) string literal: serde_json's escapes are all
/// Java escapes, and it writes no `\u000a` or `\u000d` that javac would
/// read as a line end.
pub(super) fn quote(text: &str) -> String {
    Value::String(text.to_owned()).to_string()
}

/// The items as a comma-separated list of Java string literals.
pub(super) fn quoted_list<'a>(items: impl Iterator<Item = &'a str>) -> String {
    items.map(quote).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn javadoc_lines_cannot_end_the_comment_or_hold_a_tag() {
        assert_eq!(
            doc_lines(Some("a */ b \\u0041 <c> & @d")),
            ["a *&#47; b &#92;u0041 &lt;c&gt; &amp; &#64;d"]
        );
    }
}
