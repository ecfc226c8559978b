//! The type graph of a bundle: which types reference which, and which envelope
//! directions reach each type.
//!
//! A shared type travels in every direction of every variant that reaches it
//! (SPEC.md §Compatibility), so a change to it is judged against all of them.

use crate::json_text;
use crate::keywords;
use cgp_types::Direction;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Parses an `x-cgp-direction` value.
pub fn parse_direction(text: &str) -> Option<Direction> {
    match text {
        "host-to-provider" => Some(Direction::HostToProvider),
        "provider-to-host" => Some(Direction::ProviderToHost),
        _ => None,
    }
}

/// The `$defs` names a schema references directly.
pub fn references(schema: &Value) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    keywords::walk(schema, "", &mut |map, _| {
        if let Some(target) = map.get("$ref").and_then(Value::as_str) {
            if let Some(name) = target.strip_prefix("#/$defs/") {
                names.insert(json_text::pointer_tokens(&format!("/{name}")).concat());
            }
        }
    });
    names
}

/// The type graph of one bundle document.
#[derive(Debug, Clone, Default)]
pub struct TypeGraph {
    /// For each variant tag: its direction and the types it references directly.
    pub variants: Vec<(String, Option<Direction>, BTreeSet<String>)>,
    /// For each `$defs` type: the types it references directly.
    pub edges: BTreeMap<String, BTreeSet<String>>,
}

impl TypeGraph {
    /// Builds the graph of a bundle document.
    pub fn of(document: &Value) -> Self {
        let mut graph = TypeGraph::default();
        if let Some(branches) = document.get("oneOf").and_then(Value::as_array) {
            for branch in branches {
                let tag = branch
                    .pointer("/properties/type/const")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                let direction = branch
                    .get("x-cgp-direction")
                    .and_then(Value::as_str)
                    .and_then(parse_direction);
                graph.variants.push((tag, direction, references(branch)));
            }
        }
        if let Some(defs) = document.get("$defs").and_then(Value::as_object) {
            for (name, schema) in defs {
                graph.edges.insert(name.clone(), references(schema));
            }
        }
        graph
    }

    /// Every type reachable from `start`, `start` included.
    pub fn reachable(&self, start: &BTreeSet<String>) -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut pending: Vec<String> = start.iter().cloned().collect();
        while let Some(name) = pending.pop() {
            if seen.insert(name.clone()) {
                if let Some(next) = self.edges.get(&name) {
                    pending.extend(next.iter().cloned());
                }
            }
        }
        seen
    }

    /// For each type, the directions of the variants that reach it.
    pub fn directions(&self) -> BTreeMap<String, BTreeSet<Direction>> {
        let mut result: BTreeMap<String, BTreeSet<Direction>> = BTreeMap::new();
        for (_, direction, roots) in &self.variants {
            for name in self.reachable(roots) {
                let entry = result.entry(name).or_default();
                if let Some(direction) = direction {
                    entry.insert(*direction);
                }
            }
        }
        result
    }

    /// For each type, the variants (by tag) that reach it.
    pub fn variants_reaching(&self) -> BTreeMap<String, BTreeSet<String>> {
        let mut result: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (tag, _, roots) in &self.variants {
            for name in self.reachable(roots) {
                result.entry(name).or_default().insert(tag.clone());
            }
        }
        result
    }

    /// For each type, the types and variants that reference it directly.
    pub fn used_by(&self) -> BTreeMap<String, BTreeSet<String>> {
        let mut result: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (from, targets) in &self.edges {
            for target in targets {
                result
                    .entry(target.clone())
                    .or_default()
                    .insert(from.clone());
            }
        }
        for (tag, _, targets) in &self.variants {
            for target in targets {
                result
                    .entry(target.clone())
                    .or_default()
                    .insert(format!("{tag} (envelope)"));
            }
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn shared_types_inherit_every_direction_that_reaches_them() {
        let document = json!({
            "oneOf": [
                {"x-cgp-direction": "host-to-provider", "properties": {"type": {"const": "q"}, "a": {"$ref": "#/$defs/A"}}},
                {"x-cgp-direction": "provider-to-host", "properties": {"type": {"const": "r"}, "b": {"$ref": "#/$defs/B"}}}
            ],
            "$defs": {
                "A": {"properties": {"s": {"$ref": "#/$defs/Shared"}}},
                "B": {"properties": {"s": {"type": "array", "items": {"$ref": "#/$defs/Shared"}}}},
                "Shared": {"type": "string"},
                "Orphan": {"type": "string"}
            }
        });
        let graph = TypeGraph::of(&document);
        let directions = graph.directions();
        assert_eq!(directions["A"], BTreeSet::from([Direction::HostToProvider]));
        assert_eq!(
            directions["Shared"],
            BTreeSet::from([Direction::HostToProvider, Direction::ProviderToHost])
        );
        assert!(!directions.contains_key("Orphan"));
        assert_eq!(
            graph.used_by()["Shared"],
            BTreeSet::from(["A".to_owned(), "B".to_owned()])
        );
    }
}
