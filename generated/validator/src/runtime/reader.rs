//! The JSON reader every check runs on: a `serde::Deserializer` over one
//! message's text with `serde_json`'s verdicts (its grammar, its whitespace,
//! its nesting limit, and its reading of numbers, which it leaves to
//! `serde_json` itself) that reads a string's escapes only for a visitor that
//! wants the string.
//!
//! SDKs write prose with an escape every few characters (`\n`, Python's
//! `\u00e9`), and unescaping it is most of what reading such a line costs.
//! Most strings of a message are checked for being strings and nothing more,
//! so `deserialize_ignored_any` is this reader's hint that the visitor does not
//! read string contents: a string is still checked to the letter (its
//! escapes, its surrogate pairs, no control characters) but is handed over as
//! its raw text. Every other request gets strings with their escapes read.
//! Nothing else differs between the two.

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// Why the reader stopped: the text is not a value the checks accept. Carries
/// nothing: a rejected line is explained by `jsonschema`.
#[derive(Debug)]
pub(crate) struct Refused;

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("does not fit")
    }
}

impl std::error::Error for Refused {}

impl de::Error for Refused {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Refused
    }
}

/// The name under which [`RawSeed`] asks the reader for a value's raw text.
const RAW: &str = "cgp-validator::raw";

/// Containers that may be open at once, plus one: `serde_json`'s recursion
/// limit, which refuses the 128th.
const ROOM: u8 = 128;

/// One message's text and the position reached in it.
pub(crate) struct Reader<'de> {
    text: &'de str,
    at: usize,
    /// How many more containers may open (`serde_json`'s remaining depth).
    room: u8,
    /// A string whose escapes were read, for the visitor to borrow.
    scratch: String,
}

impl<'de> Reader<'de> {
    pub(crate) fn new(text: &'de str) -> Self {
        Reader {
            text,
            at: 0,
            room: ROOM,
            scratch: String::new(),
        }
    }

    /// `Ok` when only whitespace is left.
    pub(crate) fn end(&mut self) -> Result<(), Refused> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(Refused),
        }
    }

    /// The next byte that is not whitespace, not consumed.
    fn peek(&mut self) -> Option<u8> {
        let bytes = self.text.as_bytes();
        while let Some(&byte) = bytes.get(self.at) {
            if !matches!(byte, b' ' | b'\n' | b'\t' | b'\r') {
                return Some(byte);
            }
            self.at += 1;
        }
        None
    }

    /// Reads one value; `skim` hands strings over raw.
    fn value<V: Visitor<'de>>(&mut self, visitor: V, skim: bool) -> Result<V::Value, Refused> {
        match self.peek().ok_or(Refused)? {
            b'{' => {
                self.open()?;
                let value = visitor.visit_map(Members {
                    reader: &mut *self,
                    first: true,
                });
                self.room += 1;
                let value = value?;
                self.close(b'}')?;
                Ok(value)
            }
            b'[' => {
                self.open()?;
                let value = visitor.visit_seq(Items {
                    reader: &mut *self,
                    first: true,
                });
                self.room += 1;
                let value = value?;
                self.close(b']')?;
                Ok(value)
            }
            b'"' if skim => {
                let raw = self.skim_string()?;
                visitor.visit_borrowed_str(raw)
            }
            b'"' => match self.string()? {
                Some(borrowed) => visitor.visit_borrowed_str(borrowed),
                None => visitor.visit_str(&self.scratch),
            },
            b't' => self.literal("true").and_then(|()| visitor.visit_bool(true)),
            b'f' => self
                .literal("false")
                .and_then(|()| visitor.visit_bool(false)),
            b'n' => self.literal("null").and_then(|()| visitor.visit_unit()),
            b'-' | b'0'..=b'9' => self.number(visitor),
            _ => Err(Refused),
        }
    }

    /// Consumes `[` or `{`, counting it against the nesting limit.
    fn open(&mut self) -> Result<(), Refused> {
        self.room -= 1;
        if self.room == 0 {
            self.room += 1;
            return Err(Refused);
        }
        self.at += 1;
        Ok(())
    }

    /// Consumes the `]` or `}` that must come next.
    fn close(&mut self, bracket: u8) -> Result<(), Refused> {
        if self.peek() == Some(bracket) {
            self.at += 1;
            Ok(())
        } else {
            Err(Refused)
        }
    }

    fn literal(&mut self, word: &str) -> Result<(), Refused> {
        let rest = self.text.get(self.at..).ok_or(Refused)?;
        if rest.starts_with(word) {
            self.at += word.len();
            Ok(())
        } else {
            Err(Refused)
        }
    }

    /// A number, read by `serde_json` so that its verdict and the visit it
    /// makes (`u64`, `i64` or `f64`, `-0` and overflowing integers as floats)
    /// are `serde_json`'s own. The number's text is every byte that may
    /// belong to one; what follows a number in valid JSON is none of them.
    fn number<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Refused> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        while bytes
            .get(self.at)
            .is_some_and(|byte| matches!(byte, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
        {
            self.at += 1;
        }
        let text = self.text.get(start..self.at).ok_or(Refused)?;
        let mut number = serde_json::Deserializer::from_str(text);
        let value = de::Deserializer::deserialize_any(&mut number, visitor).map_err(|_| Refused)?;
        number.end().map_err(|_| Refused)?;
        Ok(value)
    }

    /// A string whose opening quote is next: `Some` of its text when it has no
    /// escapes, else `None` with its escapes read into `scratch`.
    fn string(&mut self) -> Result<Option<&'de str>, Refused> {
        let bytes = self.text.as_bytes();
        let start = self.at + 1;
        let mut at = special(bytes, start);
        if bytes.get(at) == Some(&b'"') {
            self.at = at + 1;
            return self.text.get(start..at).map(Some).ok_or(Refused);
        }
        self.scratch.clear();
        let mut run = start;
        loop {
            self.scratch
                .push_str(self.text.get(run..at).ok_or(Refused)?);
            match bytes.get(at) {
                Some(b'"') => {
                    self.at = at + 1;
                    return Ok(None);
                }
                Some(b'\\') => {
                    let (character, next) = escape(bytes, at)?;
                    self.scratch.push(character);
                    run = next;
                    at = special(bytes, next);
                }
                _ => return Err(Refused),
            }
        }
    }

    /// A string whose opening quote is next, checked as [`Self::string`] checks
    /// it, and its raw text between the quotes: each escape is checked where
    /// it stands and left as it is. A short string ends where [`special`]
    /// first stops; prose goes on 64 bytes at a time from there: one mask of
    /// the block's quotes, backslashes and control characters, then its bits
    /// in order, skipping those inside an escape already read.
    fn skim_string(&mut self) -> Result<&'de str, Refused> {
        let bytes = self.text.as_bytes();
        let start = self.at + 1;
        // The block's first byte; `free`: the first byte after the escapes read.
        let mut block = special(bytes, start);
        if bytes.get(block) == Some(&b'"') {
            return self.skimmed(start, block);
        }
        let mut free = block;
        while let Some(chunk) = bytes.get(block..block + 64) {
            let Ok(chunk) = <&[u8; 64]>::try_from(chunk) else {
                break;
            };
            let mut found = block_specials(chunk);
            while found != 0 {
                let at = block + found.trailing_zeros() as usize;
                found &= found - 1;
                if at < free {
                    continue;
                }
                match bytes.get(at) {
                    Some(b'"') => return self.skimmed(start, at),
                    Some(b'\\') => free = escape_end(bytes, at)?,
                    _ => return Err(Refused),
                }
            }
            block += 64;
        }
        let mut at = special(bytes, block.max(free));
        loop {
            match bytes.get(at) {
                Some(b'"') => return self.skimmed(start, at),
                Some(b'\\') => at = special(bytes, escape_end(bytes, at)?),
                _ => return Err(Refused),
            }
        }
    }

    /// The string skimmed from `start` to its closing quote at `end`.
    fn skimmed(&mut self, start: usize, end: usize) -> Result<&'de str, Refused> {
        self.at = end + 1;
        self.text.get(start..end).ok_or(Refused)
    }
}

/// A bit for each of the 64 bytes that is `"`, `\` or a control character,
/// the first byte's lowest. Written so that the compiler compares 16 bytes
/// per vector instruction, then gathers each eight flags into a byte by one
/// multiplication.
#[inline]
fn block_specials(chunk: &[u8; 64]) -> u64 {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let mut flags = [0u8; 64];
    for (flag, &byte) in flags.iter_mut().zip(chunk) {
        *flag = (u8::from(byte == b'"') | u8::from(byte == b'\\') | u8::from(byte < 0x20))
            .wrapping_neg();
    }
    let mut mask = 0;
    for (index, eight) in flags.chunks_exact(8).enumerate() {
        let eight = <[u8; 8]>::try_from(eight).map_or(0, u64::from_le_bytes);
        mask |= (((eight & HIGH) >> 7).wrapping_mul(GATHER) >> 56) << (8 * index);
    }
    mask
}

/// The position of the first `"`, `\` or control character from `at` (or the
/// text's length), eight bytes at a time: for names and short values, which
/// end long before a block of 64 would.
fn special(bytes: &[u8], mut at: usize) -> usize {
    while let Some(chunk) = bytes.get(at..at + 8) {
        let Ok(chunk) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let found = word_specials(chunk);
        if found != 0 {
            return at + found.trailing_zeros() as usize / 8;
        }
        at += 8;
    }
    while let Some(&byte) = bytes.get(at) {
        if byte == b'"' || byte == b'\\' || byte < 0x20 {
            break;
        }
        at += 1;
    }
    at
}

/// The high bit of the first of the eight bytes that is `"`, `\` or a control
/// character (bits above it may be set too).
#[inline(always)]
fn word_specials(chunk: [u8; 8]) -> u64 {
    const ONES: u64 = u64::MAX / 255;
    const HIGH: u64 = ONES << 7;
    let word = u64::from_le_bytes(chunk);
    let control = word.wrapping_sub(ONES * 0x20) & !word;
    let quote = word ^ (ONES * u64::from(b'"'));
    let quote = quote.wrapping_sub(ONES) & !quote;
    let backslash = word ^ (ONES * u64::from(b'\\'));
    let backslash = backslash.wrapping_sub(ONES) & !backslash;
    (control | quote | backslash) & HIGH
}

/// The escape whose backslash is at `at`: the character it stands for and the
/// position after it. A `\u` of a high surrogate must be followed by a `\u`
/// of a low one, and a low one must not come alone: `serde_json` reads a
/// string so when it makes a `str` of it.
fn escape(bytes: &[u8], at: usize) -> Result<(char, usize), Refused> {
    match *bytes.get(at + 1).ok_or(Refused)? {
        b'u' => unicode_escape(bytes, at),
        letter => Ok((simple_escape(letter).ok_or(Refused)?, at + 2)),
    }
}

/// The position after the escape whose backslash is at `at`, checked as
/// [`escape`] checks it, without making the character. SDK prose mixes `\n`
/// with `\u00e9` unpredictably, so both readings are made and one is chosen
/// without a branch; only a surrogate or a bad escape takes [`escape`]'s way.
#[inline]
fn escape_end(bytes: &[u8], at: usize) -> Result<usize, Refused> {
    let letter = *bytes.get(at + 1).ok_or(Refused)?;
    let digits = bytes
        .get(at + 2..at + 6)
        .and_then(|digits| <[u8; 4]>::try_from(digits).ok())
        .unwrap_or([b'x'; 4]);
    let (value, not_hex) = digits.iter().fold((0u32, 0u8), |(value, not_hex), &digit| {
        let digit = hex_digit(digit);
        (value << 4 | u32::from(digit), not_hex | digit)
    });
    let unicode = letter == b'u';
    let plain = not_hex < 16 && !(0xD800..=0xDFFF).contains(&value);
    if unicode && !plain {
        return unicode_escape(bytes, at).map(|(_, end)| end);
    }
    if !unicode
        && !SIMPLE_ESCAPES
            .get(usize::from(letter))
            .is_some_and(|&simple| simple)
    {
        return Err(Refused);
    }
    Ok(at + if unicode { 6 } else { 2 })
}

/// The value of a hexadecimal digit, or 16 and up for any other byte.
#[inline]
fn hex_digit(byte: u8) -> u8 {
    HEX_DIGITS.get(usize::from(byte)).copied().unwrap_or(0xF0)
}

/// Whether `\<letter>` is an escape of its own (every one but `\u`).
#[allow(
    clippy::indexing_slicing,
    reason = "evaluated at compile time, where an index out of range fails the build"
)]
const SIMPLE_ESCAPES: [bool; 256] = {
    let mut table = [false; 256];
    let mut letter = 0;
    while letter < 256 {
        table[letter] = simple_escape(letter as u8).is_some();
        letter += 1;
    }
    table
};

/// Each byte's value as a hexadecimal digit, or 16 and up for none.
#[allow(
    clippy::indexing_slicing,
    reason = "evaluated at compile time, where an index out of range fails the build"
)]
const HEX_DIGITS: [u8; 256] = {
    let mut table = [0xF0; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = match byte as u8 {
            digit @ b'0'..=b'9' => digit - b'0',
            letter @ b'a'..=b'f' => letter - b'a' + 10,
            letter @ b'A'..=b'F' => letter - b'A' + 10,
            _ => 0xF0,
        };
        byte += 1;
    }
    table
};

/// What the escape `\<letter>` stands for, `u` aside.
const fn simple_escape(letter: u8) -> Option<char> {
    Some(match letter {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        _ => return None,
    })
}

/// The `\uXXXX` escape (or surrogate pair of them) whose backslash is at `at`.
fn unicode_escape(bytes: &[u8], at: usize) -> Result<(char, usize), Refused> {
    let first = hex(bytes, at + 2)?;
    if !(0xD800..=0xDFFF).contains(&first) {
        return char::from_u32(first)
            .map(|character| (character, at + 6))
            .ok_or(Refused);
    }
    if first >= 0xDC00 || bytes.get(at + 6..at + 8) != Some(b"\\u") {
        return Err(Refused);
    }
    let second = hex(bytes, at + 8)?;
    if !(0xDC00..=0xDFFF).contains(&second) {
        return Err(Refused);
    }
    let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
    char::from_u32(code)
        .map(|character| (character, at + 12))
        .ok_or(Refused)
}

/// The four hexadecimal digits from `at`.
fn hex(bytes: &[u8], at: usize) -> Result<u32, Refused> {
    let digits = bytes.get(at..at + 4).ok_or(Refused)?;
    digits.iter().try_fold(0u32, |value, &digit| {
        let digit = hex_digit(digit);
        if digit < 16 {
            Ok(value << 4 | u32::from(digit))
        } else {
            Err(Refused)
        }
    })
}

impl<'de> de::Deserializer<'de> for &mut Reader<'de> {
    type Error = Refused;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.value(visitor, false)
    }

    /// The visitor does not read string contents: strings come raw.
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.value(visitor, true)
    }

    /// [`RawSeed`]'s request: the next value's raw text, checked as
    /// `deserialize_ignored_any` checks it. Any other newtype is its content.
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Refused> {
        if name != RAW {
            return visitor.visit_newtype_struct(self);
        }
        let start = match self.peek() {
            Some(_) => self.at,
            None => return Err(Refused),
        };
        self.value(de::IgnoredAny, true)?;
        let raw = self.text.get(start..self.at).ok_or(Refused)?;
        visitor.visit_borrowed_str(raw)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct seq tuple
        tuple_struct map struct enum identifier
    }
}

/// The members of an object, as `serde_json` reads them: a name that is a
/// string, a colon, a value; commas between, none trailing.
struct Members<'a, 'de> {
    reader: &'a mut Reader<'de>,
    first: bool,
}

impl<'de> MapAccess<'de> for Members<'_, 'de> {
    type Error = Refused;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Refused> {
        if !next(self.reader, &mut self.first, b'}')? {
            return Ok(None);
        }
        if self.reader.peek() != Some(b'"') {
            return Err(Refused);
        }
        seed.deserialize(&mut *self.reader).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Refused> {
        if self.reader.peek() != Some(b':') {
            return Err(Refused);
        }
        self.reader.at += 1;
        seed.deserialize(&mut *self.reader)
    }
}

/// The items of an array: values with commas between, none trailing.
struct Items<'a, 'de> {
    reader: &'a mut Reader<'de>,
    first: bool,
}

impl<'de> SeqAccess<'de> for Items<'_, 'de> {
    type Error = Refused;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Refused> {
        if !next(self.reader, &mut self.first, b']')? {
            return Ok(None);
        }
        seed.deserialize(&mut *self.reader).map(Some)
    }
}

/// Whether another member or item follows in a container that `end` closes
/// (consuming the comma before it); the closing bracket is left for the
/// container's reader.
fn next(reader: &mut Reader<'_>, first: &mut bool, end: u8) -> Result<bool, Refused> {
    match reader.peek() {
        Some(byte) if byte == end => Ok(false),
        Some(b',') if !*first => {
            reader.at += 1;
            match reader.peek() {
                Some(byte) if byte == end => Err(Refused),
                Some(_) => Ok(true),
                None => Err(Refused),
            }
        }
        Some(_) if *first => {
            *first = false;
            Ok(true)
        }
        _ => Err(Refused),
    }
}

/// Reads the next value's raw text (checked, strings not unescaped), as the
/// members of a union read before its tag are kept.
#[derive(Clone, Copy)]
pub(crate) struct RawSeed;

impl<'de> DeserializeSeed<'de> for RawSeed {
    type Value = &'de str;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<&'de str, D::Error> {
        deserializer.deserialize_newtype_struct(RAW, RawVisitor)
    }
}

struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = &'de str;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a value's raw text")
    }

    fn visit_borrowed_str<E: de::Error>(self, raw: &'de str) -> Result<&'de str, E> {
        Ok(raw)
    }
}
