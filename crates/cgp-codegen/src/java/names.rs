//! How the Java package spells the model: type names, record component names
//! (camel case, clear of Java's keywords), enum constants, string literals and
//! Javadoc lines.

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

/// `snake_case`, `kebab-case` or `a.b` as a Java type name.
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

/// Java's reserved words and the names a record component may not take
/// (the methods every object has).
const RESERVED: [&str; 61] = [
    "abstract",
    "assert",
    "boolean",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extends",
    "final",
    "finally",
    "float",
    "for",
    "goto",
    "if",
    "implements",
    "import",
    "instanceof",
    "int",
    "interface",
    "long",
    "native",
    "new",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "short",
    "static",
    "strictfp",
    "super",
    "switch",
    "synchronized",
    "this",
    "throw",
    "throws",
    "transient",
    "try",
    "void",
    "volatile",
    "while",
    "true",
    "false",
    "null",
    "record",
    "clone",
    "finalize",
    "getClass",
    "hashCode",
    "notify",
    "toString",
    "wait",
];

/// A member name as a record component: `protocol_version` is
/// `protocolVersion`; a reserved word takes a trailing `_`.
pub(super) fn field_name(member: &str) -> String {
    let pascal = pascal_case(member);
    let mut chars = pascal.chars();
    let name = chars
        .next()
        .map(|first| first.to_ascii_lowercase().to_string() + chars.as_str())
        .unwrap_or_else(|| "value".into());
    let name = if name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("m{name}")
    } else {
        name
    };
    if RESERVED.contains(&name.as_str()) {
        format!("{name}_")
    } else {
        name
    }
}

/// A vocabulary value as an enum constant: `third-party-index` is
/// `THIRD_PARTY_INDEX`.
pub(super) fn constant_name(text: &str) -> String {
    let name = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|part| !part.is_empty())
        .map(str::to_ascii_uppercase)
        .collect::<Vec<_>>()
        .join("_");
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("V_{name}")
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_spelled_as_java_spells_them() {
        assert_eq!(field_name("protocol_version"), "protocolVersion");
        assert_eq!(field_name("default"), "default_");
        assert_eq!(constant_name("third-party-index"), "THIRD_PARTY_INDEX");
        assert_eq!(
            doc_lines(Some("a */ b \\u0041 <c> & @d")),
            ["a *&#47; b &#92;u0041 &lt;c&gt; &amp; &#64;d"]
        );
    }
}
