//! Checking CGP messages as they travel: one envelope per line (NDJSON) or one
//! JSON document.
//!
//! [`check_message`] judges one message on every layer SPEC.md distinguishes:
//!
//! 1. the **text layer**, which a parsed value can no longer show: UTF-8,
//!    duplicate member names, trailing characters, a non-JSON line, and integer
//!    members written with a float spelling (`1.0`, `-0`, `1e2`);
//! 2. the **wire shape**, by the bundle's schema for the variant the `type` tag
//!    names ([`Validator`](crate::validate::Validator));
//! 3. the reference decoder: a schema-valid message is also decoded with
//!    [`cgp_types`], which decodes exactly like the reference decoder, so nothing
//!    it rejects passes. Its leniencies (the array form of structs, `{"compact":
//!    null}`, integer verdict status) are not protocol: the schema rejects them
//!    first, and that verdict stands.
//!
//! [`TranscriptChecker`] adds the **semantic rules** ([`crate::semantic`]) for a
//! sequence of messages, and [`LineReader`] reads NDJSON with bounded memory.
//!
//! Valid messages take a fast path: one parse with `serde_json` (duplicate
//! member names are caught during that parse), one `is_valid` and one decode.
//! Only an invalid message is parsed again with [`json_text`](cgp_schema::json_text) to locate its
//! errors. [`check_verdict`], for callers that need the verdict but not the
//! decoded message, skips the decode where it cannot change the verdict (see
//! [`check_verdict`] for why); when the [`Validator`](crate::validate::Validator) carries a single-pass
//! check generated from its bundle ([`Validator::with_precheck`](crate::validate::Validator::with_precheck)), a message it
//! accepts is never parsed into a `Value` at all, and one it rejects takes the
//! path above, which explains it.

mod checker;
mod decoder;
mod finding;
mod layers;
mod lines;
#[cfg(test)]
mod tests;
mod unique;

pub use checker::TranscriptChecker;
pub use finding::{Checked, Finding, Layer};
pub use layers::{check_message, check_verdict, locate};
pub use lines::{Line, LineReader};
pub(crate) use lines::{is_blank, skip_line};
pub use unique::parse_unique;

#[cfg(test)]
use crate::validate::Validator;

/// The published interop bundle of the working version, for tests.
#[cfg(test)]
pub(crate) fn published_interop_bundle() -> cgp_schema::bundle::Bundle {
    let version: cgp_schema::ProtocolVersion =
        cgp_types::PROTOCOL_VERSION.parse().expect("version");
    let path = format!(
        "{}/../../generated/schema/{}/interop.schema.json",
        env!("CARGO_MANIFEST_DIR"),
        version.slug()
    );
    let text = std::fs::read_to_string(path).expect("the published bundle");
    cgp_schema::bundle::Bundle::from_published(&text).expect("a bundle")
}

/// A validator for the published interop bundle, for tests.
#[cfg(test)]
pub(crate) fn published_interop_validator() -> Validator {
    Validator::new(&published_interop_bundle()).expect("compiles")
}
