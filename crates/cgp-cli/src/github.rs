//! GitHub Actions workflow commands, the one renderer behind `--format github`
//! of `cgp validate`, `cgp check` and `cgp diff`.
//!
//! Each problem becomes one `::error`, `::warning` or `::notice` command, which
//! a workflow run shows as an annotation (on the file and line when there is
//! one). Values are escaped as the Actions runner expects: `%`, CR and LF in
//! the message, and also `:` and `,` in a property; so nothing a provider or
//! a transcript writes can end the command early or start another one.

use crate::style::printable;
use cgp_conformance::Severity;
use std::fmt;

/// How an annotation is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// `::error`: fails the check.
    Error,
    /// `::warning`.
    Warning,
    /// `::notice`: for information.
    Notice,
}

impl From<Severity> for Level {
    fn from(severity: Severity) -> Self {
        match severity {
            Severity::Error => Level::Error,
            Severity::Warning => Level::Warning,
        }
    }
}

/// One annotation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Annotation<'a> {
    /// How it is shown.
    pub level: Level,
    /// The file it is about, relative to the repository root for GitHub to
    /// link it.
    pub file: Option<&'a str>,
    /// The line in `file`, from 1.
    pub line: Option<usize>,
    /// The column in `line`, from 1.
    pub column: Option<usize>,
    /// A short title.
    pub title: &'a str,
    /// What is wrong.
    pub message: &'a str,
}

impl fmt::Display for Annotation<'_> {
    /// `::error file=F,line=L,col=C,title=T::message`, without a line feed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.level {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Notice => "notice",
        };
        let mut properties = Vec::new();
        if let Some(file) = self.file {
            properties.push(format!("file={}", property(file)));
            if let Some(line) = self.line {
                properties.push(format!("line={line}"));
                if let Some(column) = self.column {
                    properties.push(format!("col={column}"));
                }
            }
        }
        properties.push(format!("title={}", property(self.title)));
        write!(
            f,
            "::{level} {}::{}",
            properties.join(","),
            data(self.message)
        )
    }
}

/// The message of a command: `%`, CR and LF escaped as the runner expects,
/// other control characters (a terminal escape) as `\u001b`.
fn data(text: &str) -> String {
    escape(text, false)
}

/// A property value: as [`data`], and `:` and `,` too.
fn property(text: &str) -> String {
    escape(text, true)
}

fn escape(text: &str, property: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            ':' if property => out.push_str("%3A"),
            ',' if property => out.push_str("%2C"),
            c if c.is_control() => out.push_str(&printable(c.encode_utf8(&mut [0; 4]))),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_carry_location_and_title_and_escape_what_would_break_them() {
        let annotation = Annotation {
            level: Level::Error,
            file: Some("dir/a,b:c.ndjson"),
            line: Some(3),
            column: Some(7),
            title: "cgp: frames, 100%",
            message: "bad %\r\n::warning::injected\u{1b}[2J",
        };
        assert_eq!(
            annotation.to_string(),
            "::error file=dir/a%2Cb%3Ac.ndjson,line=3,col=7,title=cgp%3A frames%2C 100%25::bad %25%0D%0A::warning::injected\\u001b[2J"
        );
        let bare = Annotation {
            level: Level::Notice,
            file: None,
            line: Some(3),
            column: Some(1),
            title: "t",
            message: "m",
        };
        assert_eq!(bare.to_string(), "::notice title=t::m");
        assert_eq!(Level::from(Severity::Warning), Level::Warning);
    }
}
