//! The walk over two protocol models: variants by tag, named types once per
//! pair, annotations, nullability and references. What two shapes accept is
//! compared in [`assertions`](super::assertions).

use super::side::ComparedVersion;
use super::{Change, ChangeRule, MAX_DEPTH};
use cgp_schema::json_text;
use cgp_schema::keywords::DOCUMENTATION_KEYWORDS;
use cgp_schema::model::{self, Annotations, Member, Shape, Variant};
use cgp_types::Direction;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Where the walk is (a cursor, not a file place: that is `Location`): the
/// reported pointer, the pointer into each bundle, and the directions the
/// schema travels in.
#[derive(Debug, Clone)]
pub(super) struct Cursor {
    pub(super) pointer: String,
    pub(super) old_at: String,
    pub(super) new_at: String,
    pub(super) directions: BTreeSet<Direction>,
}

impl Cursor {
    /// A member of the object here, written at `old_at` and `new_at`.
    pub(super) fn member(&self, name: &str, old_at: String, new_at: String) -> Cursor {
        Cursor {
            pointer: format!("{}/{}", self.pointer, json_text::escape_token(name)),
            old_at,
            new_at,
            directions: self.directions.clone(),
        }
    }

    /// The keyword whose change a message names, for its file and line.
    pub(super) fn keyword(&self, keyword: &str) -> Cursor {
        let token = json_text::escape_token(keyword);
        Cursor {
            pointer: self.pointer.clone(),
            old_at: format!("{}/{token}", self.old_at),
            new_at: format!("{}/{token}", self.new_at),
            directions: self.directions.clone(),
        }
    }

    /// The elements of the array here.
    pub(super) fn items(&self) -> Cursor {
        Cursor {
            pointer: model::items_pointer(&self.pointer),
            old_at: model::items_pointer(&self.old_at),
            new_at: model::items_pointer(&self.new_at),
            directions: self.directions.clone(),
        }
    }
}

/// What `Shape::Null` leaves once `null` is taken out: no restriction of its own.
static ANY: Shape = Shape::Any;

pub(super) struct Walker<'s> {
    pub(super) old: &'s ComparedVersion,
    pub(super) new: &'s ComparedVersion,
    pub(super) changes: Vec<Change>,
    pub(super) visited: BTreeSet<(String, String)>,
}

impl Walker<'_> {
    pub(super) fn report(&mut self, rule: ChangeRule, place: &Cursor, message: String) {
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

    pub(super) fn envelope(&mut self) {
        let (old, new) = (&self.old.protocol, &self.new.protocol);
        let root = Cursor {
            pointer: "/Envelope".into(),
            old_at: String::new(),
            new_at: String::new(),
            directions: BTreeSet::from([Direction::HostToProvider, Direction::ProviderToHost]),
        };
        self.annotations(&root, &old.annotations, &new.annotations, false);
        let problems = (
            self.old.envelope_problem.clone(),
            self.new.envelope_problem.clone(),
        );
        if problems != (None, None) {
            self.unreadable_envelope(&root, problems);
            return;
        }
        let old_variants = variants(&old.variants);
        let new_variants = variants(&new.variants);
        let new_list = list_of(new.variants.first().map(|variant| &variant.at.pointer));
        let old_list = list_of(old.variants.first().map(|variant| &variant.at.pointer));
        for (tag, variant) in &old_variants {
            if !new_variants.contains_key(tag) {
                let place = Cursor {
                    pointer: format!("/{}", json_text::escape_token(tag)),
                    old_at: variant.at.pointer.clone(),
                    new_at: new_list.clone(),
                    directions: variant.direction().into_iter().collect(),
                };
                self.report(
                    ChangeRule::VariantRemoved,
                    &place,
                    format!("the envelope variant `{tag}` was removed"),
                );
            }
        }
        for (tag, after) in &new_variants {
            let mut place = Cursor {
                pointer: format!("/{}", json_text::escape_token(tag)),
                old_at: old_list.clone(),
                new_at: after.at.pointer.clone(),
                directions: after.direction().into_iter().collect(),
            };
            let Some(before) = old_variants.get(tag) else {
                self.report(
                    ChangeRule::VariantAdded,
                    &place,
                    format!(
                        "the envelope variant `{tag}` was added; send it only to peers that signalled support"
                    ),
                );
                continue;
            };
            place.old_at = before.at.pointer.clone();
            place.directions.extend(before.direction());
            if before.direction() != after.direction() {
                let show = |direction: Option<Direction>| {
                    direction.map_or("no direction", |direction| direction.as_str())
                };
                self.report(
                    ChangeRule::VariantDirectionChanged,
                    &place.keyword("x-cgp-direction"),
                    format!(
                        "the variant `{tag}` changed direction from {} to {}",
                        show(before.direction()),
                        show(after.direction())
                    ),
                );
            }
            self.annotations(&place, &before.annotations, &after.annotations, false);
            let before = Shape::Object(before.object.clone());
            let after = Shape::Object(after.object.clone());
            self.assertions(&place, &before, &after, 0);
        }
    }

    /// One or both envelopes are not a tagged union the model can read, so
    /// their variants cannot be matched.
    fn unreadable_envelope(&mut self, root: &Cursor, problems: (Option<String>, Option<String>)) {
        let message = match problems {
            (Some(before), Some(after)) => {
                if before == after && self.old.schema_at("") == self.new.schema_at("") {
                    return;
                }
                format!(
                    "the envelope changed, and the protocol model cannot read its variants ({after}), so the change cannot be ordered"
                )
            }
            (Some(before), None) => format!(
                "the protocol model cannot read the old envelope's variants ({before}), so the change cannot be ordered"
            ),
            (None, Some(after)) => format!(
                "the protocol model cannot read the new envelope's variants ({after}), so the change cannot be ordered"
            ),
            (None, None) => return,
        };
        self.report(ChangeRule::ValueSetChanged, root, message);
    }

    /// Compares two members' annotations, then what their values may be.
    pub(super) fn member(&mut self, place: &Cursor, old: &Member, new: &Member, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        self.annotations(place, &old.annotations, &new.annotations, false);
        self.accepted(place, &old.shape, &new.shape, depth);
    }

    /// Compares what two shapes accept: `null`, then everything else.
    pub(super) fn accepted(&mut self, place: &Cursor, old: &Shape, new: &Shape, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        if matches!(old, Shape::Unsupported(_)) || matches!(new, Shape::Unsupported(_)) {
            // Whether an undescribed schema accepts `null` is unknown too.
            self.undescribed(place, old, new);
            return;
        }
        let (old_inner, old_null) = without_null(old);
        let (new_inner, new_null) = without_null(new);
        if old_null && !new_null {
            self.report(
                ChangeRule::ValueSetNarrowed,
                place,
                "`null` is no longer accepted".into(),
            );
        } else if new_null && !old_null {
            self.report(
                ChangeRule::ValueSetWidened,
                place,
                "`null` is now accepted".into(),
            );
        }
        self.value(place, old_inner, new_inner, depth);
    }

    /// Compares what two non-null shapes accept, following named types.
    pub(super) fn value(&mut self, place: &Cursor, old: &Shape, new: &Shape, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        match (named(old), named(new)) {
            (Some(old_name), Some(new_name)) => {
                self.constraints(place, old, new);
                self.types(old_name, new_name, depth);
            }
            (Some(old_name), None) => {
                let Some(target) = self.old.protocol.named(old_name) else {
                    return;
                };
                let resolved = Cursor {
                    old_at: target.at.pointer.clone(),
                    ..place.clone()
                };
                self.value(&resolved, &target.shape, new, depth + 1);
            }
            (None, Some(new_name)) => {
                let Some(target) = self.new.protocol.named(new_name) else {
                    return;
                };
                let resolved = Cursor {
                    new_at: target.at.pointer.clone(),
                    ..place.clone()
                };
                self.value(&resolved, old, &target.shape, depth + 1);
            }
            (None, None) => self.assertions(place, old, new, depth),
        }
    }

    /// Compares two named types, once per pair.
    pub(super) fn types(&mut self, old_name: &str, new_name: &str, depth: usize) {
        if !self
            .visited
            .insert((old_name.to_owned(), new_name.to_owned()))
        {
            return;
        }
        let (old, new) = (
            self.old.protocol.named(old_name),
            self.new.protocol.named(new_name),
        );
        let (Some(old), Some(new)) = (old, new) else {
            return;
        };
        let mut directions = self.old.type_directions(old_name);
        directions.extend(self.new.type_directions(new_name));
        let place = Cursor {
            pointer: format!("/{}", json_text::escape_token(new_name)),
            old_at: old.at.pointer.clone(),
            new_at: new.at.pointer.clone(),
            directions,
        };
        let renamed = old_name != new_name;
        if renamed
            && self.new.protocol.named(old_name).is_none()
            && self.old.protocol.named(new_name).is_none()
        {
            self.report(
                ChangeRule::TypeRenamed,
                &place,
                format!("the type `{old_name}` was renamed to `{new_name}`"),
            );
        }
        // The title is the type's name: a new name is the rename, not a
        // documentation change.
        self.annotations(&place, &old.annotations, &new.annotations, renamed);
        self.accepted(&place, &old.shape, &new.shape, depth + 1);
    }

    /// Documentation, defaults, emit rules and deprecation of one schema.
    pub(super) fn annotations(
        &mut self,
        place: &Cursor,
        old: &Annotations,
        new: &Annotations,
        untitled: bool,
    ) {
        let documented: Vec<&str> = DOCUMENTATION_KEYWORDS
            .iter()
            .copied()
            .filter(|keyword| !(untitled && *keyword == "title"))
            .filter(|keyword| old.documentation(keyword) != new.documentation(keyword))
            .collect();
        if let Some(first) = documented.first() {
            let names: Vec<String> = documented.iter().map(|k| format!("`{k}`")).collect();
            self.report(
                ChangeRule::DocumentationChanged,
                &place.keyword(first),
                format!("{} changed (documentation only)", names.join(", ")),
            );
        }
        let at = place.keyword("default");
        match (&old.default, &new.default) {
            (Some(before), Some(after)) if before != after => self.report(
                ChangeRule::DefaultChanged,
                &at,
                format!(
                    "the default changed from `{}` to `{}`",
                    show(before),
                    show(after)
                ),
            ),
            (None, Some(after)) => self.report(
                ChangeRule::DefaultChanged,
                &at,
                format!("the default `{}` was added", show(after)),
            ),
            (Some(before), None) => self.report(
                ChangeRule::DefaultChanged,
                &at,
                format!("the default `{}` was removed", show(before)),
            ),
            _ => {}
        }
        if let (Some(before), Some(after)) = (old.emit, new.emit) {
            if before != after {
                self.report(
                    ChangeRule::EmitChanged,
                    &place.keyword("x-cgp-emit"),
                    format!(
                        "`x-cgp-emit` changed from `{}` to `{}`",
                        before.as_str(),
                        after.as_str()
                    ),
                );
            }
        }
        let at = place.keyword("deprecated");
        match (old.deprecated, new.deprecated) {
            (false, true) => {
                self.report(ChangeRule::DeprecationChanged, &at, "now deprecated".into())
            }
            (true, false) => {
                self.report(
                    ChangeRule::DeprecationChanged,
                    &at,
                    "no longer deprecated".into(),
                );
            }
            _ => {}
        }
    }
}

/// The variants by tag; the first of a tag wins.
fn variants(list: &[Variant]) -> BTreeMap<&str, &Variant> {
    let mut found = BTreeMap::new();
    for variant in list {
        found.entry(variant.tag.as_str()).or_insert(variant);
    }
    found
}

/// The pointer of the list an entry at `entry` belongs to (`/oneOf/2` → `/oneOf`),
/// where an entry one version lacks would be written.
pub(super) fn list_of(entry: Option<&String>) -> String {
    entry
        .and_then(|pointer| pointer.rsplit_once('/'))
        .map(|(list, _)| list.to_owned())
        .unwrap_or_default()
}

/// The shape without its `null` alternative, and whether it accepts `null`.
fn without_null(shape: &Shape) -> (&Shape, bool) {
    match shape {
        Shape::Null => (&ANY, true),
        other => other.without_null(),
    }
}

/// The named type a shape refers to, with or without excluded values.
fn named(shape: &Shape) -> Option<&str> {
    match shape {
        Shape::Named(name) => Some(name),
        Shape::Excluding(inner, _) => match inner.as_ref() {
            Shape::Named(name) => Some(name),
            _ => None,
        },
        _ => None,
    }
}

/// A value as shown in a message: a string as itself, anything else as JSON.
pub(super) fn show(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}
