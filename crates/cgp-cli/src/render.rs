//! Rendering findings, shared by `cgp validate` and `cgp check`, and the
//! output formats every subcommand offers.

use crate::style::{Style, printable};
use cgp_schema::transcript::Finding;
use cgp_types::Variant;
use serde_json::{Map, Value};

/// How a subcommand writes its report (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// For reading: one line per problem (`FILE:LINE:COL: …`, or under its step
    /// for `cgp check`), then a summary.
    Human,
    /// For programs: JSON (README.md describes each subcommand's shape).
    Json,
    /// GitHub Actions annotations (`::error file=…,line=…,col=…,title=…::…`),
    /// then the summary.
    Github,
}

/// `<variant>: <instance pointer>: <message> (<origin>)`, with control
/// characters escaped.
pub fn finding_text(style: Style, variant: Option<Variant>, finding: &Finding) -> String {
    let pointer = if finding.instance_path.is_empty() {
        "/"
    } else {
        &finding.instance_path
    };
    format!(
        "{}: {}: {} {}",
        style.variant(variant.map_or("-", Variant::as_str)),
        style.pointer(&printable(pointer)),
        printable(&finding.message),
        style.dim(&format!("({})", finding.origin())),
    )
}

/// The file line and column of a finding in a message that starts on `line`.
pub fn absolute(line: usize, finding: &Finding) -> (usize, usize) {
    match finding.position {
        Some(position) => (line + position.line.saturating_sub(1), position.column),
        None => (line, 1),
    }
}

/// `{"instance_path", "schema_path", "message", "layer", ["line",] "column",
/// ["rule"]}`: `line` when the message starts on a known input `line`, `rule`
/// for semantic findings.
pub fn finding_json(finding: &Finding, line: Option<usize>) -> Value {
    let (absolute_line, column) = absolute(line.unwrap_or(1), finding);
    let mut object = Map::new();
    object.insert("instance_path".into(), finding.instance_path.clone().into());
    object.insert(
        "schema_path".into(),
        finding
            .schema_path
            .clone()
            .map_or(Value::Null, Value::String),
    );
    object.insert("message".into(), finding.message.clone().into());
    object.insert("layer".into(), finding.layer.as_str().into());
    if line.is_some() {
        object.insert("line".into(), absolute_line.into());
    }
    object.insert("column".into(), column.into());
    if let Some(rule) = finding.rule {
        object.insert("rule".into(), rule.as_str().into());
    }
    Value::Object(object)
}
