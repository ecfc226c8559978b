//! `codec.ts`: the fast path of the TypeScript package, one decode and one
//! encode function per type, written from the same table of shapes the exact
//! path (`runtime/exact.ts`) walks, so the two read every shape alike.
//!
//! A read function reads a value of its type straight from the line's text
//! (the members it may hold, in any order, each once) and builds the decoded
//! value as the exact path would; an encode function writes the canonical text.
//! Where either cannot vouch for the result (a member the type does not name,
//! a number spelled otherwise than the fast path reads it, a `bigint` beyond a
//! `number`) it throws `MISS` and the exact path decides, so verdicts, errors
//! and bytes are always the exact path's. `runtime/fast.ts` holds the reader
//! the read functions share and says what it reads itself.

mod decode;
mod encode;

use serde_json::{Map, Value};
use std::fmt::Write as _;

/// The deepest nesting the reference decoder reads.
const MAX_DEPTH: usize = 127;

/// The largest integer a `number` holds exactly, as the fast path's bounds.
const SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// What `codec.ts` takes from `fast.ts`: the reader and the writers.
const FAST_HELPERS: [&str; 29] = [
    "ABSENT",
    "MISS",
    "bigInt",
    "bool",
    "closes",
    "exactly",
    "f32",
    "int",
    "isNull",
    "member",
    "miss",
    "more",
    "nul",
    "num",
    "oneOf",
    "open",
    "peekTag",
    "readLine",
    "record",
    "str",
    "strLength",
    "writeBigInt",
    "writeBool",
    "writeF32",
    "writeInt",
    "writeList",
    "writeNum",
    "writeOneOf",
    "writeStr",
];

/// What `codec.ts` takes from `exact.ts`.
const EXACT_HELPERS: [&str; 2] = ["encodeAny", "sameValue"];

/// `names`, each followed by a comma, in lines of about 100 characters at
/// most, each indented by two spaces and ended by a line feed.
fn listed(names: &[&str]) -> String {
    let mut out = String::new();
    let mut line = String::from(" ");
    for name in names {
        if line.len() > 1 && line.len() + name.len() > 98 {
            out.push_str(&line);
            out.push('\n');
            line = String::from(" ");
        }
        line.push(' ');
        line.push_str(name);
        line.push(',');
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// Writes `codec.ts` from the table of shapes (the named types and
/// `Envelope`). When the types nest deeper than the reference reads, or refer
/// to themselves, the fast path is left out and every line takes the exact
/// path.
pub(super) fn generate(shapes: &Map<String, Value>, header: &str) -> String {
    let mut writer = Writer {
        functions: String::new(),
        constants: String::new(),
        name_lists: Vec::new(),
        choice_lists: Vec::new(),
        next: 0,
    };
    let depth = depth_of(
        shapes,
        &Value::String("Envelope".into()),
        &mut Vec::new(),
        true,
    );
    let fast = depth.is_some_and(|depth| depth <= MAX_DEPTH);
    let mut out = String::from(header);
    let _ = write!(
        out,
        "\nimport {{\n{}}} from \"./fast.js\";\nimport {{ {} }} from \"./exact.js\";\n\n",
        listed(&FAST_HELPERS),
        EXACT_HELPERS.join(", ")
    );
    // A schema need not use every helper (and a fast path left out uses none).
    let all: Vec<&str> = FAST_HELPERS.iter().chain(&EXACT_HELPERS).copied().collect();
    let unused = format!(
        "\n// Helpers a schema need not use.\nvoid [\n{}];\n",
        listed(&all)
    );
    if !fast {
        out.push_str(
            "\n// The types nest deeper than the reference decoder reads, or refer to\n\
             // themselves: every line takes the exact path.\n\n\
             export function decodeFast(_text: string): unknown {\n  throw MISS;\n}\n\n\
             export function encodeFast(_value: unknown): string {\n  throw MISS;\n}\n",
        );
        out.push_str(&unused);
        return out;
    }
    for (name, shape) in shapes {
        let ident = ident(name);
        let decode = writer.decode(shape);
        let encode = writer.encode(shape, "value");
        let _ = write!(
            writer.functions,
            "\n/** Reads a `{name}`. */\nfunction read{ident}(): unknown {{\n  return {decode};\n}}\n\
             \n/** Writes a `{name}`. */\nfunction encode{ident}(value: unknown): string {{\n  return {encode};\n}}\n"
        );
    }
    out.push_str(&writer.constants);
    out.push_str(&writer.functions);
    out.push_str(
        "\n/** The envelope of the line `text` (its trailing whitespace gone), or\n \
         * `MISS` where the exact path must decide. */\n\
         export function decodeFast(text: string): unknown {\n  return readLine(text, readEnvelope);\n}\n\
         \n/** The canonical text of `envelope` (without the newline), or `MISS`\n \
         * where the exact path must decide. */\n\
         export function encodeFast(envelope: unknown): string {\n  return encodeEnvelope(envelope);\n}\n",
    );
    out.push_str(&unused);
    out
}

/// An expression reading exactly the string `constant`.
fn exactly(constant: &str) -> String {
    format!("exactly({})", Value::String(constant.to_owned()))
}

/// A TypeScript identifier from a type name.
fn ident(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// A value as a TypeScript literal (JSON is one).
fn literal(value: &Value) -> String {
    value.to_string()
}

/// Whether a value is a primitive `===` compares as the exact path's
/// `sameValue` does.
fn primitive(value: &Value) -> bool {
    !matches!(value, Value::Array(_) | Value::Object(_))
}

/// The deepest container nesting a value of `shape` reaches (the envelope
/// being at 1), or `None` when it is unbounded (a type that refers to
/// itself, or any JSON value).
fn depth_of(
    shapes: &Map<String, Value>,
    shape: &Value,
    visiting: &mut Vec<String>,
    named_ref: bool,
) -> Option<usize> {
    if named_ref {
        let name = shape.as_str()?;
        if visiting.iter().any(|seen| seen == name) {
            return None;
        }
        visiting.push(name.to_owned());
        let found = depth_of(shapes, shapes.get(name)?, visiting, false);
        visiting.pop();
        return found;
    }
    let members_depth = |members: &Value, visiting: &mut Vec<String>| -> Option<usize> {
        let mut deepest = 0;
        for member in members.as_array()? {
            deepest = deepest.max(depth_of(shapes, member.get("shape")?, visiting, false)?);
        }
        Some(1 + deepest)
    };
    match shape.get("kind")?.as_str()? {
        "any" => None,
        "ref" => depth_of(shapes, shape.get("name")?, visiting, true),
        "array" => Some(1 + depth_of(shapes, shape.get("items")?, visiting, false)?),
        "object" => members_depth(shape.get("members")?, visiting),
        "union" => {
            let mut deepest = 1;
            for branch in shape.get("branches")?.as_array()? {
                deepest = deepest.max(members_depth(branch.get("members")?, visiting)?);
            }
            Some(deepest)
        }
        "nullable" | "excluding" => depth_of(shapes, shape.get("inner")?, visiting, false),
        "const" => Some(const_depth(shape.get("value")?)),
        _ => Some(0),
    }
}

fn const_depth(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(const_depth).max().unwrap_or(0),
        Value::Object(members) => 1 + members.values().map(const_depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// A bound of an integer shape as the fast path compares it: beyond a
/// `number`'s exact integers it cannot matter (the fast path reads fewer
/// than 16 digits), so it is an infinity.
fn int_bound(bound: &Value, low: bool) -> String {
    let parsed = bound.as_str().and_then(|text| text.parse::<f64>().ok());
    match parsed {
        Some(value) if value.abs() <= SAFE_INTEGER => format!("{value}"),
        _ if low => "-Infinity".into(),
        _ => "Infinity".into(),
    }
}

/// A limit of a number shape: (bound, exclusive).
fn number_limit(limit: &Value, low: bool) -> (String, bool) {
    match limit.get("value").and_then(Value::as_f64) {
        Some(value) => (
            format!("{value:?}"),
            limit.get("exclusive").and_then(Value::as_bool) == Some(true),
        ),
        None if low => ("-Infinity".into(), false),
        None => ("Infinity".into(), false),
    }
}

fn count(value: Option<&Value>, none: &str) -> String {
    value
        .and_then(Value::as_u64)
        .map_or_else(|| none.to_owned(), |n| n.to_string())
}

/// A TypeScript expression writing `input` as the integer `shape`.
fn encode_integer(shape: &Value, input: &str) -> String {
    if shape.get("big").and_then(Value::as_bool) == Some(true) {
        let bound = |key: &str| {
            shape
                .get(key)
                .and_then(Value::as_str)
                .map(|text| format!("{text}n"))
        };
        match (bound("min"), bound("max")) {
            (Some(min), Some(max)) => format!("writeBigInt({input}, {min}, {max})"),
            _ => "miss()".into(),
        }
    } else {
        format!(
            "writeInt({input}, {}, {})",
            int_bound(&shape["min"], true),
            int_bound(&shape["max"], false)
        )
    }
}

struct Writer {
    functions: String,
    constants: String,
    /// The lists of member names declared so far.
    name_lists: Vec<Vec<String>>,
    /// The lists of enumerated strings declared so far.
    choice_lists: Vec<Vec<String>>,
    next: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn envelope_of(members: Value) -> Map<String, Value> {
        let mut shapes = Map::new();
        shapes.insert(
            "Envelope".into(),
            json!({"kind": "object", "members": members}),
        );
        shapes
    }

    #[test]
    fn names_are_matched_by_their_raw_text_only_where_json_writes_them_plain() {
        let plain = generate(
            &envelope_of(json!([{"name": "goal", "shape": {"kind": "string"}, "required": true}])),
            "",
        );
        assert!(plain.contains(r#"const NAMES0: readonly string[] = ["goal"];"#));
        assert!(plain.contains("member(NAMES0, expected)"));
        // A quote, a backslash or a control character is written escaped, so
        // the text between the quotes is not the name: the exact path reads it.
        for name in ["a\"b", "a\\b", "a\u{1}b"] {
            let escaped = generate(
                &envelope_of(json!([
                    {"name": "goal", "shape": {"kind": "string"}, "required": true},
                    {"name": name, "shape": {"kind": "string"}}
                ])),
                "",
            );
            assert!(!escaped.contains("NAMES0"), "{name:?}: {escaped}");
            assert!(
                escaped.contains("(): unknown {\n  return miss();\n}"),
                "{name:?}: {escaped}"
            );
        }
    }
}
