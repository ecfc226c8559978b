//! The checks every generated module is assembled from: serde visitors that
//! judge a JSON value while the [`Reader`] reads it, and keep nothing of it.
//!
//! Each shape of the protocol model has a visitor here ([`IntegerCheck`],
//! [`StringCheck`], [`ArrayCheck`], …); objects and tagged unions are generated
//! types that implement [`Members`] and [`Union`], and [`check_members`] and
//! [`check_union`] walk them. A visitor returns `Err` at the first thing that does
//! not fit: the error says nothing, because a rejected line is explained by the
//! `jsonschema` validator, never by this code.
//!
//! The text layer is checked on the way: duplicate member names at any depth
//! ([`Names`]), integers written with a float spelling (`1.0`, `1e2`, `-0`:
//! `serde_json` reads them as floats, and the reference decoder's integer members
//! refuse them) and `serde_json`'s own grammar and nesting limit. The message's
//! own tag is read ahead when it is not its first member ([`check_text`]). A
//! tagged union inside it whose tag is not its first member keeps the members
//! before the tag as raw text and checks them once the tag has chosen the
//! branch; [`DEPTH`] keeps the nesting limit exact for them.
//
//! Scalar checks are in `scalars`; arrays, objects and tagged unions in
//! `compound`; the look ahead for the message's tag in `ahead`; the JSON
//! reader, with `serde_json`'s verdicts, in `reader`.
//
// This file is copied verbatim by `cargo xtask codegen` from
// crates/cgp-codegen/templates/validator/runtime/mod.rs. Do not edit it here.

mod ahead;
mod compound;
mod reader;
mod scalars;

pub(crate) use ahead::*;
pub(crate) use compound::*;
pub(crate) use reader::*;
pub(crate) use scalars::*;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::cell::Cell;
use std::fmt;

/// The error of every visitor: a line that does not fit.
pub(crate) fn refuse<E: de::Error>() -> E {
    E::custom("does not fit")
}

/// The most containers `serde_json` lets a value nest (its recursion limit is
/// 128, reached by the 128th open container).
const MAX_NESTING: usize = 127;

thread_local! {
    /// How many containers are open in the value being checked.
    static DEPTH: Cell<usize> = const { Cell::new(0) };
}

/// One open container, counted in [`DEPTH`] while it lives.
struct Nested;

impl Nested {
    fn enter() -> Nested {
        DEPTH.with(|depth| depth.set(depth.get() + 1));
        Nested
    }
}

impl Drop for Nested {
    fn drop(&mut self) {
        DEPTH.with(|depth| depth.set(depth.get().saturating_sub(1)));
    }
}

/// Checks one whole message: an object of the union `envelope` and nothing
/// after it but whitespace. Returns the branch its tag chose.
///
/// The tag is looked for first ([`tag_ahead`]): with the branch known, the
/// members are checked in one pass ([`Known`]), where [`Root`] keeps those
/// before the tag as text and parses them again. What [`Known`] does not
/// accept, [`Root`] decides.
pub(crate) fn check_text<U: Union>(text: &str, envelope: U) -> Option<u32> {
    tag_ahead::<U>(text)
        .and_then(|branch| check_with(text, Known(envelope, branch)))
        .or_else(|| check_with(text, Root(envelope)))
}

/// Checks `text` with the root visitor `root`: one value, then only whitespace.
fn check_with<'de, R: Visitor<'de, Value = u32>>(text: &'de str, root: R) -> Option<u32> {
    DEPTH.with(|depth| depth.set(0));
    let mut reader = Reader::new(text);
    let branch = (&mut reader).deserialize_any(root).ok()?;
    reader.end().ok()?;
    Some(branch)
}

/// A visitor as a seed: the value is read with `deserialize_any`.
#[derive(Clone, Copy)]
pub(crate) struct Seed<C>(pub C);

impl<'de, C: Visitor<'de>> DeserializeSeed<'de> for Seed<C> {
    type Value = C::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<C::Value, D::Error> {
        deserializer.deserialize_any(self.0)
    }
}

/// A visitor that reads no string's contents, as a seed: the value is read with
/// `deserialize_ignored_any`, and strings come raw ([`Reader`]).
#[derive(Clone, Copy)]
pub(crate) struct Skim<C>(pub C);

impl<'de, C: Visitor<'de>> DeserializeSeed<'de> for Skim<C> {
    type Value = C::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<C::Value, D::Error> {
        deserializer.deserialize_ignored_any(self.0)
    }
}

/// Implements `Visitor` for a generated unit struct by handing every value to
/// the visitor `$check` builds.
macro_rules! delegate_visitor {
    ($name:ident => $check:expr) => {
        impl<'de> serde::de::Visitor<'de> for $name {
            type Value = ();

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(stringify!($name))
            }

            fn visit_bool<E: serde::de::Error>(self, value: bool) -> Result<(), E> {
                ($check).visit_bool(value)
            }

            fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<(), E> {
                ($check).visit_i64(value)
            }

            fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<(), E> {
                ($check).visit_u64(value)
            }

            fn visit_f64<E: serde::de::Error>(self, value: f64) -> Result<(), E> {
                ($check).visit_f64(value)
            }

            fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<(), E> {
                ($check).visit_str(value)
            }

            fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
                ($check).visit_unit()
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
                ($check).visit_seq(seq)
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
                ($check).visit_map(map)
            }
        }
    };
}
pub(crate) use delegate_visitor;

/// Implements `Visitor` for a generated [`Members`] type: an object with those
/// members.
macro_rules! object_visitor {
    ($name:ident) => {
        impl<'de> serde::de::Visitor<'de> for $name {
            type Value = ();

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(stringify!($name))
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
                $crate::runtime::check_object(self, map)
            }
        }
    };
}
pub(crate) use object_visitor;

/// Implements `Visitor` for a generated [`Union`] type: a flat object whose tag
/// chooses its members.
macro_rules! union_visitor {
    ($name:ident) => {
        impl<'de> serde::de::Visitor<'de> for $name {
            type Value = ();

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(stringify!($name))
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
                $crate::runtime::check_union(self, map).map(|_| ())
            }
        }
    };
}
pub(crate) use union_visitor;

/// Any JSON value, with no duplicate member names at any depth.
#[derive(Clone, Copy)]
pub(crate) struct AnyValue;

impl<'de> Visitor<'de> for AnyValue {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let _nested = Nested::enter();
        while seq.next_element_seed(Skim(AnyValue))?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let _nested = Nested::enter();
        let mut names = Names::default();
        while let Some(name) = map.next_key_seed(NameSeed)? {
            names.insert(name)?;
            map.next_value_seed(Skim(AnyValue))?;
        }
        Ok(())
    }
}
