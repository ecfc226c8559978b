//! Annotations: what a schema says besides what it accepts (`title`,
//! `description`, `default`, `deprecated` and the `x-cgp-*` annotations of
//! SPEC.md), and the emit rules and directions they spell.

use crate::keywords;
use cgp_types::Direction;
use serde_json::{Map, Value};

use cgp_types::spelled;

spelled! {
    /// When an optional member is written (SPEC.md §Schema annotations, `x-cgp-emit`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Emit {
        /// Always written, so required in the strict profile.
        Always => "always",
        /// Left out when it has no value.
        OmitIfAbsent => "omit-if-absent",
        /// Left out when it is an empty array.
        OmitIfEmpty => "omit-if-empty",
        /// Left out when it equals its `default`.
        OmitIfDefault => "omit-if-default",
    }
}

impl Emit {
    /// Parses the annotation.
    pub fn parse(text: &str) -> Option<Emit> {
        Emit::ALL.into_iter().find(|rule| rule.as_str() == text)
    }
}

/// Parses an `x-cgp-direction` value.
pub(crate) fn parse_direction(text: &str) -> Option<Direction> {
    match text {
        "host-to-provider" => Some(Direction::HostToProvider),
        "provider-to-host" => Some(Direction::ProviderToHost),
        _ => None,
    }
}

/// The annotations of one schema: nothing here changes what is accepted.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Annotations {
    /// `title`.
    pub title: Option<String>,
    /// `description`.
    pub description: Option<String>,
    /// `default`.
    pub default: Option<Value>,
    /// `deprecated`.
    pub deprecated: bool,
    /// `x-cgp-since`.
    pub since: Option<String>,
    /// `x-cgp-spec`.
    pub spec: Option<String>,
    /// `x-cgp-emit`.
    pub emit: Option<Emit>,
    /// `x-cgp-direction`.
    pub direction: Option<Direction>,
    /// `x-cgp-tag`.
    pub tag: Option<String>,
    /// `x-cgp-vocabulary`.
    pub vocabulary: Option<String>,
    /// Every keyword of [`DOCUMENTATION_KEYWORDS`](crate::keywords::DOCUMENTATION_KEYWORDS)
    /// the schema carries, with its value, in the order of that list.
    pub documentation: Vec<(&'static str, Value)>,
}

impl Annotations {
    /// The annotations of `schema`.
    pub fn of(schema: &Map<String, Value>) -> Self {
        let text = |key: &str| schema.get(key).and_then(Value::as_str).map(str::to_owned);
        Annotations {
            title: text("title"),
            description: text("description"),
            default: schema.get("default").cloned(),
            deprecated: schema.get("deprecated") == Some(&Value::Bool(true)),
            since: text("x-cgp-since"),
            spec: text("x-cgp-spec"),
            emit: text("x-cgp-emit").as_deref().and_then(Emit::parse),
            direction: text("x-cgp-direction").as_deref().and_then(parse_direction),
            tag: text("x-cgp-tag"),
            vocabulary: text("x-cgp-vocabulary"),
            documentation: keywords::DOCUMENTATION_KEYWORDS
                .iter()
                .filter_map(|keyword| Some((*keyword, schema.get(*keyword)?.clone())))
                .collect(),
        }
    }

    /// The value of the documentation keyword `keyword`, if the schema has it.
    pub fn documentation(&self, keyword: &str) -> Option<&Value> {
        self.documentation
            .iter()
            .find(|(name, _)| *name == keyword)
            .map(|(_, value)| value)
    }
}
