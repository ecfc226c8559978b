//! Classifying what changed between two versions of the protocol's schemas, and
//! the protocol version bump each change requires (SPEC.md §Compatibility).
//!
//! Both versions are compared as normalised `interop` bundles, the receiver's
//! contract: a schema directory is loaded and bundled ([`SchemaSet::load`](cgp_schema::SchemaSet::load) then
//! [`bundle`](cgp_schema::SchemaSet::bundle) with [`Profile::Interop`](cgp_schema::Profile::Interop)), a published bundle
//! file is read as it is. Both kinds of input therefore share one code path, and a
//! source directory compares equal to the bundle it publishes.
//!
//! Each side is read once into its [`Protocol`](cgp_schema::model::Protocol), and the
//! comparison reads only the two models: the envelope's variants, matched by tag;
//! the named types they reach, each pair once; members by name; and value
//! [`Shape`](cgp_schema::model::Shape)s kind by kind. Enumeration values compare as
//! sets, so reordered members, values, variants or files, and reformatting, are
//! no change at all. A schema the model cannot describe is compared as written:
//! any difference is [`ChangeRule::ValueSetChanged`].
//!
//! # Pointers
//!
//! A [`Change`] names what changed with a pointer in protocol terms, not a pointer
//! into either document:
//!
//! | pointer | names |
//! |---|---|
//! | `/Envelope` | the envelope itself (its annotations) |
//! | `/<tag>` | an envelope variant, e.g. `/query` |
//! | `/<tag>/<member>` | a member of a variant, e.g. `/query/id` |
//! | `/<Type>` | a named type, e.g. `/Representation` |
//! | `/<Type>/<member>` | a member of an object type, e.g. `/ContextQuery/as_of` |
//! | `/<Type>/<tag>` | a branch of a tagged union, e.g. `/FrameVerdict/stale` |
//! | `…/items` | the elements of an array, e.g. `/ContextQuery/kinds/items` |
//!
//! Variant tags are snake_case and type names UpperCamelCase, so the first segment
//! says which it is. A change inside a type shared by several variants is reported
//! once, at the type, with the directions of every variant that reaches it.
//!
//! # Locations
//!
//! [`Change::old`] and [`Change::new`] give the `file:line:col` of the change in each
//! version: the source file for a schema directory, the bundle file for a bundle.
//! For something one version lacks (a removed member, an added variant), that
//! version's location is the schema that lacks it, so a removal still points into
//! the new files, where a CI annotation can show it.
//!
//! Built on `cgp-schema`; `cgp diff` ships it, and the maintainers' release gate
//! uses it to demand the bump a change needs.

// Input-derived data never panics the library: no unwrap/expect/panic and no
// unchecked indexing outside tests (SECURITY.md). Tests may assert freely.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::indexing_slicing,
        clippy::panic
    )
)]

mod assertions;
mod facets;
mod git;
mod side;
mod walk;

pub use git::load_side_at;
pub use side::{ComparedVersion, load_side};

use cgp_schema::version::ProtocolVersion;
use cgp_types::Direction;
use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;
use walk::Walker;

/// How far the comparison follows nested schemas and references. Real schemas
/// nest a handful of levels; the limit only stops a malicious or cyclic input.
const MAX_DEPTH: usize = 64;

use cgp_types::spelled;

spelled! {
    /// The protocol version bump a change requires, ordered `None < Minor < Major`.
    #[derive(
        Debug,
        Clone,
        Copy,
        PartialEq,
        Eq,
        PartialOrd,
        Ord,
        Hash,
        Default,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema,
    )]
    #[serde(rename_all = "snake_case")]
    pub enum Bump {
        /// No bump: nothing a peer can observe changed.
        #[default]
        None => "none",
        /// A minor version (`1.0` → `1.1`): every peer of the family survives it.
        Minor => "minor",
        /// A new major family (`1.x` → `2.0`): old peers break.
        Major => "major",
    }
}

impl Bump {
    /// The bump from `from` to `to`, or `None` when `to` is older than `from` or
    /// names another protocol. Equal versions are [`Bump::None`].
    pub fn between(from: &ProtocolVersion, to: &ProtocolVersion) -> Option<Bump> {
        if from.name != to.name || to.key() < from.key() {
            return None;
        }
        Some(if to.major > from.major {
            Bump::Major
        } else if to.minor > from.minor {
            Bump::Minor
        } else {
            Bump::None
        })
    }

    /// The smallest version after `version` that this bump allows:
    /// `demo/1.0` → `demo/1.0`, `demo/1.1` or `demo/2.0`.
    pub fn apply(self, version: &ProtocolVersion) -> ProtocolVersion {
        match self {
            Bump::None => version.clone(),
            Bump::Minor => version.with_number(version.major, version.minor.saturating_add(1)),
            Bump::Major => version.with_number(version.major.saturating_add(1), 0),
        }
    }
}

impl fmt::Display for Bump {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Bump {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Bump::ALL
            .into_iter()
            .find(|bump| bump.as_str() == text)
            .ok_or_else(|| format!("unknown bump `{text}`; expected `none`, `minor` or `major`"))
    }
}

/// How a rule decides the bump it requires.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Always this bump.
    Fixed(Bump),
    /// `major` when the schema travels host → provider (a narrowed input breaks
    /// old hosts, whose messages providers now reject), `minor` otherwise.
    Narrowed,
    /// `major` when the schema travels provider → host (a widened output breaks
    /// old hosts, which meet values they reject), `minor` otherwise.
    Widened,
}

macro_rules! rules {
    ($($variant:ident => $id:literal, $decision:expr, $doc:literal;)*) => {
        /// One kind of change, with one id each (SPEC.md §Compatibility has the table).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum ChangeRule {
            $(#[doc = $doc] $variant,)*
        }

        impl ChangeRule {
            /// Every rule, in the order of the SPEC.md table.
            pub const ALL: &'static [ChangeRule] = &[$(ChangeRule::$variant,)*];

            /// The rule id, e.g. `FIELD_REMOVED`.
            pub fn id(self) -> &'static str {
                match self {
                    $(ChangeRule::$variant => $id,)*
                }
            }

            /// How the rule decides its bump.
            pub fn decision(self) -> Decision {
                match self {
                    $(ChangeRule::$variant => $decision,)*
                }
            }

            /// What the rule detects, in one sentence.
            pub fn detects(self) -> &'static str {
                match self {
                    $(ChangeRule::$variant => $doc,)*
                }
            }
        }
    };
}

rules! {
    VariantAdded => "VARIANT_ADDED", Decision::Fixed(Bump::Minor),
        "A new envelope variant, or a new branch of a tagged union such as a `FrameVerdict` status.";
    VariantRemoved => "VARIANT_REMOVED", Decision::Fixed(Bump::Major),
        "An envelope variant or a tagged-union branch was removed.";
    VariantDirectionChanged => "VARIANT_DIRECTION_CHANGED", Decision::Fixed(Bump::Major),
        "A variant's `x-cgp-direction` changed.";
    FieldAddedOptional => "FIELD_ADDED_OPTIONAL", Decision::Fixed(Bump::Minor),
        "A new optional member.";
    FieldAddedRequired => "FIELD_ADDED_REQUIRED", Decision::Fixed(Bump::Major),
        "A new required member.";
    FieldRemoved => "FIELD_REMOVED", Decision::Fixed(Bump::Major),
        "A member was removed.";
    FieldRenamed => "FIELD_RENAMED", Decision::Fixed(Bump::Major),
        "A member was removed and one with another name but the same schema added.";
    FieldMadeRequired => "FIELD_MADE_REQUIRED", Decision::Fixed(Bump::Major),
        "An optional member became required.";
    FieldMadeOptional => "FIELD_MADE_OPTIONAL", Decision::Fixed(Bump::Major),
        "A required member became optional.";
    TypeChanged => "TYPE_CHANGED", Decision::Fixed(Bump::Major),
        "The JSON type changed (`integer` and `number` count as one type; `null` does not count).";
    ValueSetNarrowed => "VALUE_SET_NARROWED", Decision::Narrowed,
        "Fewer values are accepted: an enumeration value removed, a bound or `pattern`/`format` added or tightened, `null` or fractions no longer accepted, an open vocabulary closed.";
    ValueSetWidened => "VALUE_SET_WIDENED", Decision::Widened,
        "More values are accepted: a bound or `pattern`/`format` removed or loosened, `null` or fractions now accepted, a closed enumeration opened.";
    ValueSetChanged => "VALUE_SET_CHANGED", Decision::Fixed(Bump::Major),
        "The accepted values changed so that neither set contains the other (a `pattern` or `const` replaced, a shape the classifier cannot order).";
    EnumValueAdded => "ENUM_VALUE_ADDED", Decision::Fixed(Bump::Minor),
        "A value added to a closed enumeration; it may only be sent to peers that signalled support.";
    VocabularyValueAdded => "VOCABULARY_VALUE_ADDED", Decision::Fixed(Bump::None),
        "A known value added to an open vocabulary (old receivers keep it and use the fallback, SPEC U3).";
    VocabularyValueRemoved => "VOCABULARY_VALUE_REMOVED", Decision::Fixed(Bump::Major),
        "A known value of an open vocabulary is no longer named: new receivers treat it with the fallback, which changes its meaning.";
    DefaultChanged => "DEFAULT_CHANGED", Decision::Fixed(Bump::Major),
        "A member's `default` (what an absent member means) changed, was added or was removed.";
    EmitChanged => "EMIT_CHANGED", Decision::Fixed(Bump::Minor),
        "A member's `x-cgp-emit`, the canonical encoder's rule, changed (the strict profile changes; the interop effect of `null` is reported separately).";
    DeprecationChanged => "DEPRECATION_CHANGED", Decision::Fixed(Bump::Minor),
        "A member or type was deprecated (SPEC U4), or no longer is.";
    TypeRenamed => "TYPE_RENAMED", Decision::Fixed(Bump::None),
        "A named type was renamed; type names never appear on the wire.";
    DocumentationChanged => "DOCUMENTATION_CHANGED", Decision::Fixed(Bump::None),
        "Only `title`, `description`, `examples`, `$comment` or `x-cgp-spec` changed.";
}

impl ChangeRule {
    /// The bump this rule requires for a change seen in `directions`. With no
    /// direction known, both are assumed.
    pub fn bump(self, directions: &BTreeSet<Direction>) -> Bump {
        let travels = |direction| directions.is_empty() || directions.contains(&direction);
        match self.decision() {
            Decision::Fixed(bump) => bump,
            Decision::Narrowed if travels(Direction::HostToProvider) => Bump::Major,
            Decision::Widened if travels(Direction::ProviderToHost) => Bump::Major,
            Decision::Narrowed | Decision::Widened => Bump::Minor,
        }
    }
}

impl fmt::Display for ChangeRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A place in one version's files (`file:line:col`): the one place type of
/// the workspace, the model's.
pub use cgp_schema::model::Location;

/// One change between two versions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// What kind of change it is.
    pub rule: ChangeRule,
    /// What changed, in the pointer scheme of this module (e.g. `/ContextQuery/as_of`).
    pub pointer: String,
    /// Where it is in the old version (for an addition: the schema that lacked it).
    pub old: Option<Location>,
    /// Where it is in the new version (for a removal: the schema that lost it).
    pub new: Option<Location>,
    /// The envelope directions the changed schema travels in.
    pub directions: BTreeSet<Direction>,
    /// The bump the change requires.
    pub required_bump: Bump,
    /// What changed, in words.
    pub message: String,
}

impl Change {
    /// Where to show the change: in the new version when known, else in the old.
    pub fn location(&self) -> Option<&Location> {
        self.new.as_ref().or(self.old.as_ref())
    }

    /// The directions as text: `host-to-provider, provider-to-host`, or
    /// `no direction` for a schema no variant reaches.
    pub fn directions_text(&self) -> String {
        if self.directions.is_empty() {
            return "no direction".into();
        }
        self.directions
            .iter()
            .map(|direction| direction.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `RULE /pointer (directions) requires a major bump: message`.
    pub fn headline(&self) -> String {
        let requirement = match self.required_bump {
            Bump::None => "requires no bump".to_owned(),
            bump => format!("requires a {bump} bump"),
        };
        format!(
            "{} {} ({}) {requirement}: {}",
            self.rule,
            self.pointer,
            self.directions_text(),
            self.message
        )
    }
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(location) = self.location() {
            write!(f, "{location}: ")?;
        }
        f.write_str(&self.headline())
    }
}

/// Everything that changed between two versions, and the bump they require.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Comparison {
    /// The changes, ordered by file, line and pointer.
    pub changes: Vec<Change>,
    /// The largest bump any change requires ([`Bump::None`] when nothing changed).
    pub required_bump: Bump,
}

impl Comparison {
    /// The changes that require more than `bump`.
    pub fn exceeding(&self, bump: Bump) -> impl Iterator<Item = &Change> {
        self.changes
            .iter()
            .filter(move |change| change.required_bump > bump)
    }
}

/// Compares two versions and lists every change with the bump it requires.
pub fn classify(old: &ComparedVersion, new: &ComparedVersion) -> Comparison {
    let mut walker = Walker {
        old,
        new,
        changes: Vec::new(),
        visited: BTreeSet::new(),
    };
    walker.envelope();
    let mut changes = walker.changes;
    changes.sort_by(|a, b| {
        let key = |change: &Change| {
            (
                change.location().cloned(),
                change.pointer.clone(),
                change.rule,
                change.message.clone(),
            )
        };
        key(a).cmp(&key(b))
    });
    changes.dedup();
    let required_bump = changes
        .iter()
        .map(|change| change.required_bump)
        .max()
        .unwrap_or_default();
    Comparison {
        changes,
        required_bump,
    }
}
