//! The walk over two versions: variants by tag, named types once per pair,
//! annotations, nullability and references, and the helpers that read a schema
//! object. What two schemas accept is compared in
//! [`assertions`](super::assertions).

use super::side::{Side, definition_name};
use super::{Change, MAX_DEPTH, Rule};
use crate::json_text;
use crate::model::{self, Shape};
use cgp_types::Direction;
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// Where the walk is: the reported pointer, the pointer into each bundle, and the
/// directions the schema travels in.
#[derive(Debug, Clone)]
pub(super) struct Place {
    pub(super) pointer: String,
    pub(super) old_at: String,
    pub(super) new_at: String,
    pub(super) directions: BTreeSet<Direction>,
}

impl Place {
    pub(super) fn member(&self, old_name: &str, new_name: &str) -> Place {
        Place {
            pointer: format!("{}/{}", self.pointer, json_text::escape_token(new_name)),
            old_at: format!(
                "{}/properties/{}",
                self.old_at,
                json_text::escape_token(old_name)
            ),
            new_at: format!(
                "{}/properties/{}",
                self.new_at,
                json_text::escape_token(new_name)
            ),
            directions: self.directions.clone(),
        }
    }

    pub(super) fn keyword(&self, keyword: &str) -> Place {
        let token = json_text::escape_token(keyword);
        Place {
            pointer: self.pointer.clone(),
            old_at: format!("{}/{token}", self.old_at),
            new_at: format!("{}/{token}", self.new_at),
            directions: self.directions.clone(),
        }
    }

    pub(super) fn items(&self) -> Place {
        Place {
            pointer: format!("{}/items", self.pointer),
            ..self.keyword("items")
        }
    }
}

/// Keywords that only document: a change to them is [`Rule::DocumentationChanged`].
pub(super) use crate::keywords::DOCUMENTATION_KEYWORDS as DOCUMENTATION;

/// Keywords not compared: they name versions (which the version gate judges), are
/// derived by the bundler, or are compared by their own step of the walk.
pub(super) const NOT_COMPARED: &[&str] = &[
    "$schema",
    "$id",
    "$anchor",
    "$dynamicAnchor",
    "$vocabulary",
    "$defs",
    "$ref",
    "x-cgp-protocol-version",
    "x-cgp-profile",
    "x-cgp-since",
    "x-cgp-direction",
    "x-cgp-vocabulary",
    "x-cgp-tag",
    "discriminator",
    "default",
    "x-cgp-emit",
    "deprecated",
    "type",
    "enum",
    "const",
    "properties",
    "required",
    "items",
];

/// Lower bounds: a larger value accepts less.
pub(super) const LOWER_BOUNDS: &[&str] = &[
    "minimum",
    "exclusiveMinimum",
    "minLength",
    "minItems",
    "minProperties",
    "minContains",
];

/// Upper bounds: a smaller value accepts less.
pub(super) const UPPER_BOUNDS: &[&str] = &[
    "maximum",
    "exclusiveMaximum",
    "maxLength",
    "maxItems",
    "maxProperties",
    "maxContains",
];

/// What a schema object is, for the comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Kind {
    /// An open vocabulary (any string) with its known values and the bundle
    /// pointer of the `enum` that lists them.
    Vocabulary(Vec<String>, String),
    /// A tagged union on the given member.
    Union(String),
    /// Anything else, compared keyword by keyword.
    Plain,
}

impl Kind {
    pub(super) fn of(schema: &Map<String, Value>, document: &Value) -> Kind {
        if let (Some(tag), Some(Value::Array(_))) = (
            schema.get("x-cgp-tag").and_then(Value::as_str),
            schema.get("oneOf"),
        ) {
            return Kind::Union(tag.to_owned());
        }
        if schema.get("x-cgp-vocabulary").and_then(Value::as_str) == Some("open") {
            let value = Value::Object(schema.clone());
            if let Shape::OpenVocabulary(vocabulary) = model::shape_in(document, &value) {
                let listed = vocabulary
                    .known_type
                    .map(|name| format!("/$defs/{}/enum", json_text::escape_token(&name)))
                    .unwrap_or_default();
                return Kind::Vocabulary(vocabulary.known, listed);
            }
        }
        Kind::Plain
    }
}

pub(super) struct Walker<'s> {
    pub(super) old: &'s Side,
    pub(super) new: &'s Side,
    pub(super) changes: Vec<Change>,
    pub(super) visited: BTreeSet<(String, String)>,
}

impl Walker<'_> {
    pub(super) fn report(&mut self, rule: Rule, place: &Place, message: String) {
        self.changes.push(Change {
            rule,
            pointer: place.pointer.clone(),
            old: self.old.locate(&place.old_at),
            new: self.new.locate(&place.new_at),
            required_bump: rule.bump(&place.directions),
            directions: place.directions.clone(),
            message,
        });
    }

    pub(super) fn envelope(&mut self) {
        let old_root = self.old.document.as_object();
        let new_root = self.new.document.as_object();
        let (Some(old_root), Some(new_root)) = (old_root, new_root) else {
            return;
        };
        let root = Place {
            pointer: "/Envelope".into(),
            old_at: String::new(),
            new_at: String::new(),
            directions: BTreeSet::from([Direction::HostToProvider, Direction::ProviderToHost]),
        };
        self.annotations(&root, old_root, new_root);
        let old_variants = variants(old_root);
        let new_variants = variants(new_root);
        for (tag, (index, direction, _)) in &old_variants {
            if !new_variants.contains_key(tag) {
                let place = Place {
                    pointer: format!("/{}", json_text::escape_token(tag)),
                    old_at: format!("/oneOf/{index}"),
                    new_at: "/oneOf".into(),
                    directions: direction.iter().copied().collect(),
                };
                self.report(
                    Rule::VariantRemoved,
                    &place,
                    format!("the envelope variant `{tag}` was removed"),
                );
            }
        }
        for (tag, (new_index, new_direction, new_body)) in &new_variants {
            let mut place = Place {
                pointer: format!("/{}", json_text::escape_token(tag)),
                old_at: "/oneOf".into(),
                new_at: format!("/oneOf/{new_index}"),
                directions: new_direction.iter().copied().collect(),
            };
            let Some((old_index, old_direction, old_body)) = old_variants.get(tag) else {
                self.report(
                    Rule::VariantAdded,
                    &place,
                    format!(
                        "the envelope variant `{tag}` was added; send it only to peers that signalled support"
                    ),
                );
                continue;
            };
            place.old_at = format!("/oneOf/{old_index}");
            place.directions.extend(old_direction.iter().copied());
            if old_direction != new_direction {
                let show = |direction: &Option<Direction>| {
                    direction.map_or("no direction", |direction| direction.as_str())
                };
                self.report(
                    Rule::VariantDirectionChanged,
                    &place.keyword("x-cgp-direction"),
                    format!(
                        "the variant `{tag}` changed direction from {} to {}",
                        show(old_direction),
                        show(new_direction)
                    ),
                );
            }
            self.schema(&place, old_body, new_body, 0);
        }
    }

    /// Compares two schemas at `place`: their annotations, then what they accept.
    pub(super) fn schema(&mut self, place: &Place, old: &Value, new: &Value, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let (Some(old_map), Some(new_map)) = (old.as_object(), new.as_object()) else {
            if old != new {
                self.report(
                    Rule::ValueSetChanged,
                    place,
                    format!("the schema changed from `{old}` to `{new}`"),
                );
            }
            return;
        };
        self.annotations(place, old_map, new_map);
        let (old_inner, old_wrapped) = unwrap_nullable(old_map);
        let (new_inner, new_wrapped) = unwrap_nullable(new_map);
        let mut inner = place.clone();
        if old_wrapped {
            inner.old_at = format!("{}/anyOf/0", place.old_at);
        }
        if new_wrapped {
            inner.new_at = format!("{}/anyOf/0", place.new_at);
        }
        let old_null = old_wrapped || type_names(old_map).contains("null");
        let new_null = new_wrapped || type_names(new_map).contains("null");
        if old_null && !new_null {
            self.report(
                Rule::ValueSetNarrowed,
                place,
                "`null` is no longer accepted".into(),
            );
        } else if new_null && !old_null {
            self.report(
                Rule::ValueSetWidened,
                place,
                "`null` is now accepted".into(),
            );
        }
        self.value(&inner, old_inner, new_inner, depth);
    }

    /// Compares what two schemas accept, following `$ref`s.
    pub(super) fn value(
        &mut self,
        place: &Place,
        old: &Map<String, Value>,
        new: &Map<String, Value>,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let old_ref = reference(old);
        let new_ref = reference(new);
        match (old_ref, new_ref) {
            (Some(old_name), Some(new_name)) => {
                self.assertions(place, old, new, depth);
                self.types(&old_name, &new_name, depth);
            }
            (Some(old_name), None) => {
                let Some(target) = self.old.definition(&old_name).and_then(Value::as_object) else {
                    return;
                };
                let resolved = Place {
                    old_at: format!("/$defs/{}", json_text::escape_token(&old_name)),
                    ..place.clone()
                };
                self.value(&resolved, target, new, depth + 1);
            }
            (None, Some(new_name)) => {
                let Some(target) = self.new.definition(&new_name).and_then(Value::as_object) else {
                    return;
                };
                let resolved = Place {
                    new_at: format!("/$defs/{}", json_text::escape_token(&new_name)),
                    ..place.clone()
                };
                self.value(&resolved, old, target, depth + 1);
            }
            (None, None) => self.assertions(place, old, new, depth),
        }
    }

    /// Compares two named types, once per pair.
    pub(super) fn types(&mut self, old_name: &str, new_name: &str, depth: usize) {
        if !self
            .visited
            .insert((old_name.to_owned(), new_name.to_owned()))
        {
            return;
        }
        let (Some(old), Some(new)) = (self.old.definition(old_name), self.new.definition(new_name))
        else {
            return;
        };
        let mut directions = self.old.type_directions(old_name);
        directions.extend(self.new.type_directions(new_name));
        let place = Place {
            pointer: format!("/{}", json_text::escape_token(new_name)),
            old_at: format!("/$defs/{}", json_text::escape_token(old_name)),
            new_at: format!("/$defs/{}", json_text::escape_token(new_name)),
            directions,
        };
        if old_name != new_name
            && self.new.definition(old_name).is_none()
            && self.old.definition(new_name).is_none()
        {
            self.report(
                Rule::TypeRenamed,
                &place,
                format!("the type `{old_name}` was renamed to `{new_name}`"),
            );
        }
        if old_name == new_name {
            self.schema(&place, old, new, depth + 1);
        } else {
            // The title is the type's name: a new name is the rename, not a
            // documentation change.
            let untitled = |schema: &Value| {
                let mut schema = schema.clone();
                if let Some(map) = schema.as_object_mut() {
                    map.shift_remove("title");
                }
                schema
            };
            self.schema(&place, &untitled(old), &untitled(new), depth + 1);
        }
    }

    /// Documentation, defaults, emit rules and deprecation of one schema object.
    pub(super) fn annotations(
        &mut self,
        place: &Place,
        old: &Map<String, Value>,
        new: &Map<String, Value>,
    ) {
        let documented: Vec<&str> = DOCUMENTATION
            .iter()
            .copied()
            .filter(|keyword| old.get(*keyword) != new.get(*keyword))
            .collect();
        if let Some(first) = documented.first() {
            let names: Vec<String> = documented.iter().map(|k| format!("`{k}`")).collect();
            self.report(
                Rule::DocumentationChanged,
                &place.keyword(first),
                format!("{} changed (documentation only)", names.join(", ")),
            );
        }
        match (old.get("default"), new.get("default")) {
            (Some(before), Some(after)) if before != after => self.report(
                Rule::DefaultChanged,
                &place.keyword("default"),
                format!(
                    "the default changed from `{}` to `{}`",
                    show(before),
                    show(after)
                ),
            ),
            (None, Some(after)) => self.report(
                Rule::DefaultChanged,
                &place.keyword("default"),
                format!("the default `{}` was added", show(after)),
            ),
            (Some(before), None) => self.report(
                Rule::DefaultChanged,
                &place.keyword("default"),
                format!("the default `{}` was removed", show(before)),
            ),
            _ => {}
        }
        if let (Some(before), Some(after)) = (old.get("x-cgp-emit"), new.get("x-cgp-emit")) {
            if before != after {
                self.report(
                    Rule::EmitChanged,
                    &place.keyword("x-cgp-emit"),
                    format!(
                        "`x-cgp-emit` changed from `{}` to `{}`",
                        show(before),
                        show(after)
                    ),
                );
            }
        }
        let deprecated =
            |map: &Map<String, Value>| map.get("deprecated") == Some(&Value::Bool(true));
        match (deprecated(old), deprecated(new)) {
            (false, true) => self.report(
                Rule::DeprecationChanged,
                &place.keyword("deprecated"),
                "now deprecated".into(),
            ),
            (true, false) => self.report(
                Rule::DeprecationChanged,
                &place.keyword("deprecated"),
                "no longer deprecated".into(),
            ),
            _ => {}
        }
    }
}

/// The inline variants of a bundle, by tag: index, direction and body.
pub(super) fn variants(
    root: &Map<String, Value>,
) -> BTreeMap<String, (usize, Option<Direction>, &Value)> {
    let mut found = BTreeMap::new();
    let Some(Value::Array(list)) = root.get("oneOf") else {
        return found;
    };
    for (index, body) in list.iter().enumerate() {
        let Some(tag) = body
            .pointer("/properties/type/const")
            .and_then(Value::as_str)
        else {
            continue;
        };
        let direction = body
            .get("x-cgp-direction")
            .and_then(Value::as_str)
            .and_then(model::parse_direction);
        found
            .entry(tag.to_owned())
            .or_insert((index, direction, body));
    }
    found
}

/// The branches of a tagged union, by the value of their tag member.
pub(super) fn branches<'v>(
    union: &'v Map<String, Value>,
    tag: &str,
) -> BTreeMap<String, (usize, &'v Value)> {
    let mut found = BTreeMap::new();
    let Some(Value::Array(list)) = union.get("oneOf") else {
        return found;
    };
    for (index, branch) in list.iter().enumerate() {
        let value = branch
            .get("properties")
            .and_then(|properties| properties.get(tag))
            .and_then(|member| member.get("const"))
            .map(show);
        if let Some(value) = value {
            found.entry(value).or_insert((index, branch));
        }
    }
    found
}

/// The interop profile writes an optional `$ref` member as `anyOf: [{"$ref": …},
/// {"type": "null"}]`; this returns the referenced branch and whether it was so
/// wrapped.
pub(super) fn unwrap_nullable(schema: &Map<String, Value>) -> (&Map<String, Value>, bool) {
    if let Some(Value::Array(branches)) = schema.get("anyOf") {
        if let [Value::Object(first), Value::Object(second)] = branches.as_slice() {
            let is_null = second.len() == 1 && second.get("type") == Some(&json!("null"));
            if is_null && first.contains_key("$ref") {
                return (first, true);
            }
        }
    }
    (schema, false)
}

/// The `$defs` name a schema refers to, if it is a reference.
pub(super) fn reference(schema: &Map<String, Value>) -> Option<String> {
    schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(definition_name)
}

/// The names in `type`, a string or an array of strings.
pub(super) fn type_names(schema: &Map<String, Value>) -> BTreeSet<String> {
    let (names, nullable) = crate::keywords::declared_types(schema);
    let mut names: BTreeSet<String> = names.into_iter().collect();
    if nullable {
        names.insert("null".to_owned());
    }
    names
}

/// The JSON types a schema allows besides `null`: its `type`, `string` for an open
/// vocabulary, or the types of its `enum`/`const` values. `None` means any type.
pub(super) fn json_types(schema: &Map<String, Value>, kind: &Kind) -> Option<BTreeSet<String>> {
    let mut names = type_names(schema);
    names.remove("null");
    if !names.is_empty() {
        return Some(names);
    }
    if matches!(kind, Kind::Vocabulary(..)) {
        return Some(BTreeSet::from(["string".to_owned()]));
    }
    let values = value_set(schema)?;
    let inferred: BTreeSet<String> = values
        .iter()
        .filter_map(|value| match value {
            Value::Null => None,
            Value::Bool(_) => Some("boolean"),
            Value::Number(number) if number.is_f64() => Some("number"),
            Value::Number(_) => Some("integer"),
            Value::String(_) => Some("string"),
            Value::Array(_) => Some("array"),
            Value::Object(_) => Some("object"),
        })
        .map(str::to_owned)
        .collect();
    (!inferred.is_empty()).then_some(inferred)
}

/// The values a schema is restricted to by `const` or `enum`.
pub(super) fn value_set(schema: &Map<String, Value>) -> Option<Vec<Value>> {
    if let Some(value) = schema.get("const") {
        return Some(vec![value.clone()]);
    }
    schema.get("enum").and_then(Value::as_array).cloned()
}

/// The names in `required`.
pub(super) fn required(schema: &Map<String, Value>) -> BTreeSet<String> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| {
            names
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// A keyword value that asserts nothing, the same as leaving the keyword out.
pub(super) fn is_neutral(keyword: &str, value: &Value) -> bool {
    match keyword {
        "uniqueItems" => value == &Value::Bool(false),
        "additionalProperties" | "unevaluatedProperties" | "unevaluatedItems" => {
            value == &Value::Bool(true) || value == &json!({})
        }
        "minLength" | "minItems" | "minProperties" => value.as_f64() == Some(0.0),
        _ => false,
    }
}

/// A schema without its documentation and version bookkeeping, to recognise a
/// renamed member.
pub(super) fn essence(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(key, _)| {
                    !DOCUMENTATION.contains(&key.as_str()) && key.as_str() != "x-cgp-since"
                })
                .map(|(key, value)| (key.clone(), essence(value)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(essence).collect()),
        other => other.clone(),
    }
}

/// A value as shown in a message: a string as itself, anything else as JSON.
pub(super) fn show(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}
