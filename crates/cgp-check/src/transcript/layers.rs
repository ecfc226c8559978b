//! One message on the text, schema and decoder layers, and the positions of
//! its findings in the text.

use super::decoder::{decoder_findings, schema_integer_findings};
use super::finding::{Checked, Finding, token_at};
use super::unique::parse_flagging_integral_floats;
use crate::validate::{Validator, Violation};
use cgp_schema::json_text::{self, Position};
use cgp_types::{Envelope, Variant};
use serde::Deserialize;
use serde_json::Value;

/// Checks one message (an NDJSON line without its line feed, or a whole JSON
/// document) on the text, schema and decoder layers. Positions of the findings
/// are filled in.
pub fn check_message(validator: &Validator, bytes: &[u8]) -> Checked {
    let mut checked = check_unlocated(validator, bytes, Keep::Everything);
    locate(bytes, &mut checked.findings);
    checked
}

/// The same verdict as [`check_message`] (the same findings, located), without
/// the parsed value or the decoded envelope: both are `None`.
///
/// A schema-valid message is decoded only when the decoder could disagree with
/// the schema. The `sync` gate of `cargo xtask check` proves, member by member,
/// that the hand-written types accept what the interop profile accepts, up to
/// the normalisations listed in the sync gate (`cgp-gates`); of those, only one concerns a
/// value the schema accepts: JSON Schema calls `1.0`, `1e2` and `-0` integers,
/// the decoder's integer members do not. The parse notes any number with a
/// float spelling and an integral value, and only a message holding one is
/// decoded. Debug builds decode every message anyway and panic if the decoder
/// rejects one this rule would have passed, so every test and fuzz run checks
/// the rule.
///
/// With a single-pass check ([`Validator::with_precheck`]), a message it
/// accepts is valid without further work; one it rejects gets the findings
/// above. Debug builds run both on every message and panic if their verdicts
/// differ.
pub fn check_verdict(validator: &Validator, bytes: &[u8]) -> Checked {
    let mut checked = check_unlocated(validator, bytes, Keep::Verdict);
    locate(bytes, &mut checked.findings);
    checked
}

/// What [`check_unlocated`] returns besides the findings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Keep {
    /// The parsed value and the decoded envelope.
    Everything,
    /// Nothing: decode only when the decoder could disagree with the schema.
    Verdict,
}

fn check_unlocated(validator: &Validator, bytes: &[u8], keep: Keep) -> Checked {
    let text = match simdutf8::basic::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => match std::str::from_utf8(bytes) {
            // The fast check says only "invalid"; the standard one says where.
            Err(error) => return Checked::rejected(invalid_utf8(bytes, &error)),
            Ok(text) => text,
        },
    };
    let Some(precheck) = validator.precheck().filter(|_| keep == Keep::Verdict) else {
        return check_parsed(validator, text, keep);
    };
    let verdict = precheck(text);
    if cfg!(debug_assertions) {
        // Every debug run (each test, each fuzz input) compares the two.
        let full = check_parsed(validator, text, keep);
        debug_assert_eq!(
            verdict.is_some(),
            full.is_valid(),
            "the single-pass check and jsonschema disagree on {text}: {:?}",
            full.findings
        );
        return full;
    }
    match verdict {
        Some(tag) => Checked {
            variant: Variant::from_tag(tag),
            findings: Vec::new(),
            value: None,
            envelope: None,
        },
        // Only jsonschema says why; its verdict stands.
        None => check_parsed(validator, text, keep),
    }
}

/// The text, schema and decoder layers on UTF-8 `text`, with `serde_json`'s
/// `Value` and `jsonschema`.
fn check_parsed(validator: &Validator, text: &str, keep: Keep) -> Checked {
    let (value, integral_float) = match parse_flagging_integral_floats(text) {
        Ok(parsed) => parsed,
        Err(error) => return Checked::rejected(parse_failure(text, &error)),
    };
    let variant = value
        .get("type")
        .and_then(Value::as_str)
        .and_then(Variant::from_tag);
    if !validator.is_valid_envelope(&value) {
        let mut findings: Vec<Finding> = validator
            .validate_envelope(&value)
            .into_iter()
            .map(Finding::schema)
            .collect();
        if findings.is_empty() {
            findings.push(Finding::schema(Violation {
                instance_path: String::new(),
                schema_path: String::new(),
                message: "the message does not match its variant's schema".into(),
            }));
        }
        return Checked {
            variant,
            findings,
            value: (keep == Keep::Everything).then_some(value),
            envelope: None,
        };
    }
    if !validator.decodes_with_hand_written_types() {
        // Another family's message: its schema is the verdict, and the wire's
        // rule that an integer member is an integer literal. The hand-written
        // types still read what they can, for the semantic rules; what they
        // cannot read (a variant or a member's type of that family only) is
        // no finding.
        let findings = if integral_float {
            schema_integer_findings(text, &value, validator)
        } else {
            Vec::new()
        };
        let envelope = (keep == Keep::Everything && findings.is_empty())
            .then(|| Envelope::deserialize(&value).ok())
            .flatten();
        return Checked {
            variant,
            findings,
            value: (keep == Keep::Everything).then_some(value),
            envelope,
        };
    }
    if keep == Keep::Verdict && !integral_float {
        debug_assert!(
            Envelope::deserialize(&value).is_ok(),
            "the decoder rejects a schema-valid message with no float-spelled integer, so check_verdict may not skip the decode: {text}"
        );
        return Checked {
            variant,
            findings: Vec::new(),
            value: None,
            envelope: None,
        };
    }
    let checked = match Envelope::deserialize(&value) {
        Ok(envelope) => Checked {
            variant,
            findings: Vec::new(),
            value: Some(value),
            envelope: Some(envelope),
        },
        Err(error) => {
            let findings = decoder_findings(text, &value, &error);
            Checked {
                variant,
                findings,
                value: Some(value),
                envelope: None,
            }
        }
    };
    match keep {
        Keep::Everything => checked,
        Keep::Verdict => Checked {
            value: None,
            envelope: None,
            ..checked
        },
    }
}

/// U+FEFF. SPEC.md §Transport: a message never starts with one; a receiver does
/// not skip it (serde_json, like RFC 8259 parsers, reads it as an unexpected
/// character).
const BYTE_ORDER_MARK: char = '\u{feff}';

/// Fills in the position of every finding that has none, from the JSON text.
pub fn locate(bytes: &[u8], findings: &mut [Finding]) {
    if findings.iter().all(|finding| finding.position.is_some()) {
        return;
    }
    // Only the positions the findings need are kept: a 16 MiB message of a
    // million values is not parsed into a second tree to place one error.
    let pointers: Vec<String> = findings
        .iter()
        .filter(|f| f.position.is_none())
        .map(|f| f.instance_path.clone())
        .collect();
    let document = std::str::from_utf8(bytes)
        .ok()
        .and_then(|text| json_text::locate(text, pointers.iter().map(String::as_str)).ok());
    for finding in findings.iter_mut().filter(|f| f.position.is_none()) {
        finding.position = Some(match &document {
            Some(document) => document.nearest_position(&finding.instance_path),
            None => Position { line: 1, column: 1 },
        });
    }
}

fn invalid_utf8(bytes: &[u8], error: &std::str::Utf8Error) -> Finding {
    let valid = error.valid_up_to();
    let prefix = bytes.get(..valid).unwrap_or_default();
    let prefix = std::str::from_utf8(prefix).unwrap_or_default();
    let line = prefix.matches('\n').count() + 1;
    let line_start = prefix.rfind('\n').map_or(0, |cut| cut + 1);
    let column = prefix
        .get(line_start..)
        .map_or(0, |tail| tail.chars().count())
        + 1;
    let byte = bytes.get(valid).copied().unwrap_or_default();
    Finding::text(
        "",
        format!("invalid UTF-8 (byte 0x{byte:02x} at byte offset {valid}); CGP messages are UTF-8"),
        Some(Position { line, column }),
    )
}

fn parse_failure(text: &str, error: &serde_json::Error) -> Finding {
    if text.starts_with(BYTE_ORDER_MARK) {
        return Finding::text(
            "",
            "the message starts with a byte-order mark (U+FEFF, bytes EF BB BF); it is not JSON whitespace, so the reference host cannot decode it: write the message without it (SPEC.md §Transport)",
            Some(Position { line: 1, column: 1 }),
        );
    }
    match json_text::parse(text) {
        Err(located) => {
            let mut message = located.message;
            if text.trim().is_empty() {
                message = format!("{message} (an empty line is not a message)");
            } else if let Some(literal) = message
                .strip_prefix("expected `")
                .and_then(|rest| rest.strip_suffix('`'))
            {
                // `json_text` read the first letter as the start of a literal.
                let found = token_at(text, located.position);
                message = format!("expected a JSON value, found `{found}` (not `{literal}`)");
            }
            Finding::text(located.pointer, message, Some(located.position))
        }
        // The two parsers disagree; trust serde_json, which the decoder uses.
        Ok(_) => {
            let full = error.to_string();
            let suffix = format!(" at line {} column {}", error.line(), error.column());
            let message = full.strip_suffix(&suffix).unwrap_or(&full).to_owned();
            let position = (error.line() > 0).then(|| Position {
                line: error.line(),
                column: error.column().max(1),
            });
            Finding::text("", message, position)
        }
    }
}
