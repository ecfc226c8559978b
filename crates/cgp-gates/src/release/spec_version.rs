//! SPEC.md and the working version: what `set-version` rewrites there and what
//! the version gate checks.
//!
//! SPEC.md is written for readers and copied from, so its corpus stays literal
//! JSON: an example that speaks the working version spells it, and
//! [`rewrite_spec`] moves every such spelling when the version moves. A spelling
//! is the working version when it is the exact version string standing as a
//! whole token (`demo/1.0`, not `demo/1.0-draft` nor `demo/1.4`): an example about a particular other version spells
//! that one, and keeps it. The header line (`Protocol version: …`) and the
//! version rule's table (each acknowledged version's family, and whether it
//! interoperates with the working one) are derived from the version, so
//! `set-version` rewrites them; [`spec_problems`] names each place that
//! disagrees with the declared version at its line.

use crate::corpus::{self, Expect};
use cgp_schema::diagnostic::Diagnostic;
use cgp_schema::json_text::Position;
use cgp_schema::version::ProtocolVersion;

/// The file the corpus and the version rule live in.
pub const SPEC_FILE: &str = "SPEC.md";

const HEADER: &str = "Protocol version: ";
const TABLE_HEADER: &str = "| Acknowledged version | Major family | Interoperates |";

/// SPEC.md's header line for `version`.
pub fn header_line(version: &ProtocolVersion) -> String {
    format!(
        "{HEADER}**`{version}`** (major family `{}`).",
        version.family()
    )
}

/// The major family of a version string by the version rule (SPEC.md H3): the
/// part before the first `.`, or the whole string when it has none.
pub fn family_of(version: &str) -> &str {
    version
        .split_once('.')
        .map_or(version, |(family, _)| family)
}

/// Whether `c` continues a version token on either side.
fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '/')
}

/// The byte offsets where `token` stands as a whole token in `text`: no token
/// character before it, and after it none, nor a `.` that a token character
/// follows (`1.0.` ends a sentence; `1.0.1` is another version).
fn token_offsets(text: &str, token: &str) -> Vec<usize> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = text.get(from..).and_then(|rest| rest.find(token)) {
        let start = from + at;
        let end = start + token.len();
        let before = text.get(..start).and_then(|head| head.chars().next_back());
        let mut after = text.get(end..).unwrap_or_default().chars();
        let next = after.next();
        let whole_before = !before.is_some_and(|c| is_token_char(c) || c == '.');
        let whole_after = match next {
            None => true,
            Some('.') => !after.next().is_some_and(is_token_char),
            Some(c) => !is_token_char(c),
        };
        if whole_before && whole_after {
            found.push(start);
        }
        from = end;
    }
    found
}

fn replace_tokens(text: &str, token: &str, with: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for start in token_offsets(text, token) {
        out.push_str(text.get(last..start).unwrap_or_default());
        out.push_str(with);
        last = start + token.len();
    }
    out.push_str(text.get(last..).unwrap_or_default());
    out
}

/// The text between the first pair of backticks of a table cell: `""` stands
/// for the empty string.
fn cell_value(cell: &str) -> Option<String> {
    let (_, rest) = cell.split_once('`')?;
    let (value, _) = rest.split_once('`')?;
    Some(if value == "\"\"" {
        String::new()
    } else {
        value.to_owned()
    })
}

/// One row of the version rule's table, read.
struct Row {
    version: String,
    family: String,
    interoperates: bool,
    /// What follows `yes` or `no` in the last cell.
    note: String,
}

fn read_row(line: &str) -> Option<Row> {
    let cells: Vec<&str> = line
        .trim()
        .strip_prefix('|')?
        .strip_suffix('|')?
        .split('|')
        .collect();
    let [version, family, verdict] = cells.as_slice() else {
        return None;
    };
    let verdict = verdict.trim();
    let (interoperates, note) = if let Some(note) = verdict.strip_prefix("yes") {
        (true, note)
    } else {
        (false, verdict.strip_prefix("no")?)
    };
    Some(Row {
        version: cell_value(version)?,
        family: cell_value(family)?,
        interoperates,
        note: note.to_owned(),
    })
}

fn code(value: &str) -> String {
    if value.is_empty() {
        "`\"\"`".to_owned()
    } else {
        format!("`{value}`")
    }
}

/// The indices of the version rule table's body lines in `lines`.
fn table_rows(lines: &[&str]) -> std::ops::Range<usize> {
    let Some(header) = lines.iter().position(|line| line.trim() == TABLE_HEADER) else {
        return 0..0;
    };
    let start = header + 2;
    let end = lines
        .iter()
        .skip(start)
        .position(|line| !line.trim_start().starts_with('|'))
        .map_or(lines.len(), |offset| start + offset);
    start.min(end)..end
}

/// SPEC.md moved from version `from` to `to`: every whole-token spelling of
/// `from` becomes `to`, the header line names `to` and its family, and each
/// row of the version rule's table states its version's family and whether it
/// interoperates with `to`. Every other byte is kept.
pub fn rewrite_spec(markdown: &str, from: &ProtocolVersion, to: &ProtocolVersion) -> String {
    let text = replace_tokens(markdown, &from.to_string(), &to.to_string());
    let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
    if let Some(header) = lines.iter_mut().find(|line| line.starts_with(HEADER)) {
        *header = header_line(to);
    }
    let borrowed: Vec<&str> = lines.iter().map(String::as_str).collect();
    let rows = table_rows(&borrowed);
    let family = to.family();
    for index in rows {
        let Some(line) = lines.get_mut(index) else {
            continue;
        };
        let Some(row) = read_row(line) else {
            continue;
        };
        let version_cell = line
            .trim()
            .trim_start_matches('|')
            .split('|')
            .next()
            .unwrap_or_default()
            .trim()
            .to_owned();
        let row_family = family_of(&row.version);
        let verdict = if row_family == family { "yes" } else { "no" };
        *line = format!(
            "| {version_cell} | {} | {verdict}{} |",
            code(row_family),
            row.note
        );
    }
    lines.join("\n")
}

/// Where SPEC.md disagrees with the declared `working` version: its header
/// line, a row of the version rule's table, or a valid `handshake_ack` corpus
/// example that acknowledges a version of another family (a host of the
/// working version refuses it, SPEC.md H1).
pub fn spec_problems(markdown: &str, working: &ProtocolVersion) -> Vec<Diagnostic> {
    let at = |line: usize, message: String| {
        Diagnostic::at(SPEC_FILE, Position { line, column: 1 }, None, message)
    };
    let run = "; `cargo xtask set-version` writes it";
    let mut problems = Vec::new();
    let lines: Vec<&str> = markdown.split('\n').collect();
    let expected = header_line(working);
    match lines.iter().position(|line| line.starts_with(HEADER)) {
        None => problems.push(Diagnostic::file(
            SPEC_FILE,
            format!("no line starts with `{HEADER}`; expected `{expected}`"),
        )),
        Some(index) if lines.get(index).map(|line| line.trim_end()) != Some(expected.as_str()) => {
            problems.push(at(
                index + 1,
                format!("the header line should be `{expected}`, as the schemas declare{run}"),
            ));
        }
        Some(_) => {}
    }
    let family = working.family();
    for index in table_rows(&lines) {
        let Some(row) = lines.get(index).and_then(|line| read_row(line)) else {
            problems.push(at(
                index + 1,
                "a row of the version rule's table should read | `version` | `family` | yes or no … |".into(),
            ));
            continue;
        };
        let row_family = family_of(&row.version);
        if row.family != row_family {
            problems.push(at(
                index + 1,
                format!(
                    "the family of {} is {}, not {}{run}",
                    code(&row.version),
                    code(row_family),
                    code(&row.family)
                ),
            ));
        } else if row.interoperates != (row_family == family) {
            problems.push(at(
                index + 1,
                format!(
                    "{} {} with {working} (family `{family}`): the row should say {}{run}",
                    code(&row.version),
                    if row_family == family {
                        "interoperates"
                    } else {
                        "does not interoperate"
                    },
                    if row_family == family { "yes" } else { "no" }
                ),
            ));
        }
    }
    let Ok(examples) = corpus::extract(SPEC_FILE, markdown) else {
        // The corpus gate reports a corpus that cannot be read.
        return problems;
    };
    for example in examples.iter().filter(|e| e.expect == Expect::Valid) {
        let Ok(document) = example.parse() else {
            continue;
        };
        let value = &document.value;
        if value.get("type").and_then(|t| t.as_str()) != Some("handshake_ack") {
            continue;
        }
        let Some(acknowledged) = value.get("protocol_version").and_then(|v| v.as_str()) else {
            continue;
        };
        if family_of(acknowledged) != family {
            let line = document
                .position("/protocol_version")
                .map_or(example.fence_line, |position| example.line_of(position));
            problems.push(at(
                line,
                format!(
                    "example `{}` acknowledges \"{acknowledged}\", of the family `{}`: a {working} host refuses it (H1); a valid acknowledgement speaks the working family",
                    example.name,
                    family_of(acknowledged)
                ),
            ));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> ProtocolVersion {
        text.parse().expect("a version")
    }

    const SPEC: &str = "# Spec\n\nProtocol version: **`demo/1.0`** (major family `demo/1`).\n\n\
        It speaks (`demo/1.0` for this specification), not demo/1.0-draft, demo/1.4 or demo/1.0.1. It is demo/1.0.\n\n\
        | Acknowledged version | Major family | Interoperates |\n|---|---|---|\n\
        | `demo/1.0` | `demo/1` | yes |\n\
        | `demo/1.0-draft` | `demo/1` | yes |\n\
        | `demo/1` | `demo/1` | yes (no dot: the whole string) |\n\
        | `demo/2.0` | `demo/2` | no |\n\
        | `\"\"` (empty) | `\"\"` | no |\n\n\
        ```json cgp-example name=ack target=Envelope expect=valid\n\
        {\"type\": \"handshake_ack\", \"protocol_version\": \"demo/1.0\"}\n```\n\n\
        ```json cgp-example name=newer target=Envelope expect=valid\n\
        {\"type\": \"handshake\", \"protocol_version\": \"demo/1.4\"}\n```\n";

    #[test]
    fn the_spec_as_written_holds() {
        assert_eq!(spec_problems(SPEC, &v("demo/1.0")), Vec::new());
    }

    #[test]
    fn a_minor_moves_the_working_spellings_and_keeps_the_others() {
        let moved = rewrite_spec(SPEC, &v("demo/1.0"), &v("demo/1.1"));
        assert_eq!(spec_problems(&moved, &v("demo/1.1")), Vec::new());
        assert!(moved.contains("Protocol version: **`demo/1.1`** (major family `demo/1`)."));
        assert!(moved.contains(
            "(`demo/1.1` for this specification), not demo/1.0-draft, demo/1.4 or demo/1.0.1. It is demo/1.1.\n"
        ));
        assert!(moved.contains("\"protocol_version\": \"demo/1.1\""));
        assert!(moved.contains("\"protocol_version\": \"demo/1.4\""));
        assert!(moved.contains("| `demo/1.1` | `demo/1` | yes |"));
        assert!(moved.contains("| `demo/1.0-draft` | `demo/1` | yes |"));
    }

    #[test]
    fn a_major_moves_the_family_and_the_table_follows() {
        let moved = rewrite_spec(SPEC, &v("demo/1.0"), &v("demo/2.0"));
        assert_eq!(spec_problems(&moved, &v("demo/2.0")), Vec::new());
        assert!(moved.contains("Protocol version: **`demo/2.0`** (major family `demo/2`)."));
        assert!(
            moved.contains(
                "| `demo/2.0` | `demo/2` | yes |\n| `demo/1.0-draft` | `demo/1` | no |\n"
            )
        );
        assert!(moved.contains("| `demo/1` | `demo/1` | no (no dot: the whole string) |"));
        assert!(moved.contains("| `\"\"` (empty) | `\"\"` | no |"));
        assert!(moved.contains("\"protocol_version\": \"demo/2.0\""));
        assert!(moved.contains("demo/1.0-draft, demo/1.4 or demo/1.0.1"));
    }

    #[test]
    fn a_spec_left_behind_is_named_at_each_line() {
        let problems: Vec<String> = spec_problems(SPEC, &v("demo/2.0"))
            .iter()
            .map(ToString::to_string)
            .collect();
        let lines: Vec<&str> = problems
            .iter()
            .map(|p| p.split(": ").next().unwrap_or_default())
            .collect();
        assert_eq!(
            lines,
            [
                "SPEC.md:3:1",
                "SPEC.md:9:1",
                "SPEC.md:10:1",
                "SPEC.md:11:1",
                "SPEC.md:12:1",
                "SPEC.md:16:1"
            ],
            "{problems:#?}"
        );
        assert!(
            problems[5].contains("example `ack` acknowledges \"demo/1.0\""),
            "{}",
            problems[5]
        );
        let wrong_family = SPEC.replace(
            "| `demo/2.0` | `demo/2` | no |",
            "| `demo/2.0` | `demo/1` | no |",
        );
        let problems = spec_problems(&wrong_family, &v("demo/1.0"));
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0]
                .to_string()
                .contains("the family of `demo/2.0` is `demo/2`, not `demo/1`")
        );
    }
}
