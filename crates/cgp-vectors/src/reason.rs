//! Why the reference decoder rejects a message: the short, documented list of
//! categories a case's `decode.reason` takes (SPEC.md §Conformance vectors).
//!
//! A category is read from the decoder's message (serde's wording, which the
//! reference crates and the hand-written types share), so the reference's
//! answer and ours are sorted by the same rule.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One rejection category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// Not one JSON text: a syntax error, something after the value, an empty
    /// input, a byte-order mark, a raw control character, a lone surrogate
    /// escape, a number beyond a double, invalid UTF-8 in an HTTP body.
    Text,
    /// Arrays and objects nested deeper than the decoder reads (128 levels).
    Nesting,
    /// A member the decoder knows appears twice in one object.
    DuplicateMember,
    /// An integer member holds a number JSON reads as a float: a fraction, an
    /// exponent, or an integer beyond the u64 range.
    NumberSpelling,
    /// An integer member holds an integer outside its range (negative, or
    /// above 4294967295 for a u32).
    IntegerRange,
    /// A value of the wrong JSON type (`null` where it is not allowed
    /// included), a non-object envelope that is not the positional form.
    WrongType,
    /// A required member is absent (or a positional array is too short).
    MissingMember,
    /// The envelope's `type` names no variant.
    UnknownVariant,
    /// A closed vocabulary (`Representation`, `ContentFidelity`,
    /// `InlineContentRequirement`, a verdict's `status`) holds another value.
    ClosedVocabulary,
}

impl Reason {
    /// Every category, in documentation order.
    pub const ALL: [Reason; 9] = [
        Reason::Text,
        Reason::Nesting,
        Reason::DuplicateMember,
        Reason::NumberSpelling,
        Reason::IntegerRange,
        Reason::WrongType,
        Reason::MissingMember,
        Reason::UnknownVariant,
        Reason::ClosedVocabulary,
    ];

    /// The name a case spells it with.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Text => "text",
            Reason::Nesting => "nesting",
            Reason::DuplicateMember => "duplicate_member",
            Reason::NumberSpelling => "number_spelling",
            Reason::IntegerRange => "integer_range",
            Reason::WrongType => "wrong_type",
            Reason::MissingMember => "missing_member",
            Reason::UnknownVariant => "unknown_variant",
            Reason::ClosedVocabulary => "closed_vocabulary",
        }
    }

    /// One sentence on what the category covers.
    pub fn description(self) -> &'static str {
        match self {
            Reason::Text => {
                "not one JSON text: a syntax error, text after the value, an empty input, a byte-order mark, a raw control character, a lone surrogate escape, a number beyond a double, or invalid UTF-8 in an HTTP body"
            }
            Reason::Nesting => "arrays and objects nested deeper than 127 levels",
            Reason::DuplicateMember => "a member the decoder knows appears twice in one object",
            Reason::NumberSpelling => {
                "an integer member written with a fraction or an exponent, or beyond the u64 range"
            }
            Reason::IntegerRange => {
                "an integer member outside its range (negative, or too large for u32)"
            }
            Reason::WrongType => {
                "a value of the wrong JSON type, null where it is not allowed included"
            }
            Reason::MissingMember => {
                "a required member is absent, or a positional array is too short"
            }
            Reason::UnknownVariant => "the envelope's type names no variant",
            Reason::ClosedVocabulary => {
                "a closed vocabulary (Representation, ContentFidelity, InlineContentRequirement, a verdict's status) holds another value"
            }
        }
    }

    /// The category of a decoder's error message (serde_json's wording, with or
    /// without its ` at line L column C` suffix). Anything that is not a data
    /// error of a known shape is a text error.
    pub fn of_message(message: &str) -> Reason {
        if message.starts_with("recursion limit exceeded") {
            Reason::Nesting
        } else if message.starts_with("duplicate field") {
            Reason::DuplicateMember
        } else if message.starts_with("missing field") || message.starts_with("invalid length") {
            Reason::MissingMember
        } else if message.starts_with("unknown variant") {
            if message.contains("`handshake`") {
                Reason::UnknownVariant
            } else {
                Reason::ClosedVocabulary
            }
        } else if message.starts_with("invalid value: integer") {
            if message.contains("variant index") {
                Reason::ClosedVocabulary
            } else {
                Reason::IntegerRange
            }
        } else if message.starts_with("invalid type: floating point")
            && ["expected u32", "expected u64", "expected usize"]
                .iter()
                .any(|expected| message.contains(expected))
        {
            Reason::NumberSpelling
        } else if message.starts_with("invalid type") || message.starts_with("invalid value") {
            Reason::WrongType
        } else {
            Reason::Text
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_serde_and_messages_sort() {
        for reason in Reason::ALL {
            assert_eq!(
                serde_json::to_value(reason).expect("json"),
                serde_json::Value::from(reason.as_str())
            );
        }
        let cases = [
            ("expected value at line 1 column 1", Reason::Text),
            ("trailing characters at line 1 column 9", Reason::Text),
            (
                "recursion limit exceeded at line 1 column 129",
                Reason::Nesting,
            ),
            ("duplicate field `type`", Reason::DuplicateMember),
            ("missing field `message`", Reason::MissingMember),
            (
                "unknown variant `x`, expected one of `handshake`, `query`",
                Reason::UnknownVariant,
            ),
            (
                "unknown variant `x`, expected one of `full`, `compact`",
                Reason::ClosedVocabulary,
            ),
            (
                "invalid value: integer `4`, expected variant index 0 <= i < 4",
                Reason::ClosedVocabulary,
            ),
            (
                "invalid value: integer `-1`, expected u32",
                Reason::IntegerRange,
            ),
            (
                "invalid type: floating point `1.0`, expected u32",
                Reason::NumberSpelling,
            ),
            (
                "invalid type: floating point `1.0`, expected a string",
                Reason::WrongType,
            ),
            ("invalid type: null, expected a string", Reason::WrongType),
        ];
        for (message, reason) in cases {
            assert_eq!(Reason::of_message(message), reason, "{message}");
        }
    }
}
