//! Newline-delimited JSON framing: one [`Envelope`] per line (SPEC.md
//! [§Transport](../../SPEC.md#transport)).
//!
//! [`encode_line`] writes an envelope as compact JSON followed by `\n`.
//! [`decode_line`] reads one back. Neither function panics, whatever the
//! input; every failure is a [`WireError`].
//!
//! Only serde's rules are applied. The conformance rules of SPEC.md (budgets,
//! digests, timestamps, representation invariants and so on) are checked
//! elsewhere.

use std::error::Error as StdError;
use std::fmt;

use serde_json::error::Category;

use crate::envelope::Envelope;

/// The longest line [`decode_line`] accepts, in bytes, not counting the
/// terminating `\n`: 16 MiB.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// Why a line could not be decoded, or an envelope could not be encoded.
///
/// Decoding errors from the JSON parser keep the 1-based line and column
/// it reported, when it knows them; see [`WireError::line`] and
/// [`WireError::column`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum WireError {
    /// The line is longer than [`MAX_LINE_BYTES`]. Nothing was parsed.
    LineTooLong {
        /// The line's length in bytes, without its `\n`.
        length: usize,
        /// The limit, [`MAX_LINE_BYTES`].
        limit: usize,
    },

    /// The line is not JSON: a syntax error, or the text ends in the middle
    /// of a value (an empty line included).
    Syntax {
        /// What the parser objected to.
        message: String,
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
    },

    /// The line starts with a complete JSON value but has more after it
    /// (other than trailing whitespace).
    TrailingCharacters {
        /// 1-based line where the extra text starts.
        line: usize,
        /// 1-based column where the extra text starts.
        column: usize,
    },

    /// The line is JSON but not an envelope: not an object, an unknown or
    /// missing `type`, a missing required member, a member of the wrong
    /// type, a number out of range, a duplicate member, and so on.
    NotAnEnvelope {
        /// What serde objected to.
        message: String,
        /// 1-based line of the error, or 0 when it is not known. Envelopes
        /// are buffered before their variant is decoded, so most problems
        /// inside an envelope are found after parsing and have no position.
        line: usize,
        /// 1-based column of the error, or 0 when it is not known.
        column: usize,
    },

    /// The serializer failed for any other reason. Not expected with the
    /// types of this crate.
    Encode {
        /// The serializer's message.
        message: String,
    },
}

impl WireError {
    /// The 1-based line the JSON parser stopped at, for errors that come from
    /// it. `None` for other errors and when the position is unknown.
    pub fn line(&self) -> Option<usize> {
        self.position().map(|(line, _)| line)
    }

    /// The 1-based column the JSON parser stopped at, for errors that come
    /// from it. `None` for other errors and when the position is unknown.
    pub fn column(&self) -> Option<usize> {
        self.position().map(|(_, column)| column)
    }

    fn position(&self) -> Option<(usize, usize)> {
        match self {
            WireError::Syntax { line, column, .. }
            | WireError::TrailingCharacters { line, column }
            | WireError::NotAnEnvelope { line, column, .. }
                if *line > 0 =>
            {
                Some((*line, *column))
            }
            _ => None,
        }
    }

    fn from_json(err: serde_json::Error) -> WireError {
        let line = err.line();
        let column = err.column();
        let full = err.to_string();
        let suffix = format!(" at line {line} column {column}");
        let message = full.strip_suffix(&suffix).unwrap_or(&full).to_owned();
        match err.classify() {
            Category::Data => WireError::NotAnEnvelope {
                message,
                line,
                column,
            },
            Category::Syntax if message == "trailing characters" => {
                WireError::TrailingCharacters { line, column }
            }
            Category::Syntax | Category::Eof | Category::Io => WireError::Syntax {
                message,
                line,
                column,
            },
        }
    }
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireError::LineTooLong { length, limit } => {
                write!(f, "line of {length} bytes exceeds the {limit}-byte limit")
            }
            WireError::Syntax {
                message,
                line,
                column,
            } => write!(f, "invalid JSON at line {line} column {column}: {message}"),
            WireError::TrailingCharacters { line, column } => write!(
                f,
                "unexpected text after the JSON value at line {line} column {column}"
            ),
            WireError::NotAnEnvelope {
                message,
                line,
                column,
            } => {
                if *line > 0 {
                    write!(
                        f,
                        "not a valid envelope at line {line} column {column}: {message}"
                    )
                } else {
                    write!(f, "not a valid envelope: {message}")
                }
            }
            WireError::Encode { message } => write!(f, "failed to encode envelope: {message}"),
        }
    }
}

impl StdError for WireError {}

/// Decodes one line into an [`Envelope`].
///
/// Trailing whitespace (including the `\n` terminator and `\r`) is removed
/// first; leading whitespace is allowed by the parser. A line longer than
/// [`MAX_LINE_BYTES`] (without its final `\n`) is refused before parsing.
/// Unknown members are ignored (SPEC.md
/// [§Unknown members](../../SPEC.md#unknown-members)).
pub fn decode_line(line: &str) -> Result<Envelope, WireError> {
    let length = line.strip_suffix('\n').unwrap_or(line).len();
    if length > MAX_LINE_BYTES {
        return Err(WireError::LineTooLong {
            length,
            limit: MAX_LINE_BYTES,
        });
    }
    parse(line)
}

fn parse(line: &str) -> Result<Envelope, WireError> {
    serde_json::from_str(line.trim_end()).map_err(WireError::from_json)
}

/// Decodes one line given as raw bytes. Invalid UTF-8 is replaced with
/// U+FFFD before parsing, the way a stdio reader sees it; otherwise the same
/// as [`decode_line`].
pub fn decode_line_bytes(line: &[u8]) -> Result<Envelope, WireError> {
    let length = line.strip_suffix(b"\n").unwrap_or(line).len();
    if length > MAX_LINE_BYTES {
        return Err(WireError::LineTooLong {
            length,
            limit: MAX_LINE_BYTES,
        });
    }
    parse(&String::from_utf8_lossy(line))
}

/// Encodes an [`Envelope`] as one line: compact JSON, members in declaration
/// order with the `type` tag first, then `\n`. The JSON itself never contains
/// a raw newline.
///
/// An `f32` that is NaN or infinite (an f32 member beyond the binary32 range
/// decodes to infinity) is written `null`, as the reference encoder writes it
/// (SPEC.md §Leniency, f32 overflow): the same policy in every package.
pub fn encode_line(env: &Envelope) -> Result<String, WireError> {
    let mut line = serde_json::to_string(env).map_err(|e| WireError::Encode {
        message: e.to_string(),
    })?;
    line.push('\n');
    Ok(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_errors_are_classified() {
        assert!(matches!(
            decode_line("nope"),
            Err(WireError::Syntax { line: 1, .. })
        ));
        assert!(matches!(decode_line(""), Err(WireError::Syntax { .. })));
        assert!(matches!(
            decode_line(r#"{"type":"shutdown"} x"#),
            Err(WireError::TrailingCharacters {
                line: 1,
                column: 21
            })
        ));
        assert!(matches!(
            decode_line("null"),
            Err(WireError::NotAnEnvelope { .. })
        ));
    }

    #[test]
    fn message_has_no_position_suffix() {
        let err = decode_line(r#"{"type":"nope"}"#).unwrap_err();
        let WireError::NotAnEnvelope { message, .. } = &err else {
            panic!("{err:?}");
        };
        assert!(message.starts_with("unknown variant `nope`"), "{message}");
        assert!(!message.contains(" at line "), "{message}");
        assert_eq!(err.line(), Some(1));
        assert!(err.to_string().contains("line 1 column"));
        let buffered = decode_line(r#"{"type":"handshake"}"#).unwrap_err();
        assert_eq!(buffered.line(), None);
        assert_eq!(
            buffered.to_string(),
            "not a valid envelope: missing field `protocol_version`"
        );
    }
}
