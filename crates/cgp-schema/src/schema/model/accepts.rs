//! Whether a JSON value fits a [`Shape`]: the model's own reading of a schema,
//! applied to data. Used to check what the schemas themselves state as data,
//! such as every member's `default`.

use super::{ArrayShape, Member, NumberShape, Protocol, Shape, StringShape, UnknownMembers};
use serde_json::Value;

/// How deep named types may nest before a value is refused (a `$ref` cycle
/// through data that never ends).
const MAX_DEPTH: usize = 64;

/// Where a value does not fit a shape, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {why}", shown(at))]
pub struct Misfit {
    /// The JSON pointer inside the value (empty for the value itself).
    pub at: String,
    /// What does not fit there.
    pub why: String,
}

fn misfit(at: &str, why: String) -> Result<(), Misfit> {
    Err(Misfit {
        at: at.to_owned(),
        why,
    })
}

/// A number within its inclusive or exclusive bounds.
fn fits_number(range: &NumberShape, value: &Value, at: &str) -> Result<(), Misfit> {
    let refuse = |why: String| misfit(at, why);
    match value.as_f64() {
        Some(number) => {
            let low_ok = range.minimum.as_ref().is_none_or(|limit| {
                number > limit.value || (!limit.exclusive && number == limit.value)
            });
            let high_ok = range.maximum.as_ref().is_none_or(|limit| {
                number < limit.value || (!limit.exclusive && number == limit.value)
            });
            if low_ok && high_ok {
                Ok(())
            } else {
                refuse(format!("{number} is outside {}", range.describe()))
            }
        }
        None => refuse(format!("expected a number, found {value}")),
    }
}

/// A string of an allowed length.
fn fits_string(rule: &StringShape, value: &Value, at: &str) -> Result<(), Misfit> {
    let refuse = |why: String| misfit(at, why);
    match value.as_str() {
        Some(text) => {
            let length = text.chars().count() as u64;
            if rule.min_length.is_some_and(|low| length < low)
                || rule.max_length.is_some_and(|high| length > high)
            {
                refuse(format!("{value} is not a {}", rule.describe()))
            } else {
                // `pattern` is left to the validators: the model holds no
                // regex engine, and no default of this project is a
                // patterned string.
                Ok(())
            }
        }
        None => refuse(format!("expected a string, found {value}")),
    }
}

impl Protocol {
    /// `Ok` when `value` fits `shape`; otherwise what does not fit, with the JSON
    /// pointer inside `value`.
    pub fn accepts(&self, shape: &Shape, value: &Value) -> Result<(), Misfit> {
        self.fits(shape, value, "", 0)
    }

    fn fits(&self, shape: &Shape, value: &Value, at: &str, depth: usize) -> Result<(), Misfit> {
        let refuse = |why: String| misfit(at, why);
        if depth > MAX_DEPTH {
            return refuse("named types nest too deeply".into());
        }
        match shape {
            Shape::Any => Ok(()),
            Shape::Named(name) => match self.named(name) {
                Some(named) => self.fits(&named.shape, value, at, depth + 1),
                None => refuse(format!("the type `{name}` is not defined")),
            },
            Shape::Null if value.is_null() => Ok(()),
            Shape::Boolean if value.is_boolean() => Ok(()),
            Shape::Integer(range) => match integer(value) {
                Some(number) if range.minimum.is_some_and(|low| number < low) => {
                    refuse(format!("{number} is below {}", range.describe()))
                }
                Some(number) if range.maximum.is_some_and(|high| number > high) => {
                    refuse(format!("{number} is above {}", range.describe()))
                }
                Some(_) => Ok(()),
                None => refuse(format!("expected an integer, found {value}")),
            },
            Shape::Number(range) => fits_number(range, value, at),
            Shape::String(rule) => fits_string(rule, value, at),
            Shape::Const(expected) if expected == value => Ok(()),
            Shape::Const(expected) => refuse(format!("expected {expected}, found {value}")),
            Shape::Enum(values) if values.contains(value) => Ok(()),
            Shape::Enum(_) => refuse(format!("{value} is not one of the closed values")),
            Shape::OpenVocabulary(_) if value.is_string() => Ok(()),
            Shape::Array(array) => self.fits_array(array, value, at, depth),
            Shape::Object(object) => {
                let Some(members) = value.as_object() else {
                    return refuse(format!("expected an object, found {value}"));
                };
                let declared: Vec<&Member> = object.members.iter().collect();
                self.fits_members(&declared, object.unknown_members, members, at, depth)
            }
            Shape::TaggedUnion(union) => {
                let Some(members) = value.as_object() else {
                    return refuse(format!("expected an object, found {value}"));
                };
                let tag = members.get(&union.tag).and_then(Value::as_str);
                let Some(branch) = tag.and_then(|tag| union.branch(tag)) else {
                    return refuse(format!("no branch is tagged {:?}", tag.unwrap_or("")));
                };
                let declared: Vec<&Member> = union
                    .shared
                    .members
                    .iter()
                    .chain(&branch.object.members)
                    .collect();
                self.fits_members(&declared, branch.object.unknown_members, members, at, depth)
            }
            Shape::Nullable(inner) => {
                if value.is_null() {
                    Ok(())
                } else {
                    self.fits(inner, value, at, depth)
                }
            }
            Shape::Excluding(inner, excluded) => {
                if excluded.contains(value) {
                    refuse(format!("{value} is excluded here"))
                } else {
                    self.fits(inner, value, at, depth)
                }
            }
            Shape::Unsupported(reason) => refuse(format!("the schema cannot be read ({reason})")),
            Shape::Null | Shape::Boolean | Shape::OpenVocabulary(_) => {
                refuse(format!("{value} does not fit {}", kind(shape)))
            }
        }
    }

    /// An array of an allowed count whose every item fits.
    fn fits_array(
        &self,
        array: &ArrayShape,
        value: &Value,
        at: &str,
        depth: usize,
    ) -> Result<(), Misfit> {
        let refuse = |why: String| misfit(at, why);
        let Some(items) = value.as_array() else {
            return refuse(format!("expected an array, found {value}"));
        };
        let count = items.len() as u64;
        if array.min_items.is_some_and(|low| count < low) {
            return refuse(format!(
                "{count} item(s), fewer than minItems {}",
                array.min_items.unwrap_or_default()
            ));
        }
        if array.max_items.is_some_and(|high| count > high) {
            return refuse(format!(
                "{count} item(s), more than maxItems {}",
                array.max_items.unwrap_or_default()
            ));
        }
        for (index, item) in items.iter().enumerate() {
            self.fits(&array.items, item, &format!("{at}/{index}"), depth)?;
        }
        Ok(())
    }

    fn fits_members(
        &self,
        declared: &[&Member],
        unknown: UnknownMembers,
        members: &serde_json::Map<String, Value>,
        at: &str,
        depth: usize,
    ) -> Result<(), Misfit> {
        for member in declared {
            let here = format!("{at}/{}", crate::json_text::escape_token(&member.name));
            match members.get(&member.name) {
                Some(value) => self.fits(&member.shape, value, &here, depth)?,
                None if member.required => {
                    return misfit(at, format!("missing required member \"{}\"", member.name));
                }
                None => {}
            }
        }
        if unknown == UnknownMembers::Rejected {
            if let Some(name) = members
                .keys()
                .find(|name| !declared.iter().any(|m| &m.name == *name))
            {
                return misfit(at, format!("unknown member \"{name}\""));
            }
        }
        Ok(())
    }
}

/// A pointer inside the value for messages; the value itself is `/`.
fn shown(at: &str) -> &str {
    if at.is_empty() { "/" } else { at }
}

fn kind(shape: &Shape) -> &'static str {
    match shape {
        Shape::Null => "null",
        Shape::Boolean => "a boolean",
        _ => "an open vocabulary (a string)",
    }
}

/// A JSON number as an exact integer, when it is one (`1.0` counts, as it does to
/// a validator).
fn integer(value: &Value) -> Option<i128> {
    value
        .as_i64()
        .map(i128::from)
        .or_else(|| value.as_u64().map(i128::from))
        .or_else(|| {
            value
                .as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 1e30)
                .map(|f| f as i128)
        })
}
