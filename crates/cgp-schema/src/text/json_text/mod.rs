//! JSON text with positions.
//!
//! [`parse`] turns JSON text into a [`serde_json::Value`] and remembers where every
//! value (and every member name) starts, so a diagnostic can name the line and
//! column behind any JSON pointer. It also rejects what the reference decoder
//! rejects but a parsed value can no longer show: duplicate member names.

use serde_json::{Map, Number, Value};
use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::fmt;

/// How deep arrays and objects may nest: the limit `serde_json` applies (its
/// recursion limit of 128 refuses the 128th nested array or object), so the two
/// parsers of a message agree on every line.
pub const MAX_DEPTH: usize = 127;

/// A 1-based line and column (the column counts characters, not bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// The line, starting at 1.
    pub line: usize,
    /// The column, starting at 1.
    pub column: usize,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Why JSON text could not be parsed, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// Where the problem was found.
    pub position: Position,
    /// What was wrong.
    pub message: String,
    /// The JSON pointer of the value being read, when the problem is inside one.
    pub pointer: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.position, self.message)
    }
}

impl std::error::Error for ParseError {}

/// A parsed JSON document with the position of every value in it.
#[derive(Debug, Clone)]
pub struct Document {
    /// The parsed value.
    pub value: Value,
    values: HashMap<String, Position>,
    names: HashMap<String, Position>,
}

impl Document {
    /// Where the value at `pointer` starts, if the pointer names a value.
    pub fn position(&self, pointer: &str) -> Option<Position> {
        self.values.get(pointer).copied()
    }

    /// Where the member name of the value at `pointer` starts, if it is an object member.
    pub fn name_position(&self, pointer: &str) -> Option<Position> {
        self.names.get(pointer).copied()
    }

    /// The position of `pointer`, or of its closest ancestor that exists: a pointer
    /// to a missing member is reported at the object that lacks it.
    pub fn nearest_position(&self, pointer: &str) -> Position {
        let mut current = pointer;
        loop {
            if let Some(found) = self.position(current) {
                return found;
            }
            match current.rfind('/') {
                Some(cut) => current = &current[..cut],
                None => return Position { line: 1, column: 1 },
            }
        }
    }
}

/// Escapes one reference token of a JSON pointer (RFC 6901).
pub fn escape_token(token: &str) -> String {
    if token.contains(['~', '/']) {
        token.replace('~', "~0").replace('/', "~1")
    } else {
        token.to_owned()
    }
}

/// Splits a JSON pointer into its unescaped reference tokens.
pub fn pointer_tokens(pointer: &str) -> Vec<String> {
    if pointer.is_empty() {
        return Vec::new();
    }
    pointer
        .split('/')
        .skip(1)
        .map(|token| token.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// Parses the JSON text of the file named `file`; a failure is a diagnostic at
/// its line and column.
pub fn parse_named(file: &str, text: &str) -> Result<Document, crate::diagnostic::Diagnostic> {
    parse(text).map_err(|error| {
        crate::diagnostic::Diagnostic::at(
            file,
            error.position,
            None,
            format!("invalid JSON: {}", error.message),
        )
    })
}

/// Parses JSON text, recording positions. Whitespace may surround the value;
/// anything else after it is an error.
pub fn parse(text: &str) -> Result<Document, ParseError> {
    run(text, None)
}

/// Finds where the values at `pointers` start, for locating errors in a message
/// that is already known to parse. Unlike [`parse`], it keeps neither the value
/// (the returned document's `value` is `null`) nor the position of any value
/// but those at `pointers` and their ancestors, so a huge message costs little
/// more memory than its text. Duplicate member names are not looked for.
pub fn locate<'p>(
    text: &str,
    pointers: impl IntoIterator<Item = &'p str>,
) -> Result<Document, ParseError> {
    let mut wanted = HashSet::new();
    for pointer in pointers {
        let mut current = pointer;
        wanted.insert(current.to_owned());
        while let Some(cut) = current.rfind('/') {
            current = current.get(..cut).unwrap_or_default();
            wanted.insert(current.to_owned());
        }
        wanted.insert(String::new());
    }
    run(text, Some(wanted))
}

fn run(text: &str, wanted: Option<HashSet<String>>) -> Result<Document, ParseError> {
    let mut parser = Parser {
        text,
        bytes: text.as_bytes(),
        offset: 0,
        line: 1,
        line_start: 0,
        values: HashMap::new(),
        names: HashMap::new(),
        column_cache: Cell::new((0, 1)),
        wanted,
    };
    parser.skip_whitespace();
    let mut pointer = String::new();
    let value = parser.value(&mut pointer, 0)?;
    parser.skip_whitespace();
    if parser.offset < parser.bytes.len() {
        return Err(parser.error("trailing characters after the JSON value", ""));
    }
    Ok(Document {
        value: if parser.keeps_values() {
            value
        } else {
            Value::Null
        },
        values: parser.values,
        names: parser.names,
    })
}

struct Parser<'t> {
    text: &'t str,
    bytes: &'t [u8],
    offset: usize,
    line: usize,
    line_start: usize,
    values: HashMap<String, Position>,
    names: HashMap<String, Position>,
    /// A byte offset on the current line and its column.
    column_cache: Cell<(usize, usize)>,
    /// For [`locate`]: the only pointers whose positions are kept; the parsed
    /// value is then dropped as it is read.
    wanted: Option<HashSet<String>>,
}

impl Parser<'_> {
    fn position(&self) -> Position {
        self.position_at(self.offset)
    }

    fn error(&self, message: impl Into<String>, pointer: &str) -> ParseError {
        ParseError {
            position: self.position(),
            message: message.into(),
            pointer: pointer.to_owned(),
        }
    }

    fn keeps_values(&self) -> bool {
        self.wanted.is_none()
    }

    fn wants(&self, pointer: &str) -> bool {
        self.wanted
            .as_ref()
            .is_none_or(|wanted| wanted.contains(pointer))
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.offset).copied()
    }

    fn skip_whitespace(&mut self) {
        while let Some(byte) = self.peek() {
            match byte {
                b' ' | b'\t' | b'\r' => self.offset += 1,
                b'\n' => {
                    self.offset += 1;
                    self.line += 1;
                    self.line_start = self.offset;
                }
                _ => break,
            }
        }
    }

    fn expect_literal(&mut self, literal: &str, pointer: &str) -> Result<(), ParseError> {
        if self.text[self.offset..].starts_with(literal) {
            self.offset += literal.len();
            Ok(())
        } else {
            Err(self.error(format!("expected `{literal}`"), pointer))
        }
    }

    fn value(&mut self, pointer: &mut String, depth: usize) -> Result<Value, ParseError> {
        let start = self.position();
        if self.wants(pointer) {
            self.values.insert(pointer.clone(), start);
        }
        match self.peek() {
            None => Err(self.error("unexpected end of input, expected a value", pointer)),
            Some(b'{') => self.object(pointer, depth + 1),
            Some(b'[') => self.array(pointer, depth + 1),
            Some(b'"') => Ok(Value::String(self.string(pointer)?)),
            Some(b't') => self
                .expect_literal("true", pointer)
                .map(|()| Value::Bool(true)),
            Some(b'f') => self
                .expect_literal("false", pointer)
                .map(|()| Value::Bool(false)),
            Some(b'n') => self.expect_literal("null", pointer).map(|()| Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(pointer),
            Some(_) => {
                let found = self.text[self.offset..].chars().next().unwrap_or(' ');
                Err(self.error(format!("expected a value, found `{found}`"), pointer))
            }
        }
    }

    fn enter(&self, depth: usize, pointer: &str) -> Result<(), ParseError> {
        if depth > MAX_DEPTH {
            Err(self.error(
                format!("nesting deeper than {MAX_DEPTH} levels is not accepted"),
                pointer,
            ))
        } else {
            Ok(())
        }
    }

    fn object(&mut self, pointer: &mut String, depth: usize) -> Result<Value, ParseError> {
        self.enter(depth, pointer)?;
        self.offset += 1;
        let mut map = Map::new();
        self.skip_whitespace();
        if self.peek() == Some(b'}') {
            self.offset += 1;
            return Ok(Value::Object(map));
        }
        loop {
            self.skip_whitespace();
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a member name in double quotes", pointer));
            }
            let name_position = self.position();
            let name = self.string(pointer)?;
            let base_len = pointer.len();
            pointer.push('/');
            pointer.push_str(&escape_token(&name));
            if self.keeps_values() && map.contains_key(&name) {
                return Err(ParseError {
                    position: name_position,
                    message: format!("duplicate member name `{name}`"),
                    pointer: pointer.clone(),
                });
            }
            if self.wants(pointer) {
                self.names.insert(pointer.clone(), name_position);
            }
            self.skip_whitespace();
            if self.peek() != Some(b':') {
                return Err(self.error("expected `:` after the member name", pointer));
            }
            self.offset += 1;
            self.skip_whitespace();
            let member = self.value(pointer, depth)?;
            pointer.truncate(base_len);
            if self.keeps_values() {
                map.insert(name, member);
            }
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.offset += 1,
                Some(b'}') => {
                    self.offset += 1;
                    return Ok(Value::Object(map));
                }
                _ => return Err(self.error("expected `,` or `}` in the object", pointer)),
            }
        }
    }

    fn array(&mut self, pointer: &mut String, depth: usize) -> Result<Value, ParseError> {
        self.enter(depth, pointer)?;
        self.offset += 1;
        let mut items = Vec::new();
        self.skip_whitespace();
        if self.peek() == Some(b']') {
            self.offset += 1;
            return Ok(Value::Array(items));
        }
        let mut index = 0usize;
        loop {
            self.skip_whitespace();
            let base_len = pointer.len();
            pointer.push('/');
            pointer.push_str(&index.to_string());
            let item = self.value(pointer, depth)?;
            pointer.truncate(base_len);
            index += 1;
            if self.keeps_values() {
                items.push(item);
            }
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.offset += 1,
                Some(b']') => {
                    self.offset += 1;
                    return Ok(Value::Array(items));
                }
                _ => return Err(self.error("expected `,` or `]` in the array", pointer)),
            }
        }
    }

    fn number(&mut self, pointer: &str) -> Result<Value, ParseError> {
        let start = self.offset;
        if self.peek() == Some(b'-') {
            self.offset += 1;
        }
        let digits = |parser: &mut Self| {
            let from = parser.offset;
            while matches!(parser.peek(), Some(b'0'..=b'9')) {
                parser.offset += 1;
            }
            parser.offset - from
        };
        let int_start = self.offset;
        if digits(self) == 0 {
            return Err(self.error("expected a digit", pointer));
        }
        if self.bytes.get(int_start) == Some(&b'0') && self.offset - int_start > 1 {
            return Err(self.error("a number may not have a leading zero", pointer));
        }
        if self.peek() == Some(b'.') {
            self.offset += 1;
            if digits(self) == 0 {
                return Err(self.error("expected a digit after the decimal point", pointer));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.offset += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.offset += 1;
            }
            if digits(self) == 0 {
                return Err(self.error("expected a digit in the exponent", pointer));
            }
        }
        let literal = &self.text[start..self.offset];
        match serde_json::from_str::<Number>(literal) {
            Ok(number) => Ok(Value::Number(number)),
            Err(_) => Err(ParseError {
                position: self.position_at(start),
                message: format!("number `{literal}` is out of range"),
                pointer: pointer.to_owned(),
            }),
        }
    }

    /// The position of `offset` on the current line. Columns count characters, so
    /// the count is carried forward from the last position asked for: on a long
    /// line (a 16 MiB message is one line) each position costs only the text
    /// since the previous one, not the whole line again.
    fn position_at(&self, offset: usize) -> Position {
        let (mut from, mut column) = self.column_cache.get();
        if from < self.line_start || from > offset {
            (from, column) = (self.line_start, 1);
        }
        column += self
            .text
            .get(from..offset)
            .map_or(0, |between| between.chars().count());
        self.column_cache.set((offset, column));
        Position {
            line: self.line,
            column,
        }
    }

    fn string(&mut self, pointer: &str) -> Result<String, ParseError> {
        self.offset += 1;
        let mut out = String::new();
        loop {
            let run_start = self.offset;
            while let Some(byte) = self.peek() {
                if byte == b'"' || byte == b'\\' || byte < 0x20 {
                    break;
                }
                self.offset += 1;
            }
            out.push_str(&self.text[run_start..self.offset]);
            match self.peek() {
                None => return Err(self.error("unterminated string", pointer)),
                Some(b'"') => {
                    self.offset += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.offset += 1;
                    let escaped = self.escape(pointer)?;
                    out.push(escaped);
                }
                Some(_) => {
                    return Err(self.error(
                        "control character in a string (it must be escaped)",
                        pointer,
                    ));
                }
            }
        }
    }

    fn escape(&mut self, pointer: &str) -> Result<char, ParseError> {
        let Some(byte) = self.peek() else {
            return Err(self.error("unterminated escape sequence", pointer));
        };
        self.offset += 1;
        Ok(match byte {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let first = self.hex4(pointer)?;
                if (0xD800..0xDC00).contains(&first) {
                    if !self.text[self.offset..].starts_with("\\u") {
                        return Err(self.error("lone leading surrogate in a \\u escape", pointer));
                    }
                    self.offset += 2;
                    let second = self.hex4(pointer)?;
                    if !(0xDC00..0xE000).contains(&second) {
                        return Err(
                            self.error("invalid trailing surrogate in a \\u escape", pointer)
                        );
                    }
                    let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                    char::from_u32(code).ok_or_else(|| self.error("invalid \\u escape", pointer))?
                } else if (0xDC00..0xE000).contains(&first) {
                    return Err(self.error("lone trailing surrogate in a \\u escape", pointer));
                } else {
                    char::from_u32(first)
                        .ok_or_else(|| self.error("invalid \\u escape", pointer))?
                }
            }
            _ => return Err(self.error("invalid escape sequence", pointer)),
        })
    }

    fn hex4(&mut self, pointer: &str) -> Result<u32, ParseError> {
        let digits = self
            .text
            .get(self.offset..self.offset + 4)
            .filter(|digits| digits.bytes().all(|byte| byte.is_ascii_hexdigit()))
            .ok_or_else(|| self.error("expected four hex digits in a \\u escape", pointer))?;
        let code = u32::from_str_radix(digits, 16)
            .map_err(|_| self.error("expected four hex digits in a \\u escape", pointer))?;
        self.offset += 4;
        Ok(code)
    }
}

#[cfg(test)]
mod tests;
