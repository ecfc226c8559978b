//! Corpus coverage: which variants, named types, members and vocabulary values
//! of the working version's model the valid SPEC.md examples use.
//!
//! [`Coverage::of`] lists what the model declares, each with where it is
//! written, then walks every `expect=valid` example through the model's shapes
//! (the same reading a validator has) and records what the example's value
//! reaches. The coverage gate fails on whatever no example reaches, naming the
//! recipe step that adds one.

use crate::corpus::{Example, Expect};
use cgp_schema::model::{Location, Place, Protocol, Shape};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// How deep named types may refer to each other while a value is walked.
const MAX_DEPTH: usize = 64;

/// One thing of the protocol an example can exercise.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Item {
    /// An envelope variant, by tag.
    Variant(String),
    /// A named type.
    Type(String),
    /// A member of a variant (owner: its tag), of a named type (owner: its
    /// name) or of an inline object (owner: `Type.member`).
    Member {
        /// Whose member.
        owner: String,
        /// Its JSON name.
        name: String,
    },
    /// One value of a closed enum, an open vocabulary's known values, or a
    /// tagged union's tag member.
    Value {
        /// The vocabulary: a named type, or `Owner.member` when written inline.
        vocabulary: String,
        /// The value as JSON text.
        value: String,
    },
}

/// Declares [`Kind`] from one table: each kind's plural, as the summary counts
/// it, and the ARCHITECTURE.md recipe whose corpus step adds an example for it.
macro_rules! kinds {
    ($($(#[doc = $doc:literal])* $variant:ident => $plural:literal, $recipe:literal;)*) => {
        /// The kinds of [`Item`], in the order the summary lists them.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
        pub enum Kind {
            $($(#[doc = $doc])* $variant,)*
        }

        impl Kind {
            /// Every kind, in summary order.
            pub const ALL: [Kind; [$($plural),*].len()] = [$(Kind::$variant,)*];

            /// How the summary counts it: `variants`, `types`, ….
            pub fn plural(self) -> &'static str {
                match self {
                    $(Kind::$variant => $plural,)*
                }
            }

            /// The ARCHITECTURE.md recipe whose corpus step adds an example for it.
            pub fn recipe(self) -> &'static str {
                match self {
                    $(Kind::$variant => $recipe,)*
                }
            }
        }
    };
}

kinds! {
    /// Variants.
    Variant => "variants", "Add an envelope variant";
    /// Named types.
    Type => "types", "Add a named type";
    /// Members.
    Member => "members", "Add a member";
    /// Vocabulary values.
    Value => "vocabulary values", "Add a vocabulary value";
}

impl Item {
    /// Its kind.
    pub fn kind(&self) -> Kind {
        match self {
            Item::Variant(_) => Kind::Variant,
            Item::Type(_) => Kind::Type,
            Item::Member { .. } => Kind::Member,
            Item::Value { .. } => Kind::Value,
        }
    }
}

impl fmt::Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Item::Variant(tag) => write!(f, "variant `{tag}`"),
            Item::Type(name) => write!(f, "type `{name}`"),
            Item::Member { owner, name } => write!(f, "member `{owner}.{name}`"),
            Item::Value { vocabulary, value } => write!(f, "value {value} of `{vocabulary}`"),
        }
    }
}

/// What the model declares and what the valid examples reach of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coverage {
    /// How many `expect=valid` examples were walked.
    pub examples: usize,
    /// Every item the model declares, with where it is written.
    pub declared: BTreeMap<Item, Place>,
    /// The declared items some valid example reaches.
    pub covered: BTreeSet<Item>,
}

impl Coverage {
    /// Walks the valid `examples` through `protocol`. `locate` gives the file
    /// position of a pointer into the document `protocol` was read from (for a
    /// vocabulary value, which the model keeps no place of its own for).
    pub fn of(
        protocol: &Protocol,
        examples: &[Example],
        locate: &dyn Fn(&str) -> Option<Location>,
    ) -> Coverage {
        let mut declared = BTreeMap::new();
        {
            let mut declare = Declare {
                out: &mut declared,
                locate,
            };
            for variant in &protocol.variants {
                declare.item(Item::Variant(variant.tag.clone()), &variant.at);
                for member in &variant.object.members {
                    declare.member(&variant.tag, member);
                }
            }
            for named in protocol.types.values() {
                declare.item(Item::Type(named.name.clone()), &named.at);
                declare.shape(&named.name, &named.shape, &named.at);
            }
        }
        let mut reached = BTreeSet::new();
        let mut examples_walked = 0;
        for example in examples.iter().filter(|e| e.expect == Expect::Valid) {
            let Ok(document) = example.parse() else {
                continue;
            };
            examples_walked += 1;
            let mut walk = Walk {
                protocol,
                reached: &mut reached,
            };
            if example.target == "Envelope" {
                walk.envelope(&document.value);
            } else {
                walk.shape(
                    "",
                    &Shape::Named(example.target.clone()),
                    &document.value,
                    0,
                );
            }
        }
        let covered = reached
            .into_iter()
            .filter(|item| declared.contains_key(item))
            .collect();
        Coverage {
            examples: examples_walked,
            declared,
            covered,
        }
    }

    /// Declared items no valid example reaches, with where each is written.
    pub fn missing(&self) -> Vec<(&Item, &Place)> {
        self.declared
            .iter()
            .filter(|(item, _)| !self.covered.contains(*item))
            .collect()
    }

    /// `(covered, declared)` for one kind.
    pub fn count(&self, kind: Kind) -> (usize, usize) {
        let declared = self.declared.keys().filter(|i| i.kind() == kind).count();
        let covered = self.covered.iter().filter(|i| i.kind() == kind).count();
        (covered, declared)
    }

    /// `146 examples cover 9/9 variants, 30/30 types, …`.
    pub fn summary(&self) -> String {
        let counts: Vec<String> = Kind::ALL
            .iter()
            .map(|kind| {
                let (covered, declared) = self.count(*kind);
                format!("{covered}/{declared} {}", kind.plural())
            })
            .collect();
        format!(
            "{} valid examples cover {}",
            self.examples,
            counts.join(", ")
        )
    }
}

/// Lists what the model declares.
struct Declare<'a> {
    out: &'a mut BTreeMap<Item, Place>,
    locate: &'a dyn Fn(&str) -> Option<Location>,
}

impl Declare<'_> {
    fn item(&mut self, item: Item, at: &Place) {
        self.out.entry(item).or_insert_with(|| at.clone());
    }

    fn member(&mut self, owner: &str, member: &cgp_schema::model::Member) {
        self.item(
            Item::Member {
                owner: owner.to_owned(),
                name: member.name.clone(),
            },
            &member.at,
        );
        self.shape(
            &format!("{owner}.{}", member.name),
            &member.shape,
            &member.at,
        );
    }

    /// The members and values written inline in `shape`, owned by `owner`.
    fn shape(&mut self, owner: &str, shape: &Shape, at: &Place) {
        match shape {
            Shape::Enum(values) => {
                for (index, value) in values.iter().enumerate() {
                    let pointer = format!("{}/enum/{index}", at.pointer);
                    let place = Place {
                        location: (self.locate)(&pointer).or_else(|| at.location.clone()),
                        pointer,
                    };
                    self.item(value_item(owner, value), &place);
                }
            }
            Shape::OpenVocabulary(vocabulary) if vocabulary.known_type.is_none() => {
                for value in &vocabulary.known {
                    self.item(value_item(owner, &Value::String(value.clone())), at);
                }
            }
            Shape::Array(array) => self.shape(owner, &array.items, at),
            Shape::Object(object) => {
                for member in &object.members {
                    self.member(owner, member);
                }
            }
            Shape::TaggedUnion(union) => {
                for member in &union.shared.members {
                    self.member(owner, member);
                }
                let vocabulary = format!("{owner}.{}", union.tag);
                for branch in &union.branches {
                    self.item(
                        value_item(&vocabulary, &Value::String(branch.tag.clone())),
                        &branch.at,
                    );
                    for member in &branch.object.members {
                        self.member(owner, member);
                    }
                }
            }
            Shape::Nullable(inner) | Shape::Excluding(inner, _) => self.shape(owner, inner, at),
            _ => {}
        }
    }
}

fn value_item(vocabulary: &str, value: &Value) -> Item {
    Item::Value {
        vocabulary: vocabulary.to_owned(),
        value: value.to_string(),
    }
}

/// Records what one example's value reaches.
struct Walk<'a> {
    protocol: &'a Protocol,
    reached: &'a mut BTreeSet<Item>,
}

impl Walk<'_> {
    fn envelope(&mut self, value: &Value) {
        let tag = value.get(&self.protocol.tag).and_then(Value::as_str);
        let Some(variant) = tag.and_then(|tag| self.protocol.variant(tag)) else {
            return;
        };
        self.reached.insert(Item::Variant(variant.tag.clone()));
        if let Some(members) = value.as_object() {
            self.members(&variant.tag, variant.object.members.iter(), members, 0);
        }
    }

    fn members<'m>(
        &mut self,
        owner: &str,
        declared: impl Iterator<Item = &'m cgp_schema::model::Member>,
        present: &serde_json::Map<String, Value>,
        depth: usize,
    ) {
        for member in declared {
            let Some(value) = present.get(&member.name) else {
                continue;
            };
            self.reached.insert(Item::Member {
                owner: owner.to_owned(),
                name: member.name.clone(),
            });
            self.shape(
                &format!("{owner}.{}", member.name),
                &member.shape,
                value,
                depth,
            );
        }
    }

    fn shape(&mut self, owner: &str, shape: &Shape, value: &Value, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        match shape {
            Shape::Named(name) => {
                let Some(named) = self.protocol.named(name) else {
                    return;
                };
                self.reached.insert(Item::Type(name.clone()));
                self.shape(name, &named.shape, value, depth + 1);
            }
            Shape::Enum(values) if values.contains(value) => {
                self.reached.insert(value_item(owner, value));
            }
            Shape::OpenVocabulary(vocabulary) => {
                let Some(text) = value.as_str() else {
                    return;
                };
                if !vocabulary.known.iter().any(|known| known == text) {
                    return;
                }
                match &vocabulary.known_type {
                    Some(known) => self.shape(owner, &Shape::Named(known.clone()), value, depth),
                    None => {
                        self.reached.insert(value_item(owner, value));
                    }
                }
            }
            Shape::Array(array) => {
                for item in value.as_array().into_iter().flatten() {
                    self.shape(owner, &array.items, item, depth);
                }
            }
            Shape::Object(object) => {
                if let Some(present) = value.as_object() {
                    self.members(owner, object.members.iter(), present, depth);
                }
            }
            Shape::TaggedUnion(union) => {
                let Some(present) = value.as_object() else {
                    return;
                };
                let tag = present.get(&union.tag).and_then(Value::as_str);
                let Some(branch) = tag.and_then(|tag| union.branch(tag)) else {
                    return;
                };
                self.reached.insert(value_item(
                    &format!("{owner}.{}", union.tag),
                    &Value::String(branch.tag.clone()),
                ));
                let declared = union.shared.members.iter().chain(&branch.object.members);
                self.members(owner, declared, present, depth);
            }
            Shape::Nullable(inner) if !value.is_null() => self.shape(owner, inner, value, depth),
            Shape::Excluding(inner, excluded) if !excluded.contains(value) => {
                self.shape(owner, inner, value, depth);
            }
            _ => {}
        }
    }
}
