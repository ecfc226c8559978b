//! Checking CGP messages as they travel: one envelope per line (NDJSON) or one
//! JSON document.
//!
//! [`check_message`] judges one message on every layer SPEC.md distinguishes:
//!
//! 1. the **text layer**, which a parsed value can no longer show: UTF-8,
//!    duplicate member names, trailing characters, a non-JSON line, and integer
//!    members written with a float spelling (`1.0`, `-0`, `1e2`);
//! 2. the **wire shape**, by the bundle's schema for the variant the `type` tag
//!    names ([`Validator`]);
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
//! Only an invalid message is parsed again with [`json_text`] to locate its
//! errors. [`check_verdict`], for callers that need the verdict but not the
//! decoded message, skips the decode where it cannot change the verdict (see
//! [`check_verdict`] for why); when the [`Validator`] carries a single-pass
//! check generated from its bundle ([`Validator::with_precheck`]), a message it
//! accepts is never parsed into a `Value` at all, and one it rejects takes the
//! path above, which explains it.

use crate::json_text::{self, Position};
use crate::semantic::{self, Rule, SemanticViolation, Session};
use crate::validate::{Validator, Violation};
use cgp_types::{Envelope, MAX_LINE_BYTES, Variant};
use serde::Deserialize;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::cell::Cell;
use std::fmt;
use std::io::{self, BufRead, Read};

/// Where a rule lives (SPEC.md §Conventions, "Three layers of validity"), plus
/// the reference decoder for what only it catches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Layer {
    /// The JSON text itself: framing, UTF-8, duplicate names, number spelling.
    Text,
    /// The wire shape, as the schema states it.
    Schema,
    /// Rejected by the reference decoder for a reason the other layers miss.
    Decoder,
    /// A semantic rule of SPEC.md.
    Semantic,
}

impl Layer {
    /// `"text"`, `"schema"`, `"decoder"` or `"semantic"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Layer::Text => "text",
            Layer::Schema => "schema",
            Layer::Decoder => "decoder",
            Layer::Semantic => "semantic",
        }
    }
}

impl fmt::Display for Layer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One reason a message is invalid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The layer of the broken rule.
    pub layer: Layer,
    /// The rule id, for semantic findings.
    pub rule: Option<Rule>,
    /// Where in the message, as a JSON pointer (`""` is the whole message).
    pub instance_path: String,
    /// The failing schema keyword, as a pointer into the bundle (schema findings).
    pub schema_path: Option<String>,
    /// What is wrong and what was expected.
    pub message: String,
    /// Where in the checked text the problem is (1-based line and character
    /// column), when known.
    pub position: Option<Position>,
}

impl Finding {
    fn text(
        instance_path: impl Into<String>,
        message: impl Into<String>,
        position: Option<Position>,
    ) -> Self {
        Finding {
            layer: Layer::Text,
            rule: None,
            instance_path: instance_path.into(),
            schema_path: None,
            message: message.into(),
            position,
        }
    }

    /// A finding for a schema violation.
    pub fn schema(violation: Violation) -> Self {
        Finding {
            layer: Layer::Schema,
            rule: None,
            instance_path: violation.instance_path,
            schema_path: Some(violation.schema_path),
            message: violation.message,
            position: None,
        }
    }

    /// A finding for a broken semantic rule.
    pub fn semantic(violation: SemanticViolation) -> Self {
        Finding {
            layer: Layer::Semantic,
            rule: Some(violation.rule),
            instance_path: violation.instance_path,
            schema_path: None,
            message: violation.message,
            position: None,
        }
    }

    /// A line longer than [`MAX_LINE_BYTES`].
    pub fn line_too_long(length: u64) -> Self {
        Finding::text(
            "",
            format!(
                "the line is {length} bytes long, over the {MAX_LINE_BYTES}-byte limit of the stdio transport; it was skipped unread"
            ),
            Some(Position { line: 1, column: 1 }),
        )
    }

    /// What the finding points at besides the instance: `schema …`, `rule B3`,
    /// `text layer` or `reference decoder`.
    pub fn origin(&self) -> String {
        match (&self.schema_path, self.rule) {
            (Some(path), _) => format!("schema {}", if path.is_empty() { "/" } else { path }),
            (None, Some(rule)) => format!("rule {rule}"),
            (None, None) => match self.layer {
                Layer::Decoder => "reference decoder".into(),
                _ => "text layer".into(),
            },
        }
    }
}

/// The verdict on one message.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The variant the `type` tag names, when it names one.
    pub variant: Option<Variant>,
    /// Every problem found; empty when the message is valid.
    pub findings: Vec<Finding>,
    /// The parsed message, when it parsed.
    pub value: Option<Value>,
    /// The decoded message, when it passed the text, schema and decoder layers.
    pub envelope: Option<Envelope>,
}

impl Checked {
    /// Whether no problem was found.
    pub fn is_valid(&self) -> bool {
        self.findings.is_empty()
    }

    fn rejected(finding: Finding) -> Self {
        Checked {
            variant: None,
            findings: vec![finding],
            value: None,
            envelope: None,
        }
    }
}

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
/// the normalisations listed in [`crate::sync`]; of those, only one concerns a
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

/// The reason the decoder rejected a schema-valid value. The only known cause is
/// an integer member written with a float spelling, which a parsed value shows
/// as a float with an integral value: each such number is tried as an integer,
/// and the ones that change the decoder's verdict are reported.
fn decoder_findings(text: &str, value: &Value, error: &serde_json::Error) -> Vec<Finding> {
    let original = error.to_string();
    let mut candidates = Vec::new();
    integral_floats(value, &mut String::new(), &mut candidates);
    let mut document = None;
    let mut findings = Vec::new();
    for pointer in candidates {
        let mut repaired = value.clone();
        let Some(slot) = repaired.pointer_mut(&pointer) else {
            continue;
        };
        let Some(integer) = slot.as_f64().and_then(as_integer) else {
            continue;
        };
        *slot = Value::Number(integer);
        let verdict = Envelope::deserialize(&repaired)
            .err()
            .map(|e| e.to_string());
        if verdict.as_deref() == Some(original.as_str()) {
            continue;
        }
        let document = document.get_or_insert_with(|| json_text::parse(text).ok());
        let position = document.as_ref().and_then(|d| d.position(&pointer));
        let literal = position
            .map(|position| token_at(text, position))
            .filter(|literal| !literal.is_empty())
            .unwrap_or_else(|| {
                value
                    .pointer(&pointer)
                    .map(Value::to_string)
                    .unwrap_or_default()
            });
        let message = if literal.contains(['.', 'e', 'E']) {
            format!(
                "{literal} is spelled as a float; an integer member must be an integer literal, with no fraction or exponent (the reference decoder rejects it)"
            )
        } else if literal == "-0" {
            "-0 is read as a floating-point negative zero; write the integer 0 (the reference decoder rejects -0 here)".to_owned()
        } else {
            format!("{literal} is beyond the integer range the reference decoder reads")
        };
        findings.push(Finding::text(pointer, message, position));
    }
    if findings.is_empty() {
        let position = serde_json::from_str::<Envelope>(text)
            .err()
            .filter(|e| e.line() > 0)
            .map(|e| Position {
                line: e.line(),
                column: e.column().max(1),
            });
        findings.push(Finding {
            layer: Layer::Decoder,
            rule: None,
            instance_path: String::new(),
            schema_path: None,
            message: format!("the reference decoder rejects this message: {original}"),
            position,
        });
    }
    findings
}

fn as_integer(float: f64) -> Option<Number> {
    if float.fract() != 0.0 || !float.is_finite() {
        return None;
    }
    if float >= 0.0 {
        // Saturates at u64::MAX, which still reads as an integer.
        Some(Number::from(float as u64))
    } else {
        Some(Number::from(float as i64))
    }
}

fn integral_floats(value: &Value, pointer: &mut String, out: &mut Vec<String>) {
    match value {
        Value::Number(number)
            if number.is_f64() && number.as_f64().and_then(as_integer).is_some() =>
        {
            out.push(pointer.clone());
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                let base = pointer.len();
                pointer.push('/');
                pointer.push_str(&index.to_string());
                integral_floats(item, pointer, out);
                pointer.truncate(base);
            }
        }
        Value::Object(members) => {
            for (name, member) in members {
                let base = pointer.len();
                pointer.push('/');
                pointer.push_str(&json_text::escape_token(name));
                integral_floats(member, pointer, out);
                pointer.truncate(base);
            }
        }
        _ => {}
    }
}

/// The token (a number, a word) that starts at `position` in `text`, up to
/// whitespace or JSON punctuation, cut to 40 characters.
fn token_at(text: &str, position: Position) -> String {
    let line = text
        .split('\n')
        .nth(position.line.saturating_sub(1))
        .unwrap_or_default();
    line.chars()
        .skip(position.column.saturating_sub(1))
        .take_while(|c| !c.is_whitespace() && !matches!(c, ',' | ':' | '}' | ']'))
        .take(40)
        .collect()
}

/// Parses JSON text into a value, rejecting duplicate member names at any depth
/// and anything after the value but whitespace.
pub fn parse_unique(text: &str) -> Result<Value, serde_json::Error> {
    parse_flagging_integral_floats(text).map(|(value, _)| value)
}

/// [`parse_unique`], also telling whether any number was read as a float with an
/// integral value (`1.0`, `1e2`, `-0`, `1e300`): the one kind of value the schema
/// may accept where the decoder does not.
fn parse_flagging_integral_floats(text: &str) -> Result<(Value, bool), serde_json::Error> {
    let integral_float = Cell::new(false);
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = UniqueValue {
        integral_float: &integral_float,
    }
    .deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok((value, integral_float.get()))
}

/// A [`DeserializeSeed`] that builds a [`Value`] like `serde_json` does and
/// fails on a repeated member name, so duplicates cost one map lookup during
/// the one parse a valid line gets. It notes integral floats in passing.
#[derive(Clone, Copy)]
struct UniqueValue<'f> {
    integral_float: &'f Cell<bool>,
}

impl<'de> DeserializeSeed<'de> for UniqueValue<'_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(UniqueVisitor {
            integral_float: self.integral_float,
        })
    }
}

struct UniqueVisitor<'f> {
    integral_float: &'f Cell<bool>,
}

impl UniqueVisitor<'_> {
    fn seed(&self) -> UniqueValue<'_> {
        UniqueValue {
            integral_float: self.integral_float,
        }
    }
}

impl<'de> Visitor<'de> for UniqueVisitor<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Value, E> {
        if value.fract() == 0.0 {
            self.integral_float.set(true);
        }
        Number::from_f64(value)
            .map(Value::Number)
            .ok_or_else(|| E::custom("a number JSON cannot represent"))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        while let Some(item) = seq.next_element_seed(self.seed())? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        // Room for the members most CGP objects have: growing the map (its
        // table and its entries, 0 to 3 to 7) cost more than the spare room.
        let mut members = Map::with_capacity(8);
        while let Some(name) = map.next_key::<String>()? {
            match members.entry(name) {
                serde_json::map::Entry::Occupied(entry) => {
                    return Err(de::Error::custom(format!(
                        "duplicate member name `{}`",
                        entry.key()
                    )));
                }
                serde_json::map::Entry::Vacant(entry) => {
                    entry.insert(map.next_value_seed(self.seed())?);
                }
            }
        }
        Ok(Value::Object(members))
    }
}

/// Checks a sequence of messages (a transcript): every message on the text,
/// schema and decoder layers, and, when asked, the semantic rules — per message,
/// and across messages (B1, B4, H4), which only bite when the transcript holds
/// both sides of the conversation.
#[derive(Debug)]
pub struct TranscriptChecker<'v> {
    validator: &'v Validator,
    exchange: bool,
    per_message: bool,
    session: Session,
}

impl<'v> TranscriptChecker<'v> {
    /// A checker with `validator`'s profile; `semantic` adds all the semantic
    /// rules.
    pub fn new(validator: &'v Validator, semantic: bool) -> Self {
        Self::with_rules(validator, semantic, semantic)
    }

    /// A checker that applies the exchange rules across messages (B1, B4, H4)
    /// when `exchange` is set, and the rules of single messages (B3, F1, …)
    /// when `per_message` is.
    pub fn with_rules(validator: &'v Validator, exchange: bool, per_message: bool) -> Self {
        TranscriptChecker {
            validator,
            exchange,
            per_message,
            session: Session::speaking(validator.protocol_version()),
        }
    }

    /// Checks the next message. `origin` names it in later messages (`line 3`).
    pub fn check(&mut self, bytes: &[u8], origin: &str) -> Checked {
        let mut checked = check_message(self.validator, bytes);
        self.add_semantic(bytes, origin, &mut checked);
        checked
    }

    /// Adds the semantic findings to the verdict [`check_message`] gave on the
    /// next message (`bytes`), for checks that run the per-message layers
    /// elsewhere (on other threads) and the rules across messages here, in order.
    pub fn add_semantic(&mut self, bytes: &[u8], origin: &str, checked: &mut Checked) {
        let before = checked.findings.len();
        self.semantic_rules(checked, origin);
        if let Some(added) = checked.findings.get_mut(before..) {
            locate(bytes, added);
            added.sort_by_key(|finding| finding.position);
        }
    }

    fn semantic_rules(&mut self, checked: &mut Checked, origin: &str) {
        if !self.exchange && !self.per_message {
            return;
        }
        if let Some(envelope) = &checked.envelope {
            // The session always follows the conversation: the per-message rules
            // need what the provider declared (G1, F11).
            let exchange = self.session.observe(envelope, origin);
            let mut found = if self.exchange { exchange } else { Vec::new() };
            if self.per_message {
                found.extend(semantic::check_envelope(envelope, self.session.context()));
            }
            found.sort();
            checked
                .findings
                .extend(found.into_iter().map(Finding::semantic));
        }
    }
}

/// One line read by a [`LineReader`].
#[derive(Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// A line, without its line feed.
    Message {
        /// The 1-based line number.
        number: usize,
        /// The line's bytes, without the line feed.
        bytes: &'a [u8],
        /// Whether a line feed ended it (false for an unterminated last line).
        terminated: bool,
    },
    /// A line longer than [`MAX_LINE_BYTES`]; it was skipped without being kept.
    TooLong {
        /// The 1-based line number.
        number: usize,
        /// Its length in bytes, without the line feed.
        length: u64,
    },
}

/// Reads NDJSON line by line with one reused buffer, so memory stays bounded
/// whatever the input's size: a line longer than [`MAX_LINE_BYTES`] is skipped
/// to its end without being buffered and reported as [`Line::TooLong`].
#[derive(Debug)]
pub struct LineReader<R> {
    reader: R,
    buffer: Vec<u8>,
    number: usize,
    skip_blank: bool,
}

impl<R: BufRead> LineReader<R> {
    /// A reader that skips blank (whitespace-only) lines.
    pub fn new(reader: R) -> Self {
        LineReader {
            reader,
            buffer: Vec::new(),
            number: 0,
            skip_blank: true,
        }
    }

    /// A reader that returns blank lines too (a live peer must not send them).
    pub fn keeping_blank_lines(reader: R) -> Self {
        LineReader {
            skip_blank: false,
            ..LineReader::new(reader)
        }
    }

    /// The next line, or `None` at the end of the input.
    pub fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        loop {
            self.buffer.clear();
            let limit = MAX_LINE_BYTES as u64 + 1;
            let read = (&mut self.reader)
                .take(limit)
                .read_until(b'\n', &mut self.buffer)?;
            if read == 0 {
                return Ok(None);
            }
            self.number += 1;
            let terminated = self.buffer.last() == Some(&b'\n');
            if terminated {
                self.buffer.pop();
            } else if self.buffer.len() > MAX_LINE_BYTES {
                let rest = skip_line(&mut self.reader)?;
                let length = self.buffer.len() as u64 + rest;
                self.buffer.clear();
                return Ok(Some(Line::TooLong {
                    number: self.number,
                    length,
                }));
            }
            if self.skip_blank
                && self
                    .buffer
                    .iter()
                    .all(|byte| matches!(byte, b' ' | b'\t' | b'\r'))
            {
                continue;
            }
            return Ok(Some(Line::Message {
                number: self.number,
                bytes: &self.buffer,
                terminated,
            }));
        }
    }
}

/// Consumes input up to and including the next line feed; returns the number of
/// bytes before it.
fn skip_line(reader: &mut impl BufRead) -> io::Result<u64> {
    let mut skipped = 0u64;
    loop {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if available.is_empty() {
            return Ok(skipped);
        }
        match available.iter().position(|&byte| byte == b'\n') {
            Some(end) => {
                reader.consume(end + 1);
                return Ok(skipped + end as u64);
            }
            None => {
                let length = available.len();
                reader.consume(length);
                skipped += length as u64;
            }
        }
    }
}

/// A validator for the published interop bundle, for tests.
#[cfg(test)]
pub(crate) fn published_interop_validator() -> Validator {
    let version: crate::ProtocolVersion = cgp_types::PROTOCOL_VERSION.parse().expect("version");
    let path = format!(
        "{}/../../generated/schema/{}/interop.schema.json",
        env!("CARGO_MANIFEST_DIR"),
        version.slug()
    );
    let text = std::fs::read_to_string(path).expect("the published bundle");
    let bundle = crate::bundle::Bundle::from_published(&text).expect("a bundle");
    Validator::new(&bundle).expect("compiles")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn validator() -> Validator {
        published_interop_validator()
    }

    fn findings(validator: &Validator, line: &str) -> Vec<(Layer, String, String)> {
        check_message(validator, line.as_bytes())
            .findings
            .into_iter()
            .map(|f| (f.layer, f.instance_path, f.message))
            .collect()
    }

    #[test]
    fn valid_lines_decode() {
        let validator = validator();
        let checked = check_message(&validator, br#"{"type":"shutdown"}"#);
        assert!(checked.is_valid(), "{:?}", checked.findings);
        assert_eq!(checked.variant, Some(Variant::Shutdown));
        assert!(checked.envelope.is_some());
        // JSON whitespace around the object, CRLF included, is fine.
        assert!(check_message(&validator, b" {\"type\":\"shutdown\"} \r").is_valid());
    }

    #[test]
    fn text_layer_problems() {
        let validator = validator();
        let dup = findings(&validator, r#"{"type":"shutdown","type":"shutdown"}"#);
        assert_eq!(dup.len(), 1);
        assert_eq!(dup[0].0, Layer::Text);
        assert_eq!(dup[0].1, "/type");
        assert!(dup[0].2.contains("duplicate member name"), "{dup:?}");
        let trailing = findings(&validator, r#"{"type":"shutdown"} x"#);
        assert!(trailing[0].2.contains("trailing"), "{trailing:?}");
        let utf8 = check_message(&validator, b"{\"type\":\"sh\xffutdown\"}");
        assert_eq!(
            utf8.findings[0].position,
            Some(Position {
                line: 1,
                column: 12
            })
        );
        assert!(utf8.findings[0].message.contains("UTF-8"));
        let empty = findings(&validator, "");
        assert!(empty[0].2.contains("empty line"), "{empty:?}");
    }

    #[test]
    fn float_spelled_integers_are_located() {
        let validator = validator();
        for (literal, fragment) in [
            ("1.0", "spelled as a float"),
            ("1e2", "spelled as a float"),
            ("-0", "negative zero"),
        ] {
            let line = format!(
                r#"{{"type":"query","query":{{"goal":"g","max_frames":{literal},"max_tokens":5}}}}"#
            );
            let checked = check_message(&validator, line.as_bytes());
            assert_eq!(
                checked.findings.len(),
                1,
                "{literal}: {:?}",
                checked.findings
            );
            let finding = &checked.findings[0];
            assert_eq!(finding.layer, Layer::Text);
            assert_eq!(finding.instance_path, "/query/max_frames");
            assert!(finding.message.contains(fragment), "{}", finding.message);
            assert!(finding.message.starts_with(literal), "{}", finding.message);
            assert_eq!(finding.position.map(|p| p.column), Some(50));
        }
        // An f32 member may be written as an integer or a float.
        assert!(check_message(
            &validator,
            br#"{"type":"frames","result":{"frames":[{"id":"a","kind":"doc","title":"t","score":1.0,"token_cost":0}],"truncated":false}}"#
        )
        .is_valid());
    }

    /// `check_verdict` skips the decode only where it cannot matter: its
    /// findings are `check_message`'s, float-spelled integers included.
    #[test]
    fn the_verdict_alone_is_the_full_verdict() {
        let validator = validator();
        let frames = |score: &str, cost: &str| {
            format!(
                r#"{{"type":"frames","result":{{"frames":[{{"id":"a","kind":"doc","title":"t","score":{score},"token_cost":{cost}}}],"truncated":false}}}}"#
            )
        };
        let lines = [
            r#"{"type":"shutdown"}"#.to_owned(),
            r#"{"type":"query","query":{"goal":"g","max_frames":1e0,"max_tokens":5}}"#.to_owned(),
            r#"{"type":"query","query":{"goal":"g","max_frames":-0,"max_tokens":5}}"#.to_owned(),
            frames("0.25", "0"),
            frames("1.0", "0"),
            frames("1e0", "0.0"),
            frames("0.5", "3.5"),
            r#"{"type":"shutdown","type":"shutdown"}"#.to_owned(),
            "[1, 2".to_owned(),
        ];
        for line in &lines {
            let full = check_message(&validator, line.as_bytes());
            let verdict = check_verdict(&validator, line.as_bytes());
            assert_eq!(verdict.findings, full.findings, "{line}");
            assert_eq!(verdict.variant, full.variant, "{line}");
            assert!(verdict.value.is_none() && verdict.envelope.is_none());
        }
        assert!(check_verdict(&validator, frames("1.0", "0").as_bytes()).is_valid());
        assert!(!check_verdict(&validator, frames("1e0", "0.0").as_bytes()).is_valid());
    }

    #[test]
    fn schema_errors_are_precise_and_located() {
        let validator = validator();
        let line =
            r#"{"type":"query","query":{"goal":"g","max_frames":1,"max_tokens":4294967296}}"#;
        let checked = check_message(&validator, line.as_bytes());
        assert_eq!(checked.findings.len(), 1);
        let finding = &checked.findings[0];
        assert_eq!(finding.instance_path, "/query/max_tokens");
        assert_eq!(
            finding.message,
            "4294967296 is greater than the maximum 4294967295"
        );
        assert_eq!(
            finding.position,
            Some(Position {
                line: 1,
                column: 65
            })
        );
        let unknown = findings(&validator, r#"{"type":"hello"}"#);
        assert!(
            unknown[0]
                .2
                .starts_with("unknown envelope type \"hello\"; expected one of handshake"),
            "{unknown:?}"
        );
        // Decoder leniencies stay schema errors.
        let array = findings(&validator, r#"["shutdown"]"#);
        assert_eq!(array[0].0, Layer::Schema);
    }

    #[test]
    fn semantic_rules_through_the_transcript_checker() {
        let validator = validator();
        let mut checker = TranscriptChecker::new(&validator, true);
        let query = br#"{"type":"query","query":{"goal":"g","max_frames":5,"max_tokens":5}}"#;
        assert!(checker.check(query, "line 1").is_valid());
        let frames = br#"{"type":"frames","result":{"frames":[{"id":"a","kind":"doc","title":"t","content":"abcdefghijklmnopqrstuvwxyz","score":0.5,"token_cost":7,"citation_label":"x"}],"truncated":false}}"#;
        let checked = checker.check(frames, "line 2");
        let rules: Vec<_> = checked.findings.iter().filter_map(|f| f.rule).collect();
        assert_eq!(rules, vec![Rule::B1]);
        assert!(checked.findings[0].message.contains("line 1"));
    }

    /// Every Envelope example of the SPEC.md corpus, as an NDJSON line: valid
    /// examples pass, invalid ones fail at their `at=` pointer (or, for a
    /// duplicate name, at the member inside it).
    #[test]
    fn the_corpus_envelopes_as_lines() {
        let validator = validator();
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../SPEC.md");
        let markdown = std::fs::read_to_string(path).expect("SPEC.md");
        let examples = crate::corpus::extract("SPEC.md", &markdown).expect("corpus");
        let mut seen = 0;
        for example in examples.iter().filter(|e| e.target == "Envelope") {
            seen += 1;
            let checked = check_message(&validator, example.as_line().as_bytes());
            if example.expect.valid_under(crate::Profile::Interop) {
                assert!(
                    checked.is_valid(),
                    "{}: {:?}",
                    example.name,
                    checked.findings
                );
                continue;
            }
            let at = example.at.as_deref().unwrap_or_default();
            assert!(
                checked.findings.iter().any(|f| {
                    let parent = f
                        .instance_path
                        .rfind('/')
                        .map_or("", |cut| &f.instance_path[..cut]);
                    f.instance_path == at || (f.layer == Layer::Text && parent == at)
                }),
                "{}: expected an error at {at:?}, got {:?}",
                example.name,
                checked.findings
            );
        }
        assert!(seen > 20, "only {seen} envelope examples");
    }

    #[test]
    fn reader_skips_blank_and_overlong_lines() {
        let mut input = b"{}\n\n  \r\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 10));
        input.extend(b"\n{\"a\":1}");
        let mut reader = LineReader::new(&input[..]);
        assert_eq!(
            reader.next_line().unwrap(),
            Some(Line::Message {
                number: 1,
                bytes: b"{}",
                terminated: true
            })
        );
        assert_eq!(
            reader.next_line().unwrap(),
            Some(Line::TooLong {
                number: 4,
                length: MAX_LINE_BYTES as u64 + 10
            })
        );
        assert_eq!(
            reader.next_line().unwrap(),
            Some(Line::Message {
                number: 5,
                bytes: b"{\"a\":1}",
                terminated: false
            })
        );
        assert_eq!(reader.next_line().unwrap(), None);
        let exact = [vec![b'y'; MAX_LINE_BYTES], b"\n".to_vec()].concat();
        let mut reader = LineReader::new(&exact[..]);
        assert!(matches!(
            reader.next_line().unwrap(),
            Some(Line::Message { .. })
        ));
    }
}
