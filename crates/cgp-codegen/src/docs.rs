//! Human docs under `generated/docs/`, rendered with minijinja.
//!
//! The pages are built from the interop bundle (the published contract) and the
//! validated SPEC.md corpus: an index, one page per variant and one per type,
//! each with its direction, a member table, links between types, whether a
//! vocabulary is open, and the corpus examples for it. The templates live in
//! `templates/` beside this module.

use cgp_schema::Bundle;
use cgp_schema::corpus::Example;
use cgp_schema::diagnostic::Diagnostic;
use cgp_schema::graph::TypeGraph;
use minijinja::Environment;
use minijinja::value::Serde;
use serde::Serialize;
use serde_json::Value;

/// The minijinja templates the docs are rendered with.
#[derive(Debug, Clone, Copy)]
pub struct Templates<'t> {
    /// `templates/index.md.j2`: the index page.
    pub index: &'t str,
    /// `templates/page.md.j2`: one variant or type.
    pub page: &'t str,
}

impl Templates<'static> {
    /// The templates kept in this crate's `templates/` directory.
    pub const BUILT_IN: Templates<'static> = Templates {
        index: include_str!("../templates/index.md.j2"),
        page: include_str!("../templates/page.md.j2"),
    };
}

/// Where the templates live, relative to the repository root.
pub const TEMPLATE_DIR: &str = "crates/cgp-codegen/templates";

/// Where the docs go, relative to the repository root.
pub const DOCS_DIR: &str = "generated/docs";

#[derive(Debug, Serialize)]
struct Member {
    name: String,
    json_type: String,
    required: bool,
    nullable: bool,
    default: Option<String>,
    emitted: String,
    since: String,
    description: String,
}

#[derive(Debug, Serialize)]
struct ExampleView {
    name: String,
    expect: String,
    reason: Option<String>,
    line: usize,
    json: String,
}

#[derive(Debug, Serialize)]
struct Branch {
    title: String,
    tag_value: String,
    description: String,
    since: String,
    members: Vec<Member>,
}

#[derive(Debug, Serialize)]
struct Page {
    name: String,
    path: String,
    up: String,
    kind: String,
    tag: Option<String>,
    description: String,
    since: String,
    spec: Option<String>,
    directions: Vec<String>,
    members: Vec<Member>,
    union_tag: Option<String>,
    branches: Vec<Branch>,
    vocabulary: Option<String>,
    values: Vec<String>,
    used_by: Vec<String>,
    examples: Vec<ExampleView>,
}

/// Renders every docs page. Returns `(path relative to the repository root,
/// contents)` pairs, sorted by path.
pub fn render(
    templates: Templates<'_>,
    bundle: &Bundle,
    protocol_version: &str,
    examples: &[Example],
    spec_file: &str,
) -> Result<Vec<(String, String)>, Diagnostic> {
    let document = &bundle.document;
    let graph = TypeGraph::of(document);
    let directions = graph.directions();
    let used_by = graph.used_by();
    let mut pages = Vec::new();

    let tag_of = |example: &Example| -> Option<String> {
        let value: Value = serde_json::from_str(&example.json).ok()?;
        value.get("type")?.as_str().map(str::to_owned)
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

    for branch in document
        .get("oneOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(tag) = branch
            .pointer("/properties/type/const")
            .and_then(Value::as_str)
        else {
            continue;
        };
        let name = text(branch, "title");
        pages.push(Page {
            path: format!("variants/{tag}.md"),
            up: "../".into(),
            kind: "variant".into(),
            tag: Some(tag.to_owned()),
            description: text(branch, "description"),
            since: text(branch, "x-cgp-since"),
            spec: branch
                .get("x-cgp-spec")
                .and_then(Value::as_str)
                .map(str::to_owned),
            directions: branch
                .get("x-cgp-direction")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .into_iter()
                .collect(),
            members: members(branch, "../types/"),
            union_tag: None,
            branches: Vec::new(),
            vocabulary: None,
            values: Vec::new(),
            used_by: Vec::new(),
            examples: example_views(&|example| {
                example.target == "Envelope" && tag_of(example).as_deref() == Some(tag)
            }),
            name,
        });
    }
    for (name, schema) in document
        .get("$defs")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let vocabulary = schema
            .get("x-cgp-vocabulary")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let values = match vocabulary.as_deref() {
            Some("open") => {
                cgp_schema::source::open_vocabulary_values(schema, document).unwrap_or_default()
            }
            _ => schema
                .get("enum")
                .and_then(Value::as_array)
                .map(|values| {
                    values
                        .iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default(),
        };
        let union_tag = schema
            .get("x-cgp-tag")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let kind = if vocabulary.is_some() {
            "vocabulary"
        } else if union_tag.is_some() {
            "tagged union"
        } else if schema.get("properties").is_some() {
            "object"
        } else {
            "value"
        };
        pages.push(Page {
            name: name.clone(),
            path: format!("types/{name}.md"),
            up: "../".into(),
            kind: kind.into(),
            tag: None,
            description: text(schema, "description"),
            since: text(schema, "x-cgp-since"),
            spec: schema
                .get("x-cgp-spec")
                .and_then(Value::as_str)
                .map(str::to_owned),
            directions: directions
                .get(name)
                .map(|set| set.iter().map(|d| d.as_str().to_owned()).collect())
                .unwrap_or_default(),
            members: members(schema, ""),
            union_tag: union_tag.clone(),
            branches: union_branches(schema, union_tag.as_deref()),
            vocabulary,
            values,
            used_by: used_by
                .get(name)
                .map(|set| set.iter().cloned().collect())
                .unwrap_or_default(),
            examples: example_views(&|example| example.target == *name),
        });
    }

    let mut environment = Environment::new();
    let syntax = minijinja::syntax::SyntaxConfig::builder()
        .trim_blocks(true)
        .lstrip_blocks(true)
        .keep_trailing_newline(true)
        .build()
        .map_err(|error| Diagnostic::file(TEMPLATE_DIR, format!("template syntax: {error}")))?;
    environment.set_syntax(syntax);
    environment.add_filter("cell", |value: String| {
        value.replace('|', "\\|").replace('\n', " ")
    });
    environment
        .add_template("index.md.j2", templates.index)
        .map_err(|error| {
            Diagnostic::file(format!("{TEMPLATE_DIR}/index.md.j2"), format!("{error:#}"))
        })?;
    environment
        .add_template("page.md.j2", templates.page)
        .map_err(|error| {
            Diagnostic::file(format!("{TEMPLATE_DIR}/page.md.j2"), format!("{error:#}"))
        })?;

    let mut files = Vec::new();
    let page_template = environment.get_template("page.md.j2").map_err(|error| {
        Diagnostic::file(format!("{TEMPLATE_DIR}/page.md.j2"), format!("{error:#}"))
    })?;
    for page in &pages {
        let body = page_template
            .render(Serde(&serde_json::json!({
                "page": page,
                "version": protocol_version,
                "spec_file": spec_file,
            })))
            .map_err(|error| {
                Diagnostic::file(
                    format!("{TEMPLATE_DIR}/page.md.j2"),
                    format!("rendering {}: {error:#}", page.path),
                )
            })?;
        files.push((format!("{DOCS_DIR}/{}", page.path), body));
    }
    let index = environment
        .get_template("index.md.j2")
        .and_then(|template| {
            template.render(Serde(&serde_json::json!({
                "version": protocol_version,
                "title": text(document, "title"),
                "description": text(document, "description"),
                "variants": pages.iter().filter(|p| p.kind == "variant").collect::<Vec<_>>(),
                "types": pages.iter().filter(|p| p.kind != "variant").collect::<Vec<_>>(),
                "spec_file": spec_file,
            })))
        })
        .map_err(|error| {
            Diagnostic::file(format!("{TEMPLATE_DIR}/index.md.j2"), format!("{error:#}"))
        })?;
    files.push((format!("{DOCS_DIR}/README.md"), index));
    files.sort();
    Ok(files)
}

fn text(value: &Value, key: &str) -> String {
    value
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// The branches of a `oneOf` tagged by `tag`, each with its members.
fn union_branches(schema: &Value, tag: Option<&str>) -> Vec<Branch> {
    let Some(tag) = tag else { return Vec::new() };
    schema
        .get("oneOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|branch| Branch {
            title: text(branch, "title"),
            tag_value: branch
                .pointer(&format!("/properties/{tag}/const"))
                .map(Value::to_string)
                .unwrap_or_default(),
            description: text(branch, "description"),
            since: text(branch, "x-cgp-since"),
            members: members(branch, ""),
        })
        .collect()
}

fn members(schema: &Value, types_prefix: &str) -> Vec<Member> {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut out = Vec::new();
    for (name, member) in schema
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let is_required = required.contains(&name.as_str());
        let (json_type, nullable) = json_type(member, types_prefix);
        let emitted = match (
            is_required,
            member.get("x-cgp-emit").and_then(Value::as_str),
        ) {
            (true, _) | (false, Some("always")) => "always",
            (false, Some("omit-if-absent")) => "when present",
            (false, Some("omit-if-empty")) => "when non-empty",
            (false, Some("omit-if-default")) => "when not the default",
            (false, _) => "",
        };
        out.push(Member {
            name: name.clone(),
            json_type,
            required: is_required,
            nullable,
            default: member.get("default").map(Value::to_string),
            emitted: emitted.into(),
            since: text(member, "x-cgp-since"),
            description: text(member, "description"),
        });
    }
    out
}

/// A readable JSON type for a member schema, with links to named types, and
/// whether `null` is accepted.
fn json_type(schema: &Value, types_prefix: &str) -> (String, bool) {
    if let Some(branches) = schema.get("anyOf").and_then(Value::as_array) {
        let nullable = branches
            .iter()
            .any(|branch| branch.get("type") == Some(&Value::from("null")));
        let shown: Vec<String> = branches
            .iter()
            .filter(|branch| branch.get("type") != Some(&Value::from("null")))
            .map(|branch| json_type(branch, types_prefix).0)
            .collect();
        return (shown.join(" or "), nullable);
    }
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let name = reference.rsplit('/').next().unwrap_or(reference);
        return (format!("[{name}]({types_prefix}{name}.md)"), false);
    }
    if let Some(constant) = schema.get("const") {
        return (format!("`{constant}`"), false);
    }
    let (mut kinds, nullable) = schema
        .as_object()
        .map(cgp_schema::keywords::declared_types)
        .unwrap_or_default();
    if kinds.is_empty() {
        kinds.push("any".to_owned());
    }
    let shown = kinds
        .iter()
        .map(|kind| match kind.as_str() {
            "array" => {
                let items = schema
                    .get("items")
                    .map(|items| json_type(items, types_prefix).0)
                    .unwrap_or_else(|| "any".into());
                format!("array of {items}")
            }
            "integer" | "number" => match schema.get("format").and_then(Value::as_str) {
                Some("uint32") => format!("{kind} (u32)"),
                Some("uint64") => format!("{kind} (u64)"),
                Some("float") => format!("{kind} (f32)"),
                _ => kind.clone(),
            },
            _ => kind.clone(),
        })
        .collect::<Vec<_>>()
        .join(" or ");
    (shown, nullable)
}
