//! The Python package under `generated/python/` (import name `cgp_types`),
//! rendered with minijinja from the protocol model of the interop bundle.
//!
//! The model gives every type, member, shape, default and emit rule; this
//! module turns them into Python names, type hints and the table
//! (`cgp_types/__init__.py`) that the package's wire module
//! (`templates/python/runtime/_wire.py`, ordinary Python copied as it is)
//! reads and writes lines with. A shape the
//! package has no Python form for is an error at its source position, never a
//! guess. The templates live in `templates/python/`.

use crate::naming::{python_attribute as attribute_name, upper_constant as constant_name};
use cgp_schema::ProtocolVersion;
use cgp_schema::diagnostic::{Diagnostic, Diagnostics};
use cgp_schema::model::{
    ArrayShape, Emit, IntegerShape, Member, NumberShape, ObjectShape, Place, Protocol, Shape,
    StringShape, UnknownMembers,
};
use minijinja::value::Serde;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeSet;

mod builder;
mod fast;

/// Where the package goes, relative to the repository root.
pub const PYTHON_DIR: &str = "generated/python";

/// Where its templates live, relative to the repository root.
const TEMPLATE_DIR: &str = "crates/cgp-codegen/templates/python";

/// The templates: the file each renders (relative to [`PYTHON_DIR`]), the
/// template's name and its text.
const TEMPLATES: [(&str, &str, &str); 4] = [
    (
        "cgp_types/__init__.py",
        "init.py.j2",
        include_str!("../../templates/python/init.py.j2"),
    ),
    ("cgp_types/py.typed", "(empty)", ""),
    (
        "pyproject.toml",
        "pyproject.toml.j2",
        include_str!("../../templates/python/pyproject.toml.j2"),
    ),
    (
        "README.md",
        "README.md.j2",
        include_str!("../../templates/python/README.md.j2"),
    ),
];

/// The runtime, the vectors harness and the vectors test: ordinary Python
/// under `templates/python/runtime/`, copied into the package as it is (path
/// relative to [`PYTHON_DIR`], text).
pub const RUNTIME: [(&str, &str); 4] = [
    (
        "cgp_types/_wire.py",
        include_str!("../../templates/python/runtime/_wire.py"),
    ),
    (
        "cgp_types/lines.py",
        include_str!("../../templates/python/runtime/lines.py"),
    ),
    (
        "cgp_types/harness.py",
        include_str!("../../templates/python/runtime/harness.py"),
    ),
    (
        "tests/test_vectors.py",
        include_str!("../../templates/python/runtime/test_vectors.py"),
    ),
];

/// Python's reserved words: a member called one of these gets a trailing `_`.

#[derive(Debug, Serialize)]
struct EnumView {
    name: String,
    description: String,
    values: Vec<(String, String)>,
}

#[derive(Debug, Serialize)]
struct FieldView {
    attribute: String,
    annotation: String,
    description: String,
}

#[derive(Debug, Serialize)]
struct ClassView {
    name: String,
    description: String,
    tag: Option<(String, String)>,
    fields: Vec<FieldView>,
}

#[derive(Debug, Serialize)]
struct AliasView {
    name: String,
    description: String,
    target: String,
}

#[derive(Debug, Serialize)]
struct UnionView {
    name: String,
    tag: String,
}

#[derive(Debug, Serialize)]
struct TableEntry {
    name: String,
    shape: String,
}

/// What the templates see.
#[derive(Debug, Default, Serialize)]
struct Package {
    enums: Vec<EnumView>,
    classes: Vec<ClassView>,
    aliases: Vec<AliasView>,
    unions: Vec<UnionView>,
    table: Vec<TableEntry>,
    variants: Vec<String>,
    envelope: String,
    names: Vec<String>,
    /// Every class with its members in writing order, for the fast paths.
    #[serde(skip)]
    plans: Vec<ClassPlan>,
    /// Each tagged union's branch classes.
    #[serde(skip)]
    union_branches: Vec<(String, Vec<String>)>,
}

/// One class: its members in writing order and, for a union's branch or a
/// variant, `(tag member, tag value, where the tag goes among the members)`.
#[derive(Debug)]
struct ClassPlan {
    name: String,
    members: Vec<Member>,
    tag: Option<(String, String, usize)>,
}

/// The Python package as a package target.
pub struct PythonPackage;

impl crate::targets::Target for PythonPackage {
    fn language(&self) -> crate::targets::Language {
        crate::targets::Language::Python
    }

    fn dir(&self) -> &'static str {
        PYTHON_DIR
    }

    fn generate(&self, input: &crate::targets::Input<'_>) -> Result<crate::Files, Diagnostics> {
        let files = render(input.described()?, &input.version.to_string(), input.home)
            .map_err(Diagnostics::one)?;
        Ok(files.into_iter().collect())
    }

    fn install(&self, _home: &crate::home::Home, _version: &ProtocolVersion) -> String {
        format!("pip install \"./{PYTHON_DIR}[fast]\"")
    }
}

/// Renders the package: `(path relative to the repository root, contents)`
/// pairs, sorted by path.
pub fn render(
    protocol: &Protocol,
    protocol_version: &str,
    home: &crate::home::Home,
) -> Result<Vec<(String, String)>, Diagnostic> {
    let package = Builder { protocol }.package()?;
    let mut environment = crate::docs::environment(TEMPLATE_DIR)?;
    environment.add_filter("docstring", |text: String| {
        text.replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\"")
    });
    let package_version = protocol_version
        .rsplit_once('/')
        .map_or(protocol_version, |(_, number)| number);
    let mut files = Vec::new();
    environment.add_filter("literal", literal);
    for (path, template, source) in TEMPLATES {
        let template_file = format!("{TEMPLATE_DIR}/{template}");
        let text = environment
            .render_str(
                source,
                Serde(&serde_json::json!({
                    "package": package,
                    "version": protocol_version,
                    "package_version": package_version,
                    "repository": home.url,
                })),
            )
            .map_err(|error| Diagnostic::file(&template_file, format!("{error:#}")))?;
        files.push((format!("{PYTHON_DIR}/{path}"), text));
    }
    let builder = Builder { protocol };
    files.push((
        format!("{PYTHON_DIR}/cgp_types/_fast.py"),
        builder.fast_decoder(&package)?,
    ));
    files.push((
        format!("{PYTHON_DIR}/cgp_types/_writer.py"),
        builder.fast_writer(&package)?,
    ));
    for (path, text) in RUNTIME {
        files.push((format!("{PYTHON_DIR}/{path}"), text.to_owned()));
    }
    files.sort();
    Ok(files)
}

struct Builder<'p> {
    protocol: &'p Protocol,
}

fn refuse(at: &Place, what: &str) -> Diagnostic {
    at.diagnostic(format!(
        "the Python package has no form for this schema: {what}"
    ))
}

/// The branches of a `_w.Union` as a tuple, each indented one level deeper
/// than it was written.
fn branch_tuple(branches: &[String]) -> String {
    let items: Vec<String> = branches
        .iter()
        .map(|branch| format!("        {},\n", branch.replace('\n', "\n    ")))
        .collect();
    format!("(\n{}    )", items.concat())
}

/// A Python string literal (JSON's spelling is one).
fn literal(text: &str) -> String {
    Value::String(text.into()).to_string()
}

#[cfg(test)]
mod tests;
