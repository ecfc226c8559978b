//! What two shapes accept, kind by kind: JSON types, value sets, constraints,
//! object members and tagged unions. A shape the protocol model cannot
//! describe is compared as written, and any difference is a change the
//! classifier cannot order.

use super::ChangeRule;
use super::facets::{self, Constraint, Order};
use super::side::ComparedVersion;
use super::walk::{Cursor, Walker, list_of, show};
use cgp_schema::json_text;
use cgp_schema::model::{self, Member, ObjectShape, Shape, TaggedUnion, UnknownMembers};
use std::collections::{BTreeMap, BTreeSet};

impl Walker<'_> {
    /// Everything two non-null, non-reference shapes assert.
    pub(super) fn assertions(&mut self, place: &Cursor, old: &Shape, new: &Shape, depth: usize) {
        if matches!(old, Shape::Unsupported(_)) || matches!(new, Shape::Unsupported(_)) {
            self.undescribed(place, old, new);
            return;
        }
        match (old, new) {
            (Shape::TaggedUnion(before), Shape::TaggedUnion(after)) => {
                self.union(place, before, after, depth);
                return;
            }
            (Shape::TaggedUnion(_), _) => {
                self.report(
                    ChangeRule::ValueSetChanged,
                    place,
                    "is no longer a tagged union".into(),
                );
                return;
            }
            (_, Shape::TaggedUnion(_)) => {
                self.report(
                    ChangeRule::ValueSetChanged,
                    place,
                    "is now a tagged union".into(),
                );
                return;
            }
            _ => {}
        }
        self.json_types(place, old, new);
        self.values(place, old, new);
        self.constraints(place, old, new);
        if let (Shape::Array(before), Shape::Array(after)) = (old, new) {
            let items = place.items();
            let (old_items, new_items) = (&before.item_annotations, &after.item_annotations);
            self.annotations(&items, old_items, new_items, false);
            self.accepted(&items, &before.items, &after.items, depth + 1);
        }
        let empty = ObjectShape {
            members: Vec::new(),
            unknown_members: UnknownMembers::Allowed,
        };
        match (old, new) {
            (Shape::Object(before), Shape::Object(after)) => {
                self.object(place, before, after, depth);
            }
            (Shape::Object(before), _) => self.object(place, before, &empty, depth),
            (_, Shape::Object(after)) => self.object(place, &empty, after, depth),
            _ => {}
        }
    }

    /// The JSON types: a change of type is breaking; `integer` ↔ `number` is a
    /// narrowing or a widening.
    fn json_types(&mut self, place: &Cursor, old: &Shape, new: &Shape) {
        let place = &place.keyword("type");
        let list = |types: &BTreeSet<String>| {
            types
                .iter()
                .map(|t| format!("`{t}`"))
                .collect::<Vec<_>>()
                .join(" or ")
        };
        match (facets::json_types(old), facets::json_types(new)) {
            (Some(before), Some(after)) if before != after => {
                let general = |types: &BTreeSet<String>| -> BTreeSet<String> {
                    types
                        .iter()
                        .map(|t| if t == "integer" { "number" } else { t }.to_owned())
                        .collect()
                };
                if general(&before) != general(&after) {
                    self.report(
                        ChangeRule::TypeChanged,
                        place,
                        format!(
                            "the JSON type changed from {} to {}",
                            list(&before),
                            list(&after)
                        ),
                    );
                } else if after.contains("number") && !before.contains("number") {
                    self.report(
                        ChangeRule::ValueSetWidened,
                        place,
                        "numbers with a fraction are now accepted (`integer` became `number`)"
                            .into(),
                    );
                } else {
                    self.report(
                        ChangeRule::ValueSetNarrowed,
                        place,
                        "only integers are accepted now (`number` became `integer`)".into(),
                    );
                }
            }
            (None, Some(after)) => self.report(
                ChangeRule::ValueSetNarrowed,
                place,
                format!(
                    "values are now restricted to the JSON type {}",
                    list(&after)
                ),
            ),
            (Some(before), None) => self.report(
                ChangeRule::ValueSetWidened,
                place,
                format!(
                    "values are no longer restricted to the JSON type {}",
                    list(&before)
                ),
            ),
            _ => {}
        }
    }

    /// Enumerations, constants and the known values of open vocabularies.
    fn values(&mut self, place: &Cursor, old: &Shape, new: &Shape) {
        let old_set = facets::value_set(old);
        let new_set = facets::value_set(new);
        let listed_by = |set: Option<(&[_], &'static str)>| set.map_or("enum", |(_, at)| at);
        let place_values = Cursor {
            old_at: format!("{}/{}", place.old_at, listed_by(old_set)),
            new_at: format!("{}/{}", place.new_at, listed_by(new_set)),
            ..place.clone()
        };
        let listed = |values: &[serde_json::Value]| {
            values
                .iter()
                .map(|v| format!("`{}`", show(v)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match (old_set, new_set) {
            (Some((before, _)), Some((after, _))) => {
                for value in after.iter().filter(|value| !before.contains(value)) {
                    self.report(
                        ChangeRule::EnumValueAdded,
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
                        ChangeRule::ValueSetNarrowed,
                        &place_values,
                        format!(
                            "{} {} no longer accepted",
                            removed.join(", "),
                            if removed.len() == 1 { "is" } else { "are" }
                        ),
                    );
                }
            }
            (None, Some((after, _))) => {
                let message = if matches!(old, Shape::OpenVocabulary(_)) {
                    format!(
                        "the open vocabulary is now closed: only {} are accepted",
                        listed(after)
                    )
                } else {
                    format!("values are now restricted to {}", listed(after))
                };
                self.report(ChangeRule::ValueSetNarrowed, &place_values, message);
            }
            (Some((before, _)), None) => {
                let message = if matches!(new, Shape::OpenVocabulary(_)) {
                    format!(
                        "the closed enumeration of {} is now an open vocabulary: any string is accepted",
                        listed(before)
                    )
                } else {
                    format!("values are no longer restricted to {}", listed(before))
                };
                self.report(ChangeRule::ValueSetWidened, &place_values, message);
            }
            (None, None) => {}
        }
        if let (Shape::OpenVocabulary(before), Shape::OpenVocabulary(after)) = (old, new) {
            let known_at = |side: &ComparedVersion, known_type: &Option<String>| {
                known_type
                    .as_deref()
                    .and_then(|name| side.protocol.named(name))
                    .map(|named| format!("{}/enum", named.at.pointer))
                    .unwrap_or_default()
            };
            let place = &Cursor {
                old_at: known_at(self.old, &before.known_type),
                new_at: known_at(self.new, &after.known_type),
                ..place.clone()
            };
            for value in after.known.iter().filter(|v| !before.known.contains(v)) {
                self.report(
                    ChangeRule::VocabularyValueAdded,
                    place,
                    format!("the open vocabulary gains the known value `{value}`"),
                );
            }
            for value in before.known.iter().filter(|v| !after.known.contains(v)) {
                self.report(
                    ChangeRule::VocabularyValueRemoved,
                    place,
                    format!(
                        "the open vocabulary no longer names `{value}`; receivers now treat it with the fallback"
                    ),
                );
            }
        }
    }

    /// Bounds, patterns, formats, exclusions and the other constraints, matched by
    /// the keyword that writes them.
    pub(super) fn constraints(&mut self, place: &Cursor, old: &Shape, new: &Shape) {
        let before: BTreeMap<&str, Constraint> = facets::constraints(old)
            .into_iter()
            .map(|constraint| (constraint.keyword, constraint))
            .collect();
        let after: BTreeMap<&str, Constraint> = facets::constraints(new)
            .into_iter()
            .map(|constraint| (constraint.keyword, constraint))
            .collect();
        let keywords: BTreeSet<&str> = before.keys().chain(after.keys()).copied().collect();
        for keyword in keywords {
            let at = place.keyword(keyword);
            match (before.get(keyword), after.get(keyword)) {
                (Some(before), Some(after)) => self.constraint(&at, before, after),
                (None, Some(after)) => self.report(
                    ChangeRule::ValueSetNarrowed,
                    &at,
                    format!("`{keyword}` {} was added", after.shown),
                ),
                (Some(before), None) => self.report(
                    ChangeRule::ValueSetWidened,
                    &at,
                    format!("`{keyword}` {} was removed", before.shown),
                ),
                (None, None) => {}
            }
        }
    }

    /// One constraint in both versions: a tighter bound accepts less, a looser
    /// one more; any other new setting cannot be ordered.
    fn constraint(&mut self, at: &Cursor, before: &Constraint, after: &Constraint) {
        let keyword = before.keyword;
        let (tighter, lower) = match (before.order, after.order) {
            (Order::Lower(b), Order::Lower(a)) if a == b => return,
            (Order::Upper(b), Order::Upper(a)) if a == b => return,
            (Order::Lower(b), Order::Lower(a)) => (a > b, true),
            (Order::Upper(b), Order::Upper(a)) => (a < b, false),
            _ if before.shown == after.shown => return,
            _ => {
                self.report(
                    ChangeRule::ValueSetChanged,
                    at,
                    format!(
                        "`{keyword}` changed from {} to {}",
                        before.shown, after.shown
                    ),
                );
                return;
            }
        };
        let (rule, verb) = match (tighter, lower) {
            (true, true) => (ChangeRule::ValueSetNarrowed, "raised"),
            (true, false) => (ChangeRule::ValueSetNarrowed, "lowered"),
            (false, true) => (ChangeRule::ValueSetWidened, "lowered"),
            (false, false) => (ChangeRule::ValueSetWidened, "raised"),
        };
        self.report(
            rule,
            at,
            format!(
                "`{keyword}` {verb} from {} to {}",
                before.shown, after.shown
            ),
        );
    }

    /// Members of an object: added, removed, renamed, required, and each common one.
    pub(super) fn object(
        &mut self,
        place: &Cursor,
        old: &ObjectShape,
        new: &ObjectShape,
        depth: usize,
    ) {
        let removed: Vec<&Member> = old
            .members
            .iter()
            .filter(|member| new.member(&member.name).is_none())
            .collect();
        let added: Vec<&Member> = new
            .members
            .iter()
            .filter(|member| old.member(&member.name).is_none())
            .collect();
        let same =
            |before: &Member, after: &Member| facets::essence(before) == facets::essence(after);
        let mut renamed: Vec<(&str, &Member)> = Vec::new();
        for before in &removed {
            let matches: Vec<&&Member> = added.iter().filter(|after| same(before, after)).collect();
            if let [after] = matches.as_slice() {
                let rivals = removed.iter().filter(|other| same(other, after)).count();
                if rivals == 1 {
                    renamed.push((&before.name, after));
                }
            }
        }
        for before in removed {
            let old_name = &before.name;
            match renamed.iter().find(|(from, _)| *from == old_name) {
                Some((_, after)) => self.report(
                    ChangeRule::FieldRenamed,
                    &place.member(&after.name, before.at.pointer.clone(), after.at.pointer.clone()),
                    format!(
                        "the member `{old_name}` was renamed to `{}` (removed, and added with the same schema); deprecate it instead (SPEC U4)",
                        after.name
                    ),
                ),
                None => self.report(
                    ChangeRule::FieldRemoved,
                    &place.member(
                        old_name,
                        before.at.pointer.clone(),
                        model::member_pointer(&place.new_at, old_name),
                    ),
                    format!("the member `{old_name}` was removed; deprecate it instead (SPEC U4)"),
                ),
            }
        }
        for after in added {
            if renamed.iter().any(|(_, to)| to.name == after.name) {
                continue;
            }
            let name = &after.name;
            let member = place.member(
                name,
                model::member_pointer(&place.old_at, name),
                after.at.pointer.clone(),
            );
            if after.required {
                self.report(
                    ChangeRule::FieldAddedRequired,
                    &member,
                    format!("the required member `{name}` was added"),
                );
            } else {
                self.report(
                    ChangeRule::FieldAddedOptional,
                    &member,
                    format!("the optional member `{name}` was added"),
                );
            }
        }
        for before in &old.members {
            let Some(after) = new.member(&before.name) else {
                continue;
            };
            let name = &before.name;
            let member = place.member(name, before.at.pointer.clone(), after.at.pointer.clone());
            match (before.required, after.required) {
                (false, true) => self.report(
                    ChangeRule::FieldMadeRequired,
                    &member,
                    format!("the member `{name}` is now required"),
                ),
                (true, false) => self.report(
                    ChangeRule::FieldMadeOptional,
                    &member,
                    format!("the member `{name}` is no longer required"),
                ),
                _ => {}
            }
            self.member(&member, before, after, depth + 1);
        }
    }

    /// The branches of a tagged union, matched by their tag value, and the
    /// members every branch shares.
    fn union(&mut self, place: &Cursor, old: &TaggedUnion, new: &TaggedUnion, depth: usize) {
        if old.tag != new.tag {
            self.report(
                ChangeRule::ValueSetChanged,
                &place.keyword("x-cgp-tag"),
                format!(
                    "the union's tag member changed from `{}` to `{}`",
                    old.tag, new.tag
                ),
            );
            return;
        }
        let tag = &old.tag;
        let branch_place = |value: &str, old_at: String, new_at: String| Cursor {
            pointer: format!("{}/{}", place.pointer, json_text::escape_token(value)),
            old_at,
            new_at,
            directions: place.directions.clone(),
        };
        let listed = |union: &TaggedUnion, at: &str| match union.branches.first() {
            Some(branch) => list_of(Some(&branch.at.pointer)),
            None => at.to_owned(),
        };
        for before in &old.branches {
            if new.branch(&before.tag).is_none() {
                let at = branch_place(
                    &before.tag,
                    before.at.pointer.clone(),
                    listed(new, &place.new_at),
                );
                self.report(
                    ChangeRule::VariantRemoved,
                    &at,
                    format!("the `{tag}` branch `{}` was removed", before.tag),
                );
            }
        }
        for after in &new.branches {
            let value = &after.tag;
            match old.branch(value) {
                None => {
                    let at =
                        branch_place(value, listed(old, &place.old_at), after.at.pointer.clone());
                    self.report(
                        ChangeRule::VariantAdded,
                        &at,
                        format!(
                            "the `{tag}` branch `{value}` was added; send it only to peers that signalled support"
                        ),
                    );
                }
                Some(before) => {
                    let at =
                        branch_place(value, before.at.pointer.clone(), after.at.pointer.clone());
                    self.annotations(&at, &before.annotations, &after.annotations, false);
                    let before = Shape::Object(before.object.clone());
                    let after = Shape::Object(after.object.clone());
                    self.assertions(&at, &before, &after, depth + 1);
                }
            }
        }
        self.object(place, &old.shared, &new.shared, depth);
    }

    /// Shapes the protocol model cannot describe: compared as written, since
    /// what they accept cannot be ordered.
    pub(super) fn undescribed(&mut self, place: &Cursor, old: &Shape, new: &Shape) {
        let reason = |shape: &Shape| match shape {
            Shape::Unsupported(reason) => Some(reason.clone()),
            _ => None,
        };
        let message = match (reason(old), reason(new)) {
            (Some(before), Some(after)) => {
                let written = (
                    self.old.schema_at(&place.old_at),
                    self.new.schema_at(&place.new_at),
                );
                if before == after && written.0 == written.1 {
                    return;
                }
                format!(
                    "the schema changed, and the protocol model cannot describe it ({after}), so the change cannot be ordered"
                )
            }
            (Some(before), None) => format!(
                "the old schema is one the protocol model cannot describe ({before}), so the change cannot be ordered"
            ),
            (None, Some(after)) => format!(
                "the new schema is one the protocol model cannot describe ({after}), so the change cannot be ordered"
            ),
            (None, None) => return,
        };
        self.report(ChangeRule::ValueSetChanged, place, message);
    }
}
