//! How values appear inside messages: cut to a readable length, bytes as hex.

use serde_json::Value;

/// A JSON value rendered compactly and cut to a readable length.
pub fn short(value: &Value) -> String {
    cut(&value.to_string(), 80)
}

/// `text`, cut to at most `max` bytes on a character boundary, with `…` when cut.
pub fn cut(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max.saturating_sub(3);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", text.get(..end).unwrap_or_default())
}

/// The lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut text, byte| {
            let _ = write!(text, "{byte:02x}");
            text
        })
}
