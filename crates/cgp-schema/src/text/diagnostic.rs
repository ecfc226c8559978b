//! Diagnostics: one problem, located in a file.
//!
//! Every error the library reports about something a user wrote (a schema file,
//! SPEC.md, a transcript) is a [`Diagnostic`], printed as
//! `file:line:column: message` so editors and CI annotations can jump to it.

use crate::json_text::Position;
use std::fmt;

/// One problem, with where it is.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Diagnostic {
    /// The file, as shown to the user (relative to the workspace root when possible).
    pub file: String,
    /// Where in the file, when known. A column of 0 means "the whole line" and is
    /// not printed.
    pub position: Option<Position>,
    /// The JSON pointer inside the file's JSON document, when the problem is in one.
    pub pointer: Option<String>,
    /// What is wrong and, where it helps, what was expected.
    pub message: String,
}

impl Diagnostic {
    /// A problem with a whole file (it cannot be read, it is missing, ...).
    pub fn file(file: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            file: file.into(),
            position: None,
            pointer: None,
            message: message.into(),
        }
    }

    /// A problem at a position in a file.
    pub fn at(
        file: impl Into<String>,
        position: Position,
        pointer: Option<String>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            file: file.into(),
            position: Some(position),
            pointer,
            message: message.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(position) = self.position {
            write!(f, ":{}", position.line)?;
            if position.column > 0 {
                write!(f, ":{}", position.column)?;
            }
        }
        write!(f, ": ")?;
        if let Some(pointer) = &self.pointer {
            let shown = if pointer.is_empty() { "/" } else { pointer };
            write!(f, "{shown}: ")?;
        }
        write!(f, "{}", self.message)
    }
}

/// A non-empty list of diagnostics, returned when a whole step fails.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// One diagnostic.
    pub fn one(diagnostic: Diagnostic) -> Self {
        Self(vec![diagnostic])
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, diagnostic) in self.0.iter().enumerate() {
            if index > 0 {
                writeln!(f)?;
            }
            write!(f, "{diagnostic}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

impl From<Diagnostic> for Diagnostics {
    fn from(diagnostic: Diagnostic) -> Self {
        Self::one(diagnostic)
    }
}
