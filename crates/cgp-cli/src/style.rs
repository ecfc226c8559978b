//! Terminal colours. `--color auto|always|never` sets the choice for the whole
//! run; in `auto`, anstream decides per stream: colour only on a terminal,
//! never with `NO_COLOR` set (non-empty, <https://no-color.org>), always with
//! `CLICOLOR_FORCE` set (<https://bixense.com/clicolors/>).

use anstream::ColorChoice;
use anstream::stream::RawStream;
use anstyle::{AnsiColor, Effects};

/// The `--color` choice every subcommand takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorArg {
    /// Colour on a terminal, unless `NO_COLOR` is set (or `CLICOLOR_FORCE` forces it).
    #[default]
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

impl ColorArg {
    /// Makes this the choice of every stream of the process.
    pub fn apply(self) {
        match self {
            ColorArg::Auto => ColorChoice::Auto,
            ColorArg::Always => ColorChoice::AlwaysAnsi,
            ColorArg::Never => ColorChoice::Never,
        }
        .write_global();
    }
}

/// Whether to colour output, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    colour: bool,
}

impl Style {
    /// Colours for `stream`, by the global `--color` choice and, in `auto`, by
    /// whether the stream is a terminal and the environment.
    pub fn detect<S: RawStream>(stream: &S) -> Self {
        Style {
            colour: anstream::AutoStream::choice(stream) != ColorChoice::Never,
        }
    }

    /// No colours.
    pub fn plain() -> Self {
        Style { colour: false }
    }

    fn paint(self, style: anstyle::Style, text: &str) -> String {
        if self.colour {
            format!("{style}{text}{style:#}")
        } else {
            text.to_owned()
        }
    }

    /// A location (`file:line:col:`).
    pub fn location(self, text: &str) -> String {
        self.paint(Effects::BOLD.into(), text)
    }

    /// A variant name.
    pub fn variant(self, text: &str) -> String {
        self.paint(AnsiColor::Cyan.on_default(), text)
    }

    /// A JSON pointer.
    pub fn pointer(self, text: &str) -> String {
        self.paint(AnsiColor::Yellow.on_default(), text)
    }

    /// Secondary text (schema pointers, rule ids).
    pub fn dim(self, text: &str) -> String {
        self.paint(Effects::DIMMED.into(), text)
    }

    /// Something that failed.
    pub fn bad(self, text: &str) -> String {
        self.paint(AnsiColor::Red.on_default().bold(), text)
    }

    /// A warning.
    pub fn warn(self, text: &str) -> String {
        self.paint(AnsiColor::Yellow.on_default().bold(), text)
    }

    /// Something that passed.
    pub fn good(self, text: &str) -> String {
        self.paint(AnsiColor::Green.on_default().bold(), text)
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
