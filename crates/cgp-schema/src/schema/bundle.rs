//! Bundling: one self-contained schema document per [`Profile`].
//!
//! The bundle is what implementers consume and what typify reads, so its shape is
//! chosen for both: the variant bodies sit inline in the root `oneOf` (that is what
//! lets generators produce a tagged enum), every other type is a named entry of the
//! root `$defs`, and every `$ref` is a local `#/$defs/<Name>`. No external reference
//! remains. [`Origins`] remembers which source file and pointer each part of the
//! bundle came from, so errors found in a bundle can be reported against the
//! source.

use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::json_text;
use crate::keywords::{self, DRAFT_2020_12};
use crate::source::{ENVELOPE_FILE, SchemaSet, Target};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use cgp_types::spelled;

spelled! {
    /// Which contract a bundle states (SPEC.md §Profiles).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub enum Profile {
        /// The receiver's contract: unknown members are allowed and `null` stands for an
        /// absent optional value. A live peer's message is judged by this profile.
        Interop => "interop",
        /// The authoring lint: exactly what the canonical encoder writes.
        Strict => "strict",
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A profile name that is neither `interop` nor `strict`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown profile `{0}`; expected `interop` or `strict`")]
pub struct UnknownProfile(pub String);

impl FromStr for Profile {
    type Err = UnknownProfile;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Profile::ALL
            .into_iter()
            .find(|profile| profile.as_str() == name)
            .ok_or_else(|| UnknownProfile(name.to_owned()))
    }
}

/// Why a published bundle's text cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum PublishedBundleError {
    /// The text is not JSON.
    #[error("the bundle is not JSON: {0}")]
    NotJson(#[from] serde_json::Error),
    /// It names no profile.
    #[error("the bundle has no `x-cgp-profile`")]
    NoProfile,
    /// It names a profile there is not.
    #[error(transparent)]
    UnknownProfile(#[from] UnknownProfile),
}

/// Where each part of a bundle came from: bundle pointer prefixes mapped to
/// source targets.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Origins {
    prefixes: BTreeMap<String, Target>,
}

impl Origins {
    /// The source file and pointer behind a bundle pointer. Parts the profile added
    /// map to the closest source location that exists.
    pub fn locate(&self, bundle_pointer: &str) -> Option<Target> {
        let mut prefix = bundle_pointer;
        loop {
            if let Some(target) = self.prefixes.get(prefix) {
                let rest = &bundle_pointer[prefix.len()..];
                return Some(Target {
                    path: target.path.clone(),
                    pointer: format!("{}{}", target.pointer, source_suffix(rest)),
                });
            }
            prefix = &prefix[..prefix.rfind('/')?];
        }
    }
}

/// Maps what follows an origin prefix back to source pointer syntax: the interop
/// profile wraps a nullable `$ref` member in `anyOf`, which the source does not have.
fn source_suffix(rest: &str) -> String {
    rest.replace("/anyOf/0/$ref", "/$ref")
        .replace("/anyOf/0", "")
}

/// One published bundle.
#[derive(Debug, Clone)]
pub struct Bundle {
    /// The profile it states.
    pub profile: Profile,
    /// The bundle document.
    pub document: Value,
    /// Where its parts came from.
    pub origins: Origins,
}

impl Bundle {
    /// A published bundle read back from its JSON text (what `generated/schema/`
    /// holds and `cgp schema` prints). Its profile is its `x-cgp-profile`; source
    /// origins are not known.
    pub fn from_published(text: &str) -> Result<Bundle, PublishedBundleError> {
        let document: Value = serde_json::from_str(text)?;
        let profile = document
            .get("x-cgp-profile")
            .and_then(Value::as_str)
            .ok_or(PublishedBundleError::NoProfile)?
            .parse()?;
        Ok(Bundle {
            profile,
            document,
            origins: Origins::default(),
        })
    }

    /// The variant tags, in `oneOf` order.
    pub fn tags(&self) -> Vec<&str> {
        variant_tags(&self.document)
    }

    /// Pretty-printed JSON with a trailing newline: the published file's bytes.
    pub fn to_pretty_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(&self.document).unwrap_or_default();
        text.push('\n');
        text
    }
}

/// The tags of the inline variants of a bundle document, in `oneOf` order.
pub(crate) fn variant_tags(document: &Value) -> Vec<&str> {
    document
        .get("oneOf")
        .and_then(Value::as_array)
        .map(|branches| {
            branches
                .iter()
                .filter_map(|branch| branch.pointer("/properties/type/const")?.as_str())
                .collect()
        })
        .unwrap_or_default()
}

/// The published `$id` of a bundle: the source `$id` base's scheme and host, then
/// `<version slug>/<profile>.schema.json`.
pub(crate) fn bundle_id(set: &SchemaSet, profile: Profile) -> String {
    let family = format!("{}/", set.version.family_slug());
    let root = set.id_base.strip_suffix(&family).unwrap_or(&set.id_base);
    format!("{root}{}/{profile}.schema.json", set.version.slug())
}

impl SchemaSet {
    /// Builds the bundle of `profile` from these checked sources.
    pub fn bundle(&self, profile: Profile) -> Result<Bundle, Diagnostics> {
        build(self, profile)
    }
}

fn build(set: &SchemaSet, profile: Profile) -> Result<Bundle, Diagnostics> {
    let envelope = set.envelope().ok_or_else(|| {
        Diagnostics::one(Diagnostic::file(set.shown(ENVELOPE_FILE), "is missing"))
    })?;
    let (names, definitions) = definitions(set)?;
    let mut problems = Vec::new();
    let mut origins = Origins::default();
    let mut root = Map::new();
    root.insert("$schema".into(), json!(DRAFT_2020_12));
    root.insert("$id".into(), json!(bundle_id(set, profile)));
    for (key, value) in envelope.root() {
        if !matches!(key.as_str(), "$schema" | "$id" | "oneOf") {
            root.insert(key.clone(), value.clone());
        }
    }
    root.insert("x-cgp-profile".into(), json!(profile.as_str()));
    origins.prefixes.insert(
        String::new(),
        Target {
            path: ENVELOPE_FILE.into(),
            pointer: String::new(),
        },
    );
    let mut branches = Vec::new();
    for (index, variant) in set.variants.iter().enumerate() {
        let Some(file) = set.files.get(&variant.path) else {
            continue;
        };
        let mut body = file.document.value.clone();
        if let Some(map) = body.as_object_mut() {
            map.shift_remove("$schema");
            map.shift_remove("$id");
        }
        rewrite_references(set, &file.path, &names, &mut body, &mut problems);
        apply_profile(profile, &mut body);
        origins.prefixes.insert(
            format!("/oneOf/{index}"),
            Target {
                path: file.path.clone(),
                pointer: String::new(),
            },
        );
        branches.push(body);
    }
    root.insert("oneOf".into(), Value::Array(branches));
    let mut defs = Map::new();
    for (name, (target, mut schema)) in definitions {
        rewrite_references(set, &target.path, &names, &mut schema, &mut problems);
        apply_profile(profile, &mut schema);
        origins
            .prefixes
            .insert(format!("/$defs/{}", json_text::escape_token(&name)), target);
        defs.insert(name, schema);
    }
    root.insert("$defs".into(), Value::Object(defs));
    let mut document = Value::Object(root);
    add_discriminators(&mut document);
    wrap_annotated_references(&mut document);
    if problems.is_empty() {
        Ok(Bundle {
            profile,
            document,
            origins,
        })
    } else {
        Err(Diagnostics(problems))
    }
}

/// Every schema the bundle's `$defs` hold (each non-variant file, and each
/// local `$defs` entry lifted out of it), and the name each source target takes.
type Definitions = (BTreeMap<Target, String>, BTreeMap<String, (Target, Value)>);

fn definitions(set: &SchemaSet) -> Result<Definitions, Diagnostics> {
    let mut names: BTreeMap<Target, String> = BTreeMap::new();
    let mut definitions: BTreeMap<String, (Target, Value)> = BTreeMap::new();
    let mut problems = Vec::new();
    for file in set.files.values() {
        if file.path == ENVELOPE_FILE || set.is_variant(&file.path) {
            continue;
        }
        let whole = Target {
            path: file.path.clone(),
            pointer: String::new(),
        };
        names.insert(whole.clone(), file.title.clone());
        let mut body = file.document.value.clone();
        if let Some(map) = body.as_object_mut() {
            map.shift_remove("$schema");
            map.shift_remove("$id");
            if let Some(Value::Object(local)) = map.shift_remove("$defs") {
                for (name, schema) in local {
                    let target = Target {
                        path: file.path.clone(),
                        pointer: format!("/$defs/{}", json_text::escape_token(&name)),
                    };
                    names.insert(target.clone(), name.clone());
                    insert_definition(set, &mut definitions, &mut problems, name, target, schema);
                }
            }
        }
        insert_definition(
            set,
            &mut definitions,
            &mut problems,
            file.title.clone(),
            whole,
            body,
        );
    }
    if !problems.is_empty() {
        return Err(Diagnostics(problems));
    }
    Ok((names, definitions))
}

fn insert_definition(
    set: &SchemaSet,
    definitions: &mut BTreeMap<String, (Target, Value)>,
    problems: &mut Vec<Diagnostic>,
    name: String,
    target: Target,
    schema: Value,
) {
    if let Some((existing, _)) = definitions.get(&name) {
        problems.push(set.diagnostic_at(
            &target.path,
            &target.pointer,
            format!(
                "the type name `{name}` is also defined by {}; bundled types share one namespace",
                set.shown(&existing.path)
            ),
        ));
        return;
    }
    definitions.insert(name, (target, schema));
}

fn rewrite_references(
    set: &SchemaSet,
    from: &str,
    names: &BTreeMap<Target, String>,
    schema: &mut Value,
    problems: &mut Vec<Diagnostic>,
) {
    keywords::walk_mut(schema, &mut |map| {
        let Some(Value::String(reference)) = map.get("$ref") else {
            return;
        };
        match set.resolve(from, reference) {
            Ok(target) => match names.get(&target) {
                Some(name) => {
                    let local = format!("#/$defs/{}", json_text::escape_token(name));
                    map.insert("$ref".into(), Value::String(local));
                }
                None => problems.push(set.diagnostic_at(
                    from,
                    "",
                    format!(
                        "`$ref` `{reference}` must name a whole type file or one of its `$defs`; `{}` inside {} is neither",
                        target.pointer,
                        set.shown(&target.path)
                    ),
                )),
            },
            Err(problem) => problems.push(set.diagnostic_at(from, "", problem.to_string())),
        }
    });
}

/// Adds an OpenAPI-style `discriminator` next to every `x-cgp-tag`, a hint
/// other-language generators and Ajv (`discriminator: true`) understand.
fn add_discriminators(schema: &mut Value) {
    keywords::walk_mut(schema, &mut |map| {
        if let Some(Value::String(tag)) = map.get("x-cgp-tag").cloned() {
            // Every branch is an object; saying so here is what lets Ajv's strict
            // mode accept the discriminator.
            map.insert("type".into(), json!("object"));
            map.insert("discriminator".into(), json!({ "propertyName": tag }));
        }
    });
}

/// Moves every `$ref` that has sibling keywords (a member's `description`,
/// `x-cgp-*`, `default`) into `allOf: [{"$ref": …}]`, which accepts the same
/// values. Generators that resolve references by copying (json-schema-to-
/// typescript, datamodel-code-generator) copy a `$ref` with siblings into a new
/// type of the same title (`FrameId1`, `FrameId2`, …); a bare `$ref` inside
/// `allOf` they name after its target, once.
fn wrap_annotated_references(schema: &mut Value) {
    keywords::walk_mut(schema, &mut |map| {
        if map.len() < 2 || !map.contains_key("$ref") {
            return;
        }
        let mut wrapped = Map::new();
        for (key, value) in std::mem::take(map) {
            if key == "$ref" {
                wrapped.insert("allOf".into(), json!([{ "$ref": value }]));
            } else {
                wrapped.insert(key, value);
            }
        }
        *map = wrapped;
    });
}

/// Applies a profile's rules to every object schema inside `schema`.
fn apply_profile(profile: Profile, schema: &mut Value) {
    keywords::walk_mut(schema, &mut |map| {
        let is_object = map.get("type").and_then(Value::as_str) == Some("object");
        if !is_object || !map.contains_key("properties") {
            return;
        }
        match profile {
            Profile::Interop => interop_object(map),
            Profile::Strict => strict_object(map),
        }
    });
}

fn emit_rule(member: &Value) -> Option<&str> {
    member.get("x-cgp-emit").and_then(Value::as_str)
}

/// Interop: an `omit-if-absent` member also accepts `null`.
fn interop_object(object: &mut Map<String, Value>) {
    let Some(Value::Object(properties)) = object.get_mut("properties") else {
        return;
    };
    for member in properties.values_mut() {
        if emit_rule(member) != Some("omit-if-absent") {
            continue;
        }
        let Value::Object(map) = member else { continue };
        if let Some(Value::String(kind)) = map.get("type").cloned() {
            map.insert("type".into(), json!([kind, "null"]));
        } else if let Some(reference) = map.shift_remove("$ref") {
            let mut wrapped = Map::new();
            wrapped.insert(
                "anyOf".into(),
                json!([{ "$ref": reference }, { "type": "null" }]),
            );
            wrapped.extend(std::mem::take(map));
            *map = wrapped;
        }
    }
}

/// Strict: no unknown members, always-written members required, no empty
/// `omit-if-empty` arrays, and no default-valued `omit-if-default` members.
/// Those two kinds of member state no `default` here: the canonical encoder
/// never writes their default, so in this profile it is not a value the member
/// may hold, and a generator or validator that filled it in would write invalid
/// data. The interop bundle keeps it.
fn strict_object(object: &mut Map<String, Value>) {
    object.insert("additionalProperties".into(), Value::Bool(false));
    let Some(Value::Object(properties)) = object.get_mut("properties") else {
        return;
    };
    let mut always = Vec::new();
    for (name, member) in properties.iter_mut() {
        let rule = emit_rule(member).map(str::to_owned);
        let Value::Object(map) = member else { continue };
        match rule.as_deref() {
            Some("always") => always.push(Value::String(name.clone())),
            Some("omit-if-empty") => {
                map.remove("default");
                map.insert("minItems".into(), json!(1));
            }
            Some("omit-if-default") => {
                if let Some(default) = map.remove("default") {
                    map.insert("not".into(), json!({ "const": default }));
                }
            }
            _ => {}
        }
    }
    if always.is_empty() {
        return;
    }
    let required = object
        .entry("required")
        .or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(names) = required {
        for name in always {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
}
