//! One struct of the Go module with its decoder and encoder: the statements
//! each member adds to `types.go`, `decode.go` and `encode.go`.

use super::names::{doc_lines, quote, quoted_list};
use super::shapes::{decode_call, default_value, encode_call, go_type};
use crate::naming::go_field as field_name;
use crate::unsupported::Unsupported;
use cgp_schema::model::{Emit, Member, ObjectShape, Shape, UnknownMembers};
use serde::Serialize;

/// The package name [`Unsupported::Member`] gives.
const PACKAGE: &str = "Go module";

/// One field of a generated struct.
#[derive(Debug, Serialize)]
pub(super) struct Field {
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
pub(super) struct Unit {
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

/// What one member adds to its unit.
struct MemberCode {
    field: Option<Field>,
    decode: Option<String>,
    encode: String,
}

/// The struct, decoder and encoder of one object (a branch of a union when
/// `tag` is not empty, whose tag member holds `tag_value`).
pub(super) fn unit(
    name: &str,
    doc: Vec<String>,
    object: &ObjectShape,
    tag: &str,
    tag_value: &str,
) -> Result<Unit, Unsupported> {
    if object.unknown_members == UnknownMembers::Rejected {
        return Err(Unsupported::ClosedObject.in_type(name));
    }
    let mut fields = Vec::new();
    let mut decode = Vec::new();
    let mut encode = Vec::new();
    for (index, member) in object.members.iter().enumerate() {
        let code = member_code(member, index, tag).map_err(|why| why.in_member(member, PACKAGE))?;
        fields.extend(code.field);
        decode.extend(code.decode);
        encode.push(code.encode);
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

/// The field, decode and encode statements of the member at `index`.
fn member_code(member: &Member, index: usize, tag: &str) -> Result<MemberCode, Unsupported> {
    if member
        .name
        .chars()
        .any(|c| c == '"' || c == '\\' || c.is_control())
    {
        return Err(Unsupported::NameNeedsEscaping);
    }
    let (shape, nullable) = member.shape.without_null();
    if let Shape::Const(constant) = shape {
        let text = constant.as_str().ok_or(Unsupported::NonStringConstant)?;
        return Ok(constant_member(member, index, tag, text));
    }
    value_member(member, index, shape, nullable)
}

/// `&path{…}`: where a member's value sits, for errors.
fn member_path(key: &str) -> String {
    format!("&path{{parent: p, key: {key}, index: -1}}")
}

/// A constant member: the tag is only written; any other constant is checked
/// when read and never stored.
fn constant_member(member: &Member, index: usize, tag: &str, text: &str) -> MemberCode {
    let key = quote(&member.name);
    let at = member_path(&key);
    let encode = format!(
        "b = appendKey(b, {key}, &first)\n\tb = append(b, {}...)",
        quote(&quote(text))
    );
    if member.name == tag {
        return MemberCode {
            field: None,
            decode: None,
            encode,
        };
    }
    let decode = format!(
        "if s := slots[{index}]; s == nil {{\n\t\t{}\n\t}} else if text, err := decodeString(s, {at}); err != nil {{\n\t\treturn out, err\n\t}} else if text != {} {{\n\t\treturn out, errAt({at}, \"expected \" + {})\n\t}}",
        if member.required {
            format!("return out, missing(p, {key})")
        } else {
            "_ = s".into()
        },
        quote(text),
        quote(&quote(text)),
    );
    MemberCode {
        field: None,
        decode: Some(decode),
        encode,
    }
}

/// A member that holds a value: a struct field (a pointer when it may be
/// absent, or `null` when required), its decode and its encode.
fn value_member(
    member: &Member,
    index: usize,
    shape: &Shape,
    nullable: bool,
) -> Result<MemberCode, Unsupported> {
    let key = quote(&member.name);
    let at = member_path(&key);
    let go = go_type(shape)?;
    let decode_it = decode_call(shape, "s", &at)?;
    encode_call(shape, "x", &at)?;
    let field = field_name(&member.name);
    let emit = if member.required {
        Emit::Always
    } else {
        member.emit().unwrap_or(Emit::OmitIfAbsent)
    };
    let pointer = emit == Emit::OmitIfAbsent || (member.required && nullable);
    let absent = if member.required {
        format!("return out, missing(p, {key})")
    } else {
        match default_value(shape, member.annotations.default.as_ref())? {
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
    let decode = format!(
        "if s := slots[{index}]; s == nil {{\n\t\t{absent}\n\t}} else if {null_case}x, err := {decode_it}; err != nil {{\n\t\treturn out, err\n\t}} else {{\n\t\t{store}\n\t}}"
    );
    let write = |value: &str| {
        format!(
            "b = appendKey(b, {key}, &first)\n\t\tif b, err = {}; err != nil {{\n\t\t\treturn b, err\n\t\t}}",
            encode_call(shape, value, &at).unwrap_or_default()
        )
    };
    let encode = match emit {
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
            let condition = omit_if_default_condition(member, shape, &go, &field)?;
            format!(
                "if {condition} {{\n\t\t{}\n\t}}",
                write(&format!("x.{field}"))
            )
        }
    };
    Ok(MemberCode {
        field: Some(Field {
            name: field.clone(),
            go: if pointer { format!("*{go}") } else { go },
            doc: doc_lines(member.annotations.description.as_deref()),
            json: format!("`json:\"{}\"`", member.name),
        }),
        decode: Some(decode),
        encode,
    })
}

/// When an `omit-if-default` member is written: it is neither the zero value
/// nor its default.
fn omit_if_default_condition(
    member: &Member,
    shape: &Shape,
    go: &str,
    field: &str,
) -> Result<String, Unsupported> {
    let default = default_value(shape, member.annotations.default.as_ref())?;
    let zero = match go {
        "bool" => "false".to_owned(),
        "string" => "\"\"".to_owned(),
        "uint32" | "uint64" | "float32" | "float64" => "0".to_owned(),
        _ if matches!(shape, Shape::Named(_)) => "\"\"".to_owned(),
        _ => return Err(Unsupported::OmitIfDefault),
    };
    let mut condition = format!("x.{field} != {zero}");
    if let Some(default) = default {
        condition.push_str(&format!(" && x.{field} != {default}"));
    }
    Ok(condition)
}
