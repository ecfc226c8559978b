//! The npm package under `generated/typescript/`, rendered with minijinja from
//! the protocol model of the interop bundle.
//!
//! The package holds the wire types (a discriminated union on the envelope's
//! tag, open vocabularies as `KnownX | (string & {})`), a table of every shape
//! (`shapes.ts`), a decode and an encode function per type (`codec.ts`, written
//! by the `codec` module) and a runtime of ordinary TypeScript files copied as they are
//! from `templates/typescript/runtime/`: `wire.ts` the entry points, `fast.ts`
//! the reader and the writers the generated functions share, and `exact.ts`, `json.ts`, `numbers.ts` and `shape.ts` the exact path, which
//! reads a line the way the reference decoder does with a JSON reader of its
//! own and writes the canonical line, and decides every line the fast path
//! cannot vouch for. The templates (only the files that depend on the model)
//! live in `templates/typescript/`; nothing here reads a schema keyword, only
//! the model.

mod codec;
mod descriptor;

use crate::Files;
use crate::rust::COMMAND;
use crate::unsupported::Unsupported;
use cgp_schema::ProtocolVersion;
use cgp_schema::diagnostic::{Diagnostic, Diagnostics};
use cgp_schema::model::{Branch, Member, Protocol, Shape, TaggedUnion};
use minijinja::value::Serde;
use serde::Serialize;
use serde_json::{Value, json};

/// Where the package goes, relative to the repository root.
pub const TYPESCRIPT_DIR: &str = "generated/typescript";

/// Where its templates live, relative to the repository root.
pub const TEMPLATE_DIR: &str = "crates/cgp-codegen/templates/typescript";

/// The pinned TypeScript compiler the package builds with.
pub const TYPESCRIPT_VERSION: &str = "7.0.2";

/// The package's templates: (file under the package, template text): the
/// files that depend on the model.
const TEMPLATES: [(&str, &str); 8] = [
    (
        "package.json",
        include_str!("../templates/typescript/package.json.j2"),
    ),
    (
        "tsconfig.json",
        include_str!("../templates/typescript/tsconfig.json.j2"),
    ),
    (
        "README.md",
        include_str!("../templates/typescript/README.md.j2"),
    ),
    (
        "src/index.ts",
        include_str!("../templates/typescript/index.ts.j2"),
    ),
    (
        "src/types.ts",
        include_str!("../templates/typescript/types.ts.j2"),
    ),
    (
        "src/shapes.ts",
        include_str!("../templates/typescript/shapes.ts.j2"),
    ),
    (
        "test/harness.mjs",
        include_str!("../templates/typescript/harness.mjs.j2"),
    ),
    (
        "test/vectors.test.mjs",
        include_str!("../templates/typescript/vectors.test.mjs.j2"),
    ),
];

/// The runtime: ordinary TypeScript under `templates/typescript/runtime/`,
/// copied into `src/` as it is (file name, text).
pub const RUNTIME: [(&str, &str); 7] = [
    (
        "exact.ts",
        include_str!("../templates/typescript/runtime/exact.ts"),
    ),
    (
        "lines.ts",
        include_str!("../templates/typescript/runtime/lines.ts"),
    ),
    (
        "fast.ts",
        include_str!("../templates/typescript/runtime/fast.ts"),
    ),
    (
        "json.ts",
        include_str!("../templates/typescript/runtime/json.ts"),
    ),
    (
        "numbers.ts",
        include_str!("../templates/typescript/runtime/numbers.ts"),
    ),
    (
        "shape.ts",
        include_str!("../templates/typescript/runtime/shape.ts"),
    ),
    (
        "wire.ts",
        include_str!("../templates/typescript/runtime/wire.ts"),
    ),
];

/// One member of an interface.
#[derive(Debug, Serialize)]
struct Field {
    name: String,
    optional: bool,
    ts: String,
    doc: Vec<String>,
}

/// One exported declaration of `types.ts`.
#[derive(Debug, Serialize)]
struct Declaration {
    name: String,
    doc: Vec<String>,
    /// `interface` or `alias`.
    kind: &'static str,
    /// The aliased type, for an alias.
    ts: String,
    fields: Vec<Field>,
}

impl Declaration {
    fn interface(name: String, doc: Vec<String>, fields: Vec<Field>) -> Self {
        Self {
            name,
            doc,
            kind: "interface",
            ts: String::new(),
            fields,
        }
    }

    fn alias(name: String, doc: Vec<String>, ts: String) -> Self {
        Self {
            name,
            doc,
            kind: "alias",
            ts,
            fields: Vec::new(),
        }
    }
}

/// The largest integer a JavaScript `number` holds exactly.
const SAFE_INTEGER: i128 = (1 << 53) - 1;

/// The npm package as a package target.
pub struct TypeScriptPackage;

impl crate::targets::Target for TypeScriptPackage {
    fn language(&self) -> crate::targets::Language {
        crate::targets::Language::TypeScript
    }

    fn dir(&self) -> &'static str {
        TYPESCRIPT_DIR
    }

    fn generate(&self, input: &crate::targets::Input<'_>) -> Result<Files, Diagnostics> {
        generate(input.described()?, input.version, input.home)
    }

    fn install(&self, _home: &crate::home::Home, version: &ProtocolVersion) -> String {
        format!(
            "npm install path/to/cgp-types-{}.{}.0.tgz",
            version.major, version.minor
        )
    }
}

/// Renders every file of the package: (path relative to the repository root,
/// contents), sorted by path.
pub fn generate(
    protocol: &Protocol,
    version: &ProtocolVersion,
    home: &crate::home::Home,
) -> Result<Files, Diagnostics> {
    let (declarations, shapes) = declarations(protocol)
        .map_err(|why| why.into_diagnostics(protocol, "TypeScript package"))?;
    let package_version = format!("{}.{}.0", version.major, version.minor);
    let context = json!({
        "command": COMMAND,
        "protocol_version": version.to_string(),
        "package_version": package_version,
        "typescript_version": TYPESCRIPT_VERSION,
        "repository": home.url,
        "tag": protocol.tag,
        "declarations": declarations,
        "variants": protocol.variants.iter().map(|v| json!({
            "tag": v.tag,
            "name": crate::naming::variant_type(v),
        })).collect::<Vec<_>>(),
        "vocabularies": protocol.open_vocabularies().iter().map(|named| named.name.clone()).collect::<Vec<_>>(),
        "shapes": serde_json::to_string_pretty(&shapes).unwrap_or_default(),
    });
    let mut files = render(&context)?;
    for (name, text) in RUNTIME {
        files.insert(format!("{TYPESCRIPT_DIR}/src/{name}"), text.to_owned());
    }
    let header = format!(
        "// @generated by `{COMMAND}` from the interop bundle of {version}.\n\
         // Do not edit: change schema/ or crates/cgp-codegen/src/typescript/codec/\n\
         // and run `{COMMAND}`.\n//\n\
         // The fast path: a read and an encode function per type (see fast.ts).\n"
    );
    files.insert(
        format!("{TYPESCRIPT_DIR}/src/codec.ts"),
        codec::generate(&shapes, &header),
    );
    Ok(files)
}

/// The declarations of `types.ts` (the envelope variants, the named types,
/// then the envelope) and the table of every shape, by type name.
fn declarations(protocol: &Protocol) -> Result<(Vec<Declaration>, descriptor::Table), Unsupported> {
    let mut declarations = Vec::new();
    let mut variant_names = Vec::new();
    for variant in &protocol.variants {
        let name = crate::naming::variant_type(variant);
        declarations.push(Declaration::interface(
            name.clone(),
            doc_lines(variant.annotations.description.as_deref()),
            fields(&variant.object.members)?,
        ));
        variant_names.push(name);
    }
    let mut shapes = descriptor::Table::default();
    for (name, named) in &protocol.types {
        let doc = doc_lines(named.annotations.description.as_deref());
        match &named.shape {
            Shape::Object(object) => declarations.push(Declaration::interface(
                name.clone(),
                doc,
                fields(&object.members)?,
            )),
            Shape::TaggedUnion(union) => {
                declarations.extend(tagged_union(name, doc, union)?);
            }
            other => declarations.push(Declaration::alias(
                name.clone(),
                doc,
                ts_type(other).map_err(|why| why.in_type(name))?,
            )),
        }
        shapes.insert(
            name.clone(),
            descriptor::descriptor(&named.shape, true).map_err(|why| why.in_type(name))?,
        );
    }
    shapes.insert("Envelope".into(), descriptor::envelope(protocol)?);
    declarations.push(Declaration::alias(
        "Envelope".into(),
        doc_lines(protocol.annotations.description.as_deref()),
        variant_names.join(" | "),
    ));
    Ok((declarations, shapes))
}

/// A named tagged union: an interface per branch, then the union of them.
fn tagged_union(
    name: &str,
    doc: Vec<String>,
    union: &TaggedUnion,
) -> Result<Vec<Declaration>, Unsupported> {
    let mut declarations = Vec::new();
    let mut branch_names = Vec::new();
    for branch in &union.branches {
        let branch_name = crate::naming::branch_type(name, branch);
        let members = branch_members(union, branch);
        declarations.push(Declaration::interface(
            branch_name.clone(),
            doc_lines(branch.annotations.description.as_deref()),
            fields(&members)?,
        ));
        branch_names.push(branch_name);
    }
    declarations.push(Declaration::alias(
        name.to_owned(),
        doc,
        branch_names.join(" | "),
    ));
    Ok(declarations)
}

/// The [`TEMPLATES`] rendered with `context`.
fn render(context: &Value) -> Result<Files, Diagnostics> {
    let mut environment = crate::docs::environment(TEMPLATE_DIR).map_err(Diagnostics::one)?;
    environment.add_filter("json", |value: String| Value::String(value).to_string());
    let mut files = Files::new();
    for (path, source) in TEMPLATES {
        let shown = format!(
            "{TEMPLATE_DIR}/{}.j2",
            path.rsplit('/').next().unwrap_or(path)
        );
        let rendered = environment
            .template_from_str(source)
            .and_then(|template| template.render(Serde(context)))
            .map_err(|error| Diagnostics::one(Diagnostic::file(&shown, format!("{error:#}"))))?;
        files.insert(format!("{TYPESCRIPT_DIR}/{path}"), rendered);
    }
    Ok(files)
}

/// A description as the lines of a doc comment, safe inside `/** */`.
fn doc_lines(description: Option<&str>) -> Vec<String> {
    description
        .unwrap_or_default()
        .replace("*/", "*\\/")
        .lines()
        .map(str::to_owned)
        .collect()
}

fn fields(members: &[Member]) -> Result<Vec<Field>, Unsupported> {
    members
        .iter()
        .map(|member| {
            let (shape, _) = member.shape.without_null();
            Ok(Field {
                name: member.name.clone(),
                optional: !member.required,
                ts: ts_type(shape).map_err(|why| why.in_member(member, PACKAGE))?,
                doc: doc_lines(member.annotations.description.as_deref()),
            })
        })
        .collect()
}

/// A branch's members in the order the encoder writes them: the shared ones
/// it does not redefine, then its own (the tag among them).
fn branch_members(union: &TaggedUnion, branch: &Branch) -> Vec<Member> {
    union
        .members_with_tag(branch)
        .into_iter()
        .cloned()
        .collect()
}

/// The package name [`Unsupported::Member`] gives.
const PACKAGE: &str = "TypeScript package";

/// Whether an integer shape needs a `bigint` to hold every value exactly.
fn needs_bigint(minimum: Option<i128>, maximum: Option<i128>) -> bool {
    !matches!((minimum, maximum), (Some(low), Some(high)) if low >= -SAFE_INTEGER && high <= SAFE_INTEGER)
}

/// The TypeScript type of a value shape.
fn ts_type(shape: &Shape) -> Result<String, Unsupported> {
    Ok(match shape {
        Shape::Any => "unknown".into(),
        Shape::Named(name) => name.clone(),
        Shape::Null => "null".into(),
        Shape::Boolean => "boolean".into(),
        Shape::Integer(integer) if needs_bigint(integer.minimum, integer.maximum) => {
            "bigint".into()
        }
        Shape::Integer(_) | Shape::Number(_) => "number".into(),
        Shape::String(_) => "string".into(),
        Shape::Const(value) => value.to_string(),
        Shape::Enum(values) => values
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join(" | "),
        Shape::OpenVocabulary(vocabulary) => {
            let known = match &vocabulary.known_type {
                Some(name) => name.clone(),
                None => vocabulary
                    .known
                    .iter()
                    .map(|value| Value::String(value.clone()).to_string())
                    .collect::<Vec<_>>()
                    .join(" | "),
            };
            format!("{known} | (string & {{}})")
        }
        Shape::Array(array) => {
            let items = ts_type(&array.items)?;
            if items.contains(' ') {
                format!("Array<{items}>")
            } else {
                format!("{items}[]")
            }
        }
        Shape::Object(object) => {
            let inner = fields(&object.members)?
                .into_iter()
                .map(|field| {
                    format!(
                        "{}{}: {}",
                        Value::String(field.name),
                        if field.optional { "?" } else { "" },
                        field.ts
                    )
                })
                .collect::<Vec<_>>()
                .join("; ");
            format!("{{ {inner} }}")
        }
        Shape::Nullable(inner) => format!("{} | null", ts_type(inner)?),
        Shape::Excluding(inner, _) => ts_type(inner)?,
        Shape::TaggedUnion(_) => return Err(Unsupported::UnnamedTaggedUnion),
        Shape::Unsupported(why) => return Err(Unsupported::Model(why.clone())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn protocol(member: Value) -> Protocol {
        crate::test_model::ping_with("x", member)
    }

    use crate::test_model::version;

    #[test]
    fn a_model_renders_a_union_on_its_tag_and_a_bigint_for_64_bit_integers() {
        let files = generate(
            &protocol(json!({"type": "integer", "minimum": 0, "maximum": 18446744073709551615u64})),
            &version(),
            &crate::test_model::home(),
        )
        .expect("generated");
        let types = &files[&format!("{TYPESCRIPT_DIR}/src/types.ts")];
        assert!(
            types.contains("export type Envelope = PingEnvelope;"),
            "{types}"
        );
        assert!(
            types.contains("  type: \"ping\";\n  x?: bigint;\n"),
            "{types}"
        );
        assert!(
            files[&format!("{TYPESCRIPT_DIR}/package.json")].contains("\"version\": \"1.0.0\"")
        );
    }

    #[test]
    fn a_shape_the_package_cannot_describe_is_refused_naming_the_member() {
        let problems = generate(
            &protocol(json!({"type": "string", "pattern": "^a"})),
            &version(),
            &crate::test_model::home(),
        )
        .expect_err("refused")
        .to_string();
        assert!(
            problems.contains("member `x`") && problems.contains("`pattern`"),
            "{problems}"
        );
    }
}
