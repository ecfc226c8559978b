//! The one seam every package target goes through: [`Language::ALL`] is the
//! list of targets, and [`Target`] is what each implements
//! ([`crate::packages`] says which generator is each language's).
//!
//! The plan renders every target from one [`Input`]; the vectors copy the
//! conformance cases into each package that tests itself from its own copy;
//! the tests, the bench and the docs iterate [`Language::ALL`] and match on
//! [`Language`] exhaustively, so a new language fails to compile wherever it
//! still needs a case (its harness, its install test, its bench peer).
//! The validator, the docs and the vectors are outputs of the plan, not
//! language targets.

use crate::Files;
use crate::home::Home;
use cgp_schema::ProtocolVersion;
use cgp_schema::bundle::Bundle;
use cgp_schema::diagnostic::{Diagnostic, Diagnostics};
use cgp_schema::model::Protocol;
use std::sync::OnceLock;

/// A language the plan generates a package for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Language {
    /// The typify crate `generated/rust`.
    Rust,
    /// The npm package `generated/typescript`.
    TypeScript,
    /// The Python package `generated/python`.
    Python,
    /// The Go module `generated/go`.
    Go,
    /// The Maven project `generated/java`.
    Java,
}

impl Language {
    /// Every target, in the order the plan renders them (typify first, so a
    /// schema it cannot read is reported in its own words).
    pub const ALL: [Language; 5] = [
        Language::Rust,
        Language::TypeScript,
        Language::Python,
        Language::Go,
        Language::Java,
    ];

    /// The language's name as people write it ("TypeScript").
    pub fn name(self) -> &'static str {
        match self {
            Language::Rust => "Rust",
            Language::TypeScript => "TypeScript",
            Language::Python => "Python",
            Language::Go => "Go",
            Language::Java => "Java",
        }
    }
}

/// Everything a target renders its package from.
pub struct Input<'a> {
    /// The working version.
    pub version: &'a ProtocolVersion,
    /// The working version's interop bundle (typify reads the document).
    pub bundle: &'a Bundle,
    /// The protocol model of [`Input::bundle`], places at the sources.
    pub protocol: &'a Protocol,
    /// The interop bundles of the older published versions, oldest first.
    pub older: &'a [(ProtocolVersion, Bundle)],
    /// The project's public home (module paths, coordinates, links).
    pub home: &'a Home,
    /// A diagnostic at the source behind a bundle pointer.
    pub locate: &'a dyn Fn(&str) -> Diagnostic,
    /// The model checks, run once for every target that needs them.
    checked: OnceLock<Result<(), Diagnostics>>,
}

impl<'a> Input<'a> {
    /// The input of one plan.
    pub fn new(
        version: &'a ProtocolVersion,
        bundle: &'a Bundle,
        protocol: &'a Protocol,
        older: &'a [(ProtocolVersion, Bundle)],
        home: &'a Home,
        locate: &'a dyn Fn(&str) -> Diagnostic,
    ) -> Self {
        Self {
            version,
            bundle,
            protocol,
            older,
            home,
            locate,
            checked: OnceLock::new(),
        }
    }

    /// The model, once it is known every generator can describe it (no
    /// unsupported schema, every default valid): the generators written from
    /// the model read it through here.
    pub fn described(&self) -> Result<&'a Protocol, Diagnostics> {
        self.checked
            .get_or_init(|| {
                self.protocol.check_describable()?;
                self.protocol.check_defaults()
            })
            .clone()
            .map(|()| self.protocol)
    }
}

/// A package the plan generates for one language.
pub trait Target: Sync {
    /// Which language.
    fn language(&self) -> Language;

    /// Where the package goes, relative to the repository root.
    fn dir(&self) -> &'static str;

    /// Every file of the package: path relative to the repository root, and
    /// contents. A schema the package cannot describe is refused at its place
    /// in `schema/` (file, line, column and pointer).
    fn generate(&self, input: &Input<'_>) -> Result<Files, Diagnostics>;

    /// Where the package keeps its own copy of the working version's vectors
    /// (its tests read them there, so a copy of the package alone tests
    /// itself), if it does.
    fn vectors_copy(&self) -> Option<&'static str> {
        None
    }

    /// How a user adds the package to a project: one command, for the docs.
    fn install(&self, home: &Home, version: &ProtocolVersion) -> String;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_has_its_own_target_and_directory() {
        let mut dirs: Vec<&str> = Vec::new();
        for language in Language::ALL {
            let target = language.target();
            assert_eq!(target.language(), language);
            assert!(target.dir().starts_with("generated/"), "{}", target.dir());
            dirs.push(target.dir());
        }
        let count = dirs.len();
        dirs.sort_unstable();
        dirs.dedup();
        assert_eq!(dirs.len(), count, "two targets share a directory");
    }
}
