//! The JSON Schema vocabulary this project accepts, and a walker over subschemas.
//!
//! Source schemas may use the draft 2020-12 keywords listed here plus the
//! `x-cgp-*` annotations of SPEC.md §Schema annotations. Anything else is almost
//! always a typo (`"requird"`), and a typo in a schema silently changes what it
//! accepts, so it is an error.

use serde_json::{Map, Value};

/// The draft 2020-12 meta-schema URI every source file declares.
pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// Keywords that only document: they change no verdict and no generated type,
/// only what a reader is told (the classifier's `DOCUMENTATION_CHANGED`).
/// `x-cgp-spec` names the SPEC.md section a schema cites.
pub const DOCUMENTATION_KEYWORDS: &[&str] = &[
    "title",
    "description",
    "examples",
    "$comment",
    "x-cgp-spec",
    "readOnly",
    "writeOnly",
];

/// The other keywords that annotate and never assert: a validator accepts the
/// same values with or without them. Among them are `format` (an annotation in
/// draft 2020-12 unless a validator opts in, which ours does not) and `default`
/// (never applied by a validator).
pub const ANNOTATION_KEYWORDS: &[&str] = &[
    "$schema",
    "$id",
    "$anchor",
    "$defs",
    "default",
    "deprecated",
    "format",
    "contentEncoding",
    "contentMediaType",
    "discriminator",
];

/// Whether `keyword` annotates and never asserts: a documentation keyword, one
/// of [`ANNOTATION_KEYWORDS`], or an `x-cgp-*` annotation of SPEC.md.
pub fn is_annotation(keyword: &str) -> bool {
    DOCUMENTATION_KEYWORDS.contains(&keyword)
        || ANNOTATION_KEYWORDS.contains(&keyword)
        || keyword.starts_with("x-cgp-")
}

/// Keywords whose value is a map from names to subschemas.
pub(crate) const SCHEMA_MAP_KEYWORDS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "dependentSchemas",
];

/// Keywords whose value is one subschema.
pub(crate) const SCHEMA_KEYWORDS: &[&str] = &[
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contentSchema",
];

/// Keywords whose value is an array of subschemas.
pub(crate) const SCHEMA_ARRAY_KEYWORDS: &[&str] = &["oneOf", "anyOf", "allOf", "prefixItems"];

/// Keywords whose value is data, not a subschema.
pub(crate) const VALUE_KEYWORDS: &[&str] = &[
    "$schema",
    "$id",
    "$ref",
    "$anchor",
    "$comment",
    "$dynamicRef",
    "$dynamicAnchor",
    "$vocabulary",
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "type",
    "enum",
    "const",
    "required",
    "dependentRequired",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minContains",
    "maxContains",
    "minProperties",
    "maxProperties",
    "contentEncoding",
    "contentMediaType",
    "discriminator",
];

/// The project's own annotations (SPEC.md §Schema annotations).
pub(crate) const CGP_ANNOTATIONS: &[&str] = &[
    "x-cgp-protocol-version",
    "x-cgp-profile",
    "x-cgp-direction",
    "x-cgp-since",
    "x-cgp-emit",
    "x-cgp-vocabulary",
    "x-cgp-spec",
    "x-cgp-tag",
];

/// Whether `keyword` is one this project accepts in a schema object.
pub fn is_known(keyword: &str) -> bool {
    SCHEMA_MAP_KEYWORDS.contains(&keyword)
        || SCHEMA_KEYWORDS.contains(&keyword)
        || SCHEMA_ARRAY_KEYWORDS.contains(&keyword)
        || VALUE_KEYWORDS.contains(&keyword)
        || CGP_ANNOTATIONS.contains(&keyword)
}

/// The known keyword closest to a misspelt one, if any is close enough to suggest.
pub(crate) fn suggestion(keyword: &str) -> Option<&'static str> {
    SCHEMA_MAP_KEYWORDS
        .iter()
        .chain(SCHEMA_KEYWORDS)
        .chain(SCHEMA_ARRAY_KEYWORDS)
        .chain(VALUE_KEYWORDS)
        .chain(CGP_ANNOTATIONS)
        .map(|known| (strsim::levenshtein(keyword, known), *known))
        .filter(|(distance, known)| *distance <= 2.max(known.len() / 4))
        .min()
        .map(|(_, known)| known)
}

/// The JSON types a schema's `type` keyword names, in the order written and
/// without `null`, and whether `null` is among them.
pub(crate) fn declared_types(schema: &Map<String, Value>) -> (Vec<String>, bool) {
    let names: Vec<String> = match schema.get("type") {
        Some(Value::String(name)) => vec![name.clone()],
        Some(Value::Array(names)) => names
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    };
    let nullable = names.iter().any(|name| name == "null");
    (
        names.into_iter().filter(|name| name != "null").collect(),
        nullable,
    )
}

/// Calls `visit` on every schema object inside `schema` (itself included) with its
/// JSON pointer, descending only through subschema positions, never into data
/// such as `enum`, `const` or `default`.
pub fn walk<'v>(
    schema: &'v Value,
    pointer: &str,
    visit: &mut dyn FnMut(&'v Map<String, Value>, &str),
) {
    let Value::Object(map) = schema else {
        return;
    };
    visit(map, pointer);
    for (keyword, value) in map {
        let here = format!("{pointer}/{}", crate::json_text::escape_token(keyword));
        if SCHEMA_MAP_KEYWORDS.contains(&keyword.as_str()) {
            if let Value::Object(members) = value {
                for (name, subschema) in members {
                    let at = format!("{here}/{}", crate::json_text::escape_token(name));
                    walk(subschema, &at, visit);
                }
            }
        } else if SCHEMA_KEYWORDS.contains(&keyword.as_str()) {
            walk(value, &here, visit);
        } else if SCHEMA_ARRAY_KEYWORDS.contains(&keyword.as_str()) {
            if let Value::Array(items) = value {
                for (index, subschema) in items.iter().enumerate() {
                    walk(subschema, &format!("{here}/{index}"), visit);
                }
            }
        }
    }
}

/// Like [`walk`], but lets `visit` change each schema object. Children are visited
/// after their parent, so a parent may reshape them first.
pub fn walk_mut(schema: &mut Value, visit: &mut dyn FnMut(&mut Map<String, Value>)) {
    let Value::Object(map) = schema else {
        return;
    };
    visit(map);
    for (keyword, value) in map.iter_mut() {
        if SCHEMA_MAP_KEYWORDS.contains(&keyword.as_str()) {
            if let Value::Object(members) = value {
                for subschema in members.values_mut() {
                    walk_mut(subschema, visit);
                }
            }
        } else if SCHEMA_KEYWORDS.contains(&keyword.as_str()) {
            walk_mut(value, visit);
        } else if SCHEMA_ARRAY_KEYWORDS.contains(&keyword.as_str()) {
            if let Value::Array(items) = value {
                for subschema in items {
                    walk_mut(subschema, visit);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_the_intended_keyword() {
        assert_eq!(suggestion("requird"), Some("required"));
        assert_eq!(suggestion("propertys"), Some("properties"));
        assert_eq!(suggestion("x-cgp-emmit"), Some("x-cgp-emit"));
        assert_eq!(suggestion("completely-different"), None);
    }

    #[test]
    fn walk_skips_data_positions() {
        let schema = serde_json::json!({
            "properties": {"a": {"type": "string"}},
            "enum": [{"type": "not a schema"}],
            "oneOf": [{"const": {"properties": {}}}]
        });
        let mut seen = Vec::new();
        walk(&schema, "", &mut |_, pointer| seen.push(pointer.to_owned()));
        assert_eq!(seen, vec!["", "/properties/a", "/oneOf/0"]);
    }
}
