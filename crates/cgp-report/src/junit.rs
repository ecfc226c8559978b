//! JUnit XML, the report format Jenkins, GitLab, TeamCity and Bitbucket read.
//!
//! Any command renders through this one module: it builds a [`Suite`] of
//! [`Case`]s and calls [`render`]. The document follows the common JUnit
//! schema (Jenkins' `junit-10.xsd`): a `<testsuites>` root holding one
//! `<testsuite name tests failures errors skipped>` per suite, each holding
//! `<testcase name classname>` elements with an optional `<failure message
//! type>` (its text the findings, one per line) or `<skipped message>`. No
//! times or timestamps are written, so the bytes depend on the input alone.
//! Characters XML 1.0 cannot carry (control characters other than tab, line
//! feed and carriage return) are written as `\u001b`.

use std::fmt::Write as _;

/// A group of cases: one run of one command, or one input file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Suite {
    /// The suite's name, e.g. `cgp check` or a file name.
    pub name: String,
    /// Its cases, in order.
    pub cases: Vec<Case>,
}

/// One case.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Case {
    /// What was tested, e.g. a step's name or `file:line`.
    pub name: String,
    /// The group it belongs to, dotted by convention (`cgp.check`).
    pub classname: String,
    /// Why it failed, when it did.
    pub failure: Option<Failure>,
    /// Why it was not run, when it was not.
    pub skipped: Option<String>,
    /// Text a reader may want beside the verdict (warnings, details).
    pub output: Option<String>,
}

/// A failed case.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Failure {
    /// One line: the first problem, or a count.
    pub message: String,
    /// A short kind, e.g. a layer or rule id.
    pub kind: String,
    /// Every problem, one per line.
    pub text: String,
}

impl Case {
    /// A case that passed.
    pub fn passed(classname: impl Into<String>, name: impl Into<String>) -> Self {
        Case {
            name: name.into(),
            classname: classname.into(),
            ..Case::default()
        }
    }
}

/// The document for `suites` under a root named `name`, with a final line feed.
pub fn render(name: &str, suites: &[Suite]) -> String {
    let count =
        |suite: &Suite, what: fn(&Case) -> bool| suite.cases.iter().filter(|c| what(c)).count();
    let failed = |case: &Case| case.failure.is_some();
    let skipped = |case: &Case| case.skipped.is_some() && case.failure.is_none();
    let tests: usize = suites.iter().map(|suite| suite.cases.len()).sum();
    let failures: usize = suites.iter().map(|suite| count(suite, failed)).sum();
    let skips: usize = suites.iter().map(|suite| count(suite, skipped)).sum();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skips}\">",
        attribute(name)
    );
    for suite in suites {
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\">",
            attribute(&suite.name),
            suite.cases.len(),
            count(suite, failed),
            count(suite, skipped),
        );
        for case in &suite.cases {
            let _ = write!(
                out,
                "    <testcase name=\"{}\" classname=\"{}\"",
                attribute(&case.name),
                attribute(&case.classname)
            );
            if case.failure.is_none() && case.skipped.is_none() && case.output.is_none() {
                out.push_str("/>\n");
                continue;
            }
            out.push_str(">\n");
            if let Some(failure) = &case.failure {
                let _ = writeln!(
                    out,
                    "      <failure message=\"{}\" type=\"{}\">{}</failure>",
                    attribute(&failure.message),
                    attribute(&failure.kind),
                    text(&failure.text)
                );
            } else if let Some(reason) = &case.skipped {
                let _ = writeln!(out, "      <skipped message=\"{}\"/>", attribute(reason));
            }
            if let Some(output) = &case.output {
                let _ = writeln!(out, "      <system-out>{}</system-out>", text(output));
            }
            out.push_str("    </testcase>\n");
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

/// Character data: `&`, `<` and `>` escaped.
fn text(value: &str) -> String {
    escape(value, false)
}

/// An attribute value: as [`text`], and quotes and line breaks too.
fn attribute(value: &str) -> String {
    escape(value, true)
}

fn escape(value: &str, attribute: bool) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attribute => out.push_str("&quot;"),
            '\'' if attribute => out.push_str("&apos;"),
            '\n' if attribute => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' if attribute => out.push_str("&#9;"),
            '\t' | '\n' => out.push(c),
            // Not allowed in XML 1.0 at all, not even as a reference.
            c if c.is_control() || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_escapes() {
        let suites = [Suite {
            name: "s <1>".into(),
            cases: vec![
                Case::passed("cgp.t", "ok"),
                Case {
                    failure: Some(Failure {
                        message: "a \"b\"\nc".into(),
                        kind: "schema".into(),
                        text: "x < y & \u{1b}[2J".into(),
                    }),
                    ..Case::passed("cgp.t", "bad")
                },
                Case {
                    skipped: Some("later".into()),
                    ..Case::passed("cgp.t", "skip")
                },
            ],
        }];
        let xml = render("cgp", &suites);
        assert!(
            xml.contains(
                "<testsuites name=\"cgp\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\">"
            ),
            "{xml}"
        );
        assert!(xml.contains("name=\"s &lt;1&gt;\""), "{xml}");
        assert!(
            xml.contains("<failure message=\"a &quot;b&quot;&#10;c\" type=\"schema\">x &lt; y &amp; \\u001b[2J</failure>"),
            "{xml}"
        );
        assert!(xml.contains("<skipped message=\"later\"/>"), "{xml}");
    }
}
