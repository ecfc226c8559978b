//! Why the reference decoder rejects a message: the short, documented list of
//! categories a case's `decode.reason` takes (SPEC.md §Conformance vectors).
//!
//! A category is read from the decoder's message (serde's wording, which the
//! reference crates and the hand-written types share), so the reference's
//! answer and ours are sorted by the same rule.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Declares the categories once: each with its doc, the name a case spells
/// it with and one sentence on what it covers. The macro writes [`Reason`],
/// [`Reason::ALL`], [`Reason::as_str`] and [`Reason::description`].
macro_rules! reasons {
    ($($(#[doc = $doc:literal])* $variant:ident => $name:literal, $description:literal;)*) => {
        /// One rejection category.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum Reason {
            $($(#[doc = $doc])* $variant,)*
        }

        impl Reason {
            /// Every category, in documentation order.
            pub const ALL: [Reason; [$($name),*].len()] = [$(Reason::$variant,)*];

            /// The name a case spells it with.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Reason::$variant => $name,)*
                }
            }

            /// One sentence on what the category covers.
            pub fn description(self) -> &'static str {
                match self {
                    $(Reason::$variant => $description,)*
                }
            }
        }
    };
}

reasons! {
    /// Not one JSON text: a syntax error, something after the value, an empty
    /// input, a byte-order mark, a raw control character, a lone surrogate
    /// escape, a number beyond a double, invalid UTF-8 in an HTTP body.
    Text => "text",
        "not one JSON text: a syntax error, text after the value, an empty input, a byte-order mark, a raw control character, a lone surrogate escape, a number beyond a double, or invalid UTF-8 in an HTTP body";
    /// Arrays and objects nested deeper than the decoder reads (128 levels).
    Nesting => "nesting",
        "arrays and objects nested deeper than 127 levels";
    /// A member the decoder knows appears twice in one object.
    DuplicateMember => "duplicate_member",
        "a member the decoder knows appears twice in one object";
    /// An integer member holds a number JSON reads as a float: a fraction, an
    /// exponent, or an integer beyond the u64 range.
    NumberSpelling => "number_spelling",
        "an integer member written with a fraction or an exponent, or beyond the u64 range";
    /// An integer member holds an integer outside its range (negative, or
    /// above 4294967295 for a u32).
    IntegerRange => "integer_range",
        "an integer member outside its range (negative, or too large for u32)";
    /// A value of the wrong JSON type (`null` where it is not allowed
    /// included), a non-object envelope that is not the positional form.
    WrongType => "wrong_type",
        "a value of the wrong JSON type, null where it is not allowed included";
    /// A required member is absent (or a positional array is too short).
    MissingMember => "missing_member",
        "a required member is absent, or a positional array is too short";
    /// The envelope's `type` names no variant.
    UnknownVariant => "unknown_variant",
        "the envelope's type names no variant";
    /// A closed vocabulary (`Representation`, `ContentFidelity`,
    /// `InlineContentRequirement`, a verdict's `status`) holds another value.
    ClosedVocabulary => "closed_vocabulary",
        "a closed vocabulary (Representation, ContentFidelity, InlineContentRequirement, a verdict's status) holds another value";
}

impl Reason {
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
