//! One NDJSON line spelled as the protocol's SDKs write it rather than as the
//! canonical encoder does, for the bench's SDK-style transcript
//! (`cgp_bench::sdk`) and the randomised differential, which runs these
//! spellings through the reference crate and every package.
//!
//! [`respell`] reads a line and writes the same envelope with a seeded mix of
//! the habits a host meets in traffic the SDKs write, each of them frequent:
//!
//! - members the canonical encoder always writes, left out when they hold
//!   their default (`capabilities.graph`/`resolve`/…, `data_flow.writes`/`egress`);
//! - members the canonical encoder leaves out, written empty (`"relations": []`);
//! - other member orders (sorted as Go writes a map, reversed, shuffled);
//! - `": "` and `", "` separators (Python's `json.dumps`);
//! - `\uXXXX` escapes: every non-ASCII character, with surrogate pairs (Python's
//!   default), or `<`, `>`, `&` as `\u003c`, `\u003e`, `\u0026` (Go's `encoding/json`);
//! - prose (`content`, `goal`) with `<`, `>`, `&` put in for words of the same
//!   length, and many `\n` escapes put in for spaces.
//!
//! The schema allows `null` for no member, so no explicit `null` is written:
//! such a line is invalid, and the reference crate would accept it.

use crate::rng::Rng;
use serde_json::{Map, Value};

/// `line` (one JSON value) written again with SDK habits drawn from `rng`.
pub fn respell(line: &[u8], rng: &mut Rng) -> Result<String, serde_json::Error> {
    let mut value: Value = serde_json::from_slice(line)?;
    sdk_habits(&mut value, rng);
    Ok(write(&value, rng))
}

/// `value` written with a spelling drawn from `rng` (no habit changes it).
pub fn write(value: &Value, rng: &mut Rng) -> String {
    let style = Style {
        spaced: rng.below(2) == 0,
        escape: [Escape::Minimal, Escape::Ascii, Escape::Html][rng.below(3) as usize],
        order: [Order::Sorted, Order::Reversed, Order::Shuffled][rng.below(3) as usize],
    };
    let mut text = String::new();
    write_value(&mut text, value, style, rng);
    text
}

/// How one line is spelled.
#[derive(Debug, Clone, Copy)]
struct Style {
    spaced: bool,
    escape: Escape,
    order: Order,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Escape {
    /// Only what JSON requires (`JSON.stringify`).
    Minimal,
    /// Every non-ASCII character as `\uXXXX` (Python's `ensure_ascii`).
    Ascii,
    /// `<`, `>`, `&`, U+2028 and U+2029 as `\uXXXX` (Go's `encoding/json`).
    Html,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    /// Alphabetical, as Go writes a map.
    Sorted,
    /// Alphabetical, reversed.
    Reversed,
    /// A random order for every object.
    Shuffled,
}

/// Members the canonical encoder always writes, which an SDK leaves out when
/// they hold `false`, their default.
const DEFAULTED: &[&str] = &["graph", "resolve", "writes", "egress"];

/// Words of prose put in for others of the same length, so that the token
/// costs stay honest.
const PROSE: &[(&str, &str)] = &[
    ("logs", "<li>"),
    ("and", "a&b"),
    ("value", "x > y"),
    ("when", "a<=b"),
    ("owner", "<&&>"),
];

/// Leaves out defaulted members, writes empty `relations`, and rewrites prose.
pub fn sdk_habits(value: &mut Value, rng: &mut Rng) {
    match value {
        Value::Object(members) => {
            if rng.below(2) == 0 {
                members.retain(|key, value| {
                    !(DEFAULTED.contains(&key.as_str()) && *value == Value::Bool(false))
                });
            }
            let is_frame = members.contains_key("token_cost") && members.contains_key("title");
            if is_frame && !members.contains_key("relations") && rng.below(2) == 0 {
                members.insert("relations".into(), Value::Array(Vec::new()));
            }
            for (key, member) in members.iter_mut() {
                match member {
                    Value::String(text) if key == "content" || key == "goal" => {
                        *text = prose(text, rng)
                    }
                    _ => sdk_habits(member, rng),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| sdk_habits(item, rng)),
        _ => {}
    }
}

/// The same text with some words put in for markup of the same length and,
/// one time in two, one space in three turned into a line feed.
fn prose(text: &str, rng: &mut Rng) -> String {
    let mut text = text.to_owned();
    for (word, markup) in PROSE {
        if rng.below(2) == 0 {
            text = text.replace(word, markup);
        }
    }
    if rng.below(2) == 0 {
        let mut spaces = 0;
        text = text
            .chars()
            .map(|c| match c {
                ' ' => {
                    spaces += 1;
                    if spaces % 3 == 0 { '\n' } else { ' ' }
                }
                other => other,
            })
            .collect();
    }
    text
}

fn write_value(out: &mut String, value: &Value, style: Style, rng: &mut Rng) {
    match value {
        Value::Object(members) => write_object(out, members, style, rng),
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push_str(if style.spaced { ", " } else { "," });
                }
                write_value(out, item, style, rng);
            }
            out.push(']');
        }
        Value::String(text) => write_string(out, text, style.escape),
        other => out.push_str(&other.to_string()),
    }
}

fn write_object(out: &mut String, members: &Map<String, Value>, style: Style, rng: &mut Rng) {
    let mut keys: Vec<&String> = members.keys().collect();
    keys.sort();
    match style.order {
        Order::Sorted => {}
        Order::Reversed => keys.reverse(),
        Order::Shuffled => {
            for index in (1..keys.len()).rev() {
                keys.swap(index, rng.below(index as u64 + 1) as usize);
            }
        }
    }
    out.push('{');
    for (index, key) in keys.into_iter().enumerate() {
        if index > 0 {
            out.push_str(if style.spaced { ", " } else { "," });
        }
        write_string(out, key, style.escape);
        out.push_str(if style.spaced { ": " } else { ":" });
        write_value(out, &members[key], style, rng);
    }
    out.push('}');
}

fn write_string(out: &mut String, text: &str, escape: Escape) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => unicode(out, c),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' if escape == Escape::Html => unicode(out, c),
            c if !c.is_ascii() && escape == Escape::Ascii => unicode(out, c),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `c` as one `\uXXXX` escape, or two (a surrogate pair) beyond the BMP.
fn unicode(out: &mut String, c: char) {
    let mut units = [0u16; 2];
    for unit in c.encode_utf16(&mut units) {
        out.push_str(&format!("\\u{:04x}", unit));
    }
}
