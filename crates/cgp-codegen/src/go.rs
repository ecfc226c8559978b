//! The Go module under `generated/go/`, rendered with minijinja from the
//! protocol model of the interop bundle.
//!
//! The module holds the wire types (a sealed `Envelope` interface with one
//! struct per variant, the tagged `FrameVerdict` union the same way, open
//! vocabularies as named string types with `Known…` constants, closed ones
//! validated), a decoder and an encoder per type written from the model
//! (`types.go`, `decode.go`, `encode.go` from `templates/go/*.j2`), and a
//! runtime copied as-is from `templates/go/runtime/`: its own JSON reader with
//! the reference decoder's rules, the lossy UTF-8 of a stdio line, serde_json's
//! escapes and float layout, the entry points `Decode`, `DecodeBody` and
//! `Encode`, the conformance-vector and fuzz tests and the `cmd/cgp-harness`
//! program the spec-tests drive. Nothing here reads a schema keyword, only the
//! model; a shape the module cannot describe is refused, naming the member.

use crate::home::Home;
use crate::rust::COMMAND;
use cgp_schema::ProtocolVersion;
use cgp_schema::diagnostic::{Diagnostic, Diagnostics};
use cgp_schema::model::{Emit, Member, ObjectShape, Protocol, Shape, UnknownMembers};
use minijinja::value::Serde;
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// Where the module goes, relative to the repository root.
pub const GO_DIR: &str = "generated/go";

/// Where its templates and runtime live, relative to the repository root.
pub const TEMPLATE_DIR: &str = "crates/cgp-codegen/templates/go";

/// The package name. The module path (`go.mod`) is the project's home
/// followed by [`GO_DIR`] ([`crate::home::Home::go_module`]), one `go get`
/// fetches; a release of it is tagged `generated/go/v<version>`.
pub const PACKAGE: &str = "cgptypes";

/// Where the module's tests read the conformance vectors of the working
/// version, inside the module (a copy of `generated/vectors/<version>/`, so a
/// copy of the module alone tests itself).
pub const TESTDATA_VECTORS: &str = "generated/go/testdata/vectors";

/// The oldest Go the module needs (generics; `go` directive of `go.mod`).
pub const GO_VERSION: &str = "1.22";

/// The rendered files: (file under the module, template text).
const TEMPLATES: [(&str, &str); 5] = [
    ("go.mod", include_str!("../templates/go/go.mod.j2")),
    ("README.md", include_str!("../templates/go/README.md.j2")),
    ("types.go", include_str!("../templates/go/types.go.j2")),
    ("decode.go", include_str!("../templates/go/decode.go.j2")),
    ("encode.go", include_str!("../templates/go/encode.go.j2")),
];

/// The runtime, copied as-is: (file under the module, contents).
const RUNTIME: [(&str, &str); 8] = [
    ("json.go", include_str!("../templates/go/runtime/json.go")),
    ("lines.go", include_str!("../templates/go/runtime/lines.go")),
    ("text.go", include_str!("../templates/go/runtime/text.go")),
    (
        "runtime.go",
        include_str!("../templates/go/runtime/runtime.go"),
    ),
    ("wire.go", include_str!("../templates/go/runtime/wire.go")),
    (
        "wire_test.go",
        include_str!("../templates/go/runtime/wire_test.go"),
    ),
    (
        "cmd/cgp-throughput/main.go",
        include_str!("../templates/go/runtime/cgp-throughput.go"),
    ),
    (
        "cmd/cgp-harness/main.go",
        include_str!("../templates/go/runtime/cgp-harness.go"),
    ),
];

/// One field of a generated struct.
#[derive(Debug, Serialize)]
struct Field {
    name: String,
    go: String,
    doc: Vec<String>,
    /// The `json` struct tag, so `encoding/json` reads the same struct (the
    /// benchmark's baseline).
    json: String,
}

/// One struct with its decoder and encoder: a named object type, a branch of
/// a tagged union, or an envelope variant.
#[derive(Debug, Serialize)]
struct Unit {
    name: String,
    doc: Vec<String>,
    fields: Vec<Field>,
    /// The quoted member names, in order, for `newObjectShape`.
    names: String,
    /// The union tag member this unit's object skips, `""` for none.
    tag: String,
    /// The tag value this unit writes, for a branch or variant.
    tag_value: String,
    slots: usize,
    decode: Vec<String>,
    encode: Vec<String>,
}

/// A tagged union (the envelope or a named one) over its branch units.
#[derive(Debug, Serialize)]
struct Union {
    name: String,
    doc: Vec<String>,
    tag: String,
    tags: String,
    positional: bool,
    by_index: bool,
    /// The interface's marker method.
    method: String,
    branches: Vec<Unit>,
}

/// A string vocabulary: open (any string kept) or closed (validated).
#[derive(Debug, Serialize)]
struct Vocabulary {
    name: String,
    doc: Vec<String>,
    open: bool,
    values: Vec<(String, String)>,
}

/// Renders every file of the module: (path relative to the repository root,
/// contents), sorted by path.
pub fn generate(
    protocol: &Protocol,
    version: &ProtocolVersion,
    home: &Home,
) -> Result<BTreeMap<String, String>, Diagnostics> {
    let module = home.go_module(GO_DIR);
    let problem = |message: String| {
        Diagnostics::one(Diagnostic::file(
            format!("{TEMPLATE_DIR}/types.go.j2"),
            message,
        ))
    };
    let mut objects = Vec::new();
    let mut unions = Vec::new();
    let mut vocabularies = Vec::new();
    for (name, named) in &protocol.types {
        let doc = doc_lines(named.annotations.description.as_deref());
        // A list of known values behind an open vocabulary is not a type of
        // its own in Go: the vocabulary's `Known…` constants carry them.
        if protocol.types.values().any(|other| {
            matches!(&other.shape, Shape::OpenVocabulary(v) if v.known_type.as_deref() == Some(name))
        }) {
            continue;
        }
        match &named.shape {
            Shape::Object(object) => {
                objects.push(unit(name, doc, object, "", "").map_err(problem)?);
            }
            Shape::TaggedUnion(union) => {
                let mut branches = Vec::new();
                for branch in &union.branches {
                    let branch_name = format!(
                        "{name}{}",
                        branch
                            .annotations
                            .title
                            .clone()
                            .unwrap_or_else(|| pascal_case(&branch.tag))
                    );
                    let mut members: Vec<Member> = union
                        .shared
                        .members
                        .iter()
                        .filter(|shared| branch.object.member(&shared.name).is_none())
                        .cloned()
                        .collect();
                    members.extend(branch.object.members.iter().cloned());
                    let object = ObjectShape {
                        members,
                        unknown_members: branch.object.unknown_members,
                    };
                    branches.push(
                        unit(
                            &branch_name,
                            doc_lines(branch.annotations.description.as_deref()),
                            &object,
                            &union.tag,
                            &branch.tag,
                        )
                        .map_err(problem)?,
                    );
                }
                unions.push(Union {
                    name: name.clone(),
                    doc,
                    tag: quote(&union.tag),
                    tags: quoted_list(union.branches.iter().map(|b| b.tag.as_str())),
                    positional: false,
                    by_index: true,
                    method: format!("append{name}"),
                    branches,
                });
            }
            Shape::Enum(values) => {
                let values = values
                    .iter()
                    .map(|value| {
                        value
                            .as_str()
                            .map(|text| (format!("{name}{}", pascal_case(text)), quote(text)))
                            .ok_or_else(|| {
                                problem(format!(
                                    "type `{name}`: an enum value that is not a string"
                                ))
                            })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                vocabularies.push(Vocabulary {
                    name: name.clone(),
                    doc,
                    open: false,
                    values,
                });
            }
            Shape::OpenVocabulary(vocabulary) => vocabularies.push(Vocabulary {
                name: name.clone(),
                doc,
                open: true,
                values: vocabulary
                    .known
                    .iter()
                    .map(|text| (format!("Known{name}{}", pascal_case(text)), quote(text)))
                    .collect(),
            }),
            _ => {
                return Err(problem(format!(
                    "type `{name}`: the Go module describes objects, tagged unions and string vocabularies only"
                )));
            }
        }
    }
    let mut variants = Vec::new();
    for variant in &protocol.variants {
        variants.push(
            unit(
                &format!("{}Envelope", variant.name()),
                doc_lines(variant.annotations.description.as_deref()),
                &variant.object,
                &protocol.tag,
                &variant.tag,
            )
            .map_err(problem)?,
        );
    }
    let envelope = Union {
        name: "Envelope".into(),
        doc: doc_lines(protocol.annotations.description.as_deref()),
        tag: quote(&protocol.tag),
        tags: quoted_list(protocol.variants.iter().map(|v| v.tag.as_str())),
        positional: true,
        by_index: false,
        method: "appendEnvelope".into(),
        branches: variants,
    };
    let context = json!({
        "command": COMMAND,
        "protocol_version": version.to_string(),
        "version_quoted": quote(&version.to_string()),
        "slug_quoted": quote(&version.slug()),
        "module": module,
        "package": PACKAGE,
        "repository": home.url,
        "go_version": GO_VERSION,
        "objects": objects,
        "unions": unions,
        "envelope": envelope,
        "vocabularies": vocabularies,
    });
    let environment = crate::docs::environment(TEMPLATE_DIR).map_err(Diagnostics::one)?;
    let mut files = BTreeMap::new();
    for (path, source) in TEMPLATES {
        let shown = format!("{TEMPLATE_DIR}/{path}.j2");
        let rendered = environment
            .template_from_str(source)
            .and_then(|template| template.render(Serde(&context)))
            .map_err(|error| Diagnostics::one(Diagnostic::file(&shown, format!("{error:#}"))))?;
        files.insert(format!("{GO_DIR}/{path}"), rendered);
    }
    for (path, text) in RUNTIME {
        // The commands import the package by the module path.
        let text = text.replace(
            &format!("\t\"{PACKAGE}\"\n"),
            &format!("\t{PACKAGE} \"{module}\"\n"),
        );
        files.insert(format!("{GO_DIR}/{path}"), text);
    }
    Ok(files)
}

/// A description as the lines of a Go comment.
fn doc_lines(description: Option<&str>) -> Vec<String> {
    description
        .unwrap_or_default()
        .lines()
        .map(|line| line.trim_end().to_owned())
        .collect()
}

/// `text` as a Go (and JSON) string literal.
fn quote(text: &str) -> String {
    Value::String(text.to_owned()).to_string()
}

fn quoted_list<'a>(items: impl Iterator<Item = &'a str>) -> String {
    items.map(quote).collect::<Vec<_>>().join(", ")
}

/// `snake_case`, `kebab-case` or `a.b` as an exported Go name.
fn pascal_case(text: &str) -> String {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// A member name as a Go field name, with Go's initialisms.
fn field_name(member: &str) -> String {
    member
        .split('_')
        .map(|part| match part {
            "id" | "uri" | "url" | "json" | "http" => part.to_ascii_uppercase(),
            other => pascal_case(other),
        })
        .collect()
}

/// Why a member cannot be generated, with where its schema is written.
fn unsupported(member: &Member, why: &str) -> String {
    format!(
        "{}: member `{}`: the Go module cannot describe {why}",
        member.at, member.name
    )
}

/// The Go type of a value shape (no `null`).
fn go_type(shape: &Shape) -> Result<String, String> {
    Ok(match shape {
        Shape::Named(name) => name.clone(),
        Shape::Boolean => "bool".into(),
        Shape::String(string) if string_plain(string) => "string".into(),
        Shape::OpenVocabulary(_) => "string".into(),
        Shape::Integer(integer) => integer_kind(integer)?.0.into(),
        Shape::Number(number) => number_kind(number)?.0.into(),
        Shape::Array(array) => {
            if array.unique_items || array.min_items.is_some() || array.max_items.is_some() {
                return Err("an array with item constraints".into());
            }
            format!("[]{}", go_type(&array.items)?)
        }
        Shape::Unsupported(why) => return Err(why.clone()),
        other => return Err(format!("the shape {other:?} here")),
    })
}

fn string_plain(string: &cgp_schema::model::StringShape) -> bool {
    string.min_length.is_none() && string.max_length.is_none() && string.pattern.is_none()
}

/// (Go type, decoder, encoder) of an integer range the module holds exactly.
fn integer_kind(
    integer: &cgp_schema::model::IntegerShape,
) -> Result<(&'static str, &'static str, &'static str), String> {
    if integer.multiple_of.is_some() {
        return Err("`multipleOf` on an integer".into());
    }
    match (integer.minimum, integer.maximum) {
        (Some(0), Some(max)) if max == i128::from(u32::MAX) => {
            Ok(("uint32", "decodeUint32", "encodeUint32"))
        }
        (Some(0), Some(max)) if max == i128::from(u64::MAX) => {
            Ok(("uint64", "decodeUint64", "encodeUint64"))
        }
        _ => Err(format!("the integer range {}", integer.describe())),
    }
}

fn number_kind(
    number: &cgp_schema::model::NumberShape,
) -> Result<(&'static str, &'static str, &'static str), String> {
    if number.multiple_of.is_some() || number.minimum.is_some() || number.maximum.is_some() {
        return Err(format!("the number range {}", number.describe()));
    }
    Ok(if number.format.as_deref() == Some("float") {
        ("float32", "decodeFloat32", "encodeFloat32")
    } else {
        ("float64", "decodeFloat64", "encodeFloat64")
    })
}

/// A Go expression of type `func(*value, *path) (T, error)` for a shape.
fn decoder(shape: &Shape) -> Result<String, String> {
    Ok(match shape {
        Shape::Named(name) => format!("decode{name}"),
        Shape::Boolean => "decodeBool".into(),
        Shape::String(_) | Shape::OpenVocabulary(_) => "decodeString".into(),
        Shape::Integer(integer) => integer_kind(integer)?.1.into(),
        Shape::Number(number) => number_kind(number)?.1.into(),
        Shape::Array(array) => format!(
            "func(v *value, p *path) ({}, error) {{ return decodeArray(v, p, {}) }}",
            go_type(shape)?,
            decoder(&array.items)?
        ),
        other => return Err(format!("the shape {other:?} here")),
    })
}

/// A Go expression of type `func([]byte, T, *path) ([]byte, error)`.
fn encoder(shape: &Shape) -> Result<String, String> {
    Ok(match shape {
        Shape::Named(name) => format!("encode{name}"),
        Shape::Boolean => "encodeBool".into(),
        Shape::String(_) | Shape::OpenVocabulary(_) => "appendString".into(),
        Shape::Integer(integer) => integer_kind(integer)?.2.into(),
        Shape::Number(number) => number_kind(number)?.2.into(),
        Shape::Array(array) => format!(
            "func(b []byte, v {}, p *path) ([]byte, error) {{ return encodeArray(b, v, p, {}) }}",
            go_type(shape)?,
            encoder(&array.items)?
        ),
        other => return Err(format!("the shape {other:?} here")),
    })
}

/// A Go call that decodes `value` at `at` with a shape's rules.
fn decode_call(shape: &Shape, value: &str, at: &str) -> Result<String, String> {
    Ok(match shape {
        Shape::Array(array) => format!("decodeArray({value}, {at}, {})", decoder(&array.items)?),
        other => format!("{}({value}, {at})", decoder(other)?),
    })
}

/// A Go call that appends `value` at `at` to `b` with a shape's rules.
fn encode_call(shape: &Shape, value: &str, at: &str) -> Result<String, String> {
    Ok(match shape {
        Shape::Array(array) => format!("encodeArray(b, {value}, {at}, {})", encoder(&array.items)?),
        other => format!("{}(b, {value}, {at})", encoder(other)?),
    })
}

/// The Go assignment that gives an absent member its default, if the zero
/// value is not already it.
fn default_value(shape: &Shape, default: Option<&Value>) -> Result<Option<String>, String> {
    let Some(default) = default else {
        return Ok(None);
    };
    let zero = match default {
        Value::Null => true,
        Value::Bool(value) => !value,
        Value::Number(number) => number.as_f64() == Some(0.0),
        Value::String(text) => text.is_empty(),
        Value::Array(items) => items.is_empty(),
        Value::Object(members) => members.values().all(|value| {
            matches!(value, Value::Null | Value::Bool(false))
                || value.as_array().is_some_and(Vec::is_empty)
                || value.as_f64() == Some(0.0)
                || value.as_str() == Some("")
        }),
    };
    if zero {
        return Ok(None);
    }
    match default {
        Value::Bool(_) | Value::Number(_) | Value::String(_) => Ok(Some(default.to_string())),
        _ => Err(format!("the default {default} for {shape:?}")),
    }
}

/// The struct, decoder and encoder of one object (a branch of a union when
/// `tag` is not empty, whose tag member holds `tag_value`).
fn unit(
    name: &str,
    doc: Vec<String>,
    object: &ObjectShape,
    tag: &str,
    tag_value: &str,
) -> Result<Unit, String> {
    if object.unknown_members == UnknownMembers::Rejected {
        return Err(format!(
            "type `{name}`: an object that rejects unknown members (the reference decoder ignores them)"
        ));
    }
    let mut fields = Vec::new();
    let mut decode = Vec::new();
    let mut encode = Vec::new();
    for (index, member) in object.members.iter().enumerate() {
        if member
            .name
            .chars()
            .any(|c| c == '"' || c == '\\' || c.is_control())
        {
            return Err(unsupported(member, "a member name that needs escaping"));
        }
        let key = quote(&member.name);
        let at = format!("&path{{parent: p, key: {key}, index: -1}}");
        let (shape, nullable) = member.shape.without_null();
        if let Shape::Const(constant) = shape {
            let text = constant
                .as_str()
                .ok_or_else(|| unsupported(member, "a constant that is not a string"))?;
            if member.name == tag {
                encode.push(format!(
                    "b = appendKey(b, {key}, &first)\n\tb = append(b, {}...)",
                    quote(&quote(text))
                ));
                continue;
            }
            // A constant member other than the tag: checked, never stored.
            decode.push(format!(
                "if s := slots[{index}]; s == nil {{\n\t\t{}\n\t}} else if text, err := decodeString(s, {at}); err != nil {{\n\t\treturn out, err\n\t}} else if text != {} {{\n\t\treturn out, errAt({at}, \"expected \" + {})\n\t}}",
                if member.required {
                    format!("return out, missing(p, {key})")
                } else {
                    "_ = s".into()
                },
                quote(text),
                quote(&quote(text)),
            ));
            encode.push(format!(
                "b = appendKey(b, {key}, &first)\n\tb = append(b, {}...)",
                quote(&quote(text))
            ));
            continue;
        }
        let go = go_type(shape).map_err(|why| unsupported(member, &why))?;
        let decode_it = decode_call(shape, "s", &at).map_err(|why| unsupported(member, &why))?;
        let encode_with = |value: &str| encode_call(shape, value, &at);
        encode_with("x").map_err(|why| unsupported(member, &why))?;
        let field = field_name(&member.name);
        let emit = if member.required {
            Emit::Always
        } else {
            member.emit().unwrap_or(Emit::OmitIfAbsent)
        };
        let pointer = emit == Emit::OmitIfAbsent || (member.required && nullable);
        fields.push(Field {
            name: field.clone(),
            go: if pointer {
                format!("*{go}")
            } else {
                go.clone()
            },
            doc: doc_lines(member.annotations.description.as_deref()),
            json: format!("`json:\"{}\"`", member.name),
        });
        let absent = if member.required {
            format!("return out, missing(p, {key})")
        } else {
            match default_value(shape, member.annotations.default.as_ref())
                .map_err(|why| unsupported(member, &why))?
            {
                Some(value) if !pointer => format!("out.{field} = {value}"),
                _ => "_ = s".into(),
            }
        };
        let store = if pointer {
            format!("out.{field} = &x")
        } else {
            format!("out.{field} = x")
        };
        let null_case = if nullable {
            format!(
                "s.kind == kindNull {{\n\t\t{absent_or_nil}\n\t}} else if ",
                absent_or_nil = if pointer {
                    "out.".to_owned() + &field + " = nil"
                } else {
                    absent.clone()
                }
            )
        } else {
            String::new()
        };
        decode.push(format!(
            "if s := slots[{index}]; s == nil {{\n\t\t{absent}\n\t}} else if {null_case}x, err := {decode_it}; err != nil {{\n\t\treturn out, err\n\t}} else {{\n\t\t{store}\n\t}}"
        ));
        let write = |value: &str| {
            format!(
                "b = appendKey(b, {key}, &first)\n\t\tif b, err = {}; err != nil {{\n\t\t\treturn b, err\n\t\t}}",
                encode_with(value).unwrap_or_default()
            )
        };
        encode.push(match emit {
            Emit::Always if pointer => format!(
                "if x.{field} == nil {{\n\t\tb = appendKey(b, {key}, &first)\n\t\tb = append(b, \"null\"...)\n\t}} else {{\n\t\t{}\n\t}}",
                write(&format!("*x.{field}"))
            ),
            Emit::Always => format!("{{\n\t\t{}\n\t}}", write(&format!("x.{field}"))),
            Emit::OmitIfAbsent => format!(
                "if x.{field} != nil {{\n\t\t{}\n\t}}",
                write(&format!("*x.{field}"))
            ),
            Emit::OmitIfEmpty => format!(
                "if len(x.{field}) != 0 {{\n\t\t{}\n\t}}",
                write(&format!("x.{field}"))
            ),
            Emit::OmitIfDefault => {
                let default = default_value(shape, member.annotations.default.as_ref())
                    .map_err(|why| unsupported(member, &why))?;
                let zero = match go.as_str() {
                    "bool" => "false".to_owned(),
                    "string" => "\"\"".to_owned(),
                    "uint32" | "uint64" | "float32" | "float64" => "0".to_owned(),
                    _ if matches!(shape, Shape::Named(_)) => "\"\"".to_owned(),
                    _ => return Err(unsupported(member, "`omit-if-default` on this shape")),
                };
                let mut condition = format!("x.{field} != {zero}");
                if let Some(default) = default {
                    condition.push_str(&format!(" && x.{field} != {default}"));
                }
                format!("if {condition} {{\n\t\t{}\n\t}}", write(&format!("x.{field}")))
            }
        });
    }
    Ok(Unit {
        name: name.to_owned(),
        doc,
        fields,
        names: quoted_list(object.members.iter().map(|m| m.name.as_str())),
        tag: quote(tag),
        tag_value: quote(tag_value),
        slots: object.members.len(),
        decode,
        encode,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn protocol(member: Value) -> Protocol {
        crate::test_model::ping_with("target_uri", member)
    }

    use crate::test_model::home;
    use crate::test_model::version;

    #[test]
    fn a_model_renders_a_sealed_envelope_with_a_pointer_for_an_optional_u64() {
        let files = generate(
            &protocol(json!({"type": "integer", "minimum": 0, "maximum": 18446744073709551615u64})),
            &version(),
            &home(),
        )
        .expect("generated");
        assert!(
            files[&format!("{GO_DIR}/go.mod")].contains("\nmodule example.org/o/r/generated/go\n"),
            "{}",
            files[&format!("{GO_DIR}/go.mod")]
        );
        assert!(
            files[&format!("{GO_DIR}/cmd/cgp-harness/main.go")]
                .contains("\tcgptypes \"example.org/o/r/generated/go\"\n"),
            "the commands import the module by its path"
        );
        let types = &files[&format!("{GO_DIR}/types.go")];
        assert!(types.contains("type PingEnvelope struct {"), "{types}");
        assert!(
            types.contains("\tTargetURI *uint64 `json:\"target_uri\"`\n"),
            "{types}"
        );
        assert!(
            types.contains("const ProtocolVersion = \"demo/1.0\""),
            "{types}"
        );
        let encode = &files[&format!("{GO_DIR}/encode.go")];
        assert!(
            encode.contains("if x.TargetURI != nil {"),
            "an absent member is left out: {encode}"
        );
        assert_eq!(
            files[&format!("{GO_DIR}/wire.go")],
            include_str!("../templates/go/runtime/wire.go"),
            "the runtime is copied as-is"
        );
    }

    #[test]
    fn a_shape_the_module_cannot_describe_is_refused_naming_the_member() {
        let problems = generate(
            &protocol(json!({"type": "integer", "minimum": -3, "maximum": 3})),
            &version(),
            &home(),
        )
        .expect_err("refused")
        .to_string();
        assert!(
            problems.contains("member `target_uri`") && problems.contains("integer range"),
            "{problems}"
        );
    }
}
