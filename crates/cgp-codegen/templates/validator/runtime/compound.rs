//! Checks of compound values: arrays, the member names of an object
//! (duplicates), objects of known members, and tagged unions.
//
// This file is copied verbatim by `cargo xtask codegen` from
// crates/cgp-codegen/templates/validator/runtime/compound.rs. Do not edit it here.

use super::{AnyValue, DEPTH, MAX_NESTING, Nested, RawSeed, Reader, Seed, Skim, refuse};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::cell::Cell;
use std::collections::HashSet;
use std::fmt;

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
pub(crate) type Pending<'de> = Vec<(Cow<'de, str>, &'de str)>;

/// What an object showed before its members are checked one by one: the
/// members a union read before its tag (as text), and whether the tag itself
/// was read. When the tag was found by looking ahead ([`tag_ahead`]), nothing
/// was read: the tag is checked where it stands, as a member of its branch.
pub(crate) struct Before<'de> {
    pub pending: Pending<'de>,
    pub tag_read: bool,
}

impl Before<'_> {
    /// Nothing read yet.
    pub(crate) fn nothing() -> Self {
        Before {
            pending: Vec::new(),
            tag_read: false,
        }
    }
}

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
    check_members(members, map, Before::nothing(), 0)
}

/// The rest of an object of `M`'s members: those `before` holds (read as
/// text), and the tag (bit `tag`) if it was read, then the members `map` still
/// holds.
pub(crate) fn check_members<'de, M: Members, A: MapAccess<'de>>(
    members: M,
    mut map: A,
    before: Before<'de>,
    tag: u64,
) -> Result<(), A::Error> {
    let mut seen = Seen {
        declared: if before.tag_read { tag } else { 0 },
        others: Names::default(),
    };
    for (name, text) in before.pending {
        let key = match M::index(&name) {
            Some(index) => Key::Declared(index),
            None => Key::Other(name),
        };
        if DEPTH.with(Cell::get) + nesting(text) > MAX_NESTING {
            return Err(refuse());
        }
        let mut value = Reader::new(text);
        let checked = match seen.note::<M, A::Error>(key)? {
            Some(index) => members.check(index, &mut value),
            None => (&mut value).deserialize_ignored_any(AnyValue),
        };
        checked
            .and_then(|()| value.end())
            .map_err(|_| refuse::<A::Error>())?;
    }
    while let Some(key) = map.next_key_seed(KeySeed(members))? {
        match seen.note::<M, A::Error>(key)? {
            Some(index) => map.next_value_seed(MemberSeed { members, index })?,
            None => map.next_value_seed(Skim(AnyValue))?,
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

    /// The members of branch `branch` but those `before` holds.
    fn finish<'de, A: MapAccess<'de>>(
        self,
        branch: u32,
        map: A,
        before: Before<'de>,
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
            let before = Before {
                pending,
                tag_read: true,
            };
            union.finish(branch, map, before)?;
            return Ok(branch);
        }
        pending.push((name, map.next_value_seed(RawSeed)?));
    }
    Err(refuse())
}

/// The root of a message whose tag was read ahead: an object of branch
/// `.1` of union `.0`, its tag checked where it stands.
#[derive(Clone, Copy)]
pub(super) struct Known<U>(pub(super) U, pub(super) u32);

impl<'de, U: Union> Visitor<'de> for Known<U> {
    type Value = u32;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a message")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<u32, A::Error> {
        let _nested = Nested::enter();
        self.0.finish(self.1, map, Before::nothing())?;
        Ok(self.1)
    }
}

/// The root of a message: an object of union `U`, whose branch it returns.
#[derive(Clone, Copy)]
pub(super) struct Root<U>(pub(super) U);

impl<'de, U: Union> Visitor<'de> for Root<U> {
    type Value = u32;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a message")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<u32, A::Error> {
        check_union(self.0, map)
    }
}
