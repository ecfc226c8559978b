//! One record of the Java package with its decoder and encoder: the
//! component each member adds to the record, and the statements it adds to
//! `Decode.java` and `Encode.java`.

use super::names::{doc_lines, quote, quoted_list};
use super::shapes::{
    decode_call, default_value, encode_call, fast_call, is_reference, java_type, zero,
};
use crate::naming::java_component as field_name;
use crate::unsupported::Unsupported;
use cgp_schema::model::{Emit, Member, ObjectShape, Shape, UnknownMembers};
use serde::Serialize;

/// The package name [`Unsupported::Member`] gives.
const PACKAGE: &str = "Java package";

/// One component of a generated record.
#[derive(Debug, Serialize)]
pub(super) struct Field {
    name: String,
    java: String,
    doc: Vec<String>,
    /// The member's name on the wire.
    wire: String,
}

/// One record with its decoder and encoder: a named object type, a branch
/// of a tagged union, or an envelope variant.
#[derive(Debug, Serialize)]
pub(super) struct Unit {
    pub name: String,
    doc: Vec<String>,
    fields: Vec<Field>,
    /// The quoted member names, in order, for `Values.ObjectShape`.
    names: String,
    /// The union tag member this unit's object skips, `""` for none.
    tag: String,
    /// The tag value this unit writes, for a branch or variant.
    tag_value: String,
    /// The declarations of the decoder's locals, one per component.
    locals: Vec<String>,
    decode: Vec<String>,
    /// The decoder's locals in component order: the constructor's arguments.
    arguments: String,
    /// The components' zero values: the record Go's zero value is.
    zeros: String,
    encode: Vec<String>,
    /// The fast reader's locals, declared with the value an absent member
    /// leaves.
    fast_locals: Vec<String>,
    /// The fast reader's `case` of each member, in member order.
    fast_cases: Vec<String>,
    /// The bits (member indices) of the members that must be present; a
    /// fast reader of more than 64 members misses every object (`""`).
    fast_required: String,
}

/// What one member adds to its unit.
struct MemberCode {
    field: Option<Field>,
    /// The decoder's local, declared, and the member's zero value (for the
    /// zero record).
    local: Option<(String, String)>,
    decode: Option<String>,
    encode: String,
    /// The fast reader's local, declared with its absent value.
    fast_local: Option<String>,
    /// The fast reader's statements for this member's value.
    fast: String,
}

/// The record, decoder and encoder of one object (a branch of a union when
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
    let mut locals = Vec::new();
    let mut zeros = Vec::new();
    let mut decode = Vec::new();
    let mut encode = Vec::new();
    let mut fast_locals = Vec::new();
    let mut fast_cases = Vec::new();
    let mut required: u64 = 0;
    for (index, member) in object.members.iter().enumerate() {
        let code = member_code(member, index, tag).map_err(|why| why.in_member(member, PACKAGE))?;
        if member.required && index < 64 {
            required |= 1 << index;
        }
        fast_locals.extend(code.fast_local);
        fast_cases.push(format!(
            "case {index}:\n                        {}\n                        break;",
            code.fast
        ));
        fields.extend(code.field);
        if let Some((local, zero)) = code.local {
            locals.push(local);
            zeros.push(zero);
        }
        decode.extend(code.decode);
        encode.push(code.encode);
    }
    Ok(Unit {
        name: name.to_owned(),
        doc,
        arguments: fields
            .iter()
            .map(|field| local_name(&field.name))
            .collect::<Vec<_>>()
            .join(", "),
        fields,
        zeros: zeros.join(", "),
        names: quoted_list(object.members.iter().map(|m| m.name.as_str())),
        tag: quote(tag),
        tag_value: quote(tag_value),
        locals,
        decode,
        encode,
        fast_locals,
        fast_cases,
        fast_required: if object.members.len() <= 64 {
            format!("0x{required:x}L")
        } else {
            String::new()
        },
    })
}

/// The decoder's local for a component: `protocolVersion` is `fProtocolVersion`.
fn local_name(field: &str) -> String {
    let mut chars = field.chars();
    chars
        .next()
        .map(|first| format!("f{}{}", first.to_ascii_uppercase(), chars.as_str()))
        .unwrap_or_default()
}

/// The component, decode and encode statements of the member at `index`.
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

/// `new Path(p, …)`: where a member's value sits, for errors.
fn member_path(key: &str) -> String {
    format!("new Path(p, {key})")
}

/// A constant member: the tag is only written; any other constant is checked
/// when read and never stored.
fn constant_member(member: &Member, index: usize, tag: &str, text: &str) -> MemberCode {
    let key = quote(&member.name);
    let at = member_path(&key);
    let encode = format!(
        "Canonical.key(b, {key}, first);\n        first = false;\n        b.utf8({});",
        quote(&quote(text))
    );
    let fast = format!(
        "if (!f.string().equals({})) {{\n                            throw Fast.MISS;\n                        }}",
        quote(text)
    );
    if member.name == tag {
        // The union's fast reader chose this branch by the tag's value
        // without checking it (Fast.tag); it is read and checked here.
        return MemberCode {
            field: None,
            local: None,
            decode: None,
            encode,
            fast_local: None,
            fast,
        };
    }
    let absent = if member.required {
        format!("throw Values.missing(p, {key});")
    } else {
        "// absent: nothing to check".into()
    };
    let decode = format!(
        "{{\n            Json.Value s = slots[{index}];\n            if (s == null) {{\n                {absent}\n            }} else if (!Values.decodeString(s, {at}).equals({})) {{\n                throw Path.errAt({at}, \"expected \" + {});\n            }}\n        }}",
        quote(text),
        quote(&quote(text)),
    );
    MemberCode {
        field: None,
        local: None,
        decode: Some(decode),
        encode,
        fast_local: None,
        fast,
    }
}

/// A member that holds a value: a record component (boxed and null when
/// absent when it may be absent, or `null` when required), its decode and
/// its encode.
fn value_member(
    member: &Member,
    index: usize,
    shape: &Shape,
    nullable: bool,
) -> Result<MemberCode, Unsupported> {
    let key = quote(&member.name);
    let at = member_path(&key);
    let field = field_name(&member.name);
    let local = local_name(&field);
    let emit = if member.required {
        Emit::Always
    } else {
        member.emit().unwrap_or(Emit::OmitIfAbsent)
    };
    let pointer = emit == Emit::OmitIfAbsent || (member.required && nullable);
    let java = java_type(shape, pointer)?;
    let decode_it = decode_call(shape, "s", &at)?;
    let initial = if pointer { "null".into() } else { zero(shape)? };
    // Every branch assigns the local or throws, so it needs no initial value
    // (and a required member's zero value is never built).
    let absent = if member.required {
        format!("throw Values.missing(p, {key});")
    } else {
        match default_value(shape, member.annotations.default.as_ref())? {
            Some(value) if !pointer => format!("{local} = {value};"),
            _ => format!("{local} = {initial};"),
        }
    };
    let null_case = if nullable {
        format!(
            " else if (s.kind == Json.NULL) {{\n                {}\n            }}",
            if pointer {
                format!("{local} = null;")
            } else {
                absent.clone()
            }
        )
    } else {
        String::new()
    };
    let decode = format!(
        "{{\n            Json.Value s = slots[{index}];\n            if (s == null) {{\n                {absent}\n            }}{null_case} else {{\n                {local} = {decode_it};\n            }}\n        }}"
    );
    let encode = encode_statement(member, shape, emit, pointer, &field, &key, &at)?;
    let (fast_local, fast) = fast_member(member, shape, nullable, pointer, &absent, &local)?;
    Ok(MemberCode {
        field: Some(Field {
            name: field,
            java: java.clone(),
            doc: doc_lines(member.annotations.description.as_deref()),
            wire: member.name.clone(),
        }),
        local: Some((format!("{java} {local};"), initial)),
        decode: Some(decode),
        encode,
        fast_local: Some(format!("{java} {fast_local};")),
        fast,
    })
}

/// The fast reader's local of a value member (declared with the value an
/// absent member leaves: a required one's is never used) and its statements,
/// which mirror the exact decoder's: `absent` is its statement for an absent
/// member.
fn fast_member(
    member: &Member,
    shape: &Shape,
    nullable: bool,
    pointer: bool,
    absent: &str,
    local: &str,
) -> Result<(String, String), Unsupported> {
    let read = format!("{local} = {};", fast_call(shape)?);
    let declared = if member.required {
        let reference = pointer || is_reference(shape)?;
        let initial = if reference {
            "null".into()
        } else {
            zero(shape)?
        };
        format!("{local} = {initial}")
    } else {
        absent.trim_end_matches(';').to_owned()
    };
    if !nullable {
        return Ok((declared, read));
    }
    let null_case = if pointer {
        format!("{local} = null;")
    } else if member.required {
        "throw Fast.MISS;".into()
    } else {
        absent.to_owned()
    };
    Ok((
        declared,
        format!(
            "if (f.isNull()) {{\n                            {null_case}\n                        }} else {{\n                            {read}\n                        }}"
        ),
    ))
}

/// The statement that writes a value member as its emit rule says.
fn encode_statement(
    member: &Member,
    shape: &Shape,
    emit: Emit,
    pointer: bool,
    field: &str,
    key: &str,
    at: &str,
) -> Result<String, Unsupported> {
    let value = format!("x.{field}()");
    let write = format!(
        "Canonical.key(b, {key}, first);\n            first = false;\n            {}",
        encode_call(shape, &value, at)?
    );
    Ok(match emit {
        Emit::Always if pointer => format!(
            "if ({value} == null) {{\n            Canonical.key(b, {key}, first);\n            first = false;\n            b.ascii(\"null\");\n        }} else {{\n            {write}\n        }}"
        ),
        Emit::Always => format!("{{\n            {write}\n        }}"),
        Emit::OmitIfAbsent => format!("if ({value} != null) {{\n            {write}\n        }}"),
        Emit::OmitIfEmpty => {
            format!(
                "if ({value} != null && !{value}.isEmpty()) {{\n            {write}\n        }}"
            )
        }
        Emit::OmitIfDefault => {
            let condition = omit_if_default_condition(member, shape, &value)?;
            format!("if ({condition}) {{\n            {write}\n        }}")
        }
    })
}

/// When an `omit-if-default` member is written: it is neither the zero value
/// nor its default.
fn omit_if_default_condition(
    member: &Member,
    shape: &Shape,
    value: &str,
) -> Result<String, Unsupported> {
    let default = default_value(shape, member.annotations.default.as_ref())?;
    let reference = is_reference(shape)?;
    let mut condition = match shape {
        Shape::Array(_) => return Err(Unsupported::OmitIfDefault),
        Shape::Named(_) => format!("{value} != null"),
        _ if reference => format!("{value} != null && !{value}.isEmpty()"),
        _ => format!("{value} != {}", zero(shape)?),
    };
    if let Some(default) = default {
        if reference {
            condition.push_str(&format!(" && !{value}.equals({default})"));
        } else {
            condition.push_str(&format!(" && {value} != {default}"));
        }
    }
    Ok(condition)
}
