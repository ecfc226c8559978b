//! The sync gate: do the hand-written Rust types and the schemas describe one wire?
//!
//! schemars derives two contracts from the hand-written types: what they
//! *accept* (deserialize) and what they *emit* (serialize). [`compare`] checks
//! the first against the `interop` bundle and the second against the `strict`
//! bundle, member by member, after a normalisation that keeps only what the wire
//! depends on:
//!
//! - annotations (`title`, `description`, `default`, `examples`, `x-cgp-*`) and
//!   `$defs` names and locations are ignored: every `$ref` is followed, and types
//!   are paired by the position they are reached from;
//! - member and branch order, and the spelling of a tag (`const`, one-value
//!   `enum`, with or without `"type": "string"`) do not matter;
//! - a nullable `Option` is `type: [T, "null"]` or `anyOf: [T, {"type": "null"}]`;
//! - integer bounds implied by `format` (`uint32` is 0..=4294967295) equal the
//!   same bounds written out;
//! - an open vocabulary is its set of known values, whichever `oneOf` spelling
//!   carries it; a serde-flattened tagged enum is the union of its branches,
//!   each with the shared members.
//!
//! In the serialize direction, `null` is not compared: an `Option` the encoder
//! skips when `None` never emits it, which is what the strict profile says.
//!
//! Every [`Mismatch`] names the member and where it is written on both sides, e.g.
//! `ContextFrame.recorded_at: optional in crates/cgp-types/src/frame.rs:120, missing from schema/types/context-frame.schema.json`.

use crate::bundle::Bundle;
use crate::json_text;
use crate::source::SchemaSet;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

/// Which contract is being compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contract {
    /// What the types accept, against the `interop` profile.
    Deserialize,
    /// What the types emit, against the `strict` profile.
    Serialize,
}

impl Contract {
    fn profile(self) -> &'static str {
        match self {
            Contract::Deserialize => "interop",
            Contract::Serialize => "strict",
        }
    }

    fn verb(self) -> &'static str {
        match self {
            Contract::Deserialize => "accepted",
            Contract::Serialize => "emitted",
        }
    }
}

/// One disagreement between the types and the schemas.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Mismatch {
    /// The member or type, e.g. `ContextFrame.recorded_at` or `query.id`.
    pub path: String,
    /// What differs, naming both locations.
    pub message: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// Where the hand-written types are written: a line index of the Rust sources.
#[derive(Debug, Clone, Default)]
pub struct RustSource {
    /// Type name to (file, line).
    types: BTreeMap<String, (String, usize)>,
    /// (type or `Type::Variant`, JSON member name) to (file, line).
    members: BTreeMap<(String, String), (String, usize)>,
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
            let Ok(text) = crate::source::read_text_bounded(&path) else {
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
    pub fn add_file(&mut self, file: &str, text: &str) {
        let mut current_type: Option<String> = None;
        let mut current_variant: Option<String> = None;
        let mut pending_rename: Option<String> = None;
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let trimmed = raw.trim();
            if let Some(name) = item_name(trimmed) {
                self.types
                    .entry(name.clone())
                    .or_insert((file.to_owned(), line));
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
                self.members
                    .entry((owner, json))
                    .or_insert((file.to_owned(), line));
            } else if !trimmed.starts_with("#[") && !trimmed.starts_with("//") {
                pending_rename = None;
            }
        }
    }

    fn type_location(&self, name: &str) -> String {
        match self.types.get(name) {
            Some((file, line)) => format!("{file}:{line}"),
            None => format!("the Rust type `{name}`"),
        }
    }

    /// The location of a member: looked up on the type, then on its variants.
    fn member_location(&self, owner: &str, variant: Option<&str>, member: &str) -> String {
        let mut keys = Vec::new();
        if let Some(variant) = variant {
            keys.push(format!("{owner}::{variant}"));
        }
        keys.push(owner.to_owned());
        for key in &keys {
            if let Some((file, line)) = self.members.get(&(key.clone(), member.to_owned())) {
                return format!("{file}:{line}");
            }
        }
        if let Some(((_, _), (file, line))) = self.members.iter().find(|((holder, name), _)| {
            name == member && variant.is_some_and(|v| holder.ends_with(&format!("::{v}")))
        }) {
            return format!("{file}:{line}");
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

/// The normalised shape of a schema: only what the wire depends on.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Shape {
    Named(String),
    Object(BTreeMap<String, Member>),
    Union {
        tag: String,
        branches: BTreeMap<String, BTreeMap<String, Member>>,
    },
    Vocabulary {
        open: bool,
        values: BTreeSet<String>,
    },
    Scalar(String),
    Array(Box<Shape>),
    Unknown(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Member {
    required: bool,
    nullable: bool,
    shape: Shape,
    /// The member's JSON pointer in its document (for locating it in a bundle).
    pointer: String,
}

/// One side of the comparison: a schema document and how to name places in it.
struct Side<'d> {
    root: &'d Value,
}

impl Side<'_> {
    fn resolve<'v>(&'v self, reference: &str) -> Option<&'v Value> {
        self.root.pointer(reference.strip_prefix('#')?)
    }

    fn def_name(reference: &str) -> Option<String> {
        let name = reference.strip_prefix("#/$defs/")?;
        Some(json_text::pointer_tokens(&format!("/{name}")).concat())
    }

    /// The shape of `schema` (at `pointer`), with whether it admits `null`.
    fn shape(&self, schema: &Value, pointer: &str) -> (Shape, bool) {
        let Some(map) = schema.as_object() else {
            return (Shape::Unknown(schema.to_string()), false);
        };
        if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
            let Some(name) = Self::def_name(reference) else {
                return (Shape::Unknown(reference.to_owned()), false);
            };
            // A reference to a helper definition that is only half of an open
            // vocabulary is inlined; every other named type stays a name.
            return (Shape::Named(name), false);
        }
        for keyword in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = map.get(keyword) {
                let (nulls, rest): (Vec<&Value>, Vec<&Value>) = branches
                    .iter()
                    .partition(|b| b.get("type") == Some(&Value::from("null")));
                if let (false, [only]) = (nulls.is_empty(), rest.as_slice()) {
                    let (shape, _) = self.shape(only, &format!("{pointer}/{keyword}/0"));
                    return (shape, true);
                }
                if let Some(values) = self.open_vocabulary(&rest) {
                    return (Shape::Vocabulary { open: true, values }, false);
                }
                if let Some(union) = self.union(map, &rest, pointer, keyword) {
                    return (union, false);
                }
            }
        }
        let (types, nullable) = crate::keywords::declared_types(map);
        if let Some(constant) = map.get("const").or_else(|| single_enum(map)) {
            return (Shape::Scalar(format!("const {constant}")), nullable);
        }
        if let Some(Value::Array(values)) = map.get("enum") {
            let values = values
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect();
            return (
                Shape::Vocabulary {
                    open: false,
                    values,
                },
                nullable,
            );
        }
        let shape = match types.as_slice() {
            [kind] if kind == "object" => Shape::Object(self.members(map, pointer)),
            [kind] if kind == "array" => {
                let items = map
                    .get("items")
                    .map(|items| self.shape(items, &format!("{pointer}/items")).0);
                Shape::Array(Box::new(items.unwrap_or(Shape::Unknown("any".into()))))
            }
            [kind] if kind == "integer" => Shape::Scalar(integer_range(map)),
            [kind] if kind == "number" => {
                Shape::Scalar(match map.get("format").and_then(Value::as_str) {
                    Some("float") => "number (f32)".into(),
                    Some("double") | None => "number".into(),
                    Some(other) => format!("number ({other})"),
                })
            }
            [kind] => Shape::Scalar(kind.clone()),
            kinds => Shape::Unknown(kinds.join("|")),
        };
        (shape, nullable)
    }

    fn members(
        &self,
        map: &serde_json::Map<String, Value>,
        pointer: &str,
    ) -> BTreeMap<String, Member> {
        let required: BTreeSet<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut members = BTreeMap::new();
        for (name, member) in map
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let at = format!("{pointer}/properties/{}", json_text::escape_token(name));
            let (shape, nullable) = self.shape(member, &at);
            members.insert(
                name.clone(),
                Member {
                    required: required.contains(name.as_str()),
                    nullable,
                    shape,
                    pointer: at,
                },
            );
        }
        members
    }

    /// `[{known values}, {string, not: {enum: same}}]`, with the known half inline
    /// or behind a `$ref`.
    fn open_vocabulary(&self, branches: &[&Value]) -> Option<BTreeSet<String>> {
        let [known, other] = branches else {
            return None;
        };
        let known = match known.get("$ref").and_then(Value::as_str) {
            Some(reference) => self.resolve(reference)?,
            None => known,
        };
        let values = known.get("enum")?.as_array()?;
        if other.pointer("/not/enum")? != known.get("enum")? {
            return None;
        }
        Some(
            values
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
        )
    }

    /// A `oneOf` of objects sharing one const-valued member: a tagged union. The
    /// enclosing object's own members (serde's flatten) join every branch.
    fn union(
        &self,
        map: &serde_json::Map<String, Value>,
        branches: &[&Value],
        pointer: &str,
        keyword: &str,
    ) -> Option<Shape> {
        let shared = self.members(map, pointer);
        let mut shaped = Vec::new();
        for (index, branch) in branches.iter().enumerate() {
            let branch_map = branch.as_object()?;
            let mut members = shared.clone();
            members.extend(self.members(branch_map, &format!("{pointer}/{keyword}/{index}")));
            shaped.push(members);
        }
        let tag = shaped
            .first()?
            .iter()
            .find_map(|(name, member)| match &member.shape {
                Shape::Scalar(kind) if kind.starts_with("const ") => Some(name.clone()),
                _ => None,
            })?;
        let mut result = BTreeMap::new();
        for mut members in shaped {
            let tag_member = members.remove(&tag)?;
            let Shape::Scalar(kind) = tag_member.shape else {
                return None;
            };
            let value = kind.strip_prefix("const ")?.trim_matches('"').to_owned();
            result.insert(value, members);
        }
        Some(Shape::Union {
            tag,
            branches: result,
        })
    }
}

fn single_enum(map: &serde_json::Map<String, Value>) -> Option<&Value> {
    match map.get("enum") {
        Some(Value::Array(values)) if values.len() == 1 => values.first(),
        _ => None,
    }
}

/// `integer 0..=4294967295`: explicit bounds, else those `format` implies.
fn integer_range(map: &serde_json::Map<String, Value>) -> String {
    let implied: Option<(i128, i128)> = match map.get("format").and_then(Value::as_str) {
        Some("uint8") => Some((0, u8::MAX.into())),
        Some("uint16") => Some((0, u16::MAX.into())),
        Some("uint32") => Some((0, u32::MAX.into())),
        Some("uint64") => Some((0, u64::MAX.into())),
        Some("int8") => Some((i8::MIN.into(), i8::MAX.into())),
        Some("int16") => Some((i16::MIN.into(), i16::MAX.into())),
        Some("int32") => Some((i32::MIN.into(), i32::MAX.into())),
        Some("int64") => Some((i64::MIN.into(), i64::MAX.into())),
        _ => None,
    };
    let bound = |key: &str| {
        map.get(key).and_then(|v| {
            v.as_i64()
                .map(i128::from)
                .or_else(|| v.as_u64().map(i128::from))
                .or_else(|| v.as_f64().map(|f| f as i128))
        })
    };
    let minimum = bound("minimum").or(implied.map(|(low, _)| low));
    let maximum = bound("maximum").or(implied.map(|(_, high)| high));
    match (minimum, maximum) {
        (Some(low), Some(high)) => format!("integer {low}..={high}"),
        (Some(low), None) => format!("integer {low}.."),
        (None, Some(high)) => format!("integer ..={high}"),
        (None, None) => "integer".into(),
    }
}

/// The inputs of the gate.
pub struct Inputs<'a> {
    /// The checked sources (for schema locations).
    pub set: &'a SchemaSet,
    /// The interop bundle.
    pub interop: &'a Bundle,
    /// The strict bundle.
    pub strict: &'a Bundle,
    /// schemars' deserialize contract of the hand-written `Envelope`.
    pub deserialize: &'a Value,
    /// schemars' serialize contract of the hand-written `Envelope`.
    pub serialize: &'a Value,
    /// Where the hand-written types are.
    pub rust: &'a RustSource,
}

/// Compares both contracts with their profiles; empty when they agree.
pub fn compare(inputs: &Inputs<'_>) -> Vec<Mismatch> {
    let mut mismatches = Vec::new();
    for (contract, types, bundle) in [
        (Contract::Deserialize, inputs.deserialize, inputs.interop),
        (Contract::Serialize, inputs.serialize, inputs.strict),
    ] {
        let mut walk = Walk {
            contract,
            rust: Side { root: types },
            schema: Side {
                root: &bundle.document,
            },
            bundle,
            inputs,
            seen: BTreeSet::new(),
            out: Vec::new(),
        };
        let (rust_root, _) = walk.rust.shape(types, "");
        let (schema_root, _) = walk.schema.shape(&bundle.document, "");
        walk.compare_shapes(
            "Envelope",
            &Owner::Type("Envelope".into()),
            &rust_root,
            &schema_root,
            "",
        );
        mismatches.extend(walk.out);
    }
    mismatches.sort();
    mismatches.dedup();
    mismatches
}

/// Who owns the members being compared: a named type, or a branch of a union.
#[derive(Debug, Clone)]
enum Owner {
    Type(String),
    Branch { owner: String, tag_value: String },
}

impl Owner {
    fn member_path(&self, member: &str) -> String {
        match self {
            Owner::Type(name) if name == "Envelope" => member.to_owned(),
            Owner::Type(name) => format!("{name}.{member}"),
            Owner::Branch { owner, tag_value } if owner == "Envelope" => {
                format!("{tag_value}.{member}")
            }
            Owner::Branch { owner, tag_value } => format!("{owner}({tag_value}).{member}"),
        }
    }

    fn rust_location(&self, rust: &RustSource, member: &str) -> String {
        match self {
            Owner::Type(name) => rust.member_location(name, None, member),
            Owner::Branch { owner, tag_value } => {
                rust.member_location(owner, Some(&camel(tag_value)), member)
            }
        }
    }
}

fn camel(tag: &str) -> String {
    tag.split('_')
        .map(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .map(|first| first.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

struct Walk<'a> {
    contract: Contract,
    rust: Side<'a>,
    schema: Side<'a>,
    bundle: &'a Bundle,
    inputs: &'a Inputs<'a>,
    seen: BTreeSet<String>,
    out: Vec<Mismatch>,
}

impl Walk<'_> {
    fn schema_location(&self, bundle_pointer: &str) -> String {
        match self.bundle.origins.locate(bundle_pointer) {
            Some(target) => {
                let line = self
                    .inputs
                    .set
                    .files
                    .get(&target.path)
                    .map(|file| file.document.nearest_position(&target.pointer).line)
                    .unwrap_or(1);
                format!("{}:{line}", self.inputs.set.shown(&target.path))
            }
            None => format!("the {} bundle at {bundle_pointer}", self.contract.profile()),
        }
    }

    fn report(&mut self, path: String, message: String) {
        self.out.push(Mismatch { path, message });
    }

    fn compare_shapes(
        &mut self,
        path: &str,
        owner: &Owner,
        rust: &Shape,
        schema: &Shape,
        schema_pointer: &str,
    ) {
        match (rust, schema) {
            (Shape::Named(a), Shape::Named(b)) => {
                if a != b {
                    let at = self.schema_location(schema_pointer);
                    self.report(
                        path.to_owned(),
                        format!("is `{a}` in the Rust types but `{b}` in {at}"),
                    );
                    return;
                }
                if !self.seen.insert(a.clone()) {
                    return;
                }
                let rust_def = self
                    .rust
                    .resolve(&format!("#/$defs/{}", json_text::escape_token(a)))
                    .cloned();
                let pointer = format!("/$defs/{}", json_text::escape_token(b));
                let schema_def = self.schema.resolve(&format!("#{pointer}")).cloned();
                match (rust_def, schema_def) {
                    (Some(rust_def), Some(schema_def)) => {
                        let (rust_shape, _) = self.rust.shape(&rust_def, "");
                        let (schema_shape, _) = self.schema.shape(&schema_def, &pointer);
                        self.compare_shapes(
                            a,
                            &Owner::Type(a.clone()),
                            &rust_shape,
                            &schema_shape,
                            &pointer,
                        );
                    }
                    (None, _) => self.report(
                        a.clone(),
                        format!("the Rust contract has no definition of `{a}`"),
                    ),
                    (_, None) => {
                        let at = self.inputs.rust.type_location(a);
                        self.report(
                            a.clone(),
                            format!(
                                "defined in {at}, missing from the {} bundle",
                                self.contract.profile()
                            ),
                        );
                    }
                }
            }
            (Shape::Object(a), Shape::Object(b)) => self.compare_members(owner, a, b),
            (
                Shape::Union {
                    tag: tag_a,
                    branches: a,
                },
                Shape::Union {
                    tag: tag_b,
                    branches: b,
                },
            ) => {
                let name = match owner {
                    Owner::Type(name) | Owner::Branch { owner: name, .. } => name.clone(),
                };
                if tag_a != tag_b {
                    let at = self.schema_location(schema_pointer);
                    self.report(
                        path.to_owned(),
                        format!("tagged on `{tag_a}` in the Rust types but on `{tag_b}` in {at}"),
                    );
                    return;
                }
                for value in a.keys().filter(|value| !b.contains_key(*value)) {
                    let at = self.inputs.rust.type_location(&name);
                    let schema_at = self.schema_location(schema_pointer);
                    self.report(
                        format!("{path}.{tag_a}"),
                        format!(
                            "value \"{value}\" is {} by {at}, missing from {schema_at}",
                            self.contract.verb()
                        ),
                    );
                }
                for value in b.keys().filter(|value| !a.contains_key(*value)) {
                    let at = self.inputs.rust.type_location(&name);
                    let schema_at = self.schema_location(schema_pointer);
                    self.report(
                        format!("{path}.{tag_a}"),
                        format!("value \"{value}\" is in {schema_at}, missing from {at}"),
                    );
                }
                for (value, members) in a {
                    if let Some(other) = b.get(value) {
                        let branch = Owner::Branch {
                            owner: name.clone(),
                            tag_value: value.clone(),
                        };
                        self.compare_members(&branch, members, other);
                    }
                }
            }
            (
                Shape::Vocabulary {
                    open: open_a,
                    values: a,
                },
                Shape::Vocabulary {
                    open: open_b,
                    values: b,
                },
            ) => {
                let rust_at = self.inputs.rust.type_location(path);
                let schema_at = self.schema_location(schema_pointer);
                if open_a != open_b {
                    let kind = |open: bool| if open { "open" } else { "closed" };
                    self.report(
                        path.to_owned(),
                        format!(
                            "{} vocabulary in {rust_at}, {} in {schema_at}",
                            kind(*open_a),
                            kind(*open_b)
                        ),
                    );
                }
                for value in a.difference(b) {
                    self.report(
                        path.to_owned(),
                        format!("value \"{value}\" is in {rust_at}, missing from {schema_at}"),
                    );
                }
                for value in b.difference(a) {
                    self.report(
                        path.to_owned(),
                        format!("value \"{value}\" is in {schema_at}, missing from {rust_at}"),
                    );
                }
            }
            (Shape::Array(a), Shape::Array(b)) => {
                self.compare_shapes(
                    &format!("{path}[]"),
                    owner,
                    a,
                    b,
                    &format!("{schema_pointer}/items"),
                );
            }
            (a, b) if a == b => {}
            (a, b) => {
                let schema_at = self.schema_location(schema_pointer);
                self.report(
                    path.to_owned(),
                    format!(
                        "is {} in the Rust types but {} in {schema_at}",
                        describe(a),
                        describe(b)
                    ),
                );
            }
        }
    }

    fn compare_members(
        &mut self,
        owner: &Owner,
        rust: &BTreeMap<String, Member>,
        schema: &BTreeMap<String, Member>,
    ) {
        let optional = |required: bool| if required { "required" } else { "optional" };
        for (name, member) in rust {
            let path = owner.member_path(name);
            let rust_at = owner.rust_location(self.inputs.rust, name);
            let Some(other) = schema.get(name) else {
                let owner_pointer = member_owner_pointer(schema).unwrap_or_default();
                let schema_at = self.schema_location(&owner_pointer);
                self.report(
                    path,
                    format!(
                        "{} ({}) in {rust_at}, missing from {schema_at}",
                        optional(member.required),
                        self.contract.verb()
                    ),
                );
                continue;
            };
            let schema_at = self.schema_location(&other.pointer);
            if member.required != other.required {
                self.report(
                    path.clone(),
                    format!(
                        "{} in {rust_at}, {} in {schema_at} ({} profile)",
                        optional(member.required),
                        optional(other.required),
                        self.contract.profile()
                    ),
                );
            }
            if self.contract == Contract::Deserialize && member.nullable != other.nullable {
                let says = |nullable: bool| {
                    if nullable {
                        "accepts null"
                    } else {
                        "rejects null"
                    }
                };
                self.report(
                    path.clone(),
                    format!(
                        "{} in {rust_at}, {} in {schema_at}",
                        says(member.nullable),
                        says(other.nullable)
                    ),
                );
            }
            self.compare_shapes(&path, owner, &member.shape, &other.shape, &other.pointer);
        }
        for (name, member) in schema {
            if rust.contains_key(name) {
                continue;
            }
            let path = owner.member_path(name);
            let schema_at = self.schema_location(&member.pointer);
            let rust_at = match owner {
                Owner::Type(type_name) => self.inputs.rust.type_location(type_name),
                Owner::Branch {
                    owner: type_name, ..
                } => self.inputs.rust.type_location(type_name),
            };
            self.report(
                path,
                format!(
                    "{} in {schema_at}, missing from {rust_at}",
                    optional(member.required)
                ),
            );
        }
    }
}

/// The pointer of the object that holds a set of members (from any member's pointer).
fn member_owner_pointer(members: &BTreeMap<String, Member>) -> Option<String> {
    let pointer = &members.values().next()?.pointer;
    let cut = pointer.rfind("/properties/")?;
    Some(pointer[..cut].to_owned())
}

fn describe(shape: &Shape) -> String {
    match shape {
        Shape::Named(name) => format!("`{name}`"),
        Shape::Object(_) => "an object".into(),
        Shape::Union { tag, .. } => format!("a union tagged on `{tag}`"),
        Shape::Vocabulary { open: true, .. } => "an open vocabulary".into(),
        Shape::Vocabulary { open: false, .. } => "a closed vocabulary".into(),
        Shape::Scalar(kind) => kind.clone(),
        Shape::Array(items) => format!("an array of {}", describe(items)),
        Shape::Unknown(text) => format!("an unrecognised schema ({text})"),
    }
}

/// The version gate: the protocol version declared in `schema/` must equal every
/// `pub const PROTOCOL_VERSION: &str = "…";` in the given Rust sources
/// (`(display path, text)` pairs: the hand-written and the generated crate).
pub fn version_agreement(set: &SchemaSet, sources: &[(String, String)]) -> Vec<Mismatch> {
    let declared = set.version.to_string();
    let declared_at = set
        .envelope()
        .map(|file| {
            file.document
                .nearest_position("/x-cgp-protocol-version")
                .line
        })
        .unwrap_or(1);
    let schema_at = format!("{}:{declared_at}", set.shown(crate::source::ENVELOPE_FILE));
    let mut mismatches = Vec::new();
    for (file, text) in sources {
        let found = text.lines().enumerate().find_map(|(index, line)| {
            let rest = line
                .trim()
                .strip_prefix("pub const PROTOCOL_VERSION: &str = \"")?;
            Some((index + 1, rest.split('"').next()?.to_owned()))
        });
        match found {
            Some((_, value)) if value == declared => {}
            Some((line, value)) => mismatches.push(Mismatch {
                path: "PROTOCOL_VERSION".into(),
                message: format!("{file}:{line} says {value}, {schema_at} declares {declared}"),
            }),
            None => mismatches.push(Mismatch {
                path: "PROTOCOL_VERSION".into(),
                message: format!("{file} declares no `pub const PROTOCOL_VERSION`; {schema_at} declares {declared}"),
            }),
        }
    }
    mismatches
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
            "src/frame.rs:3"
        );
        assert_eq!(
            index.member_location("Provenance", None, "uri"),
            "src/frame.rs:4"
        );
        assert_eq!(
            index.member_location("Envelope", Some("Query"), "id"),
            "src/frame.rs:8"
        );
        assert_eq!(
            index.member_location("Missing", None, "x"),
            "the Rust type `Missing`"
        );
    }

    #[test]
    fn integer_bounds_implied_by_format_equal_written_bounds() {
        let implied = serde_json::json!({"type": "integer", "format": "uint32", "minimum": 0});
        let written = serde_json::json!({"type": "integer", "format": "uint32", "minimum": 0, "maximum": 4294967295u64});
        let side = Side { root: &Value::Null };
        assert_eq!(side.shape(&implied, "").0, side.shape(&written, "").0);
        let narrower = serde_json::json!({"type": "integer", "minimum": 0, "maximum": 10});
        assert_ne!(side.shape(&implied, "").0, side.shape(&narrower, "").0);
    }
}
