//! The loader's checks of each schema file: keywords, `$id`s, titles, the
//! envelope's variant list, members and their `x-cgp-*` annotations. Every
//! problem is collected with its file, line and column.

use super::{
    ENVELOPE_FILE, SchemaFile, SchemaSet, Target, VariantSource, has_scheme, resolve_reference,
    string_member, vocabulary::open_vocabulary_values,
};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::json_text::{self, Position};
use crate::keywords::{self, DRAFT_2020_12};
use crate::model::{Emit, parse_direction};
use crate::version::{self, ProtocolVersion};
use cgp_types::Direction;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// The values `x-cgp-emit` may take, for messages.
fn emit_rules() -> String {
    Emit::ALL.map(Emit::as_str).join(", ")
}

/// The values `x-cgp-direction` may take, for messages.
fn directions() -> String {
    [Direction::HostToProvider, Direction::ProviderToHost]
        .map(Direction::as_str)
        .join(", ")
}
pub(super) struct Checker<'d> {
    pub(super) display_root: &'d str,
    pub(super) problems: Vec<Diagnostic>,
}

impl Checker<'_> {
    pub(super) fn at(&mut self, file: &SchemaFile, pointer: &str, message: impl Into<String>) {
        self.problems.push(Diagnostic::at(
            format!("{}/{}", self.display_root, file.path),
            file.document.nearest_position(pointer),
            Some(pointer.to_owned()),
            message,
        ));
    }

    pub(super) fn at_name(&mut self, file: &SchemaFile, pointer: &str, message: impl Into<String>) {
        let position = file
            .document
            .name_position(pointer)
            .unwrap_or_else(|| file.document.nearest_position(pointer));
        self.problems.push(Diagnostic::at(
            format!("{}/{}", self.display_root, file.path),
            position,
            Some(pointer.to_owned()),
            message,
        ));
    }

    /// Reads the envelope: the declared version, the `$id` base and the variants.
    pub(super) fn envelope(
        &mut self,
        files: &BTreeMap<String, SchemaFile>,
    ) -> Result<(ProtocolVersion, String, Vec<VariantSource>), Diagnostics> {
        let shown = format!("{}/{ENVELOPE_FILE}", self.display_root);
        let Some(envelope) = files.get(ENVELOPE_FILE) else {
            return Err(Diagnostic::file(
                shown,
                "is missing: it lists the envelope variants and declares the protocol version",
            )
            .into());
        };
        let root = envelope.root();
        let fail = |pointer: &str, message: String| -> Diagnostics {
            Diagnostic::at(
                shown.clone(),
                envelope.document.nearest_position(pointer),
                Some(pointer.to_owned()),
                message,
            )
            .into()
        };
        let declared = string_member(root, "x-cgp-protocol-version").ok_or_else(|| {
            fail(
                "",
                "the envelope must declare the protocol version in `x-cgp-protocol-version`".into(),
            )
        })?;
        let version: ProtocolVersion =
            declared.parse().map_err(|error: version::VersionError| {
                fail("/x-cgp-protocol-version", error.to_string())
            })?;
        let id = string_member(root, "$id")
            .ok_or_else(|| fail("", "the envelope has no `$id`".into()))?;
        let id_base = id
            .strip_suffix(ENVELOPE_FILE)
            .filter(|base| base.ends_with('/') && has_scheme(base))
            .ok_or_else(|| {
                fail(
                    "/$id",
                    format!(
                        "the envelope `$id` must be an absolute URI ending in `/{ENVELOPE_FILE}`"
                    ),
                )
            })?
            .to_owned();
        let family_segment = format!("/{}/", version.family_slug());
        if !id_base.ends_with(&family_segment) {
            return Err(fail(
                "/$id",
                format!(
                    "the envelope `$id` must end in `{family_segment}{ENVELOPE_FILE}`: `$id`s carry the major family of the declared version {version}"
                ),
            ));
        }
        let Some(Value::Array(branches)) = root.get("oneOf") else {
            return Err(fail(
                "",
                "the envelope must list its variants in `oneOf`".into(),
            ));
        };
        let variants = self.envelope_variants(files, envelope, &shown, &id_base, branches)?;
        Ok((version, id_base, variants))
    }

    /// The variants the envelope's `oneOf` lists: each branch a `$ref` to a
    /// whole variant file that fixes its tag.
    fn envelope_variants(
        &self,
        files: &BTreeMap<String, SchemaFile>,
        envelope: &SchemaFile,
        shown: &str,
        id_base: &str,
        branches: &[Value],
    ) -> Result<Vec<VariantSource>, Diagnostics> {
        let mut variants = Vec::new();
        let mut problems = Vec::new();
        for (index, branch) in branches.iter().enumerate() {
            let pointer = format!("/oneOf/{index}");
            let reference = branch.get("$ref").and_then(Value::as_str);
            let only_ref = branch.as_object().is_some_and(|map| map.len() == 1);
            let Some(reference) = reference.filter(|_| only_ref) else {
                problems.push(Diagnostic::at(
                    shown.to_owned(),
                    envelope.document.nearest_position(&pointer),
                    Some(pointer),
                    "each envelope branch must be exactly `{\"$ref\": \"variants/<name>.schema.json\"}`",
                ));
                continue;
            };
            match resolve_reference(id_base, ENVELOPE_FILE, reference, |path| files.get(path)) {
                Ok(target) if target.pointer.is_empty() => {
                    let tag = files
                        .get(&target.path)
                        .and_then(|file| file.document.value.pointer("/properties/type/const"))
                        .and_then(Value::as_str);
                    match tag {
                        Some(tag) => variants.push(VariantSource {
                            tag: tag.to_owned(),
                            path: target.path,
                        }),
                        None => problems.push(Diagnostic::at(
                            format!("{}/{}", self.display_root, target.path),
                            Position { line: 1, column: 1 },
                            Some("/properties/type/const".into()),
                            "a variant must fix its tag with `\"type\": {\"const\": \"<tag>\"}`",
                        )),
                    }
                }
                Ok(_) => problems.push(Diagnostic::at(
                    shown.to_owned(),
                    envelope.document.nearest_position(&pointer),
                    Some(pointer),
                    "an envelope branch must reference a whole variant file, not a part of one",
                )),
                Err(problem) => problems.push(Diagnostic::at(
                    shown.to_owned(),
                    envelope.document.nearest_position(&pointer),
                    Some(format!("{pointer}/$ref")),
                    problem.to_string(),
                )),
            }
        }
        if problems.is_empty() {
            Ok(variants)
        } else {
            Err(Diagnostics(problems))
        }
    }

    pub(super) fn files(&mut self, set: &SchemaSet) {
        let mut titles: BTreeMap<&str, &str> = BTreeMap::new();
        let mut tags = BTreeSet::new();
        for variant in &set.variants {
            if !tags.insert(variant.tag.as_str()) {
                if let Some(file) = set.files.get(&variant.path) {
                    self.at(
                        file,
                        "/properties/type/const",
                        format!("the tag `{}` is used by two variants", variant.tag),
                    );
                }
            }
        }
        let mut referenced = BTreeSet::new();
        for file in set.files.values() {
            self.file_header(set, file);
            if !file.title.is_empty() {
                if let Some(other) = titles.insert(file.title.as_str(), file.path.as_str()) {
                    self.at(file, "/title", format!("the title `{}` is also used by {}/{other}; titles name types and must be unique", file.title, self.display_root));
                }
            }
            self.keywords_and_references(set, file, &mut referenced);
            self.members(set, file);
            if set.is_variant(&file.path) {
                self.variant(file);
            } else if file.path != ENVELOPE_FILE && file.root().contains_key("x-cgp-direction") {
                self.at(
                    file,
                    "/x-cgp-direction",
                    "`x-cgp-direction` belongs on envelope variants only",
                );
            }
            self.vocabulary(file);
        }
        self.reference_cycles(set);
        for file in set.files.values() {
            let reachable = file.path == ENVELOPE_FILE
                || set.is_variant(&file.path)
                || referenced.contains(&file.path);
            if !reachable {
                self.at(
                    file,
                    "",
                    "this file is not referenced from the envelope or from any type it reaches",
                );
            }
        }
    }

    /// A chain of schemas that are nothing but `$ref`s and comes back to where
    /// it started constrains nothing and sends generators round in circles.
    /// (Recursion through members, such as a type that contains itself, is fine.)
    pub(super) fn reference_cycles(&mut self, set: &SchemaSet) {
        let mut reported = BTreeSet::new();
        for file in set.files.values() {
            let mut starts = Vec::new();
            keywords::walk(&file.document.value, "", &mut |schema, pointer| {
                if pure_reference(schema).is_some() {
                    starts.push(pointer.to_owned());
                }
            });
            for start in starts {
                let mut chain = vec![Target {
                    path: file.path.clone(),
                    pointer: start.clone(),
                }];
                while let Some(current) = chain.last() {
                    let Some(reference) = set
                        .files
                        .get(&current.path)
                        .and_then(|f| f.document.value.pointer(&current.pointer))
                        .and_then(Value::as_object)
                        .and_then(pure_reference)
                    else {
                        break;
                    };
                    let Ok(next) = set.resolve(&current.path, reference) else {
                        break;
                    };
                    if let Some(loop_start) = chain.iter().position(|seen| *seen == next) {
                        let cycle: Vec<Target> =
                            chain.get(loop_start..).unwrap_or_default().to_vec();
                        let key = cycle.iter().min().cloned();
                        if key.is_some_and(|key| reported.insert(key)) {
                            let shown: Vec<String> = cycle
                                .iter()
                                .chain(std::iter::once(&next))
                                .map(|target| format!("{}#{}", target.path, target.pointer))
                                .collect();
                            self.at(
                                file,
                                &format!("{start}/$ref"),
                                format!(
                                    "`$ref` cycle with no schema in between: {}",
                                    shown.join(" -> ")
                                ),
                            );
                        }
                        break;
                    }
                    chain.push(next);
                }
            }
        }
    }

    pub(super) fn file_header(&mut self, set: &SchemaSet, file: &SchemaFile) {
        let root = file.root();
        if file.document.value.as_object().is_none() {
            self.at(file, "", "a schema file must hold a JSON object");
            return;
        }
        if string_member(root, "$schema") != Some(DRAFT_2020_12) {
            self.at(
                file,
                "/$schema",
                format!("`$schema` must be `{DRAFT_2020_12}`"),
            );
        }
        let expected_id = format!("{}{}", set.id_base, file.path);
        if string_member(root, "$id") != Some(expected_id.as_str()) {
            self.at(file, "/$id", format!("`$id` must be `{expected_id}` (the envelope's `$id` base plus this file's path)"));
        }
        match string_member(root, "title") {
            Some(title) if is_type_name(title) => {}
            Some(title) => self.at(
                file,
                "/title",
                format!("the title `{title}` must be an UpperCamelCase type name"),
            ),
            None => self.at(file, "", "a schema file needs a `title`: it names the type"),
        }
        if string_member(root, "description").is_none_or(str::is_empty) {
            self.at(file, "", "a schema file needs a `description`");
        }
        self.since(set, file, "", root);
        if file.path != ENVELOPE_FILE && root.contains_key("x-cgp-protocol-version") {
            self.at(
                file,
                "/x-cgp-protocol-version",
                format!(
                    "the protocol version is declared in {}/{ENVELOPE_FILE} only",
                    self.display_root
                ),
            );
        }
    }

    pub(super) fn since(
        &mut self,
        set: &SchemaSet,
        file: &SchemaFile,
        pointer: &str,
        schema: &Map<String, Value>,
    ) {
        let at = format!("{pointer}/x-cgp-since");
        match schema.get("x-cgp-since") {
            None => self.at(file, pointer, "missing `x-cgp-since`: the protocol version that introduced this, e.g. \"1.0\""),
            Some(Value::String(since)) => match version::parse_number(since) {
                Some(number) if number <= set.version.key() && number.0 == set.version.major => {}
                Some(_) => self.at(file, &at, format!("`x-cgp-since` \"{since}\" is not a version of the declared family up to {}", set.version)),
                None => self.at(file, &at, format!("`x-cgp-since` \"{since}\" must be `<major>.<minor>`")),
            },
            Some(_) => self.at(file, &at, "`x-cgp-since` must be a string such as \"1.0\""),
        }
    }

    pub(super) fn keywords_and_references(
        &mut self,
        set: &SchemaSet,
        file: &SchemaFile,
        referenced: &mut BTreeSet<String>,
    ) {
        let mut found = Vec::new();
        keywords::walk(&file.document.value, "", &mut |schema, pointer| {
            for (keyword, value) in schema {
                let at = format!("{pointer}/{}", json_text::escape_token(keyword));
                if !keywords::is_known(keyword) {
                    let hint = keywords::suggestion(keyword)
                        .map(|known| format!(" (did you mean `{known}`?)"))
                        .unwrap_or_default();
                    found.push((at, false, format!("unknown keyword `{keyword}`{hint}")));
                } else if keyword == "$ref" {
                    match value.as_str() {
                        Some(reference) => match set.resolve(&file.path, reference) {
                            Ok(target) => {
                                if target.path != file.path {
                                    referenced.insert(target.path.clone());
                                }
                                if set.is_variant(&target.path) && file.path != ENVELOPE_FILE {
                                    found.push((at, true, format!("`$ref` `{reference}` points at an envelope variant; variants are listed by the envelope only")));
                                }
                            }
                            Err(problem) => found.push((at, true, problem.to_string())),
                        },
                        None => found.push((at, true, "`$ref` must be a string".into())),
                    }
                } else if keyword == "$id" && !pointer.is_empty() {
                    found.push((
                        at,
                        false,
                        "`$id` is allowed at the root of a file only".into(),
                    ));
                }
            }
        });
        for (pointer, at_value, message) in found {
            if at_value {
                self.at(file, &pointer, message);
            } else {
                self.at_name(file, &pointer, message);
            }
        }
    }

    pub(super) fn members(&mut self, set: &SchemaSet, file: &SchemaFile) {
        let mut objects = Vec::new();
        keywords::walk(&file.document.value, "", &mut |schema, pointer| {
            if schema.contains_key("properties") || schema.contains_key("required") {
                objects.push((pointer.to_owned(), schema));
            }
        });
        for (pointer, schema) in objects {
            let properties = schema.get("properties").and_then(Value::as_object);
            let required: Vec<&str> = match schema.get("required") {
                None => Vec::new(),
                Some(Value::Array(names)) if names.iter().all(Value::is_string) => {
                    names.iter().filter_map(Value::as_str).collect()
                }
                Some(_) => {
                    self.at(
                        file,
                        &format!("{pointer}/required"),
                        "`required` must be an array of member names",
                    );
                    continue;
                }
            };
            for (index, name) in required.iter().enumerate() {
                if !properties.is_some_and(|props| props.contains_key(*name)) {
                    self.at(
                        file,
                        &format!("{pointer}/required/{index}"),
                        format!("`{name}` is required but not listed in `properties`"),
                    );
                }
            }
            let Some(properties) = properties else {
                continue;
            };
            for (name, member) in properties {
                let at = format!("{pointer}/properties/{}", json_text::escape_token(name));
                let Some(member) = member.as_object() else {
                    self.at(file, &at, "a member schema must be an object");
                    continue;
                };
                self.since(set, file, &at, member);
                if string_member(member, "description").is_none_or(str::is_empty) && name != "type"
                {
                    self.at(file, &at, format!("member `{name}` needs a `description`"));
                }
                let is_required = required.contains(&name.as_str());
                let emit = member.get("x-cgp-emit");
                match (is_required, emit) {
                    (true, None) => {}
                    (true, Some(Value::String(rule))) if rule == "always" => {}
                    (true, Some(_)) => self.at(file, &format!("{at}/x-cgp-emit"), format!("`{name}` is required, so the encoder always writes it; drop `x-cgp-emit` or make it \"always\"")),
                    (false, None) => self.at(file, &at, format!("optional member `{name}` needs `x-cgp-emit` (one of {})", emit_rules())),
                    (false, Some(written)) => match written.as_str().and_then(Emit::parse) {
                        Some(rule) => self.emit_rule(file, &at, name, rule, member),
                        None => self.at(file, &format!("{at}/x-cgp-emit"), format!("`x-cgp-emit` {written} is not one of {}", emit_rules())),
                    },
                }
            }
        }
    }

    pub(super) fn emit_rule(
        &mut self,
        file: &SchemaFile,
        at: &str,
        name: &str,
        rule: Emit,
        member: &Map<String, Value>,
    ) {
        let is_array = member.get("type").and_then(Value::as_str) == Some("array");
        match rule {
            Emit::OmitIfEmpty if !is_array => self.at(file, &format!("{at}/x-cgp-emit"), format!("`{name}`: \"omit-if-empty\" applies to arrays only")),
            Emit::OmitIfEmpty | Emit::Always if is_array && member.get("default") != Some(&Value::Array(Vec::new())) => {
                self.at(file, at, format!("`{name}`: an optional array the decoder fills in must say `\"default\": []`"));
            }
            Emit::OmitIfDefault if !member.contains_key("default") => self.at(file, &format!("{at}/x-cgp-emit"), format!("`{name}`: \"omit-if-default\" needs a `default`")),
            Emit::OmitIfAbsent if member.contains_key("default") => self.at(file, &format!("{at}/default"), format!("`{name}`: an \"omit-if-absent\" member has no default; absent means absent")),
            Emit::Always if !member.contains_key("default") => self.at(file, at, format!("`{name}`: an optional member the encoder always writes needs the `default` the decoder fills in")),
            _ => {}
        }
    }

    pub(super) fn variant(&mut self, file: &SchemaFile) {
        let root = file.root();
        match string_member(root, "x-cgp-direction") {
            Some(direction) if parse_direction(direction).is_some() => {}
            Some(other) => self.at(
                file,
                "/x-cgp-direction",
                format!(
                    "`x-cgp-direction` \"{other}\" is not one of {}",
                    directions()
                ),
            ),
            None => self.at(
                file,
                "",
                format!(
                    "a variant needs `x-cgp-direction` (one of {})",
                    directions()
                ),
            ),
        }
        if string_member(root, "type") != Some("object") {
            self.at(file, "", "a variant must be `\"type\": \"object\"`");
        }
        let requires_tag = root
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(|names| names.iter().any(|name| name == "type"));
        if !requires_tag {
            self.at(
                file,
                "/required",
                "a variant must list `type` in `required`",
            );
        }
        for keyword in ["oneOf", "anyOf", "allOf", "$ref"] {
            if root.contains_key(keyword) {
                self.at(file, &format!("/{keyword}"), format!("a variant body must be a plain object schema; `{keyword}` here stops generators from producing a tagged enum"));
            }
        }
    }

    pub(super) fn vocabulary(&mut self, file: &SchemaFile) {
        let root = file.root();
        let Some(kind) = root.get("x-cgp-vocabulary") else {
            return;
        };
        match kind.as_str() {
            Some("closed") => {
                let values = root.get("enum").and_then(Value::as_array);
                let all_strings = values.is_some_and(|values| {
                    !values.is_empty() && values.iter().all(Value::is_string)
                });
                if string_member(root, "type") != Some("string") || !all_strings {
                    self.at(file, "", "a closed vocabulary is `\"type\": \"string\"` with a non-empty `enum` of strings");
                }
            }
            Some("open") => {
                if let Err(message) =
                    open_vocabulary_values(&file.document.value, &file.document.value)
                {
                    self.at(file, "", message.to_string());
                }
            }
            _ => self.at(
                file,
                "/x-cgp-vocabulary",
                "`x-cgp-vocabulary` must be \"open\" or \"closed\"",
            ),
        }
    }
}

/// The `$ref` of a schema that is nothing but a reference (plus annotations,
/// [`keywords::is_annotation`]).
pub fn pure_reference(schema: &Map<String, Value>) -> Option<&str> {
    let reference = schema.get("$ref")?.as_str()?;
    let annotations_only = schema
        .keys()
        .all(|keyword| keyword == "$ref" || keywords::is_annotation(keyword));
    annotations_only.then_some(reference)
}

fn is_type_name(title: &str) -> bool {
    title.starts_with(|c: char| c.is_ascii_uppercase())
        && title.chars().all(|c| c.is_ascii_alphanumeric())
}
