//! Human docs under `generated/docs/`, rendered with minijinja.
//!
//! The pages are built from the protocol model of the interop bundle (the
//! published contract) and the
//! validated SPEC.md corpus: an index, one page per variant and one per type,
//! each with its direction, a member table, links between types, whether a
//! vocabulary is open, and the corpus examples for it. The templates live in
//! `templates/` beside this module.

use cgp_gates::corpus::Example;
use cgp_schema::diagnostic::Diagnostic;
use cgp_schema::model::{
    Emit, Member as ModelMember, NamedType, Protocol, Shape, TaggedUnion, Variant,
};
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

/// One generated package, as the index lists it.
#[derive(Debug, Clone, Serialize)]
pub struct Package {
    /// The language, as people write it.
    pub language: String,
    /// Where it is, relative to the repository root.
    pub dir: String,
    /// How a user adds it to a project.
    pub install: String,
}

/// Renders every docs page from the protocol model of the interop bundle.
/// Returns `(path relative to the repository root, contents)` pairs, sorted by
/// path.
pub fn render(
    templates: Templates<'_>,
    protocol: &Protocol,
    protocol_version: &str,
    examples: &[Example],
    spec_file: &str,
    packages: &[Package],
) -> Result<Vec<(String, String)>, Diagnostic> {
    render_at(
        templates,
        protocol,
        protocol_version,
        examples,
        spec_file,
        Some(packages),
    )
}

/// Renders the pages of a version other than the working one, which the
/// caller places one directory deeper (`generated/docs/<version>/`): their
/// links climb one more level, and they link to the spec file without an
/// anchor, since the working version's spec may no longer have one for what
/// that version holds. No corpus examples: the corpus is the working
/// version's.
pub fn render_older(
    templates: Templates<'_>,
    protocol: &Protocol,
    protocol_version: &str,
    spec_file: &str,
) -> Result<Vec<(String, String)>, Diagnostic> {
    render_at(templates, protocol, protocol_version, &[], spec_file, None)
}

fn render_at(
    templates: Templates<'_>,
    protocol: &Protocol,
    protocol_version: &str,
    examples: &[Example],
    spec_file: &str,
    packages: Option<&[Package]>,
) -> Result<Vec<(String, String)>, Diagnostic> {
    // An older version's docs have no packages: only the working one is generated.
    let older = packages.is_none();
    let directions = protocol.directions();
    let used_by = protocol.used_by();
    let mut pages: Vec<Page> = protocol
        .variants
        .iter()
        .map(|variant| variant_page(variant, examples, older))
        .collect();
    for (name, named) in &protocol.types {
        let mut page = type_page(name, named, examples, older);
        page.directions = directions
            .get(name)
            .map(|set| set.iter().map(|d| d.as_str().to_owned()).collect())
            .unwrap_or_default();
        page.used_by = used_by
            .get(name)
            .map(|set| set.iter().cloned().collect())
            .unwrap_or_default();
        pages.push(page);
    }
    let rendering = Rendering {
        protocol,
        protocol_version,
        spec_file,
        packages: packages.unwrap_or_default(),
        // From a version's docs directory to `generated/docs/`.
        docs_root: if older { "../" } else { "" },
    };
    rendering.files(templates, &pages)
}

/// The envelope tag an example carries.
fn tag_of(example: &Example) -> Option<String> {
    let value: Value = serde_json::from_str(&example.json).ok()?;
    value.get("type")?.as_str().map(str::to_owned)
}

/// The examples `select` keeps.
fn example_views(examples: &[Example], select: &dyn Fn(&Example) -> bool) -> Vec<ExampleView> {
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
}

/// The page of an envelope variant.
fn variant_page(variant: &Variant, examples: &[Example], older: bool) -> Page {
    let notes = &variant.annotations;
    Page {
        path: format!("variants/{}.md", variant.tag),
        up: "../".into(),
        kind: "variant".into(),
        tag: Some(variant.tag.clone()),
        description: notes.description.clone().unwrap_or_default(),
        since: notes.since.clone().unwrap_or_default(),
        spec: spec_link(notes.spec.as_deref(), older),
        directions: notes
            .direction
            .map(|direction| direction.as_str().to_owned())
            .into_iter()
            .collect(),
        members: members(&variant.object.members, "../types/"),
        union_tag: None,
        branches: Vec::new(),
        vocabulary: None,
        values: Vec::new(),
        used_by: Vec::new(),
        examples: example_views(examples, &|example| {
            example.target == "Envelope" && tag_of(example).as_deref() == Some(&variant.tag)
        }),
        name: notes.title.clone().unwrap_or_default(),
    }
}

/// The page of a named type, with no directions or users yet.
fn type_page(name: &str, named: &NamedType, examples: &[Example], older: bool) -> Page {
    let notes = &named.annotations;
    let values = match &named.shape {
        Shape::OpenVocabulary(vocabulary) => vocabulary.known.clone(),
        Shape::Enum(values) => values
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    };
    let (own_members, branches): (&[ModelMember], Vec<Branch>) = match &named.shape {
        Shape::Object(object) => (&object.members, Vec::new()),
        Shape::TaggedUnion(union) => (&union.shared.members, union_branches(union)),
        _ => (&[], Vec::new()),
    };
    let kind = if notes.vocabulary.is_some() {
        "vocabulary"
    } else if notes.tag.is_some() {
        "tagged union"
    } else if matches!(named.shape, Shape::Object(_)) {
        "object"
    } else {
        "value"
    };
    Page {
        name: name.to_owned(),
        path: format!("types/{name}.md"),
        up: "../".into(),
        kind: kind.into(),
        tag: None,
        description: notes.description.clone().unwrap_or_default(),
        since: notes.since.clone().unwrap_or_default(),
        spec: spec_link(notes.spec.as_deref(), older),
        directions: Vec::new(),
        members: members(own_members, ""),
        union_tag: notes.tag.clone(),
        branches: if notes.tag.is_some() {
            branches
        } else {
            Vec::new()
        },
        vocabulary: notes.vocabulary.clone(),
        values,
        used_by: Vec::new(),
        examples: example_views(examples, &|example| example.target == name),
    }
}

/// What every page of one version is rendered with.
struct Rendering<'a> {
    protocol: &'a Protocol,
    protocol_version: &'a str,
    spec_file: &'a str,
    /// The packages generated for this version (none for an older one).
    packages: &'a [Package],
    /// From the version's docs directory to `generated/docs/`.
    docs_root: &'a str,
}

impl Rendering<'_> {
    /// Every page and the index, rendered: (path, contents), sorted by path.
    fn files(
        &self,
        templates: Templates<'_>,
        pages: &[Page],
    ) -> Result<Vec<(String, String)>, Diagnostic> {
        let mut environment = environment(TEMPLATE_DIR)?;
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
        for page in pages {
            let body = page_template
                .render(Serde(&serde_json::json!({
                    "page": page,
                    "version": self.protocol_version,
                    "spec_file": self.spec_file,
                    "docs_root": self.docs_root,
                })))
                .map_err(|error| {
                    Diagnostic::file(
                        format!("{TEMPLATE_DIR}/page.md.j2"),
                        format!("rendering {}: {error:#}", page.path),
                    )
                })?;
            files.push((format!("{DOCS_DIR}/{}", page.path), body));
        }
        files.push((
            format!("{DOCS_DIR}/README.md"),
            self.index(&environment, pages)?,
        ));
        files.sort();
        Ok(files)
    }

    /// The index page.
    fn index(&self, environment: &Environment<'_>, pages: &[Page]) -> Result<String, Diagnostic> {
        let protocol = self.protocol;
        environment
            .get_template("index.md.j2")
            .and_then(|template| {
                template.render(Serde(&serde_json::json!({
                    "version": self.protocol_version,
                    "title": protocol.annotations.title.clone().unwrap_or_default(),
                    "description": protocol.annotations.description.clone().unwrap_or_default(),
                    "variants": pages.iter().filter(|p| p.kind == "variant").collect::<Vec<_>>(),
                    "types": pages.iter().filter(|p| p.kind != "variant").collect::<Vec<_>>(),
                    "spec_file": self.spec_file,
                    "docs_root": self.docs_root,
                    "packages": self.packages,
                })))
            })
            .map_err(|error| {
                Diagnostic::file(format!("{TEMPLATE_DIR}/index.md.j2"), format!("{error:#}"))
            })
    }
}

/// The `x-cgp-spec` reference a page links to: without its anchor on an
/// older version's page.
fn spec_link(spec: Option<&str>, older: bool) -> Option<String> {
    let spec = spec?;
    Some(match spec.split_once('#') {
        Some((file, _)) if older => file.to_owned(),
        _ => spec.to_owned(),
    })
}

/// A template environment with the syntax every generator's templates use:
/// block tags take their line with them, files keep their last newline.
pub(crate) fn environment(template_dir: &str) -> Result<Environment<'static>, Diagnostic> {
    let mut environment = Environment::new();
    let syntax = minijinja::syntax::SyntaxConfig::builder()
        .trim_blocks(true)
        .lstrip_blocks(true)
        .keep_trailing_newline(true)
        .build()
        .map_err(|error| Diagnostic::file(template_dir, format!("template syntax: {error}")))?;
    environment.set_syntax(syntax);
    Ok(environment)
}

/// The branches of a tagged union, each with its own members.
fn union_branches(union: &TaggedUnion) -> Vec<Branch> {
    union
        .branches
        .iter()
        .map(|branch| Branch {
            title: branch.annotations.title.clone().unwrap_or_default(),
            tag_value: Value::String(branch.tag.clone()).to_string(),
            description: branch.annotations.description.clone().unwrap_or_default(),
            since: branch.annotations.since.clone().unwrap_or_default(),
            members: members(&branch.object.members, ""),
        })
        .collect()
}

fn members(members: &[ModelMember], types_prefix: &str) -> Vec<Member> {
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
            Member {
                name: member.name.clone(),
                json_type: json_type(shape, types_prefix),
                required: member.required,
                nullable,
                default: notes.default.as_ref().map(Value::to_string),
                emitted: emitted.into(),
                since: notes.since.clone().unwrap_or_default(),
                description: notes.description.clone().unwrap_or_default(),
            }
        })
        .collect()
}

/// A readable JSON type for a value shape, with links to named types.
fn json_type(shape: &Shape, types_prefix: &str) -> String {
    let sized = |kind: &str, format: &Option<String>| match format.as_deref() {
        Some("uint32") => format!("{kind} (u32)"),
        Some("uint64") => format!("{kind} (u64)"),
        Some("float") => format!("{kind} (f32)"),
        _ => kind.to_owned(),
    };
    match shape {
        Shape::Named(name) => format!("[{name}]({types_prefix}{name}.md)"),
        Shape::Const(value) => format!("`{value}`"),
        Shape::Array(array) => format!("array of {}", json_type(&array.items, types_prefix)),
        Shape::Integer(integer) => sized("integer", &integer.format),
        Shape::Number(number) => sized("number", &number.format),
        Shape::String(_) => "string".into(),
        Shape::Boolean => "boolean".into(),
        Shape::Object(_) | Shape::TaggedUnion(_) => "object".into(),
        Shape::Enum(values) if values.iter().all(Value::is_string) => "string".into(),
        Shape::OpenVocabulary(_) => "string".into(),
        Shape::Nullable(inner) | Shape::Excluding(inner, _) => json_type(inner, types_prefix),
        Shape::Any | Shape::Null | Shape::Enum(_) | Shape::Unsupported(_) => "any".into(),
    }
}
