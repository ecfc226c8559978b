//! Rendering findings, shared by `cgp validate` and `cgp check`, and the
//! output formats every subcommand offers.

use crate::style::{Style, printable};
use cgp_check::transcript::Finding;
use cgp_types::Variant;

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
    /// JUnit XML, for Jenkins, GitLab, TeamCity, Bitbucket.
    Junit,
}

impl Format {
    /// Whether the report is for a program, so nothing else may reach a
    /// terminal (no progress).
    pub fn is_machine(self) -> bool {
        matches!(self, Format::Json | Format::Junit)
    }
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
pub use cgp_report::finding::absolute;

/// Writes `value` as one line of JSON.
pub fn json_line(
    out: &mut impl std::io::Write,
    value: &impl serde::Serialize,
) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")
}

/// Writes `value` as pretty JSON with a final line feed.
pub fn json_pretty(
    out: &mut impl std::io::Write,
    value: &impl serde::Serialize,
) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    out.write_all(b"\n")
}
