//! The example corpus: fenced `cgp-example` blocks in SPEC.md (SPEC.md §Corpus).
//!
//! A corpus block looks like
//!
//! ````text
//! ```json cgp-example name=query.minimal target=Envelope expect=valid
//! {"type": "query", "query": {"goal": "", "max_frames": 1, "max_tokens": 1}}
//! ```
//! ````
//!
//! and states what must happen to it: `expect=valid` (both profiles accept),
//! `expect=interop-only` (interop accepts, strict rejects) or `expect=invalid`
//! (both reject), with `at=<pointer>` naming where the error is reported and
//! `reason="…"` saying why. [`extract`] finds every block, keeps its line numbers,
//! and reports malformed blocks (an unterminated fence, a duplicate name, an
//! unknown attribute) as diagnostics.

use cgp_check::validate::Violation;
use cgp_schema::bundle::Profile;
use cgp_schema::diagnostic::{Diagnostic, Diagnostics};
use cgp_schema::json_text::{self, Document, Position};
use std::collections::BTreeMap;
use std::fmt;

/// The info-string marker of a corpus block.
pub(crate) const MARKER: &str = "cgp-example";

/// What an example must do under the two profiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Expect {
    /// Valid under both profiles.
    Valid,
    /// Valid under interop, rejected by strict.
    InteropOnly,
    /// Rejected by both profiles.
    Invalid,
}

impl Expect {
    /// Whether the example must be valid under `profile`.
    pub fn valid_under(self, profile: Profile) -> bool {
        match (self, profile) {
            (Expect::Valid, _) | (Expect::InteropOnly, Profile::Interop) => true,
            (Expect::InteropOnly, Profile::Strict) | (Expect::Invalid, _) => false,
        }
    }

    /// The attribute value, as written in SPEC.md.
    pub fn as_str(self) -> &'static str {
        match self {
            Expect::Valid => "valid",
            Expect::InteropOnly => "interop-only",
            Expect::Invalid => "invalid",
        }
    }
}

impl fmt::Display for Expect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One corpus example.
#[derive(Debug, Clone)]
pub struct Example {
    /// Its unique name, e.g. `query.minimal`.
    pub name: String,
    /// What it is an instance of: `Envelope` or a type name.
    pub target: String,
    /// What must happen to it.
    pub expect: Expect,
    /// Where the error must be reported (required unless `expect=valid`).
    pub at: Option<String>,
    /// What the reference decoder does, when it differs from what `expect` implies.
    pub decoder_accepts: Option<bool>,
    /// The rule is on the JSON text (duplicate member names), invisible to a
    /// validator that only sees a parsed value.
    pub text_layer: bool,
    /// Why it is invalid, or what it illustrates.
    pub reason: Option<String>,
    /// The line of the opening fence in the Markdown file.
    pub fence_line: usize,
    /// The JSON text of the block.
    pub json: String,
}

impl Example {
    /// Whether the reference decoder accepts the example.
    pub fn decoder_accepts(&self) -> bool {
        self.decoder_accepts
            .unwrap_or(self.expect != Expect::Invalid)
    }

    /// The Markdown line of a position inside the example's JSON text.
    pub fn line_of(&self, position: Position) -> usize {
        self.fence_line + position.line
    }

    /// Parses the JSON text with positions. Fails for text-layer problems such as
    /// duplicate member names, which is how a text-layer example is rejected.
    pub fn parse(&self) -> Result<Document, json_text::ParseError> {
        json_text::parse(&self.json)
    }

    /// The JSON text as one line, the way it travels over stdio (duplicate member
    /// names and all): the block's line breaks become spaces.
    pub fn as_line(&self) -> String {
        self.json.replace(['\n', '\r'], " ")
    }
}

const ATTRIBUTES: &[&str] = &[
    "name", "target", "expect", "at", "decoder", "layer", "reason",
];

/// Extracts every corpus example from Markdown text. `file` names the file in
/// diagnostics.
pub fn extract(file: &str, markdown: &str) -> Result<Vec<Example>, Diagnostics> {
    let mut examples = Vec::new();
    let mut problems = Vec::new();
    let mut first_seen: BTreeMap<String, usize> = BTreeMap::new();
    let lines: Vec<&str> = markdown.split('\n').collect();
    let mut index = 0;
    while let Some(line) = lines.get(index) {
        let Some((fence, info)) = opening_fence(line) else {
            index += 1;
            continue;
        };
        let fence_line = index + 1;
        let closing = lines
            .get(index + 1..)
            .unwrap_or_default()
            .iter()
            .position(|line| is_closing_fence(line, &fence))
            .map(|offset| index + 1 + offset);
        let Some(closing) = closing else {
            problems.push(Diagnostic::at(
                file,
                Position {
                    line: fence_line,
                    column: 1,
                },
                None,
                "unterminated code fence: it runs to the end of the file",
            ));
            break;
        };
        let is_example = info.split_whitespace().nth(1) == Some(MARKER);
        let mentions_marker = info.contains(MARKER);
        if is_example {
            let json = lines
                .get(index + 1..closing)
                .unwrap_or_default()
                .iter()
                .map(|line| line.trim_end_matches('\r'))
                .collect::<Vec<_>>()
                .join("\n");
            match example(info, fence_line, json) {
                Ok(example) => match first_seen.get(&example.name) {
                    Some(first) => problems.push(Diagnostic::at(
                        file,
                        Position {
                            line: fence_line,
                            column: 1,
                        },
                        None,
                        format!(
                            "duplicate example name `{}` (first used on line {first})",
                            example.name
                        ),
                    )),
                    None => {
                        first_seen.insert(example.name.clone(), fence_line);
                        examples.push(example);
                    }
                },
                Err(problem) => problems.push(Diagnostic::at(
                    file,
                    Position {
                        line: fence_line,
                        column: 1,
                    },
                    None,
                    problem.to_string(),
                )),
            }
        } else if mentions_marker {
            problems.push(Diagnostic::at(
                file,
                Position {
                    line: fence_line,
                    column: 1,
                },
                None,
                format!("a corpus block's info string must start with `json {MARKER}`"),
            ));
        }
        index = closing + 1;
    }
    if problems.is_empty() {
        Ok(examples)
    } else {
        Err(Diagnostics(problems))
    }
}

/// The fence characters and info string of an opening fence line.
fn opening_fence(line: &str) -> Option<(String, &str)> {
    let trimmed = line.trim_start_matches(' ');
    if line.len() - trimmed.len() > 3 {
        return None;
    }
    let marker = trimmed.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let length = trimmed.chars().take_while(|c| *c == marker).count();
    if length < 3 {
        return None;
    }
    let info = trimmed[length..].trim().trim_end_matches('\r');
    if marker == '`' && info.contains('`') {
        return None;
    }
    Some((marker.to_string().repeat(length), info))
}

fn is_closing_fence(line: &str, fence: &str) -> bool {
    let trimmed = line
        .trim_start_matches(' ')
        .trim_end_matches(['\r', ' ', '\t']);
    let Some(marker) = fence.chars().next() else {
        return false;
    };
    trimmed.len() >= fence.len() && trimmed.chars().all(|c| c == marker)
}

/// Why a corpus block's info string does not describe an example.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum BlockError {
    #[error("a corpus block's info string must start with `json {MARKER}`")]
    NoMarker,
    #[error("expected `key=value` in the info string, found `{0}`")]
    NotKeyValue(String),
    #[error("unterminated quoted value for `{0}`")]
    Unterminated(String),
    #[error("attribute `{0}` given twice")]
    Twice(String),
    #[error("unknown corpus attribute `{0}` (expected one of {known})", known = ATTRIBUTES.join(", "))]
    UnknownAttribute(String),
    #[error("corpus block without `{0}=`")]
    Missing(&'static str),
    #[error("example name `{0}` must match [a-z0-9_.-]+")]
    BadName(String),
    #[error("`expect={0}` is not one of valid, invalid, interop-only")]
    BadExpect(String),
    #[error("`at={0}` is not a JSON pointer (write `at=\"\"` for the root)")]
    NotAPointer(String),
    #[error(
        "example `{name}` is expect={expect} and needs `at=<pointer>` naming where the error is reported"
    )]
    NoAt { name: String, expect: Expect },
    #[error("example `{name}` is expect={expect} and needs `reason=\"…\"`")]
    NoReason { name: String, expect: Expect },
    #[error("`decoder={0}` is not accept or reject")]
    BadDecoder(String),
    #[error("example `{0}`: `decoder=` only records a disagreement with `expect=`; drop it")]
    NeedlessDecoder(String),
    #[error("`layer={0}` is not `text`")]
    BadLayer(String),
}

fn example(info: &str, fence_line: usize, json: String) -> Result<Example, BlockError> {
    let attributes = parse_attributes(info)?;
    for key in attributes.keys() {
        if !ATTRIBUTES.contains(&key.as_str()) {
            return Err(BlockError::UnknownAttribute(key.clone()));
        }
    }
    let required = |key: &'static str| attributes.get(key).cloned().ok_or(BlockError::Missing(key));
    let name = required("name")?;
    let valid_name = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '_' | '.' | '-'));
    if !valid_name {
        return Err(BlockError::BadName(name));
    }
    let target = required("target")?;
    let expect = match required("expect")?.as_str() {
        "valid" => Expect::Valid,
        "invalid" => Expect::Invalid,
        "interop-only" => Expect::InteropOnly,
        other => {
            return Err(BlockError::BadExpect(other.to_owned()));
        }
    };
    let at = attributes.get("at").cloned();
    if let Some(pointer) = &at {
        if !pointer.is_empty() && !pointer.starts_with('/') {
            return Err(BlockError::NotAPointer(pointer.clone()));
        }
    }
    let reason = attributes.get("reason").cloned();
    if expect != Expect::Valid {
        if at.is_none() {
            return Err(BlockError::NoAt { name, expect });
        }
        if reason.is_none() {
            return Err(BlockError::NoReason { name, expect });
        }
    }
    let decoder_accepts = match attributes.get("decoder").map(String::as_str) {
        None => None,
        Some("accept") => Some(true),
        Some("reject") => Some(false),
        Some(other) => return Err(BlockError::BadDecoder(other.to_owned())),
    };
    if decoder_accepts == Some(expect != Expect::Invalid) {
        return Err(BlockError::NeedlessDecoder(name));
    }
    let text_layer = match attributes.get("layer").map(String::as_str) {
        None => false,
        Some("text") => true,
        Some(other) => return Err(BlockError::BadLayer(other.to_owned())),
    };
    Ok(Example {
        name,
        target,
        expect,
        at,
        decoder_accepts,
        text_layer,
        reason,
        fence_line,
        json,
    })
}

/// An example's attributes: key to value.
type Attributes = BTreeMap<String, String>;

/// Parses `key=value key="quoted value"` pairs after the `json cgp-example` words.
fn parse_attributes(info: &str) -> Result<Attributes, BlockError> {
    let mut rest = info
        .trim_start()
        .strip_prefix("json")
        .map(str::trim_start)
        .and_then(|rest| rest.strip_prefix(MARKER))
        .ok_or(BlockError::NoMarker)?;
    let mut attributes = BTreeMap::new();
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return Ok(attributes);
        }
        let (key, after_key) = rest
            .split_once('=')
            .ok_or_else(|| BlockError::NotKeyValue(rest.to_owned()))?;
        if key.is_empty() || key.contains(char::is_whitespace) {
            return Err(BlockError::NotKeyValue(rest.to_owned()));
        }
        let (value, remainder) = if let Some(quoted) = after_key.strip_prefix('"') {
            let end = quoted
                .find('"')
                .ok_or_else(|| BlockError::Unterminated(key.to_owned()))?;
            (quoted[..end].to_owned(), &quoted[end + 1..])
        } else {
            let end = after_key
                .find(char::is_whitespace)
                .unwrap_or(after_key.len());
            (after_key[..end].to_owned(), &after_key[end..])
        };
        if attributes.insert(key.to_owned(), value).is_some() {
            return Err(BlockError::Twice(key.to_owned()));
        }
        rest = remainder;
    }
}

/// Checks every example against the validators (one per profile): each `expect=`
/// must hold, and a failing example must fail at its `at=` pointer. Returns one
/// diagnostic per broken expectation, as
/// `SPEC.md:LINE: <example>: <instance pointer>: <message> (schema …)`.
/// `locate_schema` turns a bundle schema pointer into a source location for the
/// message.
pub fn check(
    file: &str,
    examples: &[Example],
    validators: &[&cgp_check::validate::Validator],
    locate_schema: &dyn Fn(&str) -> String,
) -> Vec<Diagnostic> {
    let mut failures = Vec::new();
    for example in examples {
        check_example(file, example, validators, locate_schema, &mut failures);
    }
    failures
}

fn line_diagnostic(file: &str, line: usize, message: String) -> Diagnostic {
    Diagnostic::at(file, Position { line, column: 0 }, None, message)
}

fn check_example(
    file: &str,
    example: &Example,
    validators: &[&cgp_check::validate::Validator],
    locate_schema: &dyn Fn(&str) -> String,
    failures: &mut Vec<Diagnostic>,
) {
    let name = &example.name;
    let document = match example.parse() {
        Ok(document) => document,
        Err(error) => {
            let line = example.line_of(error.position);
            let parent = error
                .pointer
                .rfind('/')
                .map_or("", |cut| &error.pointer[..cut]);
            let expected_here = example.expect == Expect::Invalid
                && example.text_layer
                && example
                    .at
                    .as_deref()
                    .is_some_and(|at| at == error.pointer || at == parent);
            if !expected_here {
                failures.push(line_diagnostic(
                    file,
                    line,
                    format!(
                        "{name}: {}: the JSON text is rejected: {}",
                        shown_pointer(&error.pointer),
                        error.message
                    ),
                ));
            }
            return;
        }
    };
    if example.text_layer {
        failures.push(line_diagnostic(
            file,
            example.fence_line,
            format!("{name}: marked layer=text, but its text parses; the text-layer rule it illustrates is not there"),
        ));
        return;
    }
    for validator in validators {
        let profile = validator.profile();
        let Some(violations) = validator.validate(&example.target, &document.value) else {
            failures.push(line_diagnostic(
                file,
                example.fence_line,
                format!(
                    "{name}: unknown target `{}` (expected Envelope or a type name)",
                    example.target
                ),
            ));
            return;
        };
        let line_of = |pointer: &str| example.line_of(document.nearest_position(pointer));
        let should_be_valid = example.expect.valid_under(profile);
        if should_be_valid {
            for violation in &violations {
                failures.push(line_diagnostic(
                    file,
                    line_of(&violation.instance_path),
                    format!(
                        "{name}: {}: {} (expected valid under {profile}; schema {})",
                        shown_pointer(&violation.instance_path),
                        violation.message,
                        locate_schema(&violation.schema_path)
                    ),
                ));
            }
            continue;
        }
        check_invalid(file, example, profile, &violations, &line_of, failures);
    }
}

/// An example expected invalid under `profile`: the violations must include
/// one at its `at`.
fn check_invalid(
    file: &str,
    example: &Example,
    profile: Profile,
    violations: &[Violation],
    line_of: &dyn Fn(&str) -> usize,
    failures: &mut Vec<Diagnostic>,
) {
    let name = &example.name;
    let at = example.at.as_deref().unwrap_or_default();
    if violations.is_empty() {
        failures.push(line_diagnostic(
            file,
            line_of(at),
            format!(
                "{name}: {}: expected invalid under {profile} ({}), but it validates",
                shown_pointer(at),
                example.reason.as_deref().unwrap_or("no reason given")
            ),
        ));
    } else if !violations
        .iter()
        .any(|violation| violation.instance_path == at)
    {
        let seen: Vec<&str> = violations
            .iter()
            .map(|v| shown_pointer(&v.instance_path))
            .collect();
        failures.push(line_diagnostic(
            file,
            line_of(at),
            format!(
                "{name}: {}: expected the {profile} error here, but it is reported at {}: {}",
                shown_pointer(at),
                seen.join(", "),
                violations
                    .first()
                    .map_or("", |violation| violation.message.as_str())
            ),
        ));
    }
}

fn shown_pointer(pointer: &str) -> &str {
    if pointer.is_empty() { "/" } else { pointer }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "# Title\n\n```json cgp-example name=a.one target=Envelope expect=valid\n{\"type\": \"shutdown\"}\n```\n\ntext\n\n```json cgp-example name=a.two target=Envelope expect=invalid at=/type reason=\"unknown tag\"\n{\n  \"type\": \"hello\"\n}\n```\n";

    #[test]
    fn extracts_examples_with_lines_and_attributes() {
        let examples = extract("SPEC.md", SAMPLE).expect("valid corpus");
        assert_eq!(examples.len(), 2);
        assert_eq!(examples[0].name, "a.one");
        assert_eq!(examples[0].fence_line, 3);
        assert_eq!(examples[1].expect, Expect::Invalid);
        assert_eq!(examples[1].at.as_deref(), Some("/type"));
        assert_eq!(examples[1].reason.as_deref(), Some("unknown tag"));
        assert!(!examples[1].decoder_accepts());
        let document = examples[1].parse().expect("json");
        let position = document.position("/type").expect("present");
        assert_eq!(examples[1].line_of(position), 11);
    }

    #[test]
    fn reports_an_unterminated_fence() {
        let text = "```json cgp-example name=a target=Envelope expect=valid\n{}\n";
        let problems = extract("SPEC.md", text).unwrap_err();
        assert_eq!(
            problems.to_string(),
            "SPEC.md:1:1: unterminated code fence: it runs to the end of the file"
        );
    }

    #[test]
    fn reports_duplicate_names_with_both_lines() {
        let text = "```json cgp-example name=a target=Envelope expect=valid\n{}\n```\n```json cgp-example name=a target=Envelope expect=valid\n{}\n```\n";
        let problems = extract("SPEC.md", text).unwrap_err();
        assert_eq!(
            problems.to_string(),
            "SPEC.md:4:1: duplicate example name `a` (first used on line 1)"
        );
    }

    #[test]
    fn requires_at_and_reason_for_failing_examples() {
        let text = "```json cgp-example name=a target=Envelope expect=invalid\n{}\n```\n";
        let problems = extract("SPEC.md", text).unwrap_err().to_string();
        assert!(problems.contains("needs `at=<pointer>`"), "{problems}");
    }

    #[test]
    fn rejects_unknown_attributes_and_redundant_decoder() {
        let typo = "```json cgp-example name=a target=Envelope expcet=valid\n{}\n```\n";
        assert!(
            extract("SPEC.md", typo)
                .unwrap_err()
                .to_string()
                .contains("unknown corpus attribute `expcet`")
        );
        let redundant =
            "```json cgp-example name=a target=Envelope expect=valid decoder=accept\n{}\n```\n";
        assert!(
            extract("SPEC.md", redundant)
                .unwrap_err()
                .to_string()
                .contains("only records a disagreement")
        );
    }

    #[test]
    fn ignores_other_fences_but_not_misplaced_markers() {
        let text = "```rust\nlet x = 1;\n```\n~~~\n```json cgp-example\n~~~\n";
        assert!(extract("SPEC.md", text).expect("fine").is_empty());
        let misplaced = "```cgp-example json name=a\n{}\n```\n";
        assert!(extract("SPEC.md", misplaced).is_err());
    }

    #[test]
    fn expectations_per_profile() {
        assert!(Expect::InteropOnly.valid_under(Profile::Interop));
        assert!(!Expect::InteropOnly.valid_under(Profile::Strict));
        assert!(!Expect::Invalid.valid_under(Profile::Interop));
        assert!(Expect::Valid.valid_under(Profile::Strict));
    }
}
