//! Loading the hand-authored schemas under `schema/` into a checked [`SchemaSet`].
//!
//! Loading reads local files only. It checks what a JSON Schema validator would
//! let through silently: unknown keywords, `$ref`s that point nowhere or outside
//! `schema/`, `$id`s that disagree with the file's place, and the `x-cgp-*`
//! annotations the rest of the toolchain relies on (SPEC.md §Schema annotations).
//! Every problem is reported with its file, line and column; all of them are
//! collected before loading fails.
//! - `files`: reading the schema directory, bounded and regular files only.
//! - `lints`: the checks of each file and annotation.

mod files;
mod lints;
mod vocabulary;

pub use files::{
    MAX_SCHEMA_FILE_BYTES, read_bounded, read_regular_file, read_schema_dir, read_text_bounded,
};
pub use lints::pure_reference;

use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::json_text::{self, Document, Position};
use crate::version::ProtocolVersion;
use lints::Checker;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::Path;

/// The file that lists the envelope variants and declares the protocol version.
pub const ENVELOPE_FILE: &str = "envelope.schema.json";

/// The suffix every source schema file has.
pub const SCHEMA_SUFFIX: &str = ".schema.json";

/// One source schema file.
#[derive(Debug, Clone)]
pub struct SchemaFile {
    /// The path relative to the schema root, with `/` separators.
    pub path: String,
    /// Its `$id`.
    pub id: String,
    /// Its `title`: the name of the type it defines.
    pub title: String,
    /// The parsed document with positions.
    pub document: Document,
}

impl SchemaFile {
    /// The document's root object.
    pub fn root(&self) -> &Map<String, Value> {
        static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
        self.document
            .value
            .as_object()
            .unwrap_or_else(|| EMPTY.get_or_init(Map::new))
    }
}

/// One envelope variant: its tag and the file that describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantSource {
    /// The `type` tag, e.g. `handshake_ack`.
    pub tag: String,
    /// The variant file's path relative to the schema root.
    pub path: String,
}

/// A reference target: a file and a JSON pointer inside it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Target {
    /// The target file, relative to the schema root.
    pub path: String,
    /// The JSON pointer inside it (`""` for the whole file).
    pub pointer: String,
}

/// The loaded, checked source schemas.
#[derive(Debug, Clone)]
pub struct SchemaSet {
    /// How the schema root is shown in diagnostics, e.g. `schema`.
    pub display_root: String,
    /// The protocol version declared by `x-cgp-protocol-version`.
    pub version: ProtocolVersion,
    /// The `$id` prefix every file's `$id` extends.
    pub id_base: String,
    /// The files, sorted by path.
    pub files: BTreeMap<String, SchemaFile>,
    /// The variants, in the order the envelope lists them.
    pub variants: Vec<VariantSource>,
}

impl SchemaSet {
    /// Reads and checks every `*.schema.json` under `dir`. `display_root` is how the
    /// directory is named in diagnostics (e.g. `schema`).
    pub fn load(dir: &Path, display_root: &str) -> Result<Self, Diagnostics> {
        let sources = read_schema_dir(dir, display_root)?;
        Self::from_sources(display_root, sources)
    }

    /// Checks schema sources given as `(relative path, text)` pairs.
    pub fn from_sources(
        display_root: &str,
        sources: Vec<(String, String)>,
    ) -> Result<Self, Diagnostics> {
        let mut problems = Vec::new();
        let mut files = BTreeMap::new();
        for (path, text) in sources {
            let shown = format!("{display_root}/{path}");
            match json_text::parse_named(&shown, &text) {
                Ok(document) => {
                    files.insert(
                        path.clone(),
                        SchemaFile {
                            path,
                            id: String::new(),
                            title: String::new(),
                            document,
                        },
                    );
                }
                Err(problem) => problems.push(problem),
            }
        }
        if !problems.is_empty() {
            return Err(Diagnostics(problems));
        }
        let mut checker = Checker {
            display_root,
            problems: Vec::new(),
        };
        let (version, id_base, variants) = checker.envelope(&files)?;
        for file in files.values_mut() {
            file.id = string_member(file.root(), "$id")
                .unwrap_or_default()
                .to_owned();
            file.title = string_member(file.root(), "title")
                .unwrap_or_default()
                .to_owned();
        }
        let set = SchemaSet {
            display_root: display_root.to_owned(),
            version,
            id_base,
            files,
            variants,
        };
        checker.files(&set);
        if checker.problems.is_empty() {
            Ok(set)
        } else {
            checker.problems.sort();
            checker.problems.dedup();
            Err(Diagnostics(checker.problems))
        }
    }

    /// How a file is named in diagnostics, e.g. `schema/types/context-query.schema.json`.
    pub fn shown(&self, path: &str) -> String {
        format!("{}/{path}", self.display_root)
    }

    /// The envelope file.
    pub fn envelope(&self) -> Option<&SchemaFile> {
        self.files.get(ENVELOPE_FILE)
    }

    /// Whether `path` is one of the envelope's variant files.
    pub(crate) fn is_variant(&self, path: &str) -> bool {
        self.variants.iter().any(|variant| variant.path == path)
    }

    /// A diagnostic at `pointer` inside the file at `path`.
    pub fn diagnostic_at(
        &self,
        path: &str,
        pointer: &str,
        message: impl Into<String>,
    ) -> Diagnostic {
        let position = self
            .files
            .get(path)
            .map_or(Position { line: 1, column: 1 }, |file| {
                file.document.nearest_position(pointer)
            });
        Diagnostic::at(
            self.shown(path),
            position,
            Some(pointer.to_owned()),
            message,
        )
    }

    /// Resolves a `$ref` written in the file at `from`, reading local files only.
    pub(crate) fn resolve(&self, from: &str, reference: &str) -> Result<Target, RefError> {
        resolve_reference(&self.id_base, from, reference, |path| self.files.get(path))
    }
}

pub(super) fn string_member<'m>(map: &'m Map<String, Value>, key: &str) -> Option<&'m str> {
    map.get(key).and_then(Value::as_str)
}

/// Why a `$ref` does not resolve; the loader reports it at the `$ref`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RefError {
    /// A plain-name fragment (`#name`).
    #[error(
        "`$ref` `{reference}` uses a plain-name fragment; only JSON pointer fragments (`#/…`) are supported"
    )]
    PlainNameFragment {
        /// The `$ref` as written.
        reference: String,
    },
    /// An absolute URI under the id base that climbs out of it.
    #[error("`$ref` `{reference}` leaves the schema root")]
    LeavesRoot {
        /// The `$ref` as written.
        reference: String,
    },
    /// A relative path with more `../` than directories.
    #[error("`$ref` `{reference}` leaves the schema root (too many `../`)")]
    TooManyParents {
        /// The `$ref` as written.
        reference: String,
    },
    /// An absolute URI outside the id base: never fetched.
    #[error(
        "`$ref` `{reference}` points outside this schema set; references resolve from local files under the schema root only and are never fetched"
    )]
    Outside {
        /// The `$ref` as written.
        reference: String,
    },
    /// An absolute path.
    #[error("`$ref` `{reference}` is an absolute path; write it relative to the referring file")]
    AbsolutePath {
        /// The `$ref` as written.
        reference: String,
    },
    /// A path that is no schema file of the set.
    #[error(
        "`$ref` `{reference}` names `{path}`, which is not a schema file under the schema root"
    )]
    NoFile {
        /// The `$ref` as written.
        reference: String,
        /// The path it names, relative to the schema root.
        path: String,
    },
    /// A pointer to nothing in the file it names.
    #[error("`$ref` `{reference}`: `{path}` has nothing at `{pointer}`")]
    NothingAt {
        /// The `$ref` as written.
        reference: String,
        /// The file, relative to the schema root.
        path: String,
        /// The decoded JSON pointer.
        pointer: String,
    },
}

/// Resolves `reference`, written in the file at `from`, to a file and pointer.
pub(super) fn resolve_reference<'f>(
    id_base: &str,
    from: &str,
    reference: &str,
    lookup: impl Fn(&str) -> Option<&'f SchemaFile>,
) -> Result<Target, RefError> {
    let written = || reference.to_owned();
    let (location, fragment) = reference.split_once('#').unwrap_or((reference, ""));
    if !fragment.is_empty() && !fragment.starts_with('/') {
        return Err(RefError::PlainNameFragment {
            reference: written(),
        });
    }
    let path = if location.is_empty() {
        from.to_owned()
    } else if has_scheme(location) {
        match location.strip_prefix(id_base) {
            Some(rest) => normalise_path("", rest).ok_or_else(|| RefError::LeavesRoot {
                reference: written(),
            })?,
            None => {
                return Err(RefError::Outside {
                    reference: written(),
                });
            }
        }
    } else if location.starts_with('/') || location.starts_with("//") {
        return Err(RefError::AbsolutePath {
            reference: written(),
        });
    } else {
        let directory = from.rsplit_once('/').map_or("", |(dir, _)| dir);
        normalise_path(directory, location).ok_or_else(|| RefError::TooManyParents {
            reference: written(),
        })?
    };
    let Some(target) = lookup(&path) else {
        return Err(RefError::NoFile {
            reference: written(),
            path,
        });
    };
    let pointer = percent_decode(fragment);
    if target.document.position(&pointer).is_none() {
        return Err(RefError::NothingAt {
            reference: written(),
            path,
            pointer,
        });
    }
    Ok(Target { path, pointer })
}

pub(super) fn has_scheme(location: &str) -> bool {
    match location.find(':') {
        Some(colon) => {
            let scheme = &location[..colon];
            !scheme.is_empty()
                && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        }
        None => false,
    }
}

fn normalise_path(directory: &str, relative: &str) -> Option<String> {
    let mut segments: Vec<&str> = directory.split('/').filter(|s| !s.is_empty()).collect();
    for segment in relative.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                segments.pop()?;
            }
            other => segments.push(other),
        }
    }
    Some(segments.join("/"))
}

fn percent_decode(fragment: &str) -> String {
    if !fragment.contains('%') {
        return fragment.to_owned();
    }
    let bytes = fragment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while let Some(&byte) = bytes.get(index) {
        let decoded = (byte == b'%')
            .then(|| fragment.get(index + 1..index + 3))
            .flatten()
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match decoded {
            Some(decoded) => {
                out.push(decoded);
                index += 3;
            }
            None => {
                out.push(byte);
                index += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}
