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

use super::descriptor::{Descriptor, Limit, MemberDescriptor, Table};
use serde_json::Value;
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
pub(super) fn generate(shapes: &Table, header: &str) -> String {
    let mut writer = Writer {
        functions: String::new(),
        constants: String::new(),
        name_lists: Vec::new(),
        choice_lists: Vec::new(),
        next: 0,
    };
    let depth = depth_of_named(shapes, "Envelope", &mut Vec::new());
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
    for (name, shape) in shapes.iter() {
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

/// The deepest container nesting a value of the named type `name` reaches
/// (the envelope being at 1), or `None` when it is unbounded (a type that
/// refers to itself, or any JSON value).
fn depth_of_named(shapes: &Table, name: &str, visiting: &mut Vec<String>) -> Option<usize> {
    if visiting.iter().any(|seen| seen == name) {
        return None;
    }
    visiting.push(name.to_owned());
    let found = depth_of(shapes, shapes.get(name)?, visiting);
    visiting.pop();
    found
}

/// The deepest container nesting a value of `shape` reaches, or `None` when
/// it is unbounded.
fn depth_of(shapes: &Table, shape: &Descriptor, visiting: &mut Vec<String>) -> Option<usize> {
    let members_depth = |members: &[MemberDescriptor], visiting: &mut Vec<String>| {
        let mut deepest = 0;
        for member in members {
            deepest = deepest.max(depth_of(shapes, &member.shape, visiting)?);
        }
        Some(1 + deepest)
    };
    match shape {
        Descriptor::Any => None,
        Descriptor::Ref { name } => depth_of_named(shapes, name, visiting),
        Descriptor::Array { items, .. } => Some(1 + depth_of(shapes, items, visiting)?),
        Descriptor::Object { members, .. } => members_depth(members, visiting),
        Descriptor::Union { branches, .. } => {
            let mut deepest = 1;
            for branch in branches {
                deepest = deepest.max(members_depth(&branch.members, visiting)?);
            }
            Some(deepest)
        }
        Descriptor::Nullable { inner } | Descriptor::Excluding { inner, .. } => {
            depth_of(shapes, inner, visiting)
        }
        Descriptor::Const { value } => Some(const_depth(value)),
        Descriptor::Null
        | Descriptor::Boolean
        | Descriptor::Integer { .. }
        | Descriptor::Number { .. }
        | Descriptor::String { .. }
        | Descriptor::Enum { .. }
        | Descriptor::Vocabulary => Some(0),
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
fn int_bound(bound: Option<i128>, low: bool) -> String {
    let parsed = bound.map(|bound| bound as f64);
    match parsed {
        Some(value) if value.abs() <= SAFE_INTEGER => format!("{value}"),
        _ if low => "-Infinity".into(),
        _ => "Infinity".into(),
    }
}

/// A limit of a number shape: (bound, exclusive).
fn number_limit(limit: Option<&Limit>, low: bool) -> (String, bool) {
    match limit {
        Some(limit) => (format!("{:?}", limit.value), limit.exclusive),
        None if low => ("-Infinity".into(), false),
        None => ("Infinity".into(), false),
    }
}

fn count(value: Option<u64>, none: &str) -> String {
    value.map_or_else(|| none.to_owned(), |n| n.to_string())
}

/// A TypeScript expression writing `input` as an integer within `min..=max`,
/// a `bigint` where `big`.
fn encode_integer(min: Option<i128>, max: Option<i128>, big: bool, input: &str) -> String {
    if big {
        match (min, max) {
            (Some(min), Some(max)) => format!("writeBigInt({input}, {min}n, {max}n)"),
            _ => "miss()".into(),
        }
    } else {
        format!(
            "writeInt({input}, {}, {})",
            int_bound(min, true),
            int_bound(max, false)
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
    use super::super::descriptor::Emit;
    use super::*;

    fn string_member(name: &str, required: bool) -> MemberDescriptor {
        MemberDescriptor {
            name: name.into(),
            required,
            emit: if required { Emit::Always } else { Emit::Absent },
            default: None,
            shape: Descriptor::String {
                min_length: None,
                max_length: None,
            },
        }
    }

    fn envelope_of(members: Vec<MemberDescriptor>) -> Table {
        let mut shapes = Table::default();
        shapes.insert(
            "Envelope".into(),
            Descriptor::Object {
                members,
                closed: false,
            },
        );
        shapes
    }

    #[test]
    fn names_are_matched_by_their_raw_text_only_where_json_writes_them_plain() {
        let plain = generate(&envelope_of(vec![string_member("goal", true)]), "");
        assert!(plain.contains(r#"const NAMES0: readonly string[] = ["goal"];"#));
        assert!(plain.contains("member(NAMES0, expected)"));
        // A quote, a backslash or a control character is written escaped, so
        // the text between the quotes is not the name: the exact path reads it.
        for name in ["a\"b", "a\\b", "a\u{1}b"] {
            let escaped = generate(
                &envelope_of(vec![
                    string_member("goal", true),
                    string_member(name, false),
                ]),
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
