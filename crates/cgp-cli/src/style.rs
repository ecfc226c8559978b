//! Terminal colours: on only when the stream is a terminal and `NO_COLOR` is
//! unset or empty (<https://no-color.org>).

use std::io::IsTerminal;

/// Whether to colour output, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    colour: bool,
}

impl Style {
    /// Colours for a stream that is (or is not) a terminal.
    pub fn detect(stream: &impl IsTerminal) -> Self {
        let disabled = std::env::var_os("NO_COLOR").is_some_and(|value| !value.is_empty());
        Style {
            colour: stream.is_terminal() && !disabled,
        }
    }

    /// No colours.
    pub fn plain() -> Self {
        Style { colour: false }
    }

    fn paint(self, code: &str, text: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    /// A location (`file:line:col:`).
    pub fn location(self, text: &str) -> String {
        self.paint("1", text)
    }

    /// A variant name.
    pub fn variant(self, text: &str) -> String {
        self.paint("36", text)
    }

    /// A JSON pointer.
    pub fn pointer(self, text: &str) -> String {
        self.paint("33", text)
    }

    /// Secondary text (schema pointers, rule ids).
    pub fn dim(self, text: &str) -> String {
        self.paint("2", text)
    }

    /// Something that failed.
    pub fn bad(self, text: &str) -> String {
        self.paint("1;31", text)
    }

    /// A warning.
    pub fn warn(self, text: &str) -> String {
        self.paint("1;33", text)
    }

    /// Something that passed.
    pub fn good(self, text: &str) -> String {
        self.paint("1;32", text)
    }
}

/// `text` with control characters escaped (`\u{1b}` becomes `\u001b`), so what a
/// peer wrote cannot drive the terminal.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(printable("a\u{1b}[2Jb\n"), "a\\u001b[2Jb\\u000a");
        assert!(matches!(
            printable("plain é"),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}
