//! The generator of each language in [`Language::ALL`], and every package
//! rendered from one input. Apart from [`crate::targets`], which the
//! generators implement, so the seam and its implementations import one way.

use crate::Files;
use crate::targets::{Input, Language, Target};
use cgp_schema::diagnostic::Diagnostics;

impl Language {
    /// The generator of this language.
    pub fn target(self) -> &'static dyn Target {
        match self {
            Language::Rust => &crate::rust::RustCrate,
            Language::TypeScript => &crate::typescript::TypeScriptPackage,
            Language::Python => &crate::python::PythonPackage,
            Language::Go => &crate::go::GoModule,
            Language::Java => &crate::java::JavaPackage,
        }
    }
}

/// Every target's files.
pub fn generate_all(input: &Input<'_>) -> Result<Files, Diagnostics> {
    let mut files = Files::new();
    for language in Language::ALL {
        files.extend(language.target().generate(input)?);
    }
    Ok(files)
}
