//! What two schemas accept, keyword by keyword: JSON types, value sets, bounds,
//! object members and tagged unions.

use super::Rule;
use super::walk::{
    DOCUMENTATION, Kind, LOWER_BOUNDS, NOT_COMPARED, Place, UPPER_BOUNDS, Walker, branches,
    essence, is_neutral, json_types, required, show, value_set,
};
use crate::json_text;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

impl Walker<'_> {
    /// Everything two schema objects assert, keyword by keyword.
    pub(super) fn assertions(
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
    pub(super) fn json_types(
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
    pub(super) fn values(
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
    pub(super) fn bound(
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
    pub(super) fn keyword(
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
    pub(super) fn object(
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
    pub(super) fn union(
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
