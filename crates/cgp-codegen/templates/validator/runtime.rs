//! The checks every generated module is assembled from: serde visitors that
//! judge a JSON value while `serde_json` parses it and keep nothing of it.
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
//! refuse them) and `serde_json`'s own grammar and nesting limit. A tagged union
//! whose tag is not its first member keeps the members before the tag as raw
//! text and checks them once the tag has chosen the branch; [`DEPTH`] keeps the
//! nesting limit exact for them.
//
// This file is copied verbatim by `cargo xtask codegen` from
// crates/cgp-codegen/templates/validator/runtime.rs. Do not edit it here.

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::cell::Cell;
use std::collections::HashSet;
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
pub(crate) fn check_text<U: Union>(text: &str, envelope: U) -> Option<u32> {
    DEPTH.with(|depth| depth.set(0));
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let branch = deserializer.deserialize_any(Root(envelope)).ok()?;
    deserializer.end().ok()?;
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
        while seq.next_element_seed(Seed(AnyValue))?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let _nested = Nested::enter();
        let mut names = Names::default();
        while let Some(name) = map.next_key_seed(NameSeed)? {
            names.insert(name)?;
            map.next_value_seed(Seed(AnyValue))?;
        }
        Ok(())
    }
}

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

/// An array of items `C` accepts, so many of them.
#[derive(Clone, Copy)]
pub(crate) struct ArrayCheck<C> {
    pub items: C,
    pub min_items: Option<u64>,
    pub max_items: Option<u64>,
}

impl<'de, C: Visitor<'de, Value = ()> + Copy> Visitor<'de> for ArrayCheck<C> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let _nested = Nested::enter();
        let mut count: u64 = 0;
        while seq.next_element_seed(Seed(self.items))?.is_some() {
            count += 1;
            if self.max_items.is_some_and(|high| count > high) {
                return Err(refuse());
            }
        }
        if self.min_items.is_some_and(|low| count < low) {
            return Err(refuse());
        }
        Ok(())
    }
}

/// The member names an object has shown so far, to refuse a repeated one. A
/// handful are compared one by one; beyond that a hash set keeps a million
/// names from costing a million comparisons each.
#[derive(Default)]
pub(crate) struct Names<'de> {
    few: Vec<Cow<'de, str>>,
    /// Made only when the object has more than [`FEW_NAMES`] others.
    many: Option<HashSet<Cow<'de, str>>>,
}

/// How many names [`Names`] compares one by one.
const FEW_NAMES: usize = 16;

impl<'de> Names<'de> {
    /// Notes `name`; `Err` if it was already there.
    pub(crate) fn insert<E: de::Error>(&mut self, name: Cow<'de, str>) -> Result<(), E> {
        let many = match &mut self.many {
            Some(many) => many,
            None => {
                if self.few.contains(&name) {
                    return Err(refuse());
                }
                if self.few.len() < FEW_NAMES {
                    self.few.push(name);
                    return Ok(());
                }
                self.many.insert(self.few.drain(..).collect())
            }
        };
        if many.insert(name) {
            Ok(())
        } else {
            Err(refuse())
        }
    }
}

/// A member name, borrowed from the text when it has no escapes.
#[derive(Clone, Copy)]
pub(crate) struct NameSeed;

impl<'de> DeserializeSeed<'de> for NameSeed {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(NameVisitor)
    }
}

struct NameVisitor;

impl<'de> Visitor<'de> for NameVisitor {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_borrowed_str<E: de::Error>(self, value: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(value))
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(value.to_owned()))
    }
}

/// The members of one object shape, generated from the model.
pub(crate) trait Members: Copy {
    /// Whether members it does not name are accepted.
    const OPEN: bool;
    /// One bit per required member, by index.
    const REQUIRED: u64;

    /// The index of the member called `name`.
    fn index(name: &str) -> Option<u32>;

    /// Checks the value of member `index`.
    fn check<'de, D: Deserializer<'de>>(self, index: u32, value: D) -> Result<(), D::Error>;
}

/// A member name read against a [`Members`] type: its index, or the name itself
/// when the object does not declare it.
enum Key<'de> {
    Declared(u32),
    Other(Cow<'de, str>),
}

#[derive(Clone, Copy)]
struct KeySeed<M>(M);

impl<'de, M: Members> DeserializeSeed<'de> for KeySeed<M> {
    type Value = Key<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Key<'de>, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de, M: Members> Visitor<'de> for KeySeed<M> {
    type Value = Key<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_borrowed_str<E: de::Error>(self, value: &'de str) -> Result<Key<'de>, E> {
        Ok(match M::index(value) {
            Some(index) => Key::Declared(index),
            None => Key::Other(Cow::Borrowed(value)),
        })
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Key<'de>, E> {
        Ok(match M::index(value) {
            Some(index) => Key::Declared(index),
            None => Key::Other(Cow::Owned(value.to_owned())),
        })
    }
}

/// The value of one declared member.
#[derive(Clone, Copy)]
struct MemberSeed<M> {
    members: M,
    index: u32,
}

impl<'de, M: Members> DeserializeSeed<'de> for MemberSeed<M> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        self.members.check(self.index, deserializer)
    }
}

/// Members of a union read before its tag, kept as text.
pub(crate) type Pending<'de> = Vec<(Cow<'de, str>, &'de RawValue)>;

/// What an object of `M` has shown so far.
struct Seen<'de> {
    declared: u64,
    others: Names<'de>,
}

impl<'de> Seen<'de> {
    /// Notes the member `key`; `Err` for a repeated name, or an undeclared one
    /// where none is accepted.
    fn note<M: Members, E: de::Error>(&mut self, key: Key<'de>) -> Result<Option<u32>, E> {
        match key {
            Key::Declared(index) => {
                let bit = 1u64.checked_shl(index).unwrap_or(0);
                if self.declared & bit != 0 {
                    return Err(refuse());
                }
                self.declared |= bit;
                Ok(Some(index))
            }
            Key::Other(name) if M::OPEN => {
                self.others.insert(name)?;
                Ok(None)
            }
            Key::Other(_) => Err(refuse()),
        }
    }
}

/// An object of `M`'s members.
pub(crate) fn check_object<'de, M: Members, A: MapAccess<'de>>(
    members: M,
    map: A,
) -> Result<(), A::Error> {
    let _nested = Nested::enter();
    check_members(members, map, Vec::new(), 0)
}

/// The rest of an object of `M`'s members: `pending` members read before (as
/// text), `seen` the bits of members already checked, then the members `map`
/// still holds.
pub(crate) fn check_members<'de, M: Members, A: MapAccess<'de>>(
    members: M,
    mut map: A,
    pending: Pending<'de>,
    seen: u64,
) -> Result<(), A::Error> {
    let mut seen = Seen {
        declared: seen,
        others: Names::default(),
    };
    for (name, raw) in pending {
        let key = match M::index(&name) {
            Some(index) => Key::Declared(index),
            None => Key::Other(name),
        };
        let text = raw.get();
        if DEPTH.with(Cell::get) + nesting(text) > MAX_NESTING {
            return Err(refuse());
        }
        let mut value = serde_json::Deserializer::from_str(text);
        let checked = match seen.note::<M, A::Error>(key)? {
            Some(index) => members.check(index, &mut value),
            None => value.deserialize_any(AnyValue),
        };
        checked
            .and_then(|()| value.end())
            .map_err(|_| refuse::<A::Error>())?;
    }
    while let Some(key) = map.next_key_seed(KeySeed(members))? {
        match seen.note::<M, A::Error>(key)? {
            Some(index) => map.next_value_seed(MemberSeed { members, index })?,
            None => map.next_value_seed(Seed(AnyValue))?,
        }
    }
    if seen.declared & M::REQUIRED == M::REQUIRED {
        Ok(())
    } else {
        Err(refuse())
    }
}

/// How deep containers nest in a JSON text `serde_json` has already read.
fn nesting(text: &str) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for byte in text.bytes() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// A tagged union, generated from the model.
pub(crate) trait Union: Copy {
    /// The tag member's name.
    const TAG: &'static str;

    /// The index of the branch tagged `tag`.
    fn branch(tag: &str) -> Option<u32>;

    /// The members of branch `branch` after the tag: `pending` read before it.
    fn finish<'de, A: MapAccess<'de>>(
        self,
        branch: u32,
        map: A,
        pending: Pending<'de>,
    ) -> Result<(), A::Error>;
}

/// The branch a tag value names.
#[derive(Clone, Copy)]
struct TagSeed<U>(U);

impl<'de, U: Union> DeserializeSeed<'de> for TagSeed<U> {
    type Value = u32;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<u32, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, U: Union> Visitor<'de> for TagSeed<U> {
    type Value = u32;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a tag")
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<u32, E> {
        U::branch(value).ok_or_else(refuse)
    }
}

/// An object of union `U`: reads members up to the tag, then lets the branch the
/// tag names check the rest. Returns the branch.
pub(crate) fn check_union<'de, U: Union, A: MapAccess<'de>>(
    union: U,
    mut map: A,
) -> Result<u32, A::Error> {
    let _nested = Nested::enter();
    let mut pending = Pending::new();
    while let Some(name) = map.next_key_seed(NameSeed)? {
        if name == U::TAG {
            let branch = map.next_value_seed(TagSeed(union))?;
            union.finish(branch, map, pending)?;
            return Ok(branch);
        }
        pending.push((name, map.next_value::<&'de RawValue>()?));
    }
    Err(refuse())
}

/// The root of a message: an object of union `U`, whose branch it returns.
#[derive(Clone, Copy)]
struct Root<U>(U);

impl<'de, U: Union> Visitor<'de> for Root<U> {
    type Value = u32;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a message")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<u32, A::Error> {
        check_union(self.0, map)
    }
}
