//! The case format: one JSON object per NDJSON line, in the member order
//! below. `format::case_schema` states the same as a JSON Schema.

use crate::reason::Reason;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::{Deserialize, Serialize};
use std::fmt;

/// How the bytes of a case reach the decoder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Transport {
    /// One stdio line, without its line feed: invalid UTF-8 becomes U+FFFD and
    /// trailing (Unicode) whitespace is removed before the JSON is read.
    Stdio,
    /// One HTTP body: invalid UTF-8 is an error and nothing is trimmed but
    /// JSON whitespace.
    Http,
}

impl Transport {
    /// The name a case spells it with.
    pub fn as_str(self) -> &'static str {
        match self {
            Transport::Stdio => "stdio",
            Transport::Http => "http",
        }
    }
}

impl fmt::Display for Transport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the reference decoder does with the bytes, and what its encoder then
/// writes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decode {
    /// Whether the bytes decode.
    pub accept: bool,
    /// When accepted: the canonical encoder's line, without its line feed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub canonical: Option<String>,
    /// When rejected: why, as a category.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Reason>,
}

impl Decode {
    /// An accepted input and its canonical line.
    pub fn accepted(canonical: String) -> Self {
        Decode {
            accept: true,
            canonical: Some(canonical),
            reason: None,
        }
    }

    /// A rejected input and its category.
    pub fn rejected(reason: Reason) -> Self {
        Decode {
            accept: false,
            canonical: None,
            reason: Some(reason),
        }
    }
}

/// What `cgp validate --profile P` says of the same bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    /// Whether the profile's schema (and the text and decoder layers) accept it.
    pub valid: bool,
    /// When invalid: the instance pointer of the first violation (`""` for the
    /// whole message).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}

/// One case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Case {
    /// Stable across regenerations; unique within a version.
    pub id: String,
    /// What the case shows, in a sentence.
    pub description: String,
    /// Where it comes from: `SPEC.md:<line>`, `leniency`, `numbers`, `text`,
    /// `http`, `vocabulary`, `random:<seed>/<n>`.
    pub source: String,
    /// The envelope variant the input names (its `type`), when it names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// How the bytes travel.
    pub transport: Transport,
    /// The bytes, when they are UTF-8.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    /// The bytes in base64, when they are not UTF-8.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_base64: Option<String>,
    /// The reference decoder's answer.
    pub decode: Decode,
    /// The interop profile's verdict.
    pub interop: Verdict,
    /// The strict profile's verdict.
    pub strict: Verdict,
}

impl Case {
    /// `input` or `input_base64`, whichever the bytes need.
    pub fn input_fields(bytes: &[u8]) -> (Option<String>, Option<String>) {
        match std::str::from_utf8(bytes) {
            Ok(text) => (Some(text.to_owned()), None),
            Err(_) => (None, Some(BASE64.encode(bytes))),
        }
    }

    /// The bytes of the input.
    pub fn bytes(&self) -> Result<Vec<u8>, InputError> {
        match (&self.input, &self.input_base64) {
            (Some(text), None) => Ok(text.as_bytes().to_vec()),
            (None, Some(coded)) => Ok(BASE64.decode(coded)?),
            _ => Err(InputError::NotExactlyOne {
                id: self.id.clone(),
            }),
        }
    }

    /// The category a report counts the case under: its rejection reason, or
    /// `accept`.
    pub fn category(&self) -> &'static str {
        match self.decode.reason {
            Some(reason) if !self.decode.accept => reason.as_str(),
            _ => "accept",
        }
    }

    /// The line a harness receives for this case: id, transport and input.
    pub fn request(&self) -> String {
        let mut object = serde_json::Map::new();
        object.insert("id".into(), self.id.clone().into());
        object.insert("transport".into(), self.transport.as_str().into());
        if let Some(text) = &self.input {
            object.insert("input".into(), text.clone().into());
        }
        if let Some(coded) = &self.input_base64 {
            object.insert("input_base64".into(), coded.clone().into());
        }
        serde_json::Value::Object(object).to_string()
    }

    /// The case as one compact JSON line, without a line feed.
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Why a case's input bytes cannot be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// Both or neither of `input` and `input_base64`.
    #[error("case {id}: exactly one of input and input_base64 is required")]
    NotExactlyOne {
        /// The case's id.
        id: String,
    },
    /// `input_base64` is not base64.
    #[error(transparent)]
    Base64(#[from] base64::DecodeError),
}

/// Why a line of a vectors file is not a case.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CaseProblem {
    /// Not a case object.
    #[error("not a case: {0}")]
    NotACase(String),
    /// Its input cannot be had.
    #[error(transparent)]
    Input(#[from] InputError),
    /// `/decode` does not hold exactly what its verdict needs.
    #[error("case {id}: /decode holds canonical when accepted and reason when rejected")]
    Decode {
        /// The case's id.
        id: String,
    },
}

/// A line of a vectors file that is not a case: `file:line: problem`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {problem}")]
pub struct CaseError {
    /// The file, as named to [`read_cases`].
    pub file: String,
    /// The 1-based line.
    pub line: usize,
    /// What is wrong with it.
    pub problem: CaseProblem,
}

/// Reads the cases of an NDJSON file; `name` names it in errors. Blank lines
/// are skipped; any other line that is not a case is an error with its line.
pub fn read_cases(name: &str, text: &str) -> Result<Vec<Case>, CaseError> {
    let mut cases = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = |problem: CaseProblem| CaseError {
            file: name.to_owned(),
            line: index + 1,
            problem,
        };
        let case: Case = serde_json::from_str(line)
            .map_err(|error| at(CaseProblem::NotACase(error.to_string())))?;
        case.bytes().map_err(|error| at(error.into()))?;
        match (
            case.decode.accept,
            &case.decode.canonical,
            &case.decode.reason,
        ) {
            (true, Some(_), None) | (false, None, Some(_)) => {}
            _ => {
                return Err(at(CaseProblem::Decode { id: case.id }));
            }
        }
        cases.push(case);
    }
    Ok(cases)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_case_round_trips_in_member_order() {
        let line = r#"{"id":"x/1","description":"d","source":"text","variant":"shutdown","transport":"stdio","input":"{\"type\":\"shutdown\"}","decode":{"accept":true,"canonical":"{\"type\":\"shutdown\"}"},"interop":{"valid":true},"strict":{"valid":false,"at":""}}"#;
        let cases = read_cases("t.ndjson", line).expect("reads");
        assert_eq!(cases[0].to_line(), line);
        assert_eq!(
            cases[0].request(),
            r#"{"id":"x/1","transport":"stdio","input":"{\"type\":\"shutdown\"}"}"#
        );
        let bad = line.replace(r#""accept":true"#, r#""accept":false"#);
        assert!(
            read_cases("t.ndjson", &bad)
                .unwrap_err()
                .to_string()
                .starts_with("t.ndjson:1: case x/1")
        );
    }

    #[test]
    fn bytes_that_are_not_utf8_travel_in_base64() {
        let (text, coded) = Case::input_fields(b"{\"a\":\"\xff\"}");
        assert_eq!(text, None);
        assert_eq!(
            BASE64.decode(coded.expect("coded")).expect("decodes"),
            b"{\"a\":\"\xff\"}"
        );
    }

    #[test]
    fn input_base64_is_standard_and_padded() {
        for (plain, coded) in [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v")] {
            assert_eq!(
                Case::input_fields(plain.as_bytes()).0.as_deref(),
                Some(plain)
            );
            assert_eq!(BASE64.encode(plain), coded);
            assert_eq!(BASE64.decode(coded).as_deref(), Ok(plain.as_bytes()));
        }
        for bad in ["Zg=", "Z===", "Zg==Zg==", "Z!==", "Zg"] {
            assert!(BASE64.decode(bad).is_err(), "{bad}");
        }
    }
}
