//! The Java type, decoder and encoder of a value shape, and the default an
//! absent member takes; a shape the package cannot hold exactly is refused
//! with an [`Unsupported`].
//!
//! A u32 and a u64 are both a `long` (a u64 read as unsigned), an f32 a
//! `float`, an f64 a `double`, an array a `java.util.List` of the boxed item.

use crate::unsupported::Unsupported;
use cgp_schema::model::{IntegerShape, NumberShape, Shape, StringShape};
use serde_json::Value;

/// What the code knows of a scalar kind: (primitive, boxed, decoder,
/// fast reader, encoder, zero).
struct Kind {
    primitive: &'static str,
    boxed: &'static str,
    decoder: &'static str,
    /// The `Fast` method that reads it on the fast path.
    fast: &'static str,
    encoder: &'static str,
    zero: &'static str,
}

const BOOLEAN: Kind = Kind {
    primitive: "boolean",
    boxed: "Boolean",
    decoder: "Values::decodeBool",
    fast: "bool",
    encoder: "Canonical::encodeBool",
    zero: "false",
};
const STRING: Kind = Kind {
    primitive: "String",
    boxed: "String",
    decoder: "Values::decodeString",
    fast: "string",
    encoder: "Canonical::encodeString",
    zero: "\"\"",
};
const U32: Kind = Kind {
    primitive: "long",
    boxed: "Long",
    decoder: "Values::decodeUint32",
    fast: "u32",
    encoder: "Canonical::encodeUint32",
    zero: "0L",
};
const U64: Kind = Kind {
    primitive: "long",
    boxed: "Long",
    decoder: "Values::decodeUint64",
    fast: "u64",
    encoder: "Canonical::encodeUint64",
    zero: "0L",
};
const F32: Kind = Kind {
    primitive: "float",
    boxed: "Float",
    decoder: "Values::decodeFloat32",
    fast: "f32",
    encoder: "Canonical::encodeFloat32",
    zero: "0f",
};
const F64: Kind = Kind {
    primitive: "double",
    boxed: "Double",
    decoder: "Values::decodeFloat64",
    fast: "f64",
    encoder: "Canonical::encodeFloat64",
    zero: "0d",
};

/// The scalar kind of a shape, `None` for a named type or an array.
fn kind(shape: &Shape) -> Result<Option<Kind>, Unsupported> {
    Ok(Some(match shape {
        Shape::Named(_) | Shape::Array(_) => return Ok(None),
        Shape::Boolean => BOOLEAN,
        Shape::String(string) if string_plain(string) => STRING,
        Shape::OpenVocabulary(_) => STRING,
        Shape::Integer(integer) => integer_kind(integer)?,
        Shape::Number(number) => number_kind(number)?,
        Shape::Unsupported(why) => return Err(Unsupported::Model(why.clone())),
        other => return Err(Unsupported::Shape(format!("{other:?}"))),
    }))
}

fn string_plain(string: &StringShape) -> bool {
    string.min_length.is_none() && string.max_length.is_none() && string.pattern.is_none()
}

/// The kind of an integer range the package holds exactly.
fn integer_kind(integer: &IntegerShape) -> Result<Kind, Unsupported> {
    if integer.multiple_of.is_some() {
        return Err(Unsupported::IntegerMultipleOf);
    }
    match (integer.minimum, integer.maximum) {
        (Some(0), Some(max)) if max == i128::from(u32::MAX) => Ok(U32),
        (Some(0), Some(max)) if max == i128::from(u64::MAX) => Ok(U64),
        _ => Err(Unsupported::IntegerRange(integer.describe())),
    }
}

/// The kind of an unconstrained number.
fn number_kind(number: &NumberShape) -> Result<Kind, Unsupported> {
    if number.multiple_of.is_some() || number.minimum.is_some() || number.maximum.is_some() {
        return Err(Unsupported::NumberRange(number.describe()));
    }
    Ok(if number.format.as_deref() == Some("float") {
        F32
    } else {
        F64
    })
}

/// The Java type of a value shape (no `null`): boxed where a null must be
/// possible (an optional member, a list item).
pub(super) fn java_type(shape: &Shape, boxed: bool) -> Result<String, Unsupported> {
    if let Some(kind) = kind(shape)? {
        return Ok(if boxed { kind.boxed } else { kind.primitive }.into());
    }
    Ok(match shape {
        Shape::Named(name) => name.clone(),
        Shape::Array(array) => {
            if array.unique_items || array.min_items.is_some() || array.max_items.is_some() {
                return Err(Unsupported::ArrayItemConstraints);
            }
            format!("java.util.List<{}>", java_type(&array.items, true)?)
        }
        other => return Err(Unsupported::Shape(format!("{other:?}"))),
    })
}

/// Whether the Java type of a shape is a reference (null is possible).
pub(super) fn is_reference(shape: &Shape) -> Result<bool, Unsupported> {
    Ok(match kind(shape)? {
        Some(kind) => kind.primitive == kind.boxed,
        None => true,
    })
}

/// The zero value of a shape's (unboxed) Java type, as Go's zero value: a
/// named object's is the record of its components' zero values
/// (`Decode.zero…`), a vocabulary's or a union's is null.
pub(super) fn zero(shape: &Shape) -> Result<String, Unsupported> {
    Ok(match kind(shape)? {
        Some(kind) => kind.zero.into(),
        None => match shape {
            Shape::Named(name) => format!("Decode.zero{name}()"),
            _ => "java.util.List.of()".into(),
        },
    })
}

/// A Java `Values.Decoder<T>` for a shape, its lambda parameters numbered
/// by `depth` so none shadows a local.
fn decoder(shape: &Shape, depth: usize) -> Result<String, Unsupported> {
    if let Some(kind) = kind(shape)? {
        return Ok(kind.decoder.into());
    }
    Ok(match shape {
        Shape::Named(name) => format!("Decode::decode{name}"),
        Shape::Array(array) => format!(
            "(v{depth}, p{depth}) -> Values.decodeArray(v{depth}, p{depth}, {})",
            decoder(&array.items, depth + 1)?
        ),
        other => return Err(Unsupported::Shape(format!("{other:?}"))),
    })
}

/// A Java `Fast.Reader<T>` for a shape, its lambda parameters numbered by
/// `depth`.
fn fast_reader(shape: &Shape, depth: usize) -> Result<String, Unsupported> {
    if let Some(kind) = kind(shape)? {
        return Ok(format!("Fast::{}", kind.fast));
    }
    Ok(match shape {
        Shape::Named(name) => format!("Decode::fast{name}"),
        Shape::Array(array) => format!(
            "f{depth} -> f{depth}.list({})",
            fast_reader(&array.items, depth + 1)?
        ),
        other => return Err(Unsupported::Shape(format!("{other:?}"))),
    })
}

/// A Java expression that reads a value of a shape from the fast path's
/// cursor `f`.
pub(super) fn fast_call(shape: &Shape) -> Result<String, Unsupported> {
    if let Some(kind) = kind(shape)? {
        return Ok(format!("f.{}()", kind.fast));
    }
    Ok(match shape {
        Shape::Named(name) => format!("Decode.fast{name}(f)"),
        Shape::Array(array) => format!("f.list({})", fast_reader(&array.items, 1)?),
        other => return Err(Unsupported::Shape(format!("{other:?}"))),
    })
}

/// A Java `Canonical.Encoder<T>` for a shape.
fn encoder(shape: &Shape, depth: usize) -> Result<String, Unsupported> {
    if let Some(kind) = kind(shape)? {
        return Ok(kind.encoder.into());
    }
    Ok(match shape {
        Shape::Named(name) => format!("Encode::encode{name}"),
        Shape::Array(array) => format!(
            "(b{depth}, x{depth}, p{depth}) -> Canonical.encodeArray(b{depth}, x{depth}, p{depth}, {})",
            encoder(&array.items, depth + 1)?
        ),
        other => return Err(Unsupported::Shape(format!("{other:?}"))),
    })
}

/// A Java call that decodes `value` at `at` with a shape's rules.
pub(super) fn decode_call(shape: &Shape, value: &str, at: &str) -> Result<String, Unsupported> {
    java_type(shape, false)?;
    Ok(match shape {
        Shape::Array(array) => format!(
            "Values.decodeArray({value}, {at}, {})",
            decoder(&array.items, 1)?
        ),
        other => format!("{}({value}, {at})", decoder(other, 1)?.replace("::", ".")),
    })
}

/// A Java statement that writes `value` at `at` to `b` with a shape's rules.
pub(super) fn encode_call(shape: &Shape, value: &str, at: &str) -> Result<String, Unsupported> {
    Ok(match shape {
        Shape::Array(array) => format!(
            "Canonical.encodeArray(b, {value}, {at}, {});",
            encoder(&array.items, 1)?
        ),
        other => format!(
            "{}(b, {value}, {at});",
            encoder(other, 1)?.replace("::", ".")
        ),
    })
}

/// The Java expression an absent member takes as its default, if the zero
/// value is not already it (a named type's default is a string vocabulary's
/// value, read by its `of`).
pub(super) fn default_value(
    shape: &Shape,
    default: Option<&Value>,
) -> Result<Option<String>, Unsupported> {
    let Some(default) = default else {
        return Ok(None);
    };
    let refused = || Unsupported::Default {
        default: default.to_string(),
        shape: format!("{shape:?}"),
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
    let suffix = match kind(shape)? {
        Some(kind) => match kind.primitive {
            "long" => "L",
            "float" => "f",
            "double" => "d",
            _ => "",
        },
        None => "",
    };
    match (default, shape) {
        (Value::Bool(_), Shape::Boolean) => Ok(Some(default.to_string())),
        (Value::Number(number), _) if !suffix.is_empty() => Ok(Some(format!("{number}{suffix}"))),
        (Value::String(text), Shape::Named(name)) => {
            Ok(Some(format!("{name}.of({})", super::names::quote(text))))
        }
        (Value::String(_), Shape::String(_) | Shape::OpenVocabulary(_)) => {
            Ok(Some(default.to_string()))
        }
        _ => Err(refused()),
    }
}
