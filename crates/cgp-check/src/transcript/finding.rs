//! What a check finds: the layer of a broken rule, one finding, the verdict
//! on one message, and the token of the text a finding quotes.

use crate::semantic::{Requirement, Rule, SemanticViolation};
use crate::validate::Violation;
use cgp_schema::json_text::Position;
use cgp_types::{Envelope, MAX_LINE_BYTES, Variant};
use serde_json::Value;
use std::fmt;

/// Where a rule lives (SPEC.md §Conventions, "Three layers of validity"), plus
/// the reference decoder for what only it catches.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Layer {
    /// The JSON text itself: framing, UTF-8, duplicate names, number spelling.
    Text,
    /// The wire shape, as the schema states it.
    Schema,
    /// Rejected by the reference decoder for a reason the other layers miss.
    Decoder,
    /// A semantic rule of SPEC.md.
    Semantic,
}

impl Layer {
    /// `"text"`, `"schema"`, `"decoder"` or `"semantic"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Layer::Text => "text",
            Layer::Schema => "schema",
            Layer::Decoder => "decoder",
            Layer::Semantic => "semantic",
        }
    }
}

impl fmt::Display for Layer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One reason a message is invalid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The layer of the broken rule.
    pub layer: Layer,
    /// The rule id, for semantic findings.
    pub rule: Option<Rule>,
    /// Where in the message, as a JSON pointer (`""` is the whole message).
    pub instance_path: String,
    /// The failing schema keyword, as a pointer into the bundle (schema findings).
    pub schema_path: Option<String>,
    /// What is wrong and what was expected.
    pub message: String,
    /// Where in the checked text the problem is (1-based line and character
    /// column), when known.
    pub position: Option<Position>,
}

impl Finding {
    pub(super) fn text(
        instance_path: impl Into<String>,
        message: impl Into<String>,
        position: Option<Position>,
    ) -> Self {
        Finding {
            layer: Layer::Text,
            rule: None,
            instance_path: instance_path.into(),
            schema_path: None,
            message: message.into(),
            position,
        }
    }

    /// A finding for a schema violation.
    pub fn schema(violation: Violation) -> Self {
        Finding {
            layer: Layer::Schema,
            rule: None,
            instance_path: violation.instance_path,
            schema_path: Some(violation.schema_path),
            message: violation.message,
            position: None,
        }
    }

    /// A finding for a broken semantic rule.
    pub fn semantic(violation: SemanticViolation) -> Self {
        Finding {
            layer: Layer::Semantic,
            rule: Some(violation.rule),
            instance_path: violation.instance_path,
            schema_path: None,
            message: violation.message,
            position: None,
        }
    }

    /// A line longer than [`MAX_LINE_BYTES`].
    pub fn line_too_long(length: u64) -> Self {
        Finding::text(
            "",
            format!(
                "the line is {length} bytes long, over the {MAX_LINE_BYTES}-byte limit of the stdio transport; it was skipped unread"
            ),
            Some(Position { line: 1, column: 1 }),
        )
    }

    /// The requirement level of the broken rule, for semantic findings.
    pub fn requirement(&self) -> Option<Requirement> {
        self.rule.map(Rule::requirement)
    }

    /// Whether the finding is an error: every finding of the text, schema and
    /// decoder layers, and a broken MUST. A broken SHOULD is a warning.
    pub fn is_error(&self) -> bool {
        self.requirement() != Some(Requirement::Should)
    }

    /// What the finding points at besides the instance: `schema …`, `rule B3`
    /// (`rule G3, a SHOULD` for a SHOULD), `text layer` or `reference decoder`.
    pub fn origin(&self) -> String {
        match (&self.schema_path, self.rule) {
            (Some(path), _) => format!("schema {}", if path.is_empty() { "/" } else { path }),
            (None, Some(rule)) if rule.requirement() == Requirement::Should => {
                format!("rule {rule}, a SHOULD")
            }
            (None, Some(rule)) => format!("rule {rule}"),
            (None, None) => match self.layer {
                Layer::Decoder => "reference decoder".into(),
                _ => "text layer".into(),
            },
        }
    }
}

/// The verdict on one message.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The variant the `type` tag names, when it names one.
    pub variant: Option<Variant>,
    /// Every problem found; empty when the message is valid.
    pub findings: Vec<Finding>,
    /// The parsed message, when it parsed.
    pub value: Option<Value>,
    /// The decoded message, when it passed the text, schema and decoder layers.
    pub envelope: Option<Envelope>,
}

impl Checked {
    /// Whether a finding is an error ([`Finding::is_error`]): a message with
    /// only broken SHOULDs has none.
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(Finding::is_error)
    }

    /// Whether no problem was found.
    pub fn is_valid(&self) -> bool {
        self.findings.is_empty()
    }

    pub(super) fn rejected(finding: Finding) -> Self {
        Checked {
            variant: None,
            findings: vec![finding],
            value: None,
            envelope: None,
        }
    }
}

/// The token (a number, a word) that starts at `position` in `text`, up to
/// whitespace or JSON punctuation, cut to 40 characters.
pub(super) fn token_at(text: &str, position: Position) -> String {
    let line = text
        .split('\n')
        .nth(position.line.saturating_sub(1))
        .unwrap_or_default();
    line.chars()
        .skip(position.column.saturating_sub(1))
        .take_while(|c| !c.is_whitespace() && !matches!(c, ',' | ':' | '}' | ']'))
        .take(40)
        .collect()
}
