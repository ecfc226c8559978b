//! Classifying what changed between two versions of the protocol's schemas, and
//! the protocol version bump each change requires (SPEC.md §Compatibility).
//!
//! Both versions are compared as normalised `interop` bundles, the receiver's
//! contract: a schema directory is loaded and bundled ([`SchemaSet::load`] then
//! [`bundle`](crate::bundle::bundle) with [`Profile::Interop`]), a published bundle
//! file is read as it is. Both kinds of input therefore share one code path, and a
//! source directory compares equal to the bundle it publishes.
//!
//! The comparison walks the envelope's variants, matched by tag, and follows
//! `$ref`s into the named types, each pair of types once. Object members are
//! matched by name and enumeration values as sets, so reordered members, values,
//! variants or files, and reformatting, are no change at all.
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
//! [`Change::old`] and [`Change::new`] give the `file:line` of the change in each
//! version: the source file for a schema directory, the bundle file for a bundle.
//! For something one version lacks (a removed member, an added variant), that
//! version's location is the schema that lacks it, so a removal still points into
//! the new files, where a CI annotation can show it.

use crate::bundle::{self, Origins, Profile};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::graph::{self, TypeGraph};
use crate::json_text::{self, Document};
use crate::source::{self, SchemaSet};
use crate::version::ProtocolVersion;
use cgp_types::Direction;
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;
use std::str::FromStr;

/// How far the comparison follows nested schemas and references. Real schemas
/// nest a handful of levels; the limit only stops a malicious or cyclic input.
const MAX_DEPTH: usize = 64;

/// The protocol version bump a change requires, ordered `None < Minor < Major`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Bump {
    /// No bump: nothing a peer can observe changed.
    #[default]
    None,
    /// A minor version (`1.0` → `1.1`): every peer of the family survives it.
    Minor,
    /// A new major family (`1.x` → `2.0`): old peers break.
    Major,
}

impl Bump {
    /// All bumps, smallest first.
    pub const ALL: [Bump; 3] = [Bump::None, Bump::Minor, Bump::Major];

    /// `none`, `minor` or `major`.
    pub fn as_str(self) -> &'static str {
        match self {
            Bump::None => "none",
            Bump::Minor => "minor",
            Bump::Major => "major",
        }
    }

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
        pub enum Rule {
            $(#[doc = $doc] $variant,)*
        }

        impl Rule {
            /// Every rule, in the order of the SPEC.md table.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant,)*];

            /// The rule id, e.g. `FIELD_REMOVED`.
            pub fn id(self) -> &'static str {
                match self {
                    $(Rule::$variant => $id,)*
                }
            }

            /// How the rule decides its bump.
            pub fn decision(self) -> Decision {
                match self {
                    $(Rule::$variant => $decision,)*
                }
            }

            /// What the rule detects, in one sentence.
            pub fn detects(self) -> &'static str {
                match self {
                    $(Rule::$variant => $doc,)*
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

impl Rule {
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

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A place in one version's files.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location {
    /// The file as shown to the user, e.g. `schema/types/context-query.schema.json`.
    pub file: String,
    /// The 1-based line.
    pub line: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// One change between two versions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// What kind of change it is.
    pub rule: Rule,
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
    fn headline(&self) -> String {
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
    /// One line per change, `file:line: RULE /pointer (directions) requires a
    /// major bump: message`, then a summary line.
    pub fn to_human(&self) -> String {
        let mut out = String::new();
        for change in &self.changes {
            out.push_str(&change.to_string());
            out.push('\n');
        }
        match self.changes.len() {
            0 => out.push_str("no changes\n"),
            count => out.push_str(&format!(
                "{count} change{}; required bump: {}\n",
                if count == 1 { "" } else { "s" },
                self.required_bump
            )),
        }
        out
    }

    /// The comparison as JSON: `{"required_bump": "none|minor|major", "changes":
    /// [{"rule", "pointer", "old", "new", "directions", "required_bump",
    /// "message"}]}`, with `old` and `new` as `"file:line"` strings or `null`.
    pub fn to_json(&self) -> Value {
        let location = |location: &Option<Location>| match location {
            Some(location) => Value::String(location.to_string()),
            None => Value::Null,
        };
        let changes: Vec<Value> = self
            .changes
            .iter()
            .map(|change| {
                json!({
                    "rule": change.rule.id(),
                    "pointer": change.pointer,
                    "old": location(&change.old),
                    "new": location(&change.new),
                    "directions": change.directions.iter().map(|d| d.as_str()).collect::<Vec<_>>(),
                    "required_bump": change.required_bump.as_str(),
                    "message": change.message,
                })
            })
            .collect();
        json!({
            "required_bump": self.required_bump.as_str(),
            "changes": changes,
        })
    }

    /// GitHub Actions workflow commands, one per change: `::error` for a major
    /// bump, `::warning` for a minor one, `::notice` for the rest, each with the
    /// change's file and line when known.
    pub fn to_github(&self) -> String {
        let mut out = String::new();
        for change in &self.changes {
            let level = match change.required_bump {
                Bump::Major => "error",
                Bump::Minor => "warning",
                Bump::None => "notice",
            };
            let mut properties = Vec::new();
            if let Some(location) = change.location() {
                properties.push(format!("file={}", github_property(&location.file)));
                properties.push(format!("line={}", location.line));
            }
            properties.push(format!("title={}", github_property(change.rule.id())));
            out.push_str(&format!(
                "::{level} {}::{}\n",
                properties.join(","),
                github_data(&change.headline())
            ));
        }
        out
    }

    /// The changes that require more than `bump`.
    pub fn exceeding(&self, bump: Bump) -> impl Iterator<Item = &Change> {
        self.changes
            .iter()
            .filter(move |change| change.required_bump > bump)
    }
}

fn github_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn github_property(text: &str) -> String {
    github_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// Where the parts of a side's bundle are in the files the user wrote.
#[derive(Debug, Clone)]
enum Positions {
    /// A schema directory: bundle pointers map back to source files.
    Source { set: SchemaSet, origins: Origins },
    /// A bundle file: bundle pointers are positions in it.
    Bundle { file: String, document: Document },
}

/// One version to compare: its interop bundle, where each part of it is written,
/// and which directions reach each type.
#[derive(Debug, Clone)]
pub struct Side {
    display: String,
    version: ProtocolVersion,
    document: Value,
    directions: BTreeMap<String, BTreeSet<Direction>>,
    positions: Positions,
}

/// Loads one side of a comparison: a directory is a set of source schemas (loaded,
/// checked and bundled), a file is a published bundle. Paths are shown as given.
/// Unreadable or invalid input is reported as [`Diagnostics`].
pub fn load_side(path: &Path) -> Result<Side, Diagnostics> {
    let shown = path.display().to_string();
    let shown = match shown.trim_end_matches('/') {
        "" => shown.clone(),
        trimmed => trimmed.to_owned(),
    };
    let metadata = std::fs::metadata(path)
        .map_err(|error| Diagnostic::file(&shown, format!("cannot read: {error}")))?;
    if metadata.is_dir() {
        Side::from_source(SchemaSet::load(path, &shown)?)
    } else {
        let bytes = source::read_bounded(path)
            .map_err(|error| Diagnostic::file(&shown, format!("cannot read: {error}")))?;
        let text = String::from_utf8(bytes).map_err(|error| {
            Diagnostic::file(
                &shown,
                format!(
                    "is not valid UTF-8 (first bad byte at offset {})",
                    error.utf8_error().valid_up_to()
                ),
            )
        })?;
        Side::from_bundle_text(&shown, &text)
    }
}

impl Side {
    /// A side from checked source schemas, compared through their interop bundle;
    /// locations point into the source files.
    pub fn from_source(set: SchemaSet) -> Result<Side, Diagnostics> {
        let bundle = bundle::bundle(&set, Profile::Interop)?;
        Ok(Side {
            display: set.display_root.clone(),
            version: set.version.clone(),
            directions: TypeGraph::of(&bundle.document).directions(),
            document: bundle.document,
            positions: Positions::Source {
                set,
                origins: bundle.origins,
            },
        })
    }

    /// A side from the text of a published interop bundle; `file` is how the file
    /// is named in locations.
    pub fn from_bundle_text(file: &str, text: &str) -> Result<Side, Diagnostics> {
        let document = json_text::parse_named(file, text)?;
        let at = |pointer: &str, message: String| -> Diagnostics {
            Diagnostic::at(
                file,
                document.nearest_position(pointer),
                Some(pointer.to_owned()),
                message,
            )
            .into()
        };
        let root = document.value.as_object().ok_or_else(|| {
            at(
                "",
                "a published bundle is a JSON object; pass a bundle file or a schema directory"
                    .into(),
            )
        })?;
        match root.get("x-cgp-profile").and_then(Value::as_str) {
            Some("interop") => {}
            Some("strict") => return Err(at("/x-cgp-profile", "this is the strict bundle; compare interop bundles (the receiver's contract), e.g. interop.schema.json beside it".into())),
            _ => return Err(at("", "not a published interop bundle (no `\"x-cgp-profile\": \"interop\"`); pass interop.schema.json or a schema directory".into())),
        }
        let version = root
            .get("x-cgp-protocol-version")
            .and_then(Value::as_str)
            .ok_or_else(|| at("", "the bundle declares no `x-cgp-protocol-version`".into()))?
            .parse::<ProtocolVersion>()
            .map_err(|error| at("/x-cgp-protocol-version", error.to_string()))?;
        if !root.get("oneOf").is_some_and(Value::is_array) {
            return Err(at(
                "",
                "the bundle lists no envelope variants in `oneOf`".into(),
            ));
        }
        let defs = root.get("$defs").and_then(Value::as_object);
        let mut problems = Vec::new();
        crate::keywords::walk(&document.value, "", &mut |schema, pointer| {
            let Some(reference) = schema.get("$ref") else {
                return;
            };
            let resolves = reference
                .as_str()
                .and_then(definition_name)
                .is_some_and(|name| defs.is_some_and(|defs| defs.contains_key(&name)));
            if !resolves {
                let at = format!("{pointer}/$ref");
                problems.push(Diagnostic::at(
                    file,
                    document.nearest_position(&at),
                    Some(at),
                    format!(
                        "`$ref` {reference} does not name an entry of the bundle's `$defs`; a published bundle has only local `#/$defs/<Name>` references"
                    ),
                ));
            }
        });
        if let Some(defs) = defs {
            reference_cycles(defs, &mut |name, cycle| {
                let at = format!("/$defs/{}/$ref", json_text::escape_token(name));
                problems.push(Diagnostic::at(
                    file,
                    document.nearest_position(&at),
                    Some(at),
                    format!("`$ref` cycle with no schema in between: {cycle}"),
                ));
            });
        }
        if !problems.is_empty() {
            return Err(Diagnostics(problems));
        }
        Ok(Side {
            display: file.to_owned(),
            version,
            directions: TypeGraph::of(&document.value).directions(),
            document: document.value.clone(),
            positions: Positions::Bundle {
                file: file.to_owned(),
                document,
            },
        })
    }

    /// How the input is named: the schema directory or the bundle file as given.
    pub fn display(&self) -> &str {
        &self.display
    }

    /// The protocol version this side declares.
    pub fn version(&self) -> &ProtocolVersion {
        &self.version
    }

    /// The interop bundle document compared.
    pub fn document(&self) -> &Value {
        &self.document
    }

    /// The `file:line` behind a pointer into this side's bundle document; a
    /// pointer to something missing gives the closest enclosing schema.
    pub fn locate(&self, bundle_pointer: &str) -> Option<Location> {
        match &self.positions {
            Positions::Bundle { file, document } => Some(Location {
                file: file.clone(),
                line: document.nearest_position(bundle_pointer).line,
            }),
            Positions::Source { set, origins } => {
                let target = origins.locate(bundle_pointer)?;
                let file = set.files.get(&target.path)?;
                Some(Location {
                    file: set.shown(&target.path),
                    line: file.document.nearest_position(&target.pointer).line,
                })
            }
        }
    }

    fn definition(&self, name: &str) -> Option<&Value> {
        self.document.get("$defs")?.get(name)
    }

    fn type_directions(&self, name: &str) -> BTreeSet<Direction> {
        self.directions.get(name).cloned().unwrap_or_default()
    }
}

/// The `$defs` name a local reference `#/$defs/<Name>` names.
fn definition_name(reference: &str) -> Option<String> {
    let rest = reference.strip_prefix("#/$defs/")?;
    let tokens = json_text::pointer_tokens(&format!("/{rest}"));
    match tokens.as_slice() {
        [name] => Some(name.clone()),
        _ => None,
    }
}

/// Calls `found` once for each chain of `$defs` entries that are nothing but a
/// `$ref` to the next and that comes back to its start (`A -> B -> A`), naming
/// the chain from its first entry in name order. Such a chain constrains nothing
/// and would send a comparison round in circles.
fn reference_cycles(defs: &Map<String, Value>, found: &mut dyn FnMut(&str, String)) {
    let next = |name: &str| {
        let target = defs
            .get(name)
            .and_then(Value::as_object)
            .and_then(source::pure_reference)
            .and_then(definition_name)?;
        defs.get_key_value(&target).map(|(key, _)| key.as_str())
    };
    for start in defs.keys() {
        let mut chain = vec![start.as_str()];
        while let Some(current) = chain.last().copied() {
            let Some(following) = next(current) else {
                break;
            };
            if let Some(loop_start) = chain.iter().position(|seen| *seen == following) {
                let is_first = chain.iter().all(|name| *name >= start.as_str());
                if loop_start == 0 && is_first {
                    chain.push(following);
                    found(start, chain.join(" -> "));
                }
                break;
            }
            chain.push(following);
        }
    }
}

/// Compares two versions and lists every change with the bump it requires.
pub fn classify(old: &Side, new: &Side) -> Comparison {
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

/// Where the walk is: the reported pointer, the pointer into each bundle, and the
/// directions the schema travels in.
#[derive(Debug, Clone)]
struct Place {
    pointer: String,
    old_at: String,
    new_at: String,
    directions: BTreeSet<Direction>,
}

impl Place {
    fn member(&self, old_name: &str, new_name: &str) -> Place {
        Place {
            pointer: format!("{}/{}", self.pointer, json_text::escape_token(new_name)),
            old_at: format!(
                "{}/properties/{}",
                self.old_at,
                json_text::escape_token(old_name)
            ),
            new_at: format!(
                "{}/properties/{}",
                self.new_at,
                json_text::escape_token(new_name)
            ),
            directions: self.directions.clone(),
        }
    }

    fn keyword(&self, keyword: &str) -> Place {
        let token = json_text::escape_token(keyword);
        Place {
            pointer: self.pointer.clone(),
            old_at: format!("{}/{token}", self.old_at),
            new_at: format!("{}/{token}", self.new_at),
            directions: self.directions.clone(),
        }
    }

    fn items(&self) -> Place {
        Place {
            pointer: format!("{}/items", self.pointer),
            ..self.keyword("items")
        }
    }
}

/// Keywords that only document: a change to them is [`Rule::DocumentationChanged`].
const DOCUMENTATION: &[&str] = &[
    "title",
    "description",
    "examples",
    "$comment",
    "x-cgp-spec",
    "readOnly",
    "writeOnly",
];

/// Keywords not compared: they name versions (which the version gate judges), are
/// derived by the bundler, or are compared by their own step of the walk.
const NOT_COMPARED: &[&str] = &[
    "$schema",
    "$id",
    "$anchor",
    "$dynamicAnchor",
    "$vocabulary",
    "$defs",
    "$ref",
    "x-cgp-protocol-version",
    "x-cgp-profile",
    "x-cgp-since",
    "x-cgp-direction",
    "x-cgp-vocabulary",
    "x-cgp-tag",
    "discriminator",
    "default",
    "x-cgp-emit",
    "deprecated",
    "type",
    "enum",
    "const",
    "properties",
    "required",
    "items",
];

/// Lower bounds: a larger value accepts less.
const LOWER_BOUNDS: &[&str] = &[
    "minimum",
    "exclusiveMinimum",
    "minLength",
    "minItems",
    "minProperties",
    "minContains",
];

/// Upper bounds: a smaller value accepts less.
const UPPER_BOUNDS: &[&str] = &[
    "maximum",
    "exclusiveMaximum",
    "maxLength",
    "maxItems",
    "maxProperties",
    "maxContains",
];

/// What a schema object is, for the comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    /// An open vocabulary (any string) with its known values and the bundle
    /// pointer of the `enum` that lists them.
    Vocabulary(Vec<String>, String),
    /// A tagged union on the given member.
    Union(String),
    /// Anything else, compared keyword by keyword.
    Plain,
}

impl Kind {
    fn of(schema: &Map<String, Value>, document: &Value) -> Kind {
        if let (Some(tag), Some(Value::Array(_))) = (
            schema.get("x-cgp-tag").and_then(Value::as_str),
            schema.get("oneOf"),
        ) {
            return Kind::Union(tag.to_owned());
        }
        if schema.get("x-cgp-vocabulary").and_then(Value::as_str) == Some("open") {
            let value = Value::Object(schema.clone());
            if let Ok(known) = source::open_vocabulary_values(&value, document) {
                let listed = schema
                    .get("oneOf")
                    .and_then(|branches| branches.get(0))
                    .and_then(|branch| branch.get("$ref"))
                    .and_then(Value::as_str)
                    .and_then(|reference| reference.strip_prefix('#'))
                    .map(|pointer| format!("{pointer}/enum"))
                    .unwrap_or_default();
                return Kind::Vocabulary(known, listed);
            }
        }
        Kind::Plain
    }
}

struct Walker<'s> {
    old: &'s Side,
    new: &'s Side,
    changes: Vec<Change>,
    visited: BTreeSet<(String, String)>,
}

impl Walker<'_> {
    fn report(&mut self, rule: Rule, place: &Place, message: String) {
        self.changes.push(Change {
            rule,
            pointer: place.pointer.clone(),
            old: self.old.locate(&place.old_at),
            new: self.new.locate(&place.new_at),
            required_bump: rule.bump(&place.directions),
            directions: place.directions.clone(),
            message,
        });
    }

    fn envelope(&mut self) {
        let old_root = self.old.document.as_object();
        let new_root = self.new.document.as_object();
        let (Some(old_root), Some(new_root)) = (old_root, new_root) else {
            return;
        };
        let root = Place {
            pointer: "/Envelope".into(),
            old_at: String::new(),
            new_at: String::new(),
            directions: BTreeSet::from([Direction::HostToProvider, Direction::ProviderToHost]),
        };
        self.annotations(&root, old_root, new_root);
        let old_variants = variants(old_root);
        let new_variants = variants(new_root);
        for (tag, (index, direction, _)) in &old_variants {
            if !new_variants.contains_key(tag) {
                let place = Place {
                    pointer: format!("/{}", json_text::escape_token(tag)),
                    old_at: format!("/oneOf/{index}"),
                    new_at: "/oneOf".into(),
                    directions: direction.iter().copied().collect(),
                };
                self.report(
                    Rule::VariantRemoved,
                    &place,
                    format!("the envelope variant `{tag}` was removed"),
                );
            }
        }
        for (tag, (new_index, new_direction, new_body)) in &new_variants {
            let mut place = Place {
                pointer: format!("/{}", json_text::escape_token(tag)),
                old_at: "/oneOf".into(),
                new_at: format!("/oneOf/{new_index}"),
                directions: new_direction.iter().copied().collect(),
            };
            let Some((old_index, old_direction, old_body)) = old_variants.get(tag) else {
                self.report(
                    Rule::VariantAdded,
                    &place,
                    format!(
                        "the envelope variant `{tag}` was added; send it only to peers that signalled support"
                    ),
                );
                continue;
            };
            place.old_at = format!("/oneOf/{old_index}");
            place.directions.extend(old_direction.iter().copied());
            if old_direction != new_direction {
                let show = |direction: &Option<Direction>| {
                    direction.map_or("no direction", |direction| direction.as_str())
                };
                self.report(
                    Rule::VariantDirectionChanged,
                    &place.keyword("x-cgp-direction"),
                    format!(
                        "the variant `{tag}` changed direction from {} to {}",
                        show(old_direction),
                        show(new_direction)
                    ),
                );
            }
            self.schema(&place, old_body, new_body, 0);
        }
    }

    /// Compares two schemas at `place`: their annotations, then what they accept.
    fn schema(&mut self, place: &Place, old: &Value, new: &Value, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let (Some(old_map), Some(new_map)) = (old.as_object(), new.as_object()) else {
            if old != new {
                self.report(
                    Rule::ValueSetChanged,
                    place,
                    format!("the schema changed from `{old}` to `{new}`"),
                );
            }
            return;
        };
        self.annotations(place, old_map, new_map);
        let (old_inner, old_wrapped) = unwrap_nullable(old_map);
        let (new_inner, new_wrapped) = unwrap_nullable(new_map);
        let mut inner = place.clone();
        if old_wrapped {
            inner.old_at = format!("{}/anyOf/0", place.old_at);
        }
        if new_wrapped {
            inner.new_at = format!("{}/anyOf/0", place.new_at);
        }
        let old_null = old_wrapped || type_names(old_map).contains("null");
        let new_null = new_wrapped || type_names(new_map).contains("null");
        if old_null && !new_null {
            self.report(
                Rule::ValueSetNarrowed,
                place,
                "`null` is no longer accepted".into(),
            );
        } else if new_null && !old_null {
            self.report(
                Rule::ValueSetWidened,
                place,
                "`null` is now accepted".into(),
            );
        }
        self.value(&inner, old_inner, new_inner, depth);
    }

    /// Compares what two schemas accept, following `$ref`s.
    fn value(
        &mut self,
        place: &Place,
        old: &Map<String, Value>,
        new: &Map<String, Value>,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let old_ref = reference(old);
        let new_ref = reference(new);
        match (old_ref, new_ref) {
            (Some(old_name), Some(new_name)) => {
                self.assertions(place, old, new, depth);
                self.types(&old_name, &new_name, depth);
            }
            (Some(old_name), None) => {
                let Some(target) = self.old.definition(&old_name).and_then(Value::as_object) else {
                    return;
                };
                let resolved = Place {
                    old_at: format!("/$defs/{}", json_text::escape_token(&old_name)),
                    ..place.clone()
                };
                self.value(&resolved, target, new, depth + 1);
            }
            (None, Some(new_name)) => {
                let Some(target) = self.new.definition(&new_name).and_then(Value::as_object) else {
                    return;
                };
                let resolved = Place {
                    new_at: format!("/$defs/{}", json_text::escape_token(&new_name)),
                    ..place.clone()
                };
                self.value(&resolved, old, target, depth + 1);
            }
            (None, None) => self.assertions(place, old, new, depth),
        }
    }

    /// Compares two named types, once per pair.
    fn types(&mut self, old_name: &str, new_name: &str, depth: usize) {
        if !self
            .visited
            .insert((old_name.to_owned(), new_name.to_owned()))
        {
            return;
        }
        let (Some(old), Some(new)) = (self.old.definition(old_name), self.new.definition(new_name))
        else {
            return;
        };
        let mut directions = self.old.type_directions(old_name);
        directions.extend(self.new.type_directions(new_name));
        let place = Place {
            pointer: format!("/{}", json_text::escape_token(new_name)),
            old_at: format!("/$defs/{}", json_text::escape_token(old_name)),
            new_at: format!("/$defs/{}", json_text::escape_token(new_name)),
            directions,
        };
        if old_name != new_name
            && self.new.definition(old_name).is_none()
            && self.old.definition(new_name).is_none()
        {
            self.report(
                Rule::TypeRenamed,
                &place,
                format!("the type `{old_name}` was renamed to `{new_name}`"),
            );
        }
        if old_name == new_name {
            self.schema(&place, old, new, depth + 1);
        } else {
            // The title is the type's name: a new name is the rename, not a
            // documentation change.
            let untitled = |schema: &Value| {
                let mut schema = schema.clone();
                if let Some(map) = schema.as_object_mut() {
                    map.shift_remove("title");
                }
                schema
            };
            self.schema(&place, &untitled(old), &untitled(new), depth + 1);
        }
    }

    /// Documentation, defaults, emit rules and deprecation of one schema object.
    fn annotations(&mut self, place: &Place, old: &Map<String, Value>, new: &Map<String, Value>) {
        let documented: Vec<&str> = DOCUMENTATION
            .iter()
            .copied()
            .filter(|keyword| old.get(*keyword) != new.get(*keyword))
            .collect();
        if let Some(first) = documented.first() {
            let names: Vec<String> = documented.iter().map(|k| format!("`{k}`")).collect();
            self.report(
                Rule::DocumentationChanged,
                &place.keyword(first),
                format!("{} changed (documentation only)", names.join(", ")),
            );
        }
        match (old.get("default"), new.get("default")) {
            (Some(before), Some(after)) if before != after => self.report(
                Rule::DefaultChanged,
                &place.keyword("default"),
                format!(
                    "the default changed from `{}` to `{}`",
                    show(before),
                    show(after)
                ),
            ),
            (None, Some(after)) => self.report(
                Rule::DefaultChanged,
                &place.keyword("default"),
                format!("the default `{}` was added", show(after)),
            ),
            (Some(before), None) => self.report(
                Rule::DefaultChanged,
                &place.keyword("default"),
                format!("the default `{}` was removed", show(before)),
            ),
            _ => {}
        }
        if let (Some(before), Some(after)) = (old.get("x-cgp-emit"), new.get("x-cgp-emit")) {
            if before != after {
                self.report(
                    Rule::EmitChanged,
                    &place.keyword("x-cgp-emit"),
                    format!(
                        "`x-cgp-emit` changed from `{}` to `{}`",
                        show(before),
                        show(after)
                    ),
                );
            }
        }
        let deprecated =
            |map: &Map<String, Value>| map.get("deprecated") == Some(&Value::Bool(true));
        match (deprecated(old), deprecated(new)) {
            (false, true) => self.report(
                Rule::DeprecationChanged,
                &place.keyword("deprecated"),
                "now deprecated".into(),
            ),
            (true, false) => self.report(
                Rule::DeprecationChanged,
                &place.keyword("deprecated"),
                "no longer deprecated".into(),
            ),
            _ => {}
        }
    }

    /// Everything two schema objects assert, keyword by keyword.
    fn assertions(
        &mut self,
        place: &Place,
        old: &Map<String, Value>,
        new: &Map<String, Value>,
        depth: usize,
    ) {
        let old_kind = Kind::of(old, &self.old.document);
        let new_kind = Kind::of(new, &self.new.document);
        match (&old_kind, &new_kind) {
            (Kind::Union(old_tag), Kind::Union(new_tag)) => {
                self.union(place, old, new, old_tag, new_tag, depth);
                return;
            }
            (Kind::Union(_), _) => {
                self.report(
                    Rule::ValueSetChanged,
                    place,
                    "is no longer a tagged union".into(),
                );
                return;
            }
            (_, Kind::Union(_)) => {
                self.report(Rule::ValueSetChanged, place, "is now a tagged union".into());
                return;
            }
            _ => {}
        }
        self.json_types(place, old, new, &old_kind, &new_kind);
        self.values(place, old, new, &old_kind, &new_kind);
        let vocabulary =
            matches!(old_kind, Kind::Vocabulary(..)) || matches!(new_kind, Kind::Vocabulary(..));
        let keywords: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
        for keyword in keywords {
            let keyword = keyword.as_str();
            if DOCUMENTATION.contains(&keyword) || NOT_COMPARED.contains(&keyword) {
                continue;
            }
            if vocabulary && matches!(keyword, "oneOf") {
                continue;
            }
            let before = old.get(keyword);
            let after = new.get(keyword);
            if LOWER_BOUNDS.contains(&keyword) || UPPER_BOUNDS.contains(&keyword) {
                self.bound(place, keyword, before, after);
            } else {
                self.keyword(place, keyword, before, after);
            }
        }
        match (old.get("items"), new.get("items")) {
            (Some(before), Some(after)) => self.schema(&place.items(), before, after, depth + 1),
            (before, after) => self.keyword(place, "items", before, after),
        }
        let is_object = |map: &Map<String, Value>| {
            map.contains_key("properties")
                || map.contains_key("required")
                || map.get("type").and_then(Value::as_str) == Some("object")
        };
        if is_object(old) || is_object(new) {
            self.object(place, old, new, depth);
        }
    }

    /// The JSON types: a change of type is breaking; `integer` ↔ `number` is a
    /// narrowing or a widening.
    fn json_types(
        &mut self,
        place: &Place,
        old: &Map<String, Value>,
        new: &Map<String, Value>,
        old_kind: &Kind,
        new_kind: &Kind,
    ) {
        let place = &place.keyword("type");
        match (json_types(old, old_kind), json_types(new, new_kind)) {
            (Some(before), Some(after)) if before != after => {
                let general = |types: &BTreeSet<String>| -> BTreeSet<String> {
                    types
                        .iter()
                        .map(|t| {
                            if t == "integer" {
                                "number".to_owned()
                            } else {
                                t.clone()
                            }
                        })
                        .collect()
                };
                let list = |types: &BTreeSet<String>| {
                    types
                        .iter()
                        .map(|t| format!("`{t}`"))
                        .collect::<Vec<_>>()
                        .join(" or ")
                };
                if general(&before) != general(&after) {
                    self.report(
                        Rule::TypeChanged,
                        place,
                        format!(
                            "the JSON type changed from {} to {}",
                            list(&before),
                            list(&after)
                        ),
                    );
                } else if after.contains("number") && !before.contains("number") {
                    self.report(
                        Rule::ValueSetWidened,
                        place,
                        "numbers with a fraction are now accepted (`integer` became `number`)"
                            .into(),
                    );
                } else {
                    self.report(
                        Rule::ValueSetNarrowed,
                        place,
                        "only integers are accepted now (`number` became `integer`)".into(),
                    );
                }
            }
            (None, Some(after)) => self.report(
                Rule::ValueSetNarrowed,
                place,
                format!(
                    "values are now restricted to the JSON type {}",
                    after
                        .iter()
                        .map(|t| format!("`{t}`"))
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
            ),
            (Some(before), None) => self.report(
                Rule::ValueSetWidened,
                place,
                format!(
                    "values are no longer restricted to the JSON type {}",
                    before
                        .iter()
                        .map(|t| format!("`{t}`"))
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
            ),
            _ => {}
        }
    }

    /// Enumerations, constants and the known values of open vocabularies.
    fn values(
        &mut self,
        place: &Place,
        old: &Map<String, Value>,
        new: &Map<String, Value>,
        old_kind: &Kind,
        new_kind: &Kind,
    ) {
        let at = |map: &Map<String, Value>| {
            if map.contains_key("const") {
                "const"
            } else {
                "enum"
            }
        };
        let place_values = Place {
            old_at: format!("{}/{}", place.old_at, at(old)),
            new_at: format!("{}/{}", place.new_at, at(new)),
            ..place.clone()
        };
        match (value_set(old), value_set(new)) {
            (Some(before), Some(after)) => {
                for value in after.iter().filter(|value| !before.contains(value)) {
                    self.report(
                        Rule::EnumValueAdded,
                        &place_values,
                        format!(
                            "the closed enumeration gains `{}`; send it only to peers that signalled support",
                            show(value)
                        ),
                    );
                }
                let removed: Vec<String> = before
                    .iter()
                    .filter(|value| !after.contains(value))
                    .map(|value| format!("`{}`", show(value)))
                    .collect();
                if !removed.is_empty() {
                    self.report(
                        Rule::ValueSetNarrowed,
                        &place_values,
                        format!(
                            "{} {} no longer accepted",
                            removed.join(", "),
                            if removed.len() == 1 { "is" } else { "are" }
                        ),
                    );
                }
            }
            (None, Some(after)) => {
                let listed = after
                    .iter()
                    .map(|v| format!("`{}`", show(v)))
                    .collect::<Vec<_>>()
                    .join(", ");
                let message = if matches!(old_kind, Kind::Vocabulary(..)) {
                    format!("the open vocabulary is now closed: only {listed} are accepted")
                } else {
                    format!("values are now restricted to {listed}")
                };
                self.report(Rule::ValueSetNarrowed, &place_values, message);
            }
            (Some(before), None) => {
                let listed = before
                    .iter()
                    .map(|v| format!("`{}`", show(v)))
                    .collect::<Vec<_>>()
                    .join(", ");
                let message = if matches!(new_kind, Kind::Vocabulary(..)) {
                    format!(
                        "the closed enumeration of {listed} is now an open vocabulary: any string is accepted"
                    )
                } else {
                    format!("values are no longer restricted to {listed}")
                };
                self.report(Rule::ValueSetWidened, &place_values, message);
            }
            (None, None) => {}
        }
        if let (Kind::Vocabulary(before, old_at), Kind::Vocabulary(after, new_at)) =
            (old_kind, new_kind)
        {
            let place = &Place {
                old_at: old_at.clone(),
                new_at: new_at.clone(),
                ..place.clone()
            };
            for value in after.iter().filter(|value| !before.contains(value)) {
                self.report(
                    Rule::VocabularyValueAdded,
                    place,
                    format!("the open vocabulary gains the known value `{value}`"),
                );
            }
            for value in before.iter().filter(|value| !after.contains(value)) {
                self.report(
                    Rule::VocabularyValueRemoved,
                    place,
                    format!(
                        "the open vocabulary no longer names `{value}`; receivers now treat it with the fallback"
                    ),
                );
            }
        }
    }

    /// A numeric bound: tighter accepts less, looser accepts more.
    fn bound(
        &mut self,
        place: &Place,
        keyword: &str,
        before: Option<&Value>,
        after: Option<&Value>,
    ) {
        let lower = LOWER_BOUNDS.contains(&keyword);
        let at = place.keyword(keyword);
        match (before, after) {
            (Some(before), Some(after)) if before != after => {
                match (before.as_f64(), after.as_f64()) {
                    (Some(b), Some(a)) if a != b => {
                        let tighter = if lower { a > b } else { a < b };
                        let (rule, verb) = if tighter {
                            (
                                Rule::ValueSetNarrowed,
                                if lower { "raised" } else { "lowered" },
                            )
                        } else {
                            (
                                Rule::ValueSetWidened,
                                if lower { "lowered" } else { "raised" },
                            )
                        };
                        self.report(
                            rule,
                            &at,
                            format!("`{keyword}` {verb} from {before} to {after}"),
                        );
                    }
                    _ => self.report(
                        Rule::ValueSetChanged,
                        &at,
                        format!("`{keyword}` changed from {before} to {after}"),
                    ),
                }
            }
            (before, after) => self.keyword(place, keyword, before, after),
        }
    }

    /// Any other assertion keyword: adding one accepts less, removing one accepts
    /// more, replacing one is a change the classifier cannot order.
    fn keyword(
        &mut self,
        place: &Place,
        keyword: &str,
        before: Option<&Value>,
        after: Option<&Value>,
    ) {
        let before = before.filter(|value| !is_neutral(keyword, value));
        let after = after.filter(|value| !is_neutral(keyword, value));
        let at = place.keyword(keyword);
        match (before, after) {
            (None, None) => {}
            (Some(before), Some(after)) if before == after => {}
            (None, Some(after)) => self.report(
                Rule::ValueSetNarrowed,
                &at,
                format!("`{keyword}` {} was added", show(after)),
            ),
            (Some(before), None) => self.report(
                Rule::ValueSetWidened,
                &at,
                format!("`{keyword}` {} was removed", show(before)),
            ),
            (Some(before), Some(after)) => self.report(
                Rule::ValueSetChanged,
                &at,
                format!(
                    "`{keyword}` changed from {} to {}",
                    show(before),
                    show(after)
                ),
            ),
        }
    }

    /// Members of an object: added, removed, renamed, required, and each common one.
    fn object(
        &mut self,
        place: &Place,
        old: &Map<String, Value>,
        new: &Map<String, Value>,
        depth: usize,
    ) {
        let empty = Map::new();
        let old_members = old
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let new_members = new
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let old_required = required(old);
        let new_required = required(new);
        let removed: Vec<&String> = old_members
            .keys()
            .filter(|name| !new_members.contains_key(*name))
            .collect();
        let added: Vec<&String> = new_members
            .keys()
            .filter(|name| !old_members.contains_key(*name))
            .collect();
        let same = |old_name: &String, new_name: &String| {
            let before = old_members.get(old_name).map(essence);
            let after = new_members.get(new_name).map(essence);
            before.is_some()
                && before == after
                && old_required.contains(old_name) == new_required.contains(new_name)
        };
        let mut renamed: Vec<(&String, &String)> = Vec::new();
        for old_name in &removed {
            let matches: Vec<&&String> = added
                .iter()
                .filter(|new_name| same(old_name, new_name))
                .collect();
            if let [new_name] = matches.as_slice() {
                let rivals = removed.iter().filter(|other| same(other, new_name)).count();
                if rivals == 1 {
                    renamed.push((old_name, new_name));
                }
            }
        }
        for old_name in removed {
            let member = place.member(old_name, old_name);
            match renamed.iter().find(|(from, _)| *from == old_name) {
                Some((_, new_name)) => self.report(
                    Rule::FieldRenamed,
                    &place.member(old_name, new_name),
                    format!(
                        "the member `{old_name}` was renamed to `{new_name}` (removed, and added with the same schema); deprecate it instead (SPEC U4)"
                    ),
                ),
                None => self.report(
                    Rule::FieldRemoved,
                    &member,
                    format!("the member `{old_name}` was removed; deprecate it instead (SPEC U4)"),
                ),
            }
        }
        for new_name in added {
            if renamed.iter().any(|(_, to)| *to == new_name) {
                continue;
            }
            let member = place.member(new_name, new_name);
            if new_required.contains(new_name) {
                self.report(
                    Rule::FieldAddedRequired,
                    &member,
                    format!("the required member `{new_name}` was added"),
                );
            } else {
                self.report(
                    Rule::FieldAddedOptional,
                    &member,
                    format!("the optional member `{new_name}` was added"),
                );
            }
        }
        for (name, before) in old_members {
            let Some(after) = new_members.get(name) else {
                continue;
            };
            let member = place.member(name, name);
            match (old_required.contains(name), new_required.contains(name)) {
                (false, true) => self.report(
                    Rule::FieldMadeRequired,
                    &member,
                    format!("the member `{name}` is now required"),
                ),
                (true, false) => self.report(
                    Rule::FieldMadeOptional,
                    &member,
                    format!("the member `{name}` is no longer required"),
                ),
                _ => {}
            }
            self.schema(&member, before, after, depth + 1);
        }
    }

    /// The branches of a tagged union, matched by their tag value.
    fn union(
        &mut self,
        place: &Place,
        old: &Map<String, Value>,
        new: &Map<String, Value>,
        old_tag: &str,
        new_tag: &str,
        depth: usize,
    ) {
        if old_tag != new_tag {
            self.report(
                Rule::ValueSetChanged,
                &place.keyword("x-cgp-tag"),
                format!("the union's tag member changed from `{old_tag}` to `{new_tag}`"),
            );
            return;
        }
        let old_branches = branches(old, old_tag);
        let new_branches = branches(new, new_tag);
        let branch_place = |value: &str, old_at: String, new_at: String| Place {
            pointer: format!("{}/{}", place.pointer, json_text::escape_token(value)),
            old_at,
            new_at,
            directions: place.directions.clone(),
        };
        for (value, (index, _)) in &old_branches {
            if !new_branches.contains_key(value) {
                let at = branch_place(
                    value,
                    format!("{}/oneOf/{index}", place.old_at),
                    format!("{}/oneOf", place.new_at),
                );
                self.report(
                    Rule::VariantRemoved,
                    &at,
                    format!("the `{old_tag}` branch `{value}` was removed"),
                );
            }
        }
        for (value, (new_index, after)) in &new_branches {
            let new_at = format!("{}/oneOf/{new_index}", place.new_at);
            match old_branches.get(value) {
                None => {
                    let at = branch_place(value, format!("{}/oneOf", place.old_at), new_at);
                    self.report(
                        Rule::VariantAdded,
                        &at,
                        format!(
                            "the `{new_tag}` branch `{value}` was added; send it only to peers that signalled support"
                        ),
                    );
                }
                Some((old_index, before)) => {
                    let at =
                        branch_place(value, format!("{}/oneOf/{old_index}", place.old_at), new_at);
                    self.schema(&at, before, after, depth + 1);
                }
            }
        }
    }
}

/// The inline variants of a bundle, by tag: index, direction and body.
fn variants(root: &Map<String, Value>) -> BTreeMap<String, (usize, Option<Direction>, &Value)> {
    let mut found = BTreeMap::new();
    let Some(Value::Array(list)) = root.get("oneOf") else {
        return found;
    };
    for (index, body) in list.iter().enumerate() {
        let Some(tag) = body
            .pointer("/properties/type/const")
            .and_then(Value::as_str)
        else {
            continue;
        };
        let direction = body
            .get("x-cgp-direction")
            .and_then(Value::as_str)
            .and_then(graph::parse_direction);
        found
            .entry(tag.to_owned())
            .or_insert((index, direction, body));
    }
    found
}

/// The branches of a tagged union, by the value of their tag member.
fn branches<'v>(union: &'v Map<String, Value>, tag: &str) -> BTreeMap<String, (usize, &'v Value)> {
    let mut found = BTreeMap::new();
    let Some(Value::Array(list)) = union.get("oneOf") else {
        return found;
    };
    for (index, branch) in list.iter().enumerate() {
        let value = branch
            .get("properties")
            .and_then(|properties| properties.get(tag))
            .and_then(|member| member.get("const"))
            .map(show);
        if let Some(value) = value {
            found.entry(value).or_insert((index, branch));
        }
    }
    found
}

/// The interop profile writes an optional `$ref` member as `anyOf: [{"$ref": …},
/// {"type": "null"}]`; this returns the referenced branch and whether it was so
/// wrapped.
fn unwrap_nullable(schema: &Map<String, Value>) -> (&Map<String, Value>, bool) {
    if let Some(Value::Array(branches)) = schema.get("anyOf") {
        if let [Value::Object(first), Value::Object(second)] = branches.as_slice() {
            let is_null = second.len() == 1 && second.get("type") == Some(&json!("null"));
            if is_null && first.contains_key("$ref") {
                return (first, true);
            }
        }
    }
    (schema, false)
}

/// The `$defs` name a schema refers to, if it is a reference.
fn reference(schema: &Map<String, Value>) -> Option<String> {
    schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(definition_name)
}

/// The names in `type`, a string or an array of strings.
fn type_names(schema: &Map<String, Value>) -> BTreeSet<String> {
    let (names, nullable) = crate::keywords::declared_types(schema);
    let mut names: BTreeSet<String> = names.into_iter().collect();
    if nullable {
        names.insert("null".to_owned());
    }
    names
}

/// The JSON types a schema allows besides `null`: its `type`, `string` for an open
/// vocabulary, or the types of its `enum`/`const` values. `None` means any type.
fn json_types(schema: &Map<String, Value>, kind: &Kind) -> Option<BTreeSet<String>> {
    let mut names = type_names(schema);
    names.remove("null");
    if !names.is_empty() {
        return Some(names);
    }
    if matches!(kind, Kind::Vocabulary(..)) {
        return Some(BTreeSet::from(["string".to_owned()]));
    }
    let values = value_set(schema)?;
    let inferred: BTreeSet<String> = values
        .iter()
        .filter_map(|value| match value {
            Value::Null => None,
            Value::Bool(_) => Some("boolean"),
            Value::Number(number) if number.is_f64() => Some("number"),
            Value::Number(_) => Some("integer"),
            Value::String(_) => Some("string"),
            Value::Array(_) => Some("array"),
            Value::Object(_) => Some("object"),
        })
        .map(str::to_owned)
        .collect();
    (!inferred.is_empty()).then_some(inferred)
}

/// The values a schema is restricted to by `const` or `enum`.
fn value_set(schema: &Map<String, Value>) -> Option<Vec<Value>> {
    if let Some(value) = schema.get("const") {
        return Some(vec![value.clone()]);
    }
    schema.get("enum").and_then(Value::as_array).cloned()
}

/// The names in `required`.
fn required(schema: &Map<String, Value>) -> BTreeSet<String> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| {
            names
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// A keyword value that asserts nothing, the same as leaving the keyword out.
fn is_neutral(keyword: &str, value: &Value) -> bool {
    match keyword {
        "uniqueItems" => value == &Value::Bool(false),
        "additionalProperties" | "unevaluatedProperties" | "unevaluatedItems" => {
            value == &Value::Bool(true) || value == &json!({})
        }
        "minLength" | "minItems" | "minProperties" => value.as_f64() == Some(0.0),
        _ => false,
    }
}

/// A schema without its documentation and version bookkeeping, to recognise a
/// renamed member.
fn essence(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(key, _)| {
                    !DOCUMENTATION.contains(&key.as_str()) && key.as_str() != "x-cgp-since"
                })
                .map(|(key, value)| (key.clone(), essence(value)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(essence).collect()),
        other => other.clone(),
    }
}

/// A value as shown in a message: a string as itself, anything else as JSON.
fn show(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}
