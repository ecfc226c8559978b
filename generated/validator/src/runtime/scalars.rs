//! Checks of scalar values: null, booleans, integer and number ranges,
//! strings, constants, closed enumerations, nullable and excluded values.
//
// This file is copied verbatim by `cargo xtask codegen` from
// crates/cgp-codegen/templates/validator/runtime/scalars.rs. Do not edit it here.

use super::refuse;
use serde::de::{self, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// `null`.
#[derive(Clone, Copy)]
pub(crate) struct NullCheck;

impl<'de> Visitor<'de> for NullCheck {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("null")
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
}

/// `true` or `false`.
#[derive(Clone, Copy)]
pub(crate) struct BoolCheck;

impl<'de> Visitor<'de> for BoolCheck {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a boolean")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
}

/// An integer literal within an inclusive range. A float spelling is refused
/// even when its value is integral: the reference decoder refuses it.
#[derive(Clone, Copy)]
pub(crate) struct IntegerCheck {
    pub minimum: Option<i128>,
    pub maximum: Option<i128>,
}

impl IntegerCheck {
    fn fits<E: de::Error>(self, value: i128) -> Result<(), E> {
        if self.minimum.is_some_and(|low| value < low)
            || self.maximum.is_some_and(|high| value > high)
        {
            Err(refuse())
        } else {
            Ok(())
        }
    }
}

impl<'de> Visitor<'de> for IntegerCheck {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer")
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<(), E> {
        self.fits(i128::from(value))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<(), E> {
        self.fits(i128::from(value))
    }
}

/// One end of a number range.
#[derive(Clone, Copy)]
pub(crate) struct Limit {
    pub value: f64,
    pub exclusive: bool,
}

/// A number within a range.
#[derive(Clone, Copy)]
pub(crate) struct NumberCheck {
    pub minimum: Option<Limit>,
    pub maximum: Option<Limit>,
}

impl<'de> Visitor<'de> for NumberCheck {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number")
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<(), E> {
        self.visit_f64(value as f64)
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<(), E> {
        self.visit_f64(value as f64)
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<(), E> {
        let low = self
            .minimum
            .is_none_or(|limit| value > limit.value || (!limit.exclusive && value == limit.value));
        let high = self
            .maximum
            .is_none_or(|limit| value < limit.value || (!limit.exclusive && value == limit.value));
        if low && high { Ok(()) } else { Err(refuse()) }
    }
}

/// A string of so many characters.
#[derive(Clone, Copy)]
pub(crate) struct StringCheck {
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
}

impl StringCheck {
    /// Any string.
    pub const ANY: StringCheck = StringCheck {
        min_length: None,
        max_length: None,
    };
}

impl<'de> Visitor<'de> for StringCheck {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<(), E> {
        if self.min_length.is_none() && self.max_length.is_none() {
            return Ok(());
        }
        let length = value.chars().count() as u64;
        if self.min_length.is_some_and(|low| length < low)
            || self.max_length.is_some_and(|high| length > high)
        {
            Err(refuse())
        } else {
            Ok(())
        }
    }
}

/// Exactly one string.
#[derive(Clone, Copy)]
pub(crate) struct ConstString(pub &'static str);

impl<'de> Visitor<'de> for ConstString {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<(), E> {
        if value == self.0 {
            Ok(())
        } else {
            Err(refuse())
        }
    }
}

/// Exactly one boolean.
#[derive(Clone, Copy)]
pub(crate) struct ConstBool(pub bool);

impl<'de> Visitor<'de> for ConstBool {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a boolean constant")
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<(), E> {
        if value == self.0 {
            Ok(())
        } else {
            Err(refuse())
        }
    }
}

/// One of a closed set of strings.
#[derive(Clone, Copy)]
pub(crate) struct StringEnum(pub &'static [&'static str]);

impl<'de> Visitor<'de> for StringEnum {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("one of the listed strings")
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<(), E> {
        if self.0.contains(&value) {
            Ok(())
        } else {
            Err(refuse())
        }
    }
}

/// `null`, or what `C` accepts.
#[derive(Clone, Copy)]
pub(crate) struct Nullable<C>(pub C);

/// What `C` accepts, except these strings.
#[derive(Clone, Copy)]
pub(crate) struct ExcludingStrings<C>(pub C, pub &'static [&'static str]);

/// Implements `Visitor` for a wrapper around a visitor in field `0`, handing it
/// every value but those the listed methods take first.
macro_rules! wrapper_visitor {
    ($wrapper:ident, |$this:ident, $value:ident| str => $on_str:expr, unit => $on_unit:expr) => {
        impl<'de, C: Visitor<'de, Value = ()>> Visitor<'de> for $wrapper<C> {
            type Value = ();

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.expecting(f)
            }

            fn visit_bool<E: de::Error>(self, value: bool) -> Result<(), E> {
                self.0.visit_bool(value)
            }

            fn visit_i64<E: de::Error>(self, value: i64) -> Result<(), E> {
                self.0.visit_i64(value)
            }

            fn visit_u64<E: de::Error>(self, value: u64) -> Result<(), E> {
                self.0.visit_u64(value)
            }

            fn visit_f64<E: de::Error>(self, value: f64) -> Result<(), E> {
                self.0.visit_f64(value)
            }

            fn visit_str<E: de::Error>(self, $value: &str) -> Result<(), E> {
                let $this = self;
                $on_str
            }

            fn visit_unit<E: de::Error>(self) -> Result<(), E> {
                let $this = self;
                $on_unit
            }

            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
                self.0.visit_seq(seq)
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
                self.0.visit_map(map)
            }
        }
    };
}

wrapper_visitor!(Nullable, |this, value| str => this.0.visit_str(value), unit => {
    let _ = this;
    Ok(())
});
wrapper_visitor!(
    ExcludingStrings,
    |this, value| str => if this.1.contains(&value) { Err(refuse()) } else { this.0.visit_str(value) },
    unit => this.0.visit_unit()
);
