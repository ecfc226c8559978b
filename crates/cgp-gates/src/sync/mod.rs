//! The sync gate: do the hand-written Rust types and the schemas describe one wire?
//!
//! schemars derives two contracts from the hand-written types: what they
//! *accept* (deserialize) and what they *emit* (serialize). [`compare`] reads
//! both with the [protocol model](cgp_schema::model) and checks the first against the
//! `interop` bundle and the second against the `strict` bundle, member by member
//! and value shape by value shape: required, nullable, integer and number
//! ranges, string constraints, closed enums, open vocabularies, tagged unions,
//! arrays and named types.
//!
//! The two sides are read as their consumers read them. The bundle is read as a
//! validator reads it, so `format` is only an annotation there; the contract is
//! read as the Rust decoder behaves, so `"format": "uint32"` is the range serde
//! enforces. A bundle that drops `maximum` from a `u32` member therefore fails the
//! gate: it would accept 4294967296, which the types reject. Formats are
//! compared as well, as the type mapping generators rely on.
//!
//! In the serialize direction `null` is not compared (an `Option` the encoder
//! skips when `None` never emits it), nor are the constraints the strict profile
//! derives from `x-cgp-emit` (`minItems: 1`, `not: {"const": default}`), which
//! schemars cannot express; the byte-level differential tests pin those.
//!
//! Every [`Mismatch`] names the member and where it is written on both sides, e.g.
//! `ContextFrame.recorded_at: optional in crates/cgp-types/src/frame.rs:120:5, missing from schema/types/context-frame.schema.json:88:20`,
//! each place a [`Location`] (`file:line:col`) as the other gates print them.

mod describe;
mod rust_source;
mod walk;

pub use rust_source::RustSource;

use cgp_schema::bundle::Bundle;
use cgp_schema::json_text::Position;
use cgp_schema::model::Location;
use cgp_schema::source::SchemaSet;
use serde_json::Value;
use std::fmt;

/// Which contract is being compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contract {
    /// What the types accept, against the `interop` profile.
    Deserialize,
    /// What the types emit, against the `strict` profile.
    Serialize,
}

impl Contract {
    fn profile(self) -> &'static str {
        match self {
            Contract::Deserialize => "interop",
            Contract::Serialize => "strict",
        }
    }

    /// The contract's name: `deserialize` or `serialize`.
    fn verb_noun(self) -> &'static str {
        match self {
            Contract::Deserialize => "deserialize",
            Contract::Serialize => "serialize",
        }
    }

    fn verb(self) -> &'static str {
        match self {
            Contract::Deserialize => "accepted",
            Contract::Serialize => "emitted",
        }
    }
}

/// One disagreement between the types and the schemas.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Mismatch {
    /// The member or type, e.g. `ContextFrame.recorded_at` or `query.id`.
    pub path: String,
    /// What kind of disagreement it is.
    pub kind: MismatchKind,
    /// What differs, naming both locations.
    pub message: String,
}

/// The kinds of disagreement the gate finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum MismatchKind {
    /// A member, type, tag value or enum value the Rust types have and the
    /// schema lacks.
    MissingFromSchema,
    /// One the schema has and the Rust types lack.
    MissingFromRust,
    /// Required on one side, optional on the other.
    Required,
    /// `null` accepted on one side only.
    Nullability,
    /// A different value shape: range, length, pattern, format, array bounds,
    /// or a different kind of value altogether.
    Shape,
    /// A different named type at the same place.
    TypeName,
    /// An open vocabulary on one side, a closed one on the other.
    VocabularyKind,
    /// Unknown members accepted on one side only.
    UnknownMembers,
    /// A tagged union tagged on a different member.
    Tag,
    /// A schema the gate cannot compare.
    Unsupported,
    /// The declared protocol versions differ.
    Version,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// The inputs of the gate.
pub struct Inputs<'a> {
    /// The checked sources (for schema locations).
    pub set: &'a SchemaSet,
    /// The interop bundle.
    pub interop: &'a Bundle,
    /// The strict bundle.
    pub strict: &'a Bundle,
    /// schemars' deserialize contract of the hand-written `Envelope`.
    pub deserialize: &'a Value,
    /// schemars' serialize contract of the hand-written `Envelope`.
    pub serialize: &'a Value,
    /// Where the hand-written types are.
    pub rust: &'a RustSource,
}

/// Compares both contracts with their profiles; empty when they agree.
pub fn compare(inputs: &Inputs<'_>) -> Vec<Mismatch> {
    let mut mismatches = Vec::new();
    for (contract, types, bundle) in [
        (Contract::Deserialize, inputs.deserialize, inputs.interop),
        (Contract::Serialize, inputs.serialize, inputs.strict),
    ] {
        mismatches.extend(walk::compare_contract(contract, types, bundle, inputs));
    }
    mismatches.sort();
    mismatches.dedup();
    mismatches
}

/// The version gate: the protocol version declared in `schema/` must equal every
/// `pub const PROTOCOL_VERSION: &str = "…";` in the given Rust sources
/// (`(display path, text)` pairs: the hand-written and the generated crate).
pub fn version_agreement(set: &SchemaSet, sources: &[(String, String)]) -> Vec<Mismatch> {
    let declared = set.version.to_string();
    let declared_at = set
        .envelope()
        .map(|file| file.document.nearest_position("/x-cgp-protocol-version"))
        .unwrap_or(Position { line: 1, column: 1 });
    let schema_at = Location {
        file: set.shown(cgp_schema::source::ENVELOPE_FILE),
        line: declared_at.line,
        column: declared_at.column,
    };
    let mut mismatches = Vec::new();
    for (file, text) in sources {
        let found = text.lines().enumerate().find_map(|(index, line)| {
            let rest = line
                .trim()
                .strip_prefix("pub const PROTOCOL_VERSION: &str = \"")?;
            let at = Location {
                file: file.clone(),
                line: index + 1,
                column: line.chars().take_while(|c| c.is_whitespace()).count() + 1,
            };
            Some((at, rest.split('"').next()?.to_owned()))
        });
        match found {
            Some((_, value)) if value == declared => {}
            Some((at, value)) => mismatches.push(Mismatch {
                path: "PROTOCOL_VERSION".into(),
                kind: MismatchKind::Version,
                message: format!("{at} says {value}, {schema_at} declares {declared}"),
            }),
            None => mismatches.push(Mismatch {
                path: "PROTOCOL_VERSION".into(),
                kind: MismatchKind::Version,
                message: format!("{file} declares no `pub const PROTOCOL_VERSION`; {schema_at} declares {declared}"),
            }),
        }
    }
    mismatches
}
