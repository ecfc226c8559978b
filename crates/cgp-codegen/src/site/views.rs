//! What each page shows, as data the templates render: a version's variant
//! and type pages from its model, SPEC.md's rule table and the rules each
//! section of SPEC.md cites, and the small HTML fragments of the index,
//! rules and changes pages.

use std::collections::BTreeMap;

use cgp_classify::Comparison;
use cgp_gates::corpus::Example;
use cgp_schema::model::{Emit, Member, Protocol, Shape, TaggedUnion};
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
    let directions = protocol.directions();
    let used_by = protocol.used_by();
    let tag_of = |example: &Example| -> Option<String> {
        let value: Value = serde_json::from_str(&example.json).ok()?;
        value.get(&protocol.tag)?.as_str().map(str::to_owned)
    };
    let example_views = |select: &dyn Fn(&Example) -> bool| -> Vec<ExampleView> {
        examples
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
    };
    let rule_views = |spec: Option<&str>| -> Vec<RuleView> {
        let Some(anchor) = spec.and_then(|spec| spec.split_once('#')).map(|(_, a)| a) else {
            return Vec::new();
        };
        let mut views = Vec::new();
        for cited in sections.get(anchor).into_iter().flatten() {
            for row in rules.iter().filter(|row| &row.anchor == cited) {
                views.push(RuleView {
                    id: row.id.clone(),
                    anchor: row.anchor.clone(),
                    level: row.level.clone(),
                    line_html: markdown::inline(&row.line, "SPEC.md", "", &NoPages),
                });
            }
        }
        views
    };
    let spec_anchor = |spec: Option<&str>| {
        spec.and_then(|spec| spec.split_once('#'))
            .map(|(_, anchor)| anchor.to_owned())
    };

    let mut pages = Vec::new();
    for variant in &protocol.variants {
        let notes = &variant.annotations;
        let direction = notes
            .direction
            .map(|direction| direction.as_str().to_owned())
            .unwrap_or_default();
        let members_view = members(&variant.object.members, "../types/", &direction);
        let mut constraints = Vec::new();
        member_constraints(&variant.object.members, &mut constraints);
        pages.push(PageView {
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
            examples: example_views(&|example| {
                example.target == "Envelope" && tag_of(example).as_deref() == Some(&variant.tag)
            }),
            rules: rule_views(notes.spec.as_deref()),
        });
    }
    for (name, named) in &protocol.types {
        let notes = &named.annotations;
        let direction_list: Vec<String> = directions
            .get(name)
            .map(|set| set.iter().map(|d| d.as_str().to_owned()).collect())
            .unwrap_or_default();
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
        pages.push(PageView {
            name: name.clone(),
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
            used_by: used_by
                .get(name)
                .map(|set| {
                    set.iter()
                        .map(|user| match user.strip_suffix(" (envelope)") {
                            Some(_) => (user.clone(), None),
                            None => (user.clone(), Some(format!("{user}.html"))),
                        })
                        .collect()
                })
                .unwrap_or_default(),
            examples: example_views(&|example| example.target == *name),
            rules: rule_views(notes.spec.as_deref()),
        });
    }
    VersionPages { pages }
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

/// The rows of SPEC.md §Rule ids' table, in order.
pub(crate) fn rule_table(spec: &str) -> Vec<RuleRow> {
    let mut rows = Vec::new();
    let mut inside = false;
    for line in spec.lines() {
        if line.starts_with('#') {
            inside = line.trim_start_matches('#').trim() == "Rule ids";
            continue;
        }
        if !inside || !line.starts_with("| [") {
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
        let [first, level, rule, checked, ..] = cells.as_slice() else {
            continue;
        };
        let Some((id, anchor)) = first
            .strip_prefix('[')
            .and_then(|rest| rest.split_once("](#"))
            .and_then(|(id, rest)| Some((id, rest.strip_suffix(')')?)))
        else {
            continue;
        };
        rows.push(RuleRow {
            id: id.to_owned(),
            anchor: anchor.to_owned(),
            level: (*level).to_owned(),
            line: (*rule).to_owned(),
            checked_by: (*checked).to_owned(),
        });
    }
    rows
}

/// For each anchored section of SPEC.md (`<a id="type-contextframe"></a>`
/// before a heading, up to the next heading as high), the rule anchors it
/// links to, in order.
pub(crate) fn spec_rule_sections(spec: &str) -> BTreeMap<String, Vec<String>> {
    let mut sections: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut pending: Vec<String> = Vec::new();
    let mut open: Vec<(String, usize)> = Vec::new();
    let mut fenced = false;
    for line in spec.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        if let Some(id) = line
            .trim()
            .strip_prefix("<a id=\"")
            .and_then(|rest| rest.strip_suffix("\"></a>"))
        {
            pending.push(id.to_owned());
            continue;
        }
        if line.starts_with('#') {
            let level = line.chars().take_while(|c| *c == '#').count();
            open.retain(|(_, open_level)| *open_level < level);
            for id in pending.drain(..) {
                open.push((id, level));
            }
            continue;
        }
        pending.clear();
        let mut rest = line;
        while let Some(at) = rest.find("](#rule-") {
            let after = &rest[at + 3..];
            let end = after.find(')').unwrap_or(after.len());
            let anchor = &after[..end];
            for (id, _) in &open {
                let cited = sections.entry(id.clone()).or_default();
                if !cited.iter().any(|known| known == anchor) {
                    cited.push(anchor.to_owned());
                }
            }
            rest = &after[end..];
        }
    }
    sections
}

/// Escapes text for HTML.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A version's index: its variants and types.
pub(crate) fn version_index_html(
    protocol: &Protocol,
    pages: &VersionPages,
    published: bool,
) -> String {
    let mut html = String::new();
    if let Some(description) = &protocol.annotations.description {
        html.push_str(&format!("<p>{}</p>\n", escape(description)));
    }
    html.push_str(if published {
        "<p>A published release: its pages are read from its frozen bundle.</p>\n"
    } else {
        "<p>The working version: the schemas as they are now, with the SPEC.md examples.</p>\n"
    });
    for (heading, variants) in [("Variants", true), ("Types", false)] {
        html.push_str(&format!("<h2>{heading}</h2>\n<table>\n<thead><tr><th scope=\"col\">name</th><th scope=\"col\">kind</th><th scope=\"col\">direction</th><th scope=\"col\">since</th></tr></thead>\n<tbody>\n"));
        for page in pages
            .pages
            .iter()
            .filter(|page| (page.kind == "variant") == variants)
        {
            let label = page.tag.clone().unwrap_or_else(|| page.name.clone());
            html.push_str(&format!(
                "<tr><td><a href=\"{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                escape(&page.path),
                escape(&label),
                escape(&page.kind),
                escape(&page.directions.join(", ")),
                escape(&page.since),
            ));
        }
        html.push_str("</tbody>\n</table>\n");
    }
    html
}

/// The rules table page.
pub(crate) fn rules_html(rules: &[RuleRow], root: &str, paths: &dyn SitePaths) -> String {
    let mut html = String::from(
        "<p>Every rule <code>cgp</code> checks, from SPEC.md §Rule ids: its id, its level, the rule in one line and where it is checked. Each id leads to the rule in the specification.</p>\n<table>\n<thead><tr><th scope=\"col\">id</th><th scope=\"col\">level</th><th scope=\"col\">rule</th><th scope=\"col\">checked by</th></tr></thead>\n<tbody>\n",
    );
    for row in rules {
        html.push_str(&format!(
            "<tr id=\"{}\"><td><a href=\"{root}spec.html#{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            escape(&row.anchor),
            escape(&row.anchor),
            escape(&row.id),
            escape(&row.level),
            markdown::inline(&row.line, "SPEC.md", root, paths),
            markdown::inline(&row.checked_by, "SPEC.md", root, paths),
        ));
    }
    html.push_str("</tbody>\n</table>\n");
    html
}

/// The changes page: each release against the next, and the last release
/// against the working version, as the classifier sees them.
pub(crate) fn changes_html(changes: &[(String, String, Comparison)]) -> String {
    let mut html = String::from(
        "<p>What changed between each published version and the next, and from the last release to the working version, as <code>cgp diff</code>'s classifier reads the two models: each change with its rule, where, the directions it travels and the bump it needs.</p>\n",
    );
    if changes.is_empty() {
        html.push_str("<p>There is only one version so far.</p>\n");
    }
    for (old, new, comparison) in changes {
        html.push_str(&format!("<h2>{} → {}</h2>\n", escape(old), escape(new)));
        if comparison.changes.is_empty() {
            html.push_str("<p>No changes.</p>\n");
            continue;
        }
        html.push_str(&format!(
            "<p>Required bump: {}.</p>\n<table>\n<thead><tr><th scope=\"col\">rule</th><th scope=\"col\">where</th><th scope=\"col\">directions</th><th scope=\"col\">bump</th><th scope=\"col\">what</th></tr></thead>\n<tbody>\n",
            escape(comparison.required_bump.as_str())
        ));
        for change in &comparison.changes {
            html.push_str(&format!(
                "<tr><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                escape(change.rule.id()),
                escape(&change.pointer),
                escape(&change.directions_text()),
                escape(change.required_bump.as_str()),
                escape(&change.message),
            ));
        }
        html.push_str("</tbody>\n</table>\n");
    }
    html
}
