//! Loading the hand-authored schemas under `schema/` into a checked [`SchemaSet`].
//!
//! Loading reads local files only. It checks what a JSON Schema validator would
//! let through silently: unknown keywords, `$ref`s that point nowhere or outside
//! `schema/`, `$id`s that disagree with the file's place, and the `x-cgp-*`
//! annotations the rest of the toolchain relies on (SPEC.md §Schema annotations).
//! Every problem is reported with its file, line and column; all of them are
//! collected before loading fails.

use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::json_text::{self, Document, Position};
use crate::keywords::{self, DRAFT_2020_12};
use crate::model::{Emit, parse_direction};
use crate::version::{self, ProtocolVersion};
use cgp_types::Direction;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The file that lists the envelope variants and declares the protocol version.
pub const ENVELOPE_FILE: &str = "envelope.schema.json";

/// The suffix every source schema file has.
pub const SCHEMA_SUFFIX: &str = ".schema.json";

/// The values `x-cgp-emit` may take, for messages.
fn emit_rules() -> String {
    Emit::ALL.map(Emit::as_str).join(", ")
}

/// The values `x-cgp-direction` may take, for messages.
fn directions() -> String {
    [Direction::HostToProvider, Direction::ProviderToHost]
        .map(Direction::as_str)
        .join(", ")
}

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
    pub fn is_variant(&self, path: &str) -> bool {
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
    pub fn resolve(&self, from: &str, reference: &str) -> Result<Target, String> {
        resolve_reference(&self.id_base, from, reference, |path| self.files.get(path))
    }
}

fn string_member<'m>(map: &'m Map<String, Value>, key: &str) -> Option<&'m str> {
    map.get(key).and_then(Value::as_str)
}

/// Resolves `reference`, written in the file at `from`, to a file and pointer.
fn resolve_reference<'f>(
    id_base: &str,
    from: &str,
    reference: &str,
    lookup: impl Fn(&str) -> Option<&'f SchemaFile>,
) -> Result<Target, String> {
    let (location, fragment) = reference.split_once('#').unwrap_or((reference, ""));
    if !fragment.is_empty() && !fragment.starts_with('/') {
        return Err(format!(
            "`$ref` `{reference}` uses a plain-name fragment; only JSON pointer fragments (`#/…`) are supported"
        ));
    }
    let path = if location.is_empty() {
        from.to_owned()
    } else if has_scheme(location) {
        match location.strip_prefix(id_base) {
            Some(rest) => normalise_path("", rest)
                .ok_or_else(|| format!("`$ref` `{reference}` leaves the schema root"))?,
            None => {
                return Err(format!(
                    "`$ref` `{reference}` points outside this schema set; references resolve from local files under the schema root only and are never fetched"
                ));
            }
        }
    } else if location.starts_with('/') || location.starts_with("//") {
        return Err(format!(
            "`$ref` `{reference}` is an absolute path; write it relative to the referring file"
        ));
    } else {
        let directory = from.rsplit_once('/').map_or("", |(dir, _)| dir);
        normalise_path(directory, location).ok_or_else(|| {
            format!("`$ref` `{reference}` leaves the schema root (too many `../`)")
        })?
    };
    let target = lookup(&path).ok_or_else(|| {
        format!(
            "`$ref` `{reference}` names `{path}`, which is not a schema file under the schema root"
        )
    })?;
    let pointer = percent_decode(fragment);
    if target.document.position(&pointer).is_none() {
        return Err(format!(
            "`$ref` `{reference}`: `{path}` has nothing at `{pointer}`"
        ));
    }
    Ok(Target { path, pointer })
}

fn has_scheme(location: &str) -> bool {
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

/// The largest schema or bundle file read: far above any real one (the published
/// bundles are about 50 KB), and it keeps a hostile file from taking the memory.
pub const MAX_SCHEMA_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Reads a schema or bundle file of at most [`MAX_SCHEMA_FILE_BYTES`]. Anything but
/// a regular file (a pipe, which may never end; `/dev/zero`) is refused unread.
pub fn read_bounded(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let regular = |metadata: std::fs::Metadata| {
        if metadata.is_dir() {
            Err(std::io::Error::other("it is a directory"))
        } else if metadata.is_file() {
            Ok(())
        } else {
            Err(std::io::Error::other(
                "not a regular file (a pipe, a socket or a device)",
            ))
        }
    };
    // Looked at before opening too: opening a pipe waits for a writer.
    regular(std::fs::metadata(path)?)?;
    let file = std::fs::File::open(path)?;
    regular(file.metadata()?)?;
    let mut bytes = Vec::new();
    file.take(MAX_SCHEMA_FILE_BYTES + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_SCHEMA_FILE_BYTES {
        return Err(std::io::Error::other(format!(
            "larger than {MAX_SCHEMA_FILE_BYTES} bytes, the most a schema file may have"
        )));
    }
    Ok(bytes)
}

/// [`read_bounded`], as UTF-8 text.
pub fn read_text_bounded(path: &Path) -> std::io::Result<String> {
    String::from_utf8(read_bounded(path)?)
        .map_err(|error| std::io::Error::new(std::io::ErrorKind::InvalidData, error))
}

/// Reads every schema file under `dir`, sorted by path. Symlinks are refused (a
/// link may leave the tree or loop); files that are not `*.schema.json` are
/// refused too, so a misnamed schema is never silently skipped.
pub fn read_schema_dir(
    dir: &Path,
    display_root: &str,
) -> Result<Vec<(String, String)>, Diagnostics> {
    let mut sources = Vec::new();
    let mut problems = Vec::new();
    let mut pending = vec![String::new()];
    while let Some(relative_dir) = pending.pop() {
        let on_disk = if relative_dir.is_empty() {
            dir.to_path_buf()
        } else {
            dir.join(&relative_dir)
        };
        let shown_dir = join(display_root, &relative_dir);
        let entries = match std::fs::read_dir(&on_disk) {
            Ok(entries) => entries,
            Err(error) => {
                problems.push(Diagnostic::file(
                    shown_dir,
                    format!("cannot read the directory: {error}"),
                ));
                continue;
            }
        };
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(error) => {
                    problems.push(Diagnostic::file(
                        &shown_dir,
                        format!("cannot list the directory: {error}"),
                    ));
                    continue;
                }
            };
            let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
                problems.push(Diagnostic::file(
                    &shown_dir,
                    format!("file name {:?} is not UTF-8", entry.file_name()),
                ));
                continue;
            };
            if name.starts_with('.') {
                continue;
            }
            let relative = join(&relative_dir, &name);
            let shown = join(display_root, &relative);
            let kind = match entry.path().symlink_metadata() {
                Ok(metadata) => metadata.file_type(),
                Err(error) => {
                    problems.push(Diagnostic::file(shown, format!("cannot inspect: {error}")));
                    continue;
                }
            };
            if kind.is_symlink() {
                problems.push(Diagnostic::file(
                    shown,
                    "is a symbolic link; schema files must be regular files inside the schema root",
                ));
            } else if kind.is_dir() {
                pending.push(relative);
            } else if !name.ends_with(SCHEMA_SUFFIX) {
                problems.push(Diagnostic::file(
                    shown,
                    format!("is not a schema file: every file under the schema root must end in `{SCHEMA_SUFFIX}`"),
                ));
            } else if !kind.is_file() {
                problems.push(Diagnostic::file(
                    shown,
                    "is not a regular file (a pipe, a socket or a device); schema files must be regular files",
                ));
            } else {
                match read_bounded(&entry.path()) {
                    Ok(bytes) => match String::from_utf8(bytes) {
                        Ok(text) => sources.push((relative, text)),
                        Err(error) => problems.push(Diagnostic::file(
                            shown,
                            format!(
                                "is not valid UTF-8 (first bad byte at offset {})",
                                error.utf8_error().valid_up_to()
                            ),
                        )),
                    },
                    Err(error) => {
                        problems.push(Diagnostic::file(shown, format!("cannot read: {error}")))
                    }
                }
            }
        }
    }
    if problems.is_empty() {
        sources.sort();
        Ok(sources)
    } else {
        problems.sort();
        Err(Diagnostics(problems))
    }
}

fn join(left: &str, right: &str) -> String {
    match (left.is_empty(), right.is_empty()) {
        (true, _) => right.to_owned(),
        (_, true) => left.to_owned(),
        _ => format!("{left}/{right}"),
    }
}

struct Checker<'d> {
    display_root: &'d str,
    problems: Vec<Diagnostic>,
}

impl Checker<'_> {
    fn at(&mut self, file: &SchemaFile, pointer: &str, message: impl Into<String>) {
        self.problems.push(Diagnostic::at(
            format!("{}/{}", self.display_root, file.path),
            file.document.nearest_position(pointer),
            Some(pointer.to_owned()),
            message,
        ));
    }

    fn at_name(&mut self, file: &SchemaFile, pointer: &str, message: impl Into<String>) {
        let position = file
            .document
            .name_position(pointer)
            .unwrap_or_else(|| file.document.nearest_position(pointer));
        self.problems.push(Diagnostic::at(
            format!("{}/{}", self.display_root, file.path),
            position,
            Some(pointer.to_owned()),
            message,
        ));
    }

    /// Reads the envelope: the declared version, the `$id` base and the variants.
    fn envelope(
        &mut self,
        files: &BTreeMap<String, SchemaFile>,
    ) -> Result<(ProtocolVersion, String, Vec<VariantSource>), Diagnostics> {
        let shown = format!("{}/{ENVELOPE_FILE}", self.display_root);
        let Some(envelope) = files.get(ENVELOPE_FILE) else {
            return Err(Diagnostic::file(
                shown,
                "is missing: it lists the envelope variants and declares the protocol version",
            )
            .into());
        };
        let root = envelope.root();
        let fail = |pointer: &str, message: String| -> Diagnostics {
            Diagnostic::at(
                shown.clone(),
                envelope.document.nearest_position(pointer),
                Some(pointer.to_owned()),
                message,
            )
            .into()
        };
        let declared = string_member(root, "x-cgp-protocol-version").ok_or_else(|| {
            fail(
                "",
                "the envelope must declare the protocol version in `x-cgp-protocol-version`".into(),
            )
        })?;
        let version: ProtocolVersion =
            declared.parse().map_err(|error: version::VersionError| {
                fail("/x-cgp-protocol-version", error.to_string())
            })?;
        let id = string_member(root, "$id")
            .ok_or_else(|| fail("", "the envelope has no `$id`".into()))?;
        let id_base = id
            .strip_suffix(ENVELOPE_FILE)
            .filter(|base| base.ends_with('/') && has_scheme(base))
            .ok_or_else(|| {
                fail(
                    "/$id",
                    format!(
                        "the envelope `$id` must be an absolute URI ending in `/{ENVELOPE_FILE}`"
                    ),
                )
            })?
            .to_owned();
        let family_segment = format!("/{}/", version.family_slug());
        if !id_base.ends_with(&family_segment) {
            return Err(fail(
                "/$id",
                format!(
                    "the envelope `$id` must end in `{family_segment}{ENVELOPE_FILE}`: `$id`s carry the major family of the declared version {version}"
                ),
            ));
        }
        let Some(Value::Array(branches)) = root.get("oneOf") else {
            return Err(fail(
                "",
                "the envelope must list its variants in `oneOf`".into(),
            ));
        };
        let mut variants = Vec::new();
        let mut problems = Vec::new();
        for (index, branch) in branches.iter().enumerate() {
            let pointer = format!("/oneOf/{index}");
            let reference = branch.get("$ref").and_then(Value::as_str);
            let only_ref = branch.as_object().is_some_and(|map| map.len() == 1);
            let Some(reference) = reference.filter(|_| only_ref) else {
                problems.push(Diagnostic::at(
                    shown.clone(),
                    envelope.document.nearest_position(&pointer),
                    Some(pointer),
                    "each envelope branch must be exactly `{\"$ref\": \"variants/<name>.schema.json\"}`",
                ));
                continue;
            };
            match resolve_reference(&id_base, ENVELOPE_FILE, reference, |path| files.get(path)) {
                Ok(target) if target.pointer.is_empty() => {
                    let tag = files
                        .get(&target.path)
                        .and_then(|file| file.document.value.pointer("/properties/type/const"))
                        .and_then(Value::as_str);
                    match tag {
                        Some(tag) => variants.push(VariantSource {
                            tag: tag.to_owned(),
                            path: target.path,
                        }),
                        None => problems.push(Diagnostic::at(
                            format!("{}/{}", self.display_root, target.path),
                            Position { line: 1, column: 1 },
                            Some("/properties/type/const".into()),
                            "a variant must fix its tag with `\"type\": {\"const\": \"<tag>\"}`",
                        )),
                    }
                }
                Ok(_) => problems.push(Diagnostic::at(
                    shown.clone(),
                    envelope.document.nearest_position(&pointer),
                    Some(pointer),
                    "an envelope branch must reference a whole variant file, not a part of one",
                )),
                Err(message) => problems.push(Diagnostic::at(
                    shown.clone(),
                    envelope.document.nearest_position(&pointer),
                    Some(format!("{pointer}/$ref")),
                    message,
                )),
            }
        }
        if problems.is_empty() {
            Ok((version, id_base, variants))
        } else {
            Err(Diagnostics(problems))
        }
    }

    fn files(&mut self, set: &SchemaSet) {
        let mut titles: BTreeMap<&str, &str> = BTreeMap::new();
        let mut tags = BTreeSet::new();
        for variant in &set.variants {
            if !tags.insert(variant.tag.as_str()) {
                if let Some(file) = set.files.get(&variant.path) {
                    self.at(
                        file,
                        "/properties/type/const",
                        format!("the tag `{}` is used by two variants", variant.tag),
                    );
                }
            }
        }
        let mut referenced = BTreeSet::new();
        for file in set.files.values() {
            self.file_header(set, file);
            if !file.title.is_empty() {
                if let Some(other) = titles.insert(file.title.as_str(), file.path.as_str()) {
                    self.at(file, "/title", format!("the title `{}` is also used by {}/{other}; titles name types and must be unique", file.title, self.display_root));
                }
            }
            self.keywords_and_references(set, file, &mut referenced);
            self.members(set, file);
            if set.is_variant(&file.path) {
                self.variant(file);
            } else if file.path != ENVELOPE_FILE && file.root().contains_key("x-cgp-direction") {
                self.at(
                    file,
                    "/x-cgp-direction",
                    "`x-cgp-direction` belongs on envelope variants only",
                );
            }
            self.vocabulary(file);
        }
        self.reference_cycles(set);
        for file in set.files.values() {
            let reachable = file.path == ENVELOPE_FILE
                || set.is_variant(&file.path)
                || referenced.contains(&file.path);
            if !reachable {
                self.at(
                    file,
                    "",
                    "this file is not referenced from the envelope or from any type it reaches",
                );
            }
        }
    }

    /// A chain of schemas that are nothing but `$ref`s and comes back to where
    /// it started constrains nothing and sends generators round in circles.
    /// (Recursion through members, such as a type that contains itself, is fine.)
    fn reference_cycles(&mut self, set: &SchemaSet) {
        let mut reported = BTreeSet::new();
        for file in set.files.values() {
            let mut starts = Vec::new();
            keywords::walk(&file.document.value, "", &mut |schema, pointer| {
                if pure_reference(schema).is_some() {
                    starts.push(pointer.to_owned());
                }
            });
            for start in starts {
                let mut chain = vec![Target {
                    path: file.path.clone(),
                    pointer: start.clone(),
                }];
                while let Some(current) = chain.last() {
                    let Some(reference) = set
                        .files
                        .get(&current.path)
                        .and_then(|f| f.document.value.pointer(&current.pointer))
                        .and_then(Value::as_object)
                        .and_then(pure_reference)
                    else {
                        break;
                    };
                    let Ok(next) = set.resolve(&current.path, reference) else {
                        break;
                    };
                    if let Some(loop_start) = chain.iter().position(|seen| *seen == next) {
                        let cycle: Vec<Target> =
                            chain.get(loop_start..).unwrap_or_default().to_vec();
                        let key = cycle.iter().min().cloned();
                        if key.is_some_and(|key| reported.insert(key)) {
                            let shown: Vec<String> = cycle
                                .iter()
                                .chain(std::iter::once(&next))
                                .map(|target| format!("{}#{}", target.path, target.pointer))
                                .collect();
                            self.at(
                                file,
                                &format!("{start}/$ref"),
                                format!(
                                    "`$ref` cycle with no schema in between: {}",
                                    shown.join(" -> ")
                                ),
                            );
                        }
                        break;
                    }
                    chain.push(next);
                }
            }
        }
    }

    fn file_header(&mut self, set: &SchemaSet, file: &SchemaFile) {
        let root = file.root();
        if file.document.value.as_object().is_none() {
            self.at(file, "", "a schema file must hold a JSON object");
            return;
        }
        if string_member(root, "$schema") != Some(DRAFT_2020_12) {
            self.at(
                file,
                "/$schema",
                format!("`$schema` must be `{DRAFT_2020_12}`"),
            );
        }
        let expected_id = format!("{}{}", set.id_base, file.path);
        if string_member(root, "$id") != Some(expected_id.as_str()) {
            self.at(file, "/$id", format!("`$id` must be `{expected_id}` (the envelope's `$id` base plus this file's path)"));
        }
        match string_member(root, "title") {
            Some(title) if is_type_name(title) => {}
            Some(title) => self.at(
                file,
                "/title",
                format!("the title `{title}` must be an UpperCamelCase type name"),
            ),
            None => self.at(file, "", "a schema file needs a `title`: it names the type"),
        }
        if string_member(root, "description").is_none_or(str::is_empty) {
            self.at(file, "", "a schema file needs a `description`");
        }
        self.since(set, file, "", root);
        if file.path != ENVELOPE_FILE && root.contains_key("x-cgp-protocol-version") {
            self.at(
                file,
                "/x-cgp-protocol-version",
                format!(
                    "the protocol version is declared in {}/{ENVELOPE_FILE} only",
                    self.display_root
                ),
            );
        }
    }

    fn since(
        &mut self,
        set: &SchemaSet,
        file: &SchemaFile,
        pointer: &str,
        schema: &Map<String, Value>,
    ) {
        let at = format!("{pointer}/x-cgp-since");
        match schema.get("x-cgp-since") {
            None => self.at(file, pointer, "missing `x-cgp-since`: the protocol version that introduced this, e.g. \"1.0\""),
            Some(Value::String(since)) => match version::parse_number(since) {
                Some(number) if number <= set.version.key() && number.0 == set.version.major => {}
                Some(_) => self.at(file, &at, format!("`x-cgp-since` \"{since}\" is not a version of the declared family up to {}", set.version)),
                None => self.at(file, &at, format!("`x-cgp-since` \"{since}\" must be `<major>.<minor>`")),
            },
            Some(_) => self.at(file, &at, "`x-cgp-since` must be a string such as \"1.0\""),
        }
    }

    fn keywords_and_references(
        &mut self,
        set: &SchemaSet,
        file: &SchemaFile,
        referenced: &mut BTreeSet<String>,
    ) {
        let mut found = Vec::new();
        keywords::walk(&file.document.value, "", &mut |schema, pointer| {
            for (keyword, value) in schema {
                let at = format!("{pointer}/{}", json_text::escape_token(keyword));
                if !keywords::is_known(keyword) {
                    let hint = keywords::suggestion(keyword)
                        .map(|known| format!(" (did you mean `{known}`?)"))
                        .unwrap_or_default();
                    found.push((at, false, format!("unknown keyword `{keyword}`{hint}")));
                } else if keyword == "$ref" {
                    match value.as_str() {
                        Some(reference) => match set.resolve(&file.path, reference) {
                            Ok(target) => {
                                if target.path != file.path {
                                    referenced.insert(target.path.clone());
                                }
                                if set.is_variant(&target.path) && file.path != ENVELOPE_FILE {
                                    found.push((at, true, format!("`$ref` `{reference}` points at an envelope variant; variants are listed by the envelope only")));
                                }
                            }
                            Err(message) => found.push((at, true, message)),
                        },
                        None => found.push((at, true, "`$ref` must be a string".into())),
                    }
                } else if keyword == "$id" && !pointer.is_empty() {
                    found.push((
                        at,
                        false,
                        "`$id` is allowed at the root of a file only".into(),
                    ));
                }
            }
        });
        for (pointer, at_value, message) in found {
            if at_value {
                self.at(file, &pointer, message);
            } else {
                self.at_name(file, &pointer, message);
            }
        }
    }

    fn members(&mut self, set: &SchemaSet, file: &SchemaFile) {
        let mut objects = Vec::new();
        keywords::walk(&file.document.value, "", &mut |schema, pointer| {
            if schema.contains_key("properties") || schema.contains_key("required") {
                objects.push((pointer.to_owned(), schema));
            }
        });
        for (pointer, schema) in objects {
            let properties = schema.get("properties").and_then(Value::as_object);
            let required: Vec<&str> = match schema.get("required") {
                None => Vec::new(),
                Some(Value::Array(names)) if names.iter().all(Value::is_string) => {
                    names.iter().filter_map(Value::as_str).collect()
                }
                Some(_) => {
                    self.at(
                        file,
                        &format!("{pointer}/required"),
                        "`required` must be an array of member names",
                    );
                    continue;
                }
            };
            for (index, name) in required.iter().enumerate() {
                if !properties.is_some_and(|props| props.contains_key(*name)) {
                    self.at(
                        file,
                        &format!("{pointer}/required/{index}"),
                        format!("`{name}` is required but not listed in `properties`"),
                    );
                }
            }
            let Some(properties) = properties else {
                continue;
            };
            for (name, member) in properties {
                let at = format!("{pointer}/properties/{}", json_text::escape_token(name));
                let Some(member) = member.as_object() else {
                    self.at(file, &at, "a member schema must be an object");
                    continue;
                };
                self.since(set, file, &at, member);
                if string_member(member, "description").is_none_or(str::is_empty) && name != "type"
                {
                    self.at(file, &at, format!("member `{name}` needs a `description`"));
                }
                let is_required = required.contains(&name.as_str());
                let emit = member.get("x-cgp-emit");
                match (is_required, emit) {
                    (true, None) => {}
                    (true, Some(Value::String(rule))) if rule == "always" => {}
                    (true, Some(_)) => self.at(file, &format!("{at}/x-cgp-emit"), format!("`{name}` is required, so the encoder always writes it; drop `x-cgp-emit` or make it \"always\"")),
                    (false, None) => self.at(file, &at, format!("optional member `{name}` needs `x-cgp-emit` (one of {})", emit_rules())),
                    (false, Some(written)) => match written.as_str().and_then(Emit::parse) {
                        Some(rule) => self.emit_rule(file, &at, name, rule, member),
                        None => self.at(file, &format!("{at}/x-cgp-emit"), format!("`x-cgp-emit` {written} is not one of {}", emit_rules())),
                    },
                }
            }
        }
    }

    fn emit_rule(
        &mut self,
        file: &SchemaFile,
        at: &str,
        name: &str,
        rule: Emit,
        member: &Map<String, Value>,
    ) {
        let is_array = member.get("type").and_then(Value::as_str) == Some("array");
        match rule {
            Emit::OmitIfEmpty if !is_array => self.at(file, &format!("{at}/x-cgp-emit"), format!("`{name}`: \"omit-if-empty\" applies to arrays only")),
            Emit::OmitIfEmpty | Emit::Always if is_array && member.get("default") != Some(&Value::Array(Vec::new())) => {
                self.at(file, at, format!("`{name}`: an optional array the decoder fills in must say `\"default\": []`"));
            }
            Emit::OmitIfDefault if !member.contains_key("default") => self.at(file, &format!("{at}/x-cgp-emit"), format!("`{name}`: \"omit-if-default\" needs a `default`")),
            Emit::OmitIfAbsent if member.contains_key("default") => self.at(file, &format!("{at}/default"), format!("`{name}`: an \"omit-if-absent\" member has no default; absent means absent")),
            Emit::Always if !member.contains_key("default") => self.at(file, at, format!("`{name}`: an optional member the encoder always writes needs the `default` the decoder fills in")),
            _ => {}
        }
    }

    fn variant(&mut self, file: &SchemaFile) {
        let root = file.root();
        match string_member(root, "x-cgp-direction") {
            Some(direction) if parse_direction(direction).is_some() => {}
            Some(other) => self.at(
                file,
                "/x-cgp-direction",
                format!(
                    "`x-cgp-direction` \"{other}\" is not one of {}",
                    directions()
                ),
            ),
            None => self.at(
                file,
                "",
                format!(
                    "a variant needs `x-cgp-direction` (one of {})",
                    directions()
                ),
            ),
        }
        if string_member(root, "type") != Some("object") {
            self.at(file, "", "a variant must be `\"type\": \"object\"`");
        }
        let requires_tag = root
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(|names| names.iter().any(|name| name == "type"));
        if !requires_tag {
            self.at(
                file,
                "/required",
                "a variant must list `type` in `required`",
            );
        }
        for keyword in ["oneOf", "anyOf", "allOf", "$ref"] {
            if root.contains_key(keyword) {
                self.at(file, &format!("/{keyword}"), format!("a variant body must be a plain object schema; `{keyword}` here stops generators from producing a tagged enum"));
            }
        }
    }

    fn vocabulary(&mut self, file: &SchemaFile) {
        let root = file.root();
        let Some(kind) = root.get("x-cgp-vocabulary") else {
            return;
        };
        match kind.as_str() {
            Some("closed") => {
                let values = root.get("enum").and_then(Value::as_array);
                let all_strings = values.is_some_and(|values| {
                    !values.is_empty() && values.iter().all(Value::is_string)
                });
                if string_member(root, "type") != Some("string") || !all_strings {
                    self.at(file, "", "a closed vocabulary is `\"type\": \"string\"` with a non-empty `enum` of strings");
                }
            }
            Some("open") => {
                if let Err(message) =
                    open_vocabulary_values(&file.document.value, &file.document.value)
                {
                    self.at(file, "", message);
                }
            }
            _ => self.at(
                file,
                "/x-cgp-vocabulary",
                "`x-cgp-vocabulary` must be \"open\" or \"closed\"",
            ),
        }
    }
}

/// The known values of an open vocabulary, checking its shape: `oneOf` of a `$ref`
/// to a local closed `enum` of the known values, and `{"type": "string", "not":
/// {"enum": [the same values]}}` for every other string.
/// `root` is the document `#` pointers resolve in: the file itself for a source
/// schema, the whole bundle for a bundled one.
pub fn open_vocabulary_values(schema: &Value, root: &Value) -> Result<Vec<String>, String> {
    let shape = "an open vocabulary is `oneOf: [{\"$ref\": \"#/$defs/Known…\"}, {\"type\": \"string\", \"not\": {\"enum\": [...]}}]` with the known values listed in both places";
    let Some([known_branch, other]) = schema
        .get("oneOf")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
    else {
        return Err(shape.into());
    };
    let known_ref = known_branch
        .get("$ref")
        .and_then(Value::as_str)
        .ok_or(shape)?;
    let known = known_ref
        .strip_prefix('#')
        .and_then(|pointer| root.pointer(pointer))
        .filter(|known| known.get("type").and_then(Value::as_str) == Some("string"))
        .and_then(|known| known.get("enum"))
        .ok_or(shape)?;
    if other.get("type").and_then(Value::as_str) != Some("string") {
        return Err(shape.into());
    }
    let excluded = other.pointer("/not/enum").ok_or(shape)?;
    if known != excluded {
        return Err("an open vocabulary must exclude exactly its known values in `not.enum`, in the same order".into());
    }
    known
        .as_array()
        .filter(|values| !values.is_empty())
        .and_then(|values| {
            values
                .iter()
                .map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .ok_or_else(|| "the known values must be a non-empty list of strings".into())
}

/// The `$ref` of a schema that is nothing but a reference (plus annotations).
pub(crate) fn pure_reference(schema: &Map<String, Value>) -> Option<&str> {
    let reference = schema.get("$ref")?.as_str()?;
    let annotations_only = schema.keys().all(|keyword| {
        keyword == "$ref"
            || keyword.starts_with("x-cgp-")
            || matches!(
                keyword.as_str(),
                "$schema"
                    | "$id"
                    | "$comment"
                    | "$defs"
                    | "title"
                    | "description"
                    | "examples"
                    | "default"
                    | "deprecated"
            )
    });
    annotations_only.then_some(reference)
}

fn is_type_name(title: &str) -> bool {
    title.starts_with(|c: char| c.is_ascii_uppercase())
        && title.chars().all(|c| c.is_ascii_alphanumeric())
}
