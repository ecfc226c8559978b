//! The variant and type pages of one version, as data the `type.html`
//! template renders: members, branches, values and constraints from the
//! version's model, with the SPEC.md examples and rules each page cites.

use std::collections::BTreeMap;

use cgp_gates::corpus::Example;
use cgp_schema::model::{Emit, Member, NamedType, Protocol, Shape, TaggedUnion, Variant};
use serde::Serialize;
use serde_json::Value;

use super::RuleRow;
use super::markdown::{self, SitePaths};

/// The pages of one version.
#[derive(Debug, Serialize)]
pub(crate) struct VersionPages {
    pub pages: Vec<PageView>,
}

#[derive(Debug, Serialize)]
pub(crate) struct PageView {
    pub name: String,
    /// Relative to the version's directory: `types/X.html`, `variants/t.html`.
    pub path: String,
    pub kind: String,
    pub tag: Option<String>,
    pub description: String,
    pub since: String,
    pub deprecated: bool,
    pub spec_anchor: Option<String>,
    pub directions: Vec<String>,
    pub members: Vec<MemberView>,
    pub union_tag: Option<String>,
    pub branches: Vec<BranchView>,
    pub vocabulary: Option<String>,
    pub values: Vec<String>,
    pub constraints: Vec<String>,
    pub used_by: Vec<(String, Option<String>)>,
    pub examples: Vec<ExampleView>,
    pub rules: Vec<RuleView>,
}

#[derive(Debug, Serialize)]
pub(crate) struct MemberView {
    pub name: String,
    /// The JSON type: text, and the named type it links to.
    pub json_type: String,
    pub link: Option<String>,
    pub required: bool,
    pub nullable: bool,
    pub default: Option<String>,
    pub emitted: String,
    pub since: String,
    pub deprecated: bool,
    pub directions: String,
    pub description: String,
}

#[derive(Debug, Serialize)]
pub(crate) struct BranchView {
    pub title: String,
    pub tag_value: String,
    pub description: String,
    pub members: Vec<MemberView>,
}

#[derive(Debug, Serialize)]
pub(crate) struct ExampleView {
    pub name: String,
    pub expect: String,
    pub reason: Option<String>,
    pub line: usize,
    pub json: String,
}

#[derive(Debug, Serialize)]
pub(crate) struct RuleView {
    pub id: String,
    pub anchor: String,
    pub level: String,
    pub line_html: String,
}

/// The variant and type pages of one version. `examples` is the SPEC.md
/// corpus (the working version's only); `sections` the rules each SPEC.md
/// section cites.
pub(crate) fn version_pages(
    protocol: &Protocol,
    examples: &[Example],
    rules: &[RuleRow],
    sections: &BTreeMap<String, Vec<String>>,
    _version: &str,
) -> VersionPages {
    let cited = Cited {
        protocol,
        examples,
        rules,
        sections,
    };
    let mut pages: Vec<PageView> = protocol
        .variants
        .iter()
        .map(|variant| cited.variant_page(variant))
        .collect();
    let directions = protocol.directions();
    let used_by = protocol.used_by();
    for (name, named) in &protocol.types {
        let direction_list: Vec<String> = directions
            .get(name)
            .map(|set| set.iter().map(|d| d.as_str().to_owned()).collect())
            .unwrap_or_default();
        let mut page = cited.type_page(name, named, direction_list);
        page.used_by = used_by
            .get(name)
            .map(|set| {
                set.iter()
                    .map(|user| match user.strip_suffix(" (envelope)") {
                        Some(_) => (user.clone(), None),
                        None => (user.clone(), Some(format!("{user}.html"))),
                    })
                    .collect()
            })
            .unwrap_or_default();
        pages.push(page);
    }
    VersionPages { pages }
}

/// What a version's pages cite beside its model: the SPEC.md examples and the
/// rules of the section a type's `x-cgp-spec` names.
struct Cited<'a> {
    protocol: &'a Protocol,
    examples: &'a [Example],
    rules: &'a [RuleRow],
    sections: &'a BTreeMap<String, Vec<String>>,
}

impl Cited<'_> {
    /// The envelope tag an example carries.
    fn tag_of(&self, example: &Example) -> Option<String> {
        let value: Value = serde_json::from_str(&example.json).ok()?;
        value.get(&self.protocol.tag)?.as_str().map(str::to_owned)
    }

    /// The examples `select` keeps.
    fn example_views(&self, select: &dyn Fn(&Example) -> bool) -> Vec<ExampleView> {
        self.examples
            .iter()
            .filter(|example| select(example))
            .map(|example| ExampleView {
                name: example.name.clone(),
                expect: example.expect.to_string(),
                reason: example.reason.clone(),
                line: example.fence_line,
                json: example.json.clone(),
            })
            .collect()
    }

    /// The rules the SPEC.md section `spec` points at cites.
    fn rule_views(&self, spec: Option<&str>) -> Vec<RuleView> {
        let Some(anchor) = spec_anchor(spec) else {
            return Vec::new();
        };
        let mut views = Vec::new();
        for cited in self.sections.get(&anchor).into_iter().flatten() {
            for row in self.rules.iter().filter(|row| &row.anchor == cited) {
                views.push(RuleView {
                    id: row.id.clone(),
                    anchor: row.anchor.clone(),
                    level: row.level.clone(),
                    line_html: markdown::inline(&row.line, "SPEC.md", "", &NoPages),
                });
            }
        }
        views
    }

    /// The page of an envelope variant.
    fn variant_page(&self, variant: &Variant) -> PageView {
        let notes = &variant.annotations;
        let direction = notes
            .direction
            .map(|direction| direction.as_str().to_owned())
            .unwrap_or_default();
        let members_view = members(&variant.object.members, "../types/", &direction);
        let mut constraints = Vec::new();
        member_constraints(&variant.object.members, &mut constraints);
        PageView {
            name: variant.name(),
            path: format!("variants/{}.html", variant.tag),
            kind: "variant".into(),
            tag: Some(variant.tag.clone()),
            description: describe(notes.description.as_deref()),
            since: notes.since.clone().unwrap_or_default(),
            deprecated: notes.deprecated,
            spec_anchor: spec_anchor(notes.spec.as_deref()),
            directions: notes
                .direction
                .map(|direction| direction.as_str().to_owned())
                .into_iter()
                .collect(),
            members: members_view,
            union_tag: None,
            branches: Vec::new(),
            vocabulary: None,
            values: Vec::new(),
            constraints,
            used_by: Vec::new(),
            examples: self.example_views(&|example| {
                example.target == "Envelope"
                    && self.tag_of(example).as_deref() == Some(&variant.tag)
            }),
            rules: self.rule_views(notes.spec.as_deref()),
        }
    }

    /// The page of a named type, used by no one yet.
    fn type_page(&self, name: &str, named: &NamedType, direction_list: Vec<String>) -> PageView {
        let notes = &named.annotations;
        let direction_text = direction_list.join(", ");
        let values = match &named.shape {
            Shape::OpenVocabulary(vocabulary) => vocabulary.known.clone(),
            Shape::Enum(values) => values
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            _ => Vec::new(),
        };
        let mut constraints = Vec::new();
        let (own, branches): (&[Member], Vec<BranchView>) = match &named.shape {
            Shape::Object(object) => (&object.members, Vec::new()),
            Shape::TaggedUnion(union) => {
                for branch in &union.branches {
                    member_constraints(&branch.object.members, &mut constraints);
                }
                (
                    &union.shared.members,
                    union_branches(union, &direction_text),
                )
            }
            other => {
                constraints.extend(shape_constraint(other).map(|text| format!("a value: {text}")));
                (&[], Vec::new())
            }
        };
        member_constraints(own, &mut constraints);
        constraints.sort();
        constraints.dedup();
        let kind = if notes.vocabulary.is_some() {
            "vocabulary"
        } else if notes.tag.is_some() {
            "tagged union"
        } else if matches!(named.shape, Shape::Object(_)) {
            "object"
        } else {
            "value"
        };
        PageView {
            name: name.to_owned(),
            path: format!("types/{name}.html"),
            kind: kind.into(),
            tag: None,
            description: describe(notes.description.as_deref()),
            since: notes.since.clone().unwrap_or_default(),
            deprecated: notes.deprecated,
            spec_anchor: spec_anchor(notes.spec.as_deref()),
            directions: direction_list,
            members: members(own, "", &direction_text),
            union_tag: notes.tag.clone(),
            branches,
            vocabulary: notes.vocabulary.clone(),
            values,
            constraints,
            used_by: Vec::new(),
            examples: self.example_views(&|example| example.target == name),
            rules: self.rule_views(notes.spec.as_deref()),
        }
    }
}

/// The anchor of an `x-cgp-spec` link (`SPEC.md#anchor`).
fn spec_anchor(spec: Option<&str>) -> Option<String> {
    spec.and_then(|spec| spec.split_once('#'))
        .map(|(_, anchor)| anchor.to_owned())
}

/// A schema description as HTML: its Markdown (code spans, emphasis)
/// rendered inline; relative links, which lead into the repository, dropped.
fn describe(description: Option<&str>) -> String {
    description
        .map(|text| markdown::inline(text, "schema", "", &NoPages))
        .unwrap_or_default()
}

struct NoPages;

impl SitePaths for NoPages {
    fn page_of(&self, _path: &str) -> Option<String> {
        None
    }
}

fn union_branches(union: &TaggedUnion, directions: &str) -> Vec<BranchView> {
    union
        .branches
        .iter()
        .map(|branch| BranchView {
            title: branch.annotations.title.clone().unwrap_or_default(),
            tag_value: Value::String(branch.tag.clone()).to_string(),
            description: describe(branch.annotations.description.as_deref()),
            members: members(&branch.object.members, "", directions),
        })
        .collect()
}

fn members(members: &[Member], types_prefix: &str, directions: &str) -> Vec<MemberView> {
    members
        .iter()
        .map(|member| {
            let notes = &member.annotations;
            let emitted = match (member.required, notes.emit) {
                (true, _) | (false, Some(Emit::Always)) => "always",
                (false, Some(Emit::OmitIfAbsent)) => "when present",
                (false, Some(Emit::OmitIfEmpty)) => "when non-empty",
                (false, Some(Emit::OmitIfDefault)) => "when not the default",
                (false, None) => "",
            };
            let (shape, nullable) = member.shape.without_null();
            let (json_type, named) = json_type(shape);
            MemberView {
                name: member.name.clone(),
                json_type,
                link: named.map(|name| format!("{types_prefix}{name}.html")),
                required: member.required,
                nullable,
                default: notes.default.as_ref().map(Value::to_string),
                emitted: emitted.into(),
                since: notes.since.clone().unwrap_or_default(),
                deprecated: notes.deprecated,
                directions: directions.to_owned(),
                description: describe(notes.description.as_deref()),
            }
        })
        .collect()
}

/// A readable JSON type, and the named type it is (or holds), if any.
fn json_type(shape: &Shape) -> (String, Option<String>) {
    let sized = |kind: &str, format: &Option<String>| match format.as_deref() {
        Some("uint32") => format!("{kind} (u32)"),
        Some("uint64") => format!("{kind} (u64)"),
        Some("float") => format!("{kind} (f32)"),
        _ => kind.to_owned(),
    };
    match shape {
        Shape::Named(name) => (name.clone(), Some(name.clone())),
        Shape::Const(value) => (format!("{value}"), None),
        Shape::Array(array) => {
            let (inner, named) = json_type(&array.items);
            (format!("array of {inner}"), named)
        }
        Shape::Integer(integer) => (sized("integer", &integer.format), None),
        Shape::Number(number) => (sized("number", &number.format), None),
        Shape::String(_) => ("string".into(), None),
        Shape::Boolean => ("boolean".into(), None),
        Shape::Object(_) | Shape::TaggedUnion(_) => ("object".into(), None),
        Shape::Enum(values) if values.iter().all(Value::is_string) => ("string".into(), None),
        Shape::OpenVocabulary(vocabulary) => ("string".into(), vocabulary.known_type.clone()),
        Shape::Nullable(inner) | Shape::Excluding(inner, _) => json_type(inner),
        Shape::Any | Shape::Null | Shape::Enum(_) | Shape::Unsupported(_) => ("any".into(), None),
    }
}

fn member_constraints(members: &[Member], out: &mut Vec<String>) {
    for member in members {
        if let Some(text) = shape_constraint(&member.shape) {
            out.push(format!("{}: {text}", member.name));
        }
    }
}

/// What a shape demands beyond its JSON type, in words.
fn shape_constraint(shape: &Shape) -> Option<String> {
    let mut parts = Vec::new();
    match shape {
        Shape::Nullable(inner) => return shape_constraint(inner),
        Shape::Excluding(inner, values) => {
            parts.extend(shape_constraint(inner));
            let values: Vec<String> = values.iter().map(Value::to_string).collect();
            parts.push(format!("not {}", values.join(" or ")));
        }
        Shape::Integer(integer) => {
            if let Some(minimum) = integer.minimum {
                parts.push(format!("≥ {minimum}"));
            }
            if let Some(maximum) = integer.maximum {
                parts.push(format!("≤ {maximum}"));
            }
            if let Some(multiple) = &integer.multiple_of {
                parts.push(format!("a multiple of {multiple}"));
            }
        }
        Shape::Number(number) => {
            if let Some(minimum) = &number.minimum {
                let op = if minimum.exclusive { ">" } else { "≥" };
                parts.push(format!("{op} {}", minimum.value));
            }
            if let Some(maximum) = &number.maximum {
                let op = if maximum.exclusive { "<" } else { "≤" };
                parts.push(format!("{op} {}", maximum.value));
            }
        }
        Shape::String(string) => {
            if let Some(min) = string.min_length {
                parts.push(format!("at least {min} characters"));
            }
            if let Some(max) = string.max_length {
                parts.push(format!("at most {max} characters"));
            }
            if let Some(pattern) = &string.pattern {
                parts.push(format!("matches {pattern}"));
            }
            if let Some(format) = &string.format {
                parts.push(format!("format {format}"));
            }
        }
        Shape::Array(array) => {
            if let Some(min) = array.min_items {
                parts.push(format!("at least {min} items"));
            }
            if let Some(max) = array.max_items {
                parts.push(format!("at most {max} items"));
            }
            if array.unique_items {
                parts.push("items unique".into());
            }
            if let Some(inner) = shape_constraint(&array.items) {
                parts.push(format!("each item {inner}"));
            }
        }
        Shape::Const(value) => parts.push(format!("exactly {value}")),
        _ => {}
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}
