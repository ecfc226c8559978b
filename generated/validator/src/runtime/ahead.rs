//! Reading a message's tag ahead: SDKs often write the tag after other
//! members (alphabetical order puts `"type"` last), and a check that knows the
//! branch from the start reads every member once, where one that meets the tag
//! late keeps the members before it as text and parses them again.
//!
//! The look is a skim of the raw text that trusts it to be JSON: it only
//! proposes a branch. [`super::check_text`] accepts the message only when the
//! check of that branch accepts it, the tag included as one of its members (so
//! exactly one top-level member is the tag, and its value is the branch's);
//! otherwise it decides with the check that reads the tag where it stands.
//
// This file is copied verbatim by `cargo xtask codegen` from
// crates/cgp-codegen/templates/validator/runtime/ahead.rs. Do not edit it here.

use super::Union;

/// The branch named by the first top-level member called `U::TAG` in the
/// object `text` holds, when its name and value are strings without escapes.
pub(crate) fn tag_ahead<U: Union>(text: &str) -> Option<u32> {
    let bytes = text.as_bytes();
    let mut at = space(bytes, 0);
    if bytes.get(at) != Some(&b'{') {
        return None;
    }
    at += 1;
    loop {
        at = space(bytes, at);
        if bytes.get(at) != Some(&b'"') {
            return None;
        }
        let end = string_end(bytes, at + 1)?;
        let name = bytes.get(at + 1..end)?;
        at = space(bytes, end + 1);
        if bytes.get(at) != Some(&b':') {
            return None;
        }
        at = space(bytes, at + 1);
        if name == U::TAG.as_bytes() {
            if bytes.get(at) != Some(&b'"') {
                return None;
            }
            let end = string_end(bytes, at + 1)?;
            return U::branch(text.get(at + 1..end)?);
        }
        at = space(bytes, value_end(bytes, at)?);
        if bytes.get(at) != Some(&b',') {
            return None;
        }
        at += 1;
    }
}

/// The first position from `at` that is not JSON whitespace.
fn space(bytes: &[u8], mut at: usize) -> usize {
    while matches!(bytes.get(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}

/// The position of the quote that closes a string whose content starts at
/// `at`: the first quote not escaped by an odd run of backslashes.
fn string_end(bytes: &[u8], mut at: usize) -> Option<usize> {
    loop {
        let quote = at + memchr::memchr(b'"', bytes.get(at..)?)?;
        let backslashes = bytes
            .get(..quote)?
            .iter()
            .rev()
            .take_while(|&&byte| byte == b'\\')
            .count();
        if backslashes % 2 == 0 {
            return Some(quote);
        }
        at = quote + 1;
    }
}

/// The position just after the value that starts at `at`.
fn value_end(bytes: &[u8], mut at: usize) -> Option<usize> {
    match bytes.get(at)? {
        b'"' => return string_end(bytes, at + 1).map(|end| end + 1),
        b'{' | b'[' => {}
        _ => {
            while !matches!(
                bytes.get(at),
                None | Some(b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
            ) {
                at += 1;
            }
            return Some(at);
        }
    }
    let mut depth = 0usize;
    loop {
        match bytes.get(at)? {
            b'"' => at = string_end(bytes, at + 1)?,
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(at + 1);
                }
            }
            _ => {}
        }
        at += 1;
    }
}
