//! `set-version`: the version the schemas declare, rewritten in place in the
//! files that own it, nothing else touched.

use cgp_schema::json_text::{self, ParseError};
use cgp_schema::version::{ProtocolVersion, VersionError};
use serde_json::Value;
use std::collections::BTreeMap;

/// Why [`set_version`] cannot move the schemas to a version.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetVersionError {
    /// The sources hold no envelope schema, which declares the version.
    #[error("there is no {file}")]
    NoEnvelope {
        /// The envelope's path, as the sources name files.
        file: &'static str,
    },
    /// A source file is not JSON.
    #[error("{path}: {error}")]
    Unparsable {
        /// The file, as the sources name it.
        path: String,
        /// Why, at which line and column.
        error: ParseError,
    },
    /// The envelope declares no version.
    #[error("{path} declares no `x-cgp-protocol-version`")]
    Undeclared {
        /// The envelope's path.
        path: String,
    },
    /// The envelope declares a version that is not one.
    #[error(transparent)]
    Declared(#[from] VersionError),
    /// The version asked for names another protocol.
    #[error("{to} is not a version of {protocol}, the protocol the schemas describe")]
    OtherProtocol {
        /// The version asked for.
        to: ProtocolVersion,
        /// The protocol the schemas declare.
        protocol: String,
    },
    /// A string the version owns is not where the parser placed it.
    #[error("{path}: cannot find the string at {pointer}")]
    NoString {
        /// The file.
        path: String,
        /// The JSON pointer of the string.
        pointer: String,
    },
}

/// The version the envelope among `sources` declares (`x-cgp-protocol-version`).
pub fn declared_version(sources: &[(String, String)]) -> Result<ProtocolVersion, SetVersionError> {
    let unparsable = |path: &str| {
        let path = path.to_owned();
        move |error| SetVersionError::Unparsable { path, error }
    };
    let envelope = sources
        .iter()
        .find(|(path, _)| path == cgp_schema::source::ENVELOPE_FILE)
        .ok_or(SetVersionError::NoEnvelope {
            file: cgp_schema::source::ENVELOPE_FILE,
        })?;
    let declared = json_text::parse(&envelope.1)
        .map_err(unparsable(&envelope.0))?
        .value
        .get("x-cgp-protocol-version")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| SetVersionError::Undeclared {
            path: envelope.0.clone(),
        })?;
    Ok(declared.parse()?)
}

/// Source schema files: path to text.
pub type SchemaFiles = BTreeMap<String, String>;

/// The edits that move source schemas to version `to`: the declaration
/// `x-cgp-protocol-version` in the envelope and, when the major family changes,
/// every file's `$id` (which carries the family) and every `x-cgp-since` (which
/// must name a version of the declared family; a new family starts at
/// `<major>.0`). `sources` are `(path, text)` pairs as
/// [`read_schema_dir`](cgp_schema::source::read_schema_dir) returns them; the result
/// holds the changed files only, with every other byte kept.
pub fn set_version(
    sources: &[(String, String)],
    to: &ProtocolVersion,
) -> Result<SchemaFiles, SetVersionError> {
    let unparsable = |path: &str| {
        let path = path.to_owned();
        move |error| SetVersionError::Unparsable { path, error }
    };
    let from = declared_version(sources)?;
    if from.name != to.name {
        return Err(SetVersionError::OtherProtocol {
            to: to.clone(),
            protocol: from.name,
        });
    }
    let new_family = from.major != to.major;
    let mut changed = BTreeMap::new();
    for (path, text) in sources {
        let document = json_text::parse(text).map_err(unparsable(path))?;
        let mut edits: Vec<(String, String)> = Vec::new();
        if path == cgp_schema::source::ENVELOPE_FILE {
            edits.push(("/x-cgp-protocol-version".into(), to.to_string()));
        }
        if new_family {
            if let Some(id) = document.value.get("$id").and_then(Value::as_str) {
                let old_segment = format!("/{}/", from.family_slug());
                let new_segment = format!("/{}/", to.family_slug());
                edits.push(("/$id".into(), id.replacen(&old_segment, &new_segment, 1)));
            }
            cgp_schema::keywords::walk(&document.value, "", &mut |schema, pointer| {
                if schema.get("x-cgp-since").is_some_and(Value::is_string) {
                    edits.push((format!("{pointer}/x-cgp-since"), format!("{}.0", to.major)));
                }
            });
        }
        let mut spans = Vec::new();
        for (pointer, value) in edits {
            let span = document
                .position(&pointer)
                .and_then(|position| string_span(text, position.line, position.column))
                .ok_or_else(|| SetVersionError::NoString {
                    path: path.clone(),
                    pointer: pointer.clone(),
                })?;
            spans.push((span, value));
        }
        spans.sort_by_key(|(span, _)| std::cmp::Reverse(span.0));
        let mut edited = text.clone();
        for ((start, end), value) in spans {
            let literal = serde_json::to_string(&value).unwrap_or_default();
            if edited.get(start..end).is_some() {
                edited.replace_range(start..end, &literal);
            }
        }
        if &edited != text {
            changed.insert(path.clone(), edited);
        }
    }
    Ok(changed)
}

/// The byte range of the JSON string literal that starts at a 1-based line and
/// character column.
fn string_span(text: &str, line: usize, column: usize) -> Option<(usize, usize)> {
    let line_start = if line <= 1 {
        0
    } else {
        text.match_indices('\n')
            .nth(line - 2)
            .map(|(at, _)| at + 1)?
    };
    let start = line_start
        + text
            .get(line_start..)?
            .char_indices()
            .nth(column.checked_sub(1)?)
            .map(|(offset, _)| offset)?;
    let rest = text.get(start..)?;
    if !rest.starts_with('"') {
        return None;
    }
    let mut escaped = false;
    for (offset, c) in rest.char_indices().skip(1) {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => return Some((start, start + offset + 1)),
            _ => {}
        }
    }
    None
}
