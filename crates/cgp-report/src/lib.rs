//! What `cgp` reports, as types: the `--format json` output of `cgp validate`,
//! `cgp check` and `cgp diff`, and the baseline file, each a `serde::Serialize`
//! type whose JSON Schema (2020-12) is derived from it ([`json_schema`]), so the
//! output cannot drift from its published schema. Also the formats a CI reads
//! besides JSON: JUnit XML ([`junit`]), the baseline of accepted findings
//! ([`baseline`]) and the changelog of a comparison ([`changelog`]).
//!
//! Nothing here prints: front ends serialise these values.
//!
//! Built on `cgp-check`, `cgp-classify` and `cgp-conformance`; `cgp` renders it
//! and `cgp-codegen` publishes its schemas under `generated/schema/`.

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

pub mod baseline;
pub mod changelog;
pub mod check;
pub mod diff;
pub mod finding;
pub mod junit;
pub mod validate;

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;

use cgp_schema::spelled;

spelled! {
    /// A document `cgp` writes whose shape has a published JSON Schema.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub enum Output {
        /// `cgp validate --format json`: one JSON object per line.
        Validate => "validate",
        /// `cgp check --format json`: one JSON object.
        Check => "check",
        /// `cgp diff --format json`: one JSON object.
        Diff => "diff",
        /// A baseline file (`--write-baseline`).
        Baseline => "baseline",
    }
}

impl Output {
    /// Where `cargo xtask codegen` publishes its schema, relative to the
    /// repository root: beside the protocol versions' directories, never in one.
    pub fn published_path(self) -> String {
        format!("generated/schema/cgp-{}.schema.json", self.as_str())
    }
}

/// The JSON Schema (2020-12) of `output`, pretty-printed with a final line feed:
/// the bytes `cgp schema --output` prints and codegen publishes.
pub fn json_schema(output: Output) -> String {
    let (title, schema) = match output {
        Output::Validate => (
            "cgp validate --format json: each line of the output",
            root::<validate::Record<'static>>(),
        ),
        Output::Check => (
            "cgp check --format json",
            root::<check::CheckReport<'static>>(),
        ),
        Output::Diff => (
            "cgp diff --format json",
            root::<diff::DiffReport<'static>>(),
        ),
        Output::Baseline => ("a cgp baseline file", root::<baseline::Baseline>()),
    };
    let mut value = schema.to_value();
    if let Some(object) = value.as_object_mut() {
        object.insert("title".into(), title.into());
    }
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    text
}

fn root<T: JsonSchema>() -> schemars::Schema {
    SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<T>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_output_schema_is_a_2020_12_schema() {
        for output in Output::ALL {
            let text = json_schema(output);
            let schema: serde_json::Value = serde_json::from_str(&text).expect("JSON");
            assert_eq!(
                schema["$schema"], "https://json-schema.org/draft/2020-12/schema",
                "{output:?}"
            );
            assert!(
                jsonschema::meta::validate(&schema).is_ok(),
                "{output:?}: {text}"
            );
            assert_eq!(text, json_schema(output), "deterministic");
        }
    }
}
