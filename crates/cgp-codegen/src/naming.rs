//! How every target names what the model holds: the type of a variant, of a
//! union's branch, and each language's spelling of member names and
//! vocabulary constants (Go fields, Python attributes, Java record
//! components). One place, so the packages agree on their names.

use cgp_schema::model::{Branch, Variant};

/// The type of an envelope variant: `QueryEnvelope`.
pub fn variant_type(variant: &Variant) -> String {
    format!("{}Envelope", variant.name())
}

/// The type of a branch of the named union `union`: its `title`, else its
/// tag in PascalCase, after the union's name unless it already starts with
/// it (`FrameVerdict` + `valid` → `FrameVerdictValid`).
pub fn branch_type(union: &str, branch: &Branch) -> String {
    let title = branch
        .annotations
        .title
        .clone()
        .unwrap_or_else(|| cgp_schema::model::pascal_case(&branch.tag));
    if title.starts_with(union) {
        title
    } else {
        format!("{union}{title}")
    }
}

/// `snake_case`, `kebab-case` or `a.b` as one PascalCase word: every run of
/// ASCII letters and digits, its first letter upper-cased.
pub fn pascal_case(text: &str) -> String {
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

/// A member name as a Go field name, with Go's initialisms
/// (`target_uri` → `TargetURI`).
pub fn go_field(member: &str) -> String {
    member
        .split('_')
        .map(|part| match part {
            "id" | "uri" | "url" | "json" | "http" => part.to_ascii_uppercase(),
            other => pascal_case(other),
        })
        .collect()
}

/// Python's reserved words, which an attribute cannot be named.
const PYTHON_KEYWORDS: [&str; 35] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// A member name as a Python attribute: the name itself, a reserved word
/// followed by `_` (`from` → `from_`).
pub fn python_attribute(member: &str) -> String {
    if PYTHON_KEYWORDS.contains(&member) {
        format!("{member}_")
    } else {
        member.to_owned()
    }
}

/// A vocabulary value as an upper-case constant name: `local-only` →
/// `LOCAL_ONLY`; a name that would start with a digit gets a leading `_`.
pub fn upper_constant(value: &str) -> String {
    let mut name: String = value
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, '_');
    }
    name
}

/// Java's reserved words and the names a record component may not take
/// (the methods every object has).
const JAVA_RESERVED: [&str; 61] = [
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
pub fn java_component(member: &str) -> String {
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
    if JAVA_RESERVED.contains(&name.as_str()) {
        format!("{name}_")
    } else {
        name
    }
}

/// A vocabulary value as an enum constant: `third-party-index` is
/// `THIRD_PARTY_INDEX`.
pub fn java_constant(text: &str) -> String {
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
    fn names_read_as_each_language_writes_them() {
        assert_eq!(pascal_case("handshake_ack"), "HandshakeAck");
        assert_eq!(pascal_case("local-only"), "LocalOnly");
        assert_eq!(go_field("target_uri"), "TargetURI");
        assert_eq!(go_field("max_tokens"), "MaxTokens");
        assert_eq!(python_attribute("from"), "from_");
        assert_eq!(python_attribute("goal"), "goal");
        assert_eq!(upper_constant("local-only"), "LOCAL_ONLY");
        assert_eq!(upper_constant("2fa"), "_2FA");
        assert_eq!(upper_constant(""), "_");
        assert_eq!(java_component("protocol_version"), "protocolVersion");
        assert_eq!(java_component("default"), "default_");
        assert_eq!(java_constant("third-party-index"), "THIRD_PARTY_INDEX");
        assert_eq!(java_constant("2fa"), "V_2FA");
    }
}
