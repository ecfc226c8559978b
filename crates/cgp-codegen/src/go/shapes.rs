//! The Go type, decoder and encoder of a value shape, and the default an
//! absent member takes; a shape the module cannot hold exactly is refused
//! with an [`Unsupported`].

use crate::unsupported::Unsupported;
use cgp_schema::model::{IntegerShape, NumberShape, Shape, StringShape};
use serde_json::Value;

/// The Go type of a value shape (no `null`).
pub(super) fn go_type(shape: &Shape) -> Result<String, Unsupported> {
    Ok(match shape {
        Shape::Named(name) => name.clone(),
        Shape::Boolean => "bool".into(),
        Shape::String(string) if string_plain(string) => "string".into(),
        Shape::OpenVocabulary(_) => "string".into(),
        Shape::Integer(integer) => integer_kind(integer)?.0.into(),
        Shape::Number(number) => number_kind(number)?.0.into(),
        Shape::Array(array) => {
            if array.unique_items || array.min_items.is_some() || array.max_items.is_some() {
                return Err(Unsupported::ArrayItemConstraints);
            }
            format!("[]{}", go_type(&array.items)?)
        }
        Shape::Unsupported(why) => return Err(Unsupported::Model(why.clone())),
        other => return Err(Unsupported::Shape(format!("{other:?}"))),
    })
}

fn string_plain(string: &StringShape) -> bool {
    string.min_length.is_none() && string.max_length.is_none() && string.pattern.is_none()
}

/// (Go type, decoder, encoder) of an integer range the module holds exactly.
fn integer_kind(
    integer: &IntegerShape,
) -> Result<(&'static str, &'static str, &'static str), Unsupported> {
    if integer.multiple_of.is_some() {
        return Err(Unsupported::IntegerMultipleOf);
    }
    match (integer.minimum, integer.maximum) {
        (Some(0), Some(max)) if max == i128::from(u32::MAX) => {
            Ok(("uint32", "decodeUint32", "encodeUint32"))
        }
        (Some(0), Some(max)) if max == i128::from(u64::MAX) => {
            Ok(("uint64", "decodeUint64", "encodeUint64"))
        }
        _ => Err(Unsupported::IntegerRange(integer.describe())),
    }
}

/// (Go type, decoder, encoder) of an unconstrained number.
fn number_kind(
    number: &NumberShape,
) -> Result<(&'static str, &'static str, &'static str), Unsupported> {
    if number.multiple_of.is_some() || number.minimum.is_some() || number.maximum.is_some() {
        return Err(Unsupported::NumberRange(number.describe()));
    }
    Ok(if number.format.as_deref() == Some("float") {
        ("float32", "decodeFloat32", "encodeFloat32")
    } else {
        ("float64", "decodeFloat64", "encodeFloat64")
    })
}

/// A Go expression of type `func(*value, *path) (T, error)` for a shape.
fn decoder(shape: &Shape) -> Result<String, Unsupported> {
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
        other => return Err(Unsupported::Shape(format!("{other:?}"))),
    })
}

/// A Go expression of type `func([]byte, T, *path) ([]byte, error)`.
fn encoder(shape: &Shape) -> Result<String, Unsupported> {
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
        other => return Err(Unsupported::Shape(format!("{other:?}"))),
    })
}

/// A Go call that decodes `value` at `at` with a shape's rules.
pub(super) fn decode_call(shape: &Shape, value: &str, at: &str) -> Result<String, Unsupported> {
    Ok(match shape {
        Shape::Array(array) => format!("decodeArray({value}, {at}, {})", decoder(&array.items)?),
        other => format!("{}({value}, {at})", decoder(other)?),
    })
}

/// A Go call that appends `value` at `at` to `b` with a shape's rules.
pub(super) fn encode_call(shape: &Shape, value: &str, at: &str) -> Result<String, Unsupported> {
    Ok(match shape {
        Shape::Array(array) => format!("encodeArray(b, {value}, {at}, {})", encoder(&array.items)?),
        other => format!("{}(b, {value}, {at})", encoder(other)?),
    })
}

/// The Go assignment that gives an absent member its default, if the zero
/// value is not already it.
pub(super) fn default_value(
    shape: &Shape,
    default: Option<&Value>,
) -> Result<Option<String>, Unsupported> {
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
        _ => Err(Unsupported::Default {
            default: default.to_string(),
            shape: format!("{shape:?}"),
        }),
    }
}
