//! The one parse a valid message gets: a `Value` built as serde_json builds it,
//! failing on a repeated member name and noting integral floats in passing.

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::cell::Cell;
use std::fmt;

/// Parses JSON text into a value, rejecting duplicate member names at any depth
/// and anything after the value but whitespace.
pub fn parse_unique(text: &str) -> Result<Value, serde_json::Error> {
    parse_flagging_integral_floats(text).map(|(value, _)| value)
}

/// [`parse_unique`], also telling whether any number was read as a float with an
/// integral value (`1.0`, `1e2`, `-0`, `1e300`): the one kind of value the schema
/// may accept where the decoder does not.
pub(super) fn parse_flagging_integral_floats(
    text: &str,
) -> Result<(Value, bool), serde_json::Error> {
    let integral_float = Cell::new(false);
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = UniqueValue {
        integral_float: &integral_float,
    }
    .deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok((value, integral_float.get()))
}

/// A [`DeserializeSeed`] that builds a [`Value`] like `serde_json` does and
/// fails on a repeated member name, so duplicates cost one map lookup during
/// the one parse a valid line gets. It notes integral floats in passing.
#[derive(Clone, Copy)]
struct UniqueValue<'f> {
    integral_float: &'f Cell<bool>,
}

impl<'de> DeserializeSeed<'de> for UniqueValue<'_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(UniqueVisitor {
            integral_float: self.integral_float,
        })
    }
}

struct UniqueVisitor<'f> {
    integral_float: &'f Cell<bool>,
}

impl UniqueVisitor<'_> {
    fn seed(&self) -> UniqueValue<'_> {
        UniqueValue {
            integral_float: self.integral_float,
        }
    }
}

impl<'de> Visitor<'de> for UniqueVisitor<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Value, E> {
        if value.fract() == 0.0 {
            self.integral_float.set(true);
        }
        Number::from_f64(value)
            .map(Value::Number)
            .ok_or_else(|| E::custom("a number JSON cannot represent"))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        while let Some(item) = seq.next_element_seed(self.seed())? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        // Room for the members most CGP objects have: growing the map (its
        // table and its entries, 0 to 3 to 7) cost more than the spare room.
        let mut members = Map::with_capacity(8);
        while let Some(name) = map.next_key::<String>()? {
            match members.entry(name) {
                serde_json::map::Entry::Occupied(entry) => {
                    return Err(de::Error::custom(format!(
                        "duplicate member name `{}`",
                        entry.key()
                    )));
                }
                serde_json::map::Entry::Vacant(entry) => {
                    entry.insert(map.next_value_seed(self.seed())?);
                }
            }
        }
        Ok(Value::Object(members))
    }
}
