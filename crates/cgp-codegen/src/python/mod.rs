//! The Python package under `generated/python/` (import name `cgp_types`),
//! rendered with minijinja from the protocol model of the interop bundle.
//!
//! The model gives every type, member, shape, default and emit rule; this
//! module turns them into Python names, type hints and the table
//! (`cgp_types/__init__.py`) that the package's wire module
//! (`templates/python/wire.py.j2`) reads and writes lines with. A shape the
//! package has no Python form for is an error at its source position, never a
//! guess. The templates live in `templates/python/`.

use cgp_schema::diagnostic::Diagnostic;
use cgp_schema::model::{
    ArrayShape, Emit, IntegerShape, Member, NumberShape, ObjectShape, Place, Protocol, Shape,
    StringShape, UnknownMembers,
};
use minijinja::value::Serde;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeSet;

/// Where the package goes, relative to the repository root.
pub const PYTHON_DIR: &str = "generated/python";

/// Where its templates live, relative to the repository root.
const TEMPLATE_DIR: &str = "crates/cgp-codegen/templates/python";

/// The templates: the file each renders (relative to [`PYTHON_DIR`]), the
/// template's name and its text.
const TEMPLATES: [(&str, &str, &str); 5] = [
    (
        "cgp_types/__init__.py",
        "init.py.j2",
        include_str!("../../templates/python/init.py.j2"),
    ),
    (
        "cgp_types/_wire.py",
        "wire.py.j2",
        include_str!("../../templates/python/wire.py.j2"),
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

/// Python's reserved words: a member called one of these gets a trailing `_`.
const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

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
}

/// Renders the package: `(path relative to the repository root, contents)`
/// pairs, sorted by path.
pub fn render(
    protocol: &Protocol,
    protocol_version: &str,
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
                })),
            )
            .map_err(|error| Diagnostic::file(&template_file, format!("{error:#}")))?;
        files.push((format!("{PYTHON_DIR}/{path}"), text));
    }
    files.sort();
    Ok(files)
}

struct Builder<'p> {
    protocol: &'p Protocol,
}

fn refuse(at: &Place, what: &str) -> Diagnostic {
    let message = format!("the Python package has no form for this schema: {what}");
    match &at.location {
        Some(location) => Diagnostic::at(
            &location.file,
            cgp_schema::json_text::Position {
                line: location.line,
                column: location.column,
            },
            Some(at.pointer.clone()),
            message,
        ),
        None => Diagnostic::file(format!("#{}", at.pointer), message),
    }
}

/// `local-only` → `LOCAL_ONLY`.
fn constant_name(value: &str) -> String {
    let mut name: String = value
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, '_');
    }
    name
}

fn attribute_name(member: &str) -> String {
    if KEYWORDS.contains(&member) {
        format!("{member}_")
    } else {
        member.to_owned()
    }
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

impl Builder<'_> {
    fn package(&self) -> Result<Package, Diagnostic> {
        let mut package = Package::default();
        for (name, named) in &self.protocol.types {
            let description = named.annotations.description.clone().unwrap_or_default();
            match &named.shape {
                Shape::Object(object) => {
                    package
                        .classes
                        .push(self.class(name, &description, None, object)?);
                    package.table.push(TableEntry {
                        name: name.clone(),
                        shape: format!(
                            "_w.Record(\n    {name},\n    {},\n)",
                            self.member_table(&object.members, "    ")?
                        ),
                    });
                }
                Shape::TaggedUnion(union) => {
                    let mut branches = Vec::new();
                    let mut names = Vec::new();
                    for branch in &union.branches {
                        let title = branch
                            .annotations
                            .title
                            .clone()
                            .unwrap_or_else(|| cgp_schema::model::camel_case(&branch.tag));
                        let class = if title.starts_with(name.as_str()) {
                            title
                        } else {
                            format!("{name}{title}")
                        };
                        let members = union.members_of(branch);
                        let owned: Vec<Member> = members.iter().map(|m| (*m).clone()).collect();
                        let object = ObjectShape {
                            members: owned.clone(),
                            unknown_members: branch.object.unknown_members,
                        };
                        let branch_description =
                            branch.annotations.description.clone().unwrap_or_default();
                        package.classes.push(self.class(
                            &class,
                            &branch_description,
                            Some((union.tag.clone(), branch.tag.clone())),
                            &object,
                        )?);
                        let tag_at = branch
                            .object
                            .members
                            .iter()
                            .filter(|member| union.shared.member(&member.name).is_none())
                            .position(|member| member.name == union.tag)
                            .map_or(0, |index| index + union.shared.members.len());
                        branches.push(format!(
                            "_w.Branch(\n        {},\n        {class},\n        {},\n        {tag_at},\n    )",
                            literal(&branch.tag),
                            self.member_table(&owned, "        ")?
                        ));
                        names.push(class);
                    }
                    package.aliases.push(AliasView {
                        name: name.clone(),
                        description,
                        target: format!("typing.Union[{}]", names.join(", ")),
                    });
                    package.unions.push(UnionView {
                        name: name.clone(),
                        tag: union.tag.clone(),
                    });
                    package.table.push(TableEntry {
                        name: name.clone(),
                        shape: format!(
                            "_w.Union(\n    {},\n    {},\n    {},\n    False,\n)",
                            literal(name),
                            literal(&union.tag),
                            branch_tuple(&branches)
                        ),
                    });
                }
                Shape::Enum(values) => {
                    let mut constants = Vec::new();
                    for value in values {
                        let Some(text) = value.as_str() else {
                            return Err(refuse(&named.at, "an enum of non-strings"));
                        };
                        constants.push((constant_name(text), literal(text)));
                    }
                    let unique: BTreeSet<&String> = constants.iter().map(|(c, _)| c).collect();
                    if unique.len() != constants.len() {
                        return Err(refuse(&named.at, "enum values that share a Python name"));
                    }
                    package.enums.push(EnumView {
                        name: name.clone(),
                        description,
                        values: constants,
                    });
                    package.table.push(TableEntry {
                        name: name.clone(),
                        shape: format!("_w.Closed({name})"),
                    });
                }
                Shape::OpenVocabulary(vocabulary) => {
                    let Some(known) = &vocabulary.known_type else {
                        return Err(refuse(
                            &named.at,
                            "an open vocabulary without a known-values type",
                        ));
                    };
                    package.aliases.push(AliasView {
                        name: name.clone(),
                        description,
                        target: format!("typing.Union[{known}, str]"),
                    });
                    package.table.push(TableEntry {
                        name: name.clone(),
                        shape: format!("_w.Open({known})"),
                    });
                }
                _ => {
                    return Err(refuse(
                        &named.at,
                        "a named type that is not an object, tagged union or string enumeration",
                    ));
                }
            }
        }
        let mut variants = Vec::new();
        for variant in &self.protocol.variants {
            let class = variant.name();
            let members: Vec<Member> = variant
                .object
                .members
                .iter()
                .filter(|member| member.name != self.protocol.tag)
                .cloned()
                .collect();
            let tag_at = variant
                .object
                .members
                .iter()
                .position(|member| member.name == self.protocol.tag)
                .unwrap_or(0);
            let object = ObjectShape {
                members: members.clone(),
                unknown_members: variant.object.unknown_members,
            };
            let description = variant.annotations.description.clone().unwrap_or_default();
            package.classes.push(self.class(
                &class,
                &description,
                Some((self.protocol.tag.clone(), variant.tag.clone())),
                &object,
            )?);
            variants.push(format!(
                "_w.Branch(\n        {},\n        {class},\n        {},\n        {tag_at},\n    )",
                literal(&variant.tag),
                self.member_table(&members, "        ")?
            ));
            package.variants.push(class);
        }
        package.envelope = format!(
            "_w.Union(\n    \"Envelope\",\n    {},\n    {},\n    True,\n)",
            literal(&self.protocol.tag),
            branch_tuple(&variants)
        );
        let mut names: Vec<String> = package
            .classes
            .iter()
            .map(|class| class.name.clone())
            .chain(package.enums.iter().map(|e| e.name.clone()))
            .chain(package.aliases.iter().map(|a| a.name.clone()))
            .collect();
        names.push("Envelope".into());
        let unique: BTreeSet<&String> = names.iter().collect();
        if unique.len() != names.len() {
            let mut seen = BTreeSet::new();
            let twice: Vec<&String> = names.iter().filter(|name| !seen.insert(*name)).collect();
            return Err(Diagnostic::file(
                PYTHON_DIR,
                format!(
                    "two Python types would share a name: {twice:?}; give one schema another title"
                ),
            ));
        }
        names.sort();
        package.names = names;
        Ok(package)
    }

    fn class(
        &self,
        name: &str,
        description: &str,
        tag: Option<(String, String)>,
        object: &ObjectShape,
    ) -> Result<ClassView, Diagnostic> {
        let mut fields = Vec::new();
        for member in &object.members {
            if object.unknown_members == UnknownMembers::Rejected {
                return Err(refuse(
                    &member.at,
                    "an object that rejects unknown members (the reference ignores them)",
                ));
            }
            let (shape, nullable) = member.shape.without_null();
            let mut annotation = self.hint(shape, &member.at)?;
            if nullable {
                annotation.push_str(" | None");
            }
            if !member.required {
                annotation.push_str(" = ");
                annotation.push_str(&self.field_default(member)?);
            }
            fields.push(FieldView {
                attribute: attribute_name(&member.name),
                annotation,
                description: member.annotations.description.clone().unwrap_or_default(),
            });
        }
        Ok(ClassView {
            name: name.to_owned(),
            description: description.to_owned(),
            tag,
            fields,
        })
    }

    /// The type hint of a shape.
    fn hint(&self, shape: &Shape, at: &Place) -> Result<String, Diagnostic> {
        Ok(match shape {
            Shape::String(_) => "str".into(),
            Shape::Boolean => "bool".into(),
            Shape::Integer(_) => "int".into(),
            Shape::Number(_) => "float".into(),
            Shape::Named(name) => name.clone(),
            Shape::Array(array) => format!("list[{}]", self.hint(&array.items, at)?),
            Shape::Any => "typing.Any".into(),
            _ => {
                return Err(refuse(
                    at,
                    "a member shape other than a string, boolean, integer, number, array or named type",
                ));
            }
        })
    }

    /// The Python expression of a member's default value.
    fn default_value(
        &self,
        shape: &Shape,
        value: &Value,
        at: &Place,
    ) -> Result<String, Diagnostic> {
        let wrong = || refuse(at, &format!("the default {value} for this shape"));
        Ok(match (shape, value) {
            (Shape::Nullable(_), Value::Null) => "None".into(),
            (Shape::Nullable(inner), _) => self.default_value(inner, value, at)?,
            (Shape::Boolean, Value::Bool(flag)) => if *flag { "True" } else { "False" }.into(),
            (Shape::String(_), Value::String(text)) => literal(text),
            (Shape::Integer(_), Value::Number(number)) if number.is_i64() || number.is_u64() => {
                number.to_string()
            }
            (Shape::Array(_), Value::Array(items)) if items.is_empty() => "[]".into(),
            (Shape::Named(name), _) => {
                let named = self.protocol.named(name).ok_or_else(wrong)?;
                match (&named.shape, value) {
                    (Shape::Enum(_), Value::String(text)) => {
                        format!("{name}.{}", constant_name(text))
                    }
                    (Shape::OpenVocabulary(vocabulary), Value::String(text)) => {
                        match (&vocabulary.known_type, vocabulary.known.contains(text)) {
                            (Some(known), true) => format!("{known}.{}", constant_name(text)),
                            _ => literal(text),
                        }
                    }
                    (Shape::Object(object), Value::Object(given)) => {
                        let mut arguments = Vec::new();
                        for (key, item) in given {
                            let member = object.member(key).ok_or_else(wrong)?;
                            arguments.push(format!(
                                "{}={}",
                                attribute_name(key),
                                self.default_value(&member.shape, item, &member.at)?
                            ));
                        }
                        format!("{name}({})", arguments.join(", "))
                    }
                    _ => return Err(wrong()),
                }
            }
            _ => return Err(wrong()),
        })
    }

    /// The expression of an optional member's default: `None`, or the
    /// model's `default`.
    fn default_expression(&self, member: &Member) -> Result<String, Diagnostic> {
        match &member.annotations.default {
            Some(value) => self.default_value(&member.shape, value, &member.at),
            None if member.nullable() => Ok("None".into()),
            None => Err(refuse(
                &member.at,
                "an optional member with neither a default nor null",
            )),
        }
    }

    /// What follows `=` in the dataclass field.
    fn field_default(&self, member: &Member) -> Result<String, Diagnostic> {
        let expression = self.default_expression(member)?;
        let mutable = expression.starts_with('[') || expression.ends_with(')');
        Ok(if mutable {
            if expression == "[]" {
                "dataclasses.field(default_factory=list)".into()
            } else {
                format!("dataclasses.field(default_factory=lambda: {expression})")
            }
        } else {
            expression
        })
    }

    /// The members' wire table: a tuple of `_w.Member`s, one a line, the
    /// closing parenthesis at `indent`.
    fn member_table(&self, members: &[Member], indent: &str) -> Result<String, Diagnostic> {
        let mut rows = Vec::new();
        for member in members {
            let (shape, nullable) = member.shape.without_null();
            let emit = match (member.required, member.emit()) {
                (true, _) | (false, Some(Emit::Always)) => "ALWAYS",
                (false, Some(Emit::OmitIfAbsent)) => "OMIT_IF_ABSENT",
                (false, Some(Emit::OmitIfEmpty)) => "OMIT_IF_EMPTY",
                (false, Some(Emit::OmitIfDefault)) => "OMIT_IF_DEFAULT",
                (false, None) => {
                    return Err(refuse(
                        &member.at,
                        "an optional member without `x-cgp-emit`",
                    ));
                }
            };
            let default = if member.required {
                "None".to_owned()
            } else {
                format!("lambda: {}", self.default_expression(member)?)
            };
            rows.push(format!(
                "_w.Member({}, {}, {}, {}, {}, _w.{emit}, {default})",
                literal(&member.name),
                literal(&attribute_name(&member.name)),
                self.shape(shape, &member.at)?,
                if member.required { "True" } else { "False" },
                if nullable { "True" } else { "False" },
            ));
        }
        if rows.is_empty() {
            return Ok("()".into());
        }
        let inner = format!("{indent}    ");
        Ok(format!(
            "(\n{inner}{},\n{indent})",
            rows.join(&format!(",\n{inner}"))
        ))
    }

    /// The wire-table expression of a member's shape.
    fn shape(&self, shape: &Shape, at: &Place) -> Result<String, Diagnostic> {
        Ok(match shape {
            Shape::String(StringShape {
                min_length: None,
                max_length: None,
                pattern: None,
                ..
            }) => "_w.STRING".into(),
            Shape::Boolean => "_w.BOOLEAN".into(),
            Shape::Integer(IntegerShape {
                minimum,
                maximum,
                multiple_of: None,
                ..
            }) => {
                let bound =
                    |limit: &Option<i128>| limit.map_or("None".to_owned(), |n| n.to_string());
                format!("_w.Integer({}, {})", bound(minimum), bound(maximum))
            }
            Shape::Number(NumberShape {
                minimum: None,
                maximum: None,
                multiple_of: None,
                format: Some(format),
            }) if format == "float" => "_w.FLOAT32".into(),
            Shape::Named(name) => format!("_named({})", literal(name)),
            Shape::Array(ArrayShape {
                items,
                min_items: None,
                max_items: None,
                unique_items: false,
                ..
            }) => format!("_w.Array({})", self.shape(items, at)?),
            _ => {
                return Err(refuse(
                    at,
                    "a constrained string, number other than an unbounded f32, or bounded array",
                ));
            }
        })
    }
}

#[cfg(test)]
mod tests;
