//! Protocol version changes, rehearsed on a copy of the repository as a
//! maintainer makes them, with the edits ARCHITECTURE.md's recipes list, every
//! kind of change in one minor and one major:
//!
//! 0. the copy starts from whatever the tree holds: a working version not yet
//!    released is released first; then it gets, as a minor that is released,
//!    every kind of change below under the rehearsal's first-choice names, so
//!    that the rehearsal proper runs on a tree that already holds them (a
//!    maintainer who added a `ping` variant by the recipe);
//! 1. the next minor makes every additive kind of change, under names the
//!    schema does not have: a new envelope variant (host to provider, optional
//!    `id`), a new named type reached through a new optional ContextQuery
//!    member, another optional member, a deprecation, a value of an open
//!    vocabulary (FrameKind) and one of a closed vocabulary
//!    (InlineContentRequirement); each with its hand-written Rust, its SPEC.md
//!    text and corpus examples. Unreleased, every gate of `cargo xtask check`
//!    and the copy's whole fast tier (`cargo test --workspace`) pass;
//! 2. `cargo xtask release` (which runs every gate again);
//! 3. the next major makes the breaking kinds: it removes the variant, a
//!    member and the closed value, and retypes the new type's member from a
//!    string to an integer. `set-version` moves SPEC.md's spellings of the
//!    working version; the rehearsal edits only what the recipe "Start a new
//!    major family" lists. Every gate and the whole fast tier pass, unreleased
//!    and again once it is released; CHANGELOG.md names each change by its
//!    rule id;
//! 4. the older family's bundle, embedded copy, docs and generated types still
//!    hold what the major removed, and `cgp` judges by either version (a line
//!    of the removed variant by the older family's schema alone).
//!
//! Fresh names ([`free_name`]) take a letter suffix and must survive every
//! naming scheme: a digit after an underscore (`ping_1`) does not come back
//! from serde's `snake_case` of the Rust variant (`Ping1` is `ping1`).
//!
//! The copy is built by its own cargo in `target/rehearsal/target` (a nested
//! cargo cannot share the running `cargo test`'s build directory: that cargo
//! may hold its lock, and the copy's crates get the same artifact names as the
//! workspace's own, so it would overwrite them). That directory persists, so
//! only the first run builds the registry dependencies; every step shares it.
//! The copy's own `target/` (where a test builds mutated types) persists too.
//!
//! [`VERSION_TESTS`] are the test targets whose outcome depends on which
//! versions exist, which one is working and whether it is released, or on the
//! member the steps add and remove; each step builds them first (and with them
//! the `xtask` and `cgp` binaries it runs), and checks that the fast tier ran
//! them.

mod support;

use cgp_schema::model::pascal_case;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::{Versions, repo};

const QUERY_SCHEMA: &str = "schema/types/context-query.schema.json";
const QUERY_TYPE: &str = "crates/cgp-types/src/query.rs";

/// A member name ContextQuery's schema does not have, so that the rehearsal
/// still adds a new member after a maintainer has added this one for real.
fn free_member(schema: &serde_json::Value) -> String {
    free_name("query_language", |name| {
        schema["properties"].get(name).is_some()
    })
}

/// The hand-written field of `member`.
fn rust_field(member: &str) -> String {
    format!(
        "\n    /// The query language of `query_text`, when it is not plain words.\n    #[serde(default, skip_serializing_if = \"Option::is_none\")]\n    pub {member}: Option<String>,\n"
    )
}

const KIND_SCHEMA: &str = "schema/vocab/frame-kind.schema.json";
const VOCABULARY_TYPES: &str = "crates/cgp-types/src/vocab.rs";

/// Adds a FrameKind value the vocabulary does not have, as the recipe "Add a
/// vocabulary value" does: both lists of the schema, the hand-written enum and
/// a SPEC.md corpus example. Returns the value.
fn add_frame_kind(copy: &Copy) -> String {
    let mut schema = copy.read_json(KIND_SCHEMA);
    let known_list = |schema: &serde_json::Value| -> Vec<String> {
        schema["$defs"]["KnownFrameKind"]["enum"]
            .as_array()
            .expect("the Known list")
            .iter()
            .filter_map(|value| value.as_str().map(str::to_owned))
            .collect()
    };
    let known = known_list(&schema);
    let kind = free_name("bookmark", |kind| known.iter().any(|known| known == kind));
    schema["$defs"]["KnownFrameKind"]["enum"]
        .as_array_mut()
        .expect("the Known list")
        .push(json!(kind));
    let other = schema["oneOf"]
        .as_array_mut()
        .expect("oneOf")
        .iter_mut()
        .find(|branch| branch.get("not").is_some())
        .expect("the Other branch");
    other["not"]["enum"]
        .as_array_mut()
        .expect("the excluded list")
        .push(json!(kind));
    copy.write_json(KIND_SCHEMA, &schema);
    let types = copy.read(VOCABULARY_TYPES);
    let start = types.find("pub enum FrameKind {").expect("FrameKind");
    let end = start + types[start..].find("\n    }\n").expect("the enum's end");
    let variant = pascal_case(&kind);
    let types = format!(
        "{}\n        /// `\"{kind}\"`: a rehearsed kind.\n        {variant} = \"{kind}\",{}",
        &types[..end],
        &types[end..]
    );
    copy.write(VOCABULARY_TYPES, &types);
    let spec = copy.read("SPEC.md");
    copy.write(
        "SPEC.md",
        &format!(
            "{spec}\n```json cgp-example name=frame-kind.rehearsed-{kind} target=FrameKind expect=valid\n\"{kind}\"\n```\n"
        ),
    );
    kind
}

/// The SPEC.md corpus example of `member` (the coverage gate wants one).
fn corpus_example(member: &str) -> String {
    format!(
        "\n```json cgp-example name=context-query.rehearsed-{member} target=ContextQuery expect=valid\n{{\"goal\": \"g\", \"max_frames\": 1, \"max_tokens\": 5, \"{member}\": \"sql\"}}\n```\n"
    )
}

/// The first of `stem`, `stem_b`, `stem_c`, … `stem_z`, `stem_b_b`, … that
/// `taken` does not hold. The suffix is a letter, never a digit: a name must
/// come back unchanged from every case conversion codegen and serde apply
/// (`ping_1` becomes the Rust variant `Ping1`, which serde's `snake_case`
/// spells `ping1`), and [`survives_every_naming_scheme`] says so of each.
fn free_name(stem: &str, taken: impl Fn(&str) -> bool) -> String {
    let mut name = stem.to_owned();
    while taken(&name) {
        name = next_name(stem, &name);
    }
    assert!(survives_every_naming_scheme(&name), "{name}");
    name
}

/// The candidate after `name` in [`free_name`]'s order.
fn next_name(stem: &str, name: &str) -> String {
    let suffix = name.strip_prefix(stem).unwrap_or_default();
    match suffix.chars().last() {
        Some(letter @ 'b'..='y') => format!(
            "{}{}",
            &name[..name.len() - 1],
            char::from(letter as u8 + 1)
        ),
        _ => format!("{name}_b"),
    }
}

/// serde's `rename_all = "snake_case"` of a Rust variant name: an underscore
/// before every upper-case letter but the first, all lower-cased.
fn serde_snake_case(name: &str) -> String {
    let mut snake = String::new();
    for (index, c) in name.char_indices() {
        if c.is_uppercase() && index > 0 {
            snake.push('_');
        }
        snake.extend(c.to_lowercase());
    }
    snake
}

/// Whether a snake_case wire name comes back unchanged from each spelling the
/// generators and serde give it: the Rust and Go type name (`pascal_case`,
/// read back by serde's `snake_case`), the TypeScript member (`lowerCamel`),
/// the kebab-case file name and the upper-case Python constant.
fn survives_every_naming_scheme(name: &str) -> bool {
    let camel = pascal_case(name);
    let lower_camel = format!("{}{}", camel[..1].to_lowercase(), &camel[1..]);
    let digit_after_underscore = name
        .split('_')
        .skip(1)
        .any(|part| !part.starts_with(|c: char| c.is_ascii_lowercase()));
    !digit_after_underscore
        && name.chars().all(|c| c.is_ascii_lowercase() || c == '_')
        && serde_snake_case(&camel) == name
        && serde_snake_case(&lower_camel) == name
        && name.replace('_', "-").replace('-', "_") == name
        && name.to_uppercase().to_lowercase() == name
}

/// The rehearsal's fresh names, first choices and the ones after them, survive
/// every naming scheme; `ping_1`, the name that failed the sync gate inside the
/// copy, does not.
#[test]
fn fresh_names_survive_every_naming_scheme() {
    for stem in [
        "ping",
        "query_hint",
        "query_language",
        "bookmark",
        "deferred",
    ] {
        let mut taken = vec![stem.to_owned()];
        for _ in 0..30 {
            let name = free_name(stem, |name| taken.iter().any(|t| t == name));
            assert!(survives_every_naming_scheme(&name), "{name}");
            assert!(!taken.contains(&name), "{name}");
            taken.push(name);
        }
        assert_eq!(taken[1], format!("{stem}_b"));
    }
    assert!(!survives_every_naming_scheme("ping_1"));
    assert!(!survives_every_naming_scheme("bookmark1"));
    assert!(!survives_every_naming_scheme("ping__b"));
}

/// Inserts `text` before the first `needle` after the first `after`.
fn insert_before(source: &str, after: &str, needle: &str, text: &str) -> String {
    let start = source
        .find(after)
        .unwrap_or_else(|| panic!("`{after}` is not in the source"));
    let at = start
        + source[start..]
            .find(needle)
            .unwrap_or_else(|| panic!("no `{needle}` after `{after}`"));
    format!("{}{text}{}", &source[..at], &source[at..])
}

/// Removes the one occurrence of `text` an earlier step inserted.
fn remove_inserted(source: &str, text: &str) -> String {
    assert_eq!(source.matches(text).count(), 1, "not inserted once: {text}");
    source.replacen(text, "", 1)
}

/// The `$id` base of the schema family: `envelope.schema.json`'s `$id` without
/// its file name.
fn id_base(copy: &Copy) -> String {
    let envelope = copy.read_json(ENVELOPE_SCHEMA);
    let id = envelope["$id"].as_str().expect("an $id");
    id.strip_suffix("envelope.schema.json")
        .expect("the envelope's $id ends in its file name")
        .to_owned()
}

/// Inserts `text` (a SPEC.md section) before the anchor of `heading`'s section.
fn insert_section_before(spec: &str, heading: &str, text: &str) -> String {
    let at = spec
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("SPEC.md has no `{heading}`"))
        + 1;
    let at = spec[..at - 1]
        .rfind('\n')
        .map(|line| line + 1)
        .filter(|&line| spec[line..].starts_with("<a id="))
        .unwrap_or(at);
    format!("{}{text}{}", &spec[..at], &spec[at..])
}

const ENVELOPE_SCHEMA: &str = "schema/envelope.schema.json";
const ENVELOPE_TYPE: &str = "crates/cgp-types/src/envelope.rs";

/// A variant the minor adds (recipe "Add an envelope variant") and the major
/// removes: host to provider, with an optional `id`. Every text inserted is
/// kept, so that the major removes exactly what the minor wrote.
struct AddedVariant {
    tag: String,
    file: String,
    /// (file, inserted text) of every hand-written edit.
    edits: Vec<(&'static str, String)>,
    table_row: String,
    section: String,
}

impl AddedVariant {
    fn add(copy: &Copy, minor: &support::Version) -> Self {
        let mut envelope = copy.read_json(ENVELOPE_SCHEMA);
        let variants: Vec<String> = copy
            .schemas_in("schema/variants")
            .iter()
            .map(|schema| {
                schema["properties"]["type"]["const"]
                    .as_str()
                    .expect("a tag")
                    .to_owned()
            })
            .collect();
        let tag = free_name("ping", |tag| variants.iter().any(|known| known == tag));
        let kebab = tag.replace('_', "-");
        let name = pascal_case(&tag);
        let since = minor.number();
        let file = format!("schema/variants/{kebab}.schema.json");
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": format!("{}variants/{kebab}.schema.json", id_base(copy)),
            "title": name,
            "description": "Asks whether the provider is still there (a rehearsed variant).",
            "x-cgp-since": since,
            "x-cgp-spec": format!("SPEC.md#variant-{tag}"),
            "x-cgp-direction": "host-to-provider",
            "type": "object",
            "properties": {
                "type": {
                    "const": tag,
                    "description": format!("The envelope tag: always `{tag}` for this variant."),
                    "x-cgp-since": since
                },
                "id": {
                    "type": "string",
                    "description": "Names the request, as a query's id does.",
                    "x-cgp-since": since,
                    "x-cgp-emit": "omit-if-absent"
                }
            },
            "required": ["type"]
        });
        copy.write_json(&file, &schema);
        envelope["oneOf"]
            .as_array_mut()
            .expect("oneOf")
            .push(json!({"$ref": format!("variants/{kebab}.schema.json")}));
        copy.write_json(ENVELOPE_SCHEMA, &envelope);
        let mut added = AddedVariant {
            tag: tag.clone(),
            file,
            edits: Vec::new(),
            table_row: format!(
                "| `{tag}` | host → provider | Asks whether the provider is still there. | [{tag}](#variant-{tag}) |\n"
            ),
            section: format!(
                "<a id=\"variant-{tag}\"></a>\n### `{tag}`\n\nDirection: **host → provider**. Asks whether the provider is still there.\n\n\
                 | Member | JSON type | Required | Emitted | Default | Notes |\n|---|---|---|---|---|---|\n\
                 | `type` | string, `\"{tag}\"` | yes | always | — | Variant tag. |\n\
                 | `id` | string | no (null = absent) | when present | — | Names the request. |\n\n\
                 ```json cgp-example name=rehearsed-{kebab}.minimal target=Envelope expect=valid\n{{\"type\": \"{tag}\"}}\n```\n\n\
                 ```json cgp-example name=rehearsed-{kebab}.maximal target=Envelope expect=valid\n{{\"type\": \"{tag}\", \"id\": \"p1\"}}\n```\n\n"
            ),
        };
        // The hand-written types: the Envelope variant, its row in the
        // `variants!` table and its arm in Envelope::variant.
        let mut types = copy.read(ENVELOPE_TYPE);
        let mut edit = |after: &str, needle: &str, text: String| {
            types = insert_before(&types, after, needle, &text);
            added.edits.push((ENVELOPE_TYPE, text));
        };
        edit(
            "pub enum Envelope {",
            "\n}\n",
            format!(
                "\n\n    /// `\"{tag}\"`, host to provider: a rehearsed variant.\n    {name} {{\n        /// Names the request.\n        #[serde(default, skip_serializing_if = \"Option::is_none\")]\n        id: Option<String>,\n    }},"
            ),
        );
        edit(
            "pub fn variant(&self) -> Variant {",
            "        }\n    }\n",
            format!("            Envelope::{name} {{ .. }} => Variant::{name},\n"),
        );
        edit(
            "variants! {",
            "\n}\n",
            format!("\n    /// `{tag}`\n    {name} => \"{tag}\", HostToProvider;"),
        );
        copy.write(ENVELOPE_TYPE, &types);
        // SPEC.md: its row in §Envelope's table and its section under §Variants.
        let spec = copy.read("SPEC.md");
        let spec = insert_before(
            &spec,
            "\n## Envelope\n",
            "\nRules for the tag:",
            &added.table_row,
        );
        let spec = insert_section_before(&spec, "## Types", &added.section);
        copy.write("SPEC.md", &spec);
        added
    }

    /// The major's removal: the schema, its `$ref`, every hand-written edit,
    /// the table row and the examples. The section keeps its anchor, which the
    /// older family's docs link to, and says where the variant went.
    fn remove(&self, copy: &Copy, major: &support::Version) {
        std::fs::remove_file(copy.0.join(&self.file)).expect("remove the variant's schema");
        let mut envelope = copy.read_json(ENVELOPE_SCHEMA);
        let reference = format!("variants/{}.schema.json", self.tag.replace('_', "-"));
        let branches = envelope["oneOf"].as_array_mut().expect("oneOf");
        let before = branches.len();
        branches.retain(|branch| branch["$ref"] != json!(reference));
        assert_eq!(branches.len() + 1, before, "the variant's $ref");
        copy.write_json(ENVELOPE_SCHEMA, &envelope);
        for (file, text) in &self.edits {
            copy.write(file, &remove_inserted(&copy.read(file), text));
        }
        let spec = remove_inserted(&copy.read("SPEC.md"), &self.table_row);
        let tag = &self.tag;
        let spec = spec.replacen(
            &self.section,
            &format!(
                "<a id=\"variant-{tag}\"></a>\n### `{tag}`\n\nRemoved in {major}; the family before it has it.\n\n"
            ),
            1,
        );
        copy.write("SPEC.md", &spec);
    }
}

const CLOSED_SCHEMA: &str = "schema/vocab/inline-content-requirement.schema.json";
const CLOSED_TYPE: &str = "crates/cgp-types/src/frame.rs";
const CLOSED_NAME: &str = "InlineContentRequirement";

/// A value the minor adds to a closed vocabulary (`ENUM_VALUE_ADDED`, recipe
/// "Add a vocabulary value") and the major takes away again
/// (`VALUE_SET_NARROWED` toward the host: frames carry it).
struct AddedClosedValue {
    value: String,
    /// (file, inserted text) of every edit.
    edits: Vec<(&'static str, String)>,
}

impl AddedClosedValue {
    fn add(copy: &Copy) -> Self {
        let mut schema = copy.read_json(CLOSED_SCHEMA);
        let values = schema["enum"].as_array_mut().expect("a closed enum");
        let value = free_name("deferred", |value| values.contains(&json!(value)));
        values.push(json!(value));
        copy.write_json(CLOSED_SCHEMA, &schema);
        let mut added = AddedClosedValue {
            value: value.clone(),
            edits: Vec::new(),
        };
        let name = pascal_case(&value);
        let enum_start = format!("pub enum {CLOSED_NAME} {{");
        let mut types = copy.read(CLOSED_TYPE);
        // The enum's row in its `spelled!` table: the variant and its spelling.
        let row = format!(
            "\n        /// `\"{value}\"`: a rehearsed value.\n        {name} => \"{value}\","
        );
        types = insert_before(&types, &enum_start, "\n    }\n", &row);
        added.edits.push((CLOSED_TYPE, row));
        copy.write(CLOSED_TYPE, &types);
        // SPEC.md: its row in the type's table, and a valid example.
        let spec = copy.read("SPEC.md");
        let section = spec
            .find(&format!(
                "<a id=\"type-{}\"></a>",
                CLOSED_NAME.to_lowercase()
            ))
            .expect("the type's section");
        let table = section
            + spec[section..]
                .find("| Value | Meaning |")
                .expect("its table");
        let table_end = table + spec[table..].find("\n\n").expect("the table's end");
        let row = format!("\n| `{value}` | A rehearsed value. |");
        let spec = format!("{}{row}{}", &spec[..table_end], &spec[table_end..]);
        let example = format!(
            "\n```json cgp-example name=rehearsed-closed-{value} target={CLOSED_NAME} expect=valid\n\"{value}\"\n```\n"
        );
        copy.write("SPEC.md", &format!("{spec}{example}"));
        added.edits.push(("SPEC.md", row));
        added.edits.push(("SPEC.md", example));
        added
    }

    /// The major's narrowing: the value leaves the schema, the hand-written
    /// enum, the table and the corpus.
    fn remove(&self, copy: &Copy) {
        let mut schema = copy.read_json(CLOSED_SCHEMA);
        let values = schema["enum"].as_array_mut().expect("a closed enum");
        values.retain(|known| known != &json!(self.value));
        copy.write_json(CLOSED_SCHEMA, &schema);
        for (file, text) in &self.edits {
            copy.write(file, &remove_inserted(&copy.read(file), text));
        }
    }
}

/// The member of an added type's examples, a string until the major retypes
/// it: it names the type, so that a tree holding an earlier added type keeps
/// that type's examples apart.
fn hint_text(name: &str) -> String {
    format!("\"text\": \"prefer recent ({name})\"")
}
const QUERY_HINT_INTEGER: &str = "\"text\": 7";

/// The `text` row of an added type's member table.
fn hint_row(name: &str, json_type: &str) -> String {
    format!("| `text` | {json_type} | yes | always | — | The hint ({name}). |")
}

/// A named type the minor adds (recipe "Add a named type"), reached through a
/// new optional ContextQuery member, and whose member the major retypes from a
/// string to an integer (`TYPE_CHANGED`).
struct AddedType {
    name: String,
    file: String,
    member: String,
    rust_type: String,
}

impl AddedType {
    fn add(copy: &Copy, minor: &support::Version) -> Self {
        let titles: Vec<String> = ["schema/types", "schema/vocab"]
            .into_iter()
            .flat_map(|folder| copy.schemas_in(folder))
            .map(|schema| schema["title"].as_str().expect("a title").to_owned())
            .collect();
        let snake = free_name("query_hint", |name| titles.contains(&pascal_case(name)));
        let query = copy.read_json(QUERY_SCHEMA);
        let member = free_name(&snake, |name| query["properties"].get(name).is_some());
        let name = pascal_case(&snake);
        let kebab = snake.replace('_', "-");
        let since = minor.number();
        let file = format!("schema/types/{kebab}.schema.json");
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": format!("{}types/{kebab}.schema.json", id_base(copy)),
            "title": name,
            "description": "A hint on how to read a query (a rehearsed type).",
            "x-cgp-since": since,
            "x-cgp-spec": format!("SPEC.md#type-{}", name.to_lowercase()),
            "type": "object",
            "properties": {
                "text": {
                    "type": "string",
                    "description": "The hint, in words.",
                    "x-cgp-since": since
                }
            },
            "required": ["text"]
        });
        copy.write_json(&file, &schema);
        copy.edit_query_schema(|members| {
            members.insert(
                member.clone(),
                json!({
                    "$ref": format!("{kebab}.schema.json"),
                    "description": "How to read the query, when the host has a hint.",
                    "x-cgp-since": since,
                    "x-cgp-emit": "omit-if-absent"
                }),
            );
        });
        let types = copy.read(QUERY_TYPE);
        copy.write(
            QUERY_TYPE,
            &format!(
                "{types}\n/// A hint on how to read a query (SPEC.md\n/// [§{name}](../../SPEC.md#type-{lower})).\n\
                 #[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]\n\
                 #[cfg_attr(feature = \"schema\", derive(schemars::JsonSchema))]\n\
                 pub struct {name} {{\n    /// The hint.\n    pub text: String,\n}}\n",
                lower = name.to_lowercase()
            ),
        );
        let lower = name.to_lowercase();
        let text = hint_text(&name);
        let row = hint_row(&name, "string");
        let section = format!(
            "<a id=\"type-{lower}\"></a>\n### {name}\n\nA hint on how to read a query. Appears as `query.query.{member}`.\n\n\
             | Member | JSON type | Required | Emitted | Default | Notes |\n|---|---|---|---|---|---|\n\
             {row}\n\n\
             ```json cgp-example name=rehearsed-{kebab}.text target={name} expect=valid\n{{{text}}}\n```\n\n\
             ```json cgp-example name=rehearsed-{kebab}.in-a-query target=ContextQuery expect=valid\n\
             {{\"goal\": \"g\", \"max_frames\": 1, \"max_tokens\": 5, \"{member}\": {{{text}}}}}\n```\n\n"
        );
        let spec = insert_section_before(&copy.read("SPEC.md"), "## Vocabularies", &section);
        copy.write("SPEC.md", &spec);
        AddedType {
            rust_type: format!("Option<{name}>"),
            name,
            file,
            member,
        }
    }

    /// The hand-written field that reaches the type, for ContextQuery.
    fn field(&self) -> String {
        format!(
            "\n    /// How to read the query, when the host has a hint.\n    #[serde(default, skip_serializing_if = \"Option::is_none\")]\n    pub {}: {},\n",
            self.member, self.rust_type
        )
    }

    /// The major's retype: `text` becomes an integer in the schema, the Rust
    /// type and the examples.
    fn retype(&self, copy: &Copy) {
        let mut schema = copy.read_json(&self.file);
        let text = schema["properties"]["text"].as_object_mut().expect("text");
        text.insert("type".into(), json!("integer"));
        text.insert("format".into(), json!("uint32"));
        text.insert("minimum".into(), json!(0));
        text.insert("maximum".into(), json!(u32::MAX));
        copy.write_json(&self.file, &schema);
        let types = copy.read(QUERY_TYPE);
        let declared = format!(
            "pub struct {} {{\n    /// The hint.\n    pub text: String,",
            self.name
        );
        assert!(types.contains(&declared), "{declared}");
        copy.write(
            QUERY_TYPE,
            &types.replacen(
                &declared,
                &declared.replace("pub text: String", "pub text: u32"),
                1,
            ),
        );
        let spec = copy.read("SPEC.md");
        let text = hint_text(&self.name);
        assert_eq!(spec.matches(&text).count(), 2, "the type's examples");
        let spec = spec.replace(&text, QUERY_HINT_INTEGER).replacen(
            &hint_row(&self.name, "string"),
            &hint_row(&self.name, "integer (u32)"),
            1,
        );
        copy.write("SPEC.md", &spec);
    }
}

/// The test targets run at each step, and why each depends on the version:
const VERSION_TESTS: [&str; 9] = [
    // the hand-written types, edited at each step, re-encode what they decode,
    // the SPEC.md corpus's envelope examples included;
    "roundtrip",
    "envelope_round_trip",
    // each major family's generated types decode their family's corpus;
    "families",
    // `cgp` embeds every published bundle and judges by `--version`;
    "validate",
    "diff",
    // the gates on scratch copies, with versions derived from the working one;
    "bump_gate",
    "reissue",
    "check_bites",
    // no source names a version by hand.
    "version_literals",
];

/// A copy of the repository's sources at a fixed place (so that its build
/// directory stays warm between runs), removed when dropped.
struct Copy(PathBuf);

impl Drop for Copy {
    fn drop(&mut self) {
        // A failed step leaves the copy to look at; the next run starts by
        // removing it.
        if !std::thread::panicking() {
            remove_sources(&self.0);
        }
    }
}

/// Removes everything in the copy but its `target/`.
fn remove_sources(copy: &Path) {
    for entry in std::fs::read_dir(copy).into_iter().flatten().flatten() {
        let path = entry.path();
        if entry.file_name() == "target" {
            continue;
        }
        let _ = if path.is_dir() {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
    }
}

fn copy_sources(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create directory");
    for entry in std::fs::read_dir(from).expect("read directory") {
        let entry = entry.expect("entry");
        let name = entry.file_name();
        if matches!(name.to_str(), Some("target" | ".git" | "node_modules")) {
            continue;
        }
        let target = to.join(&name);
        let kind = entry.file_type().expect("file type");
        if kind.is_dir() {
            copy_sources(&entry.path(), &target);
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target).expect("copy file");
        }
    }
}

/// Where the copy builds: the rehearsal's own directory under `target/`.
fn build_dir() -> PathBuf {
    built().join("rehearsal/target")
}

/// The workspace's `target/`, under which the rehearsal keeps its copy and build.
fn built() -> PathBuf {
    let target = repo().join("target");
    std::fs::create_dir_all(&target).expect("create target/");
    std::fs::canonicalize(target).expect("the workspace's target/")
}

/// What says why a `cargo test` failed: each failing test's output and the
/// failed summaries (libtest's "failures:" sections), and cargo's errors;
/// else the last lines.
fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut kept = Vec::new();
    let mut in_failures = false;
    for line in &lines {
        if line.starts_with("failures:") || line.starts_with("---- ") {
            in_failures = true;
        }
        if in_failures || line.starts_with("error") || line.contains("FAILED") {
            kept.push(*line);
        }
        if line.starts_with("test result:") {
            in_failures = false;
        }
    }
    if kept.is_empty() {
        kept = lines[lines.len().saturating_sub(150)..].to_vec();
    }
    kept.join("\n")
}

impl Copy {
    fn run(&self, program: impl AsRef<std::ffi::OsStr>, args: &[&str]) -> (bool, String) {
        let output = Command::new(program)
            .args(args)
            .current_dir(&self.0)
            .env("CARGO_TARGET_DIR", build_dir())
            .env("CGP_PEERS_DIR", built().join("peers"))
            .output()
            .expect("run");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        (output.status.success(), text)
    }

    /// `cargo test` of the version tests, one invocation for the whole
    /// workspace, so that features unify as in the workspace's own `cargo test`
    /// and each step reuses the same dependency artifacts.
    fn cargo_test(&self, extra: &[&str]) -> (bool, String) {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut args = vec!["test", "--offline", "--workspace"];
        for test in VERSION_TESTS {
            args.extend(["--test", test]);
        }
        args.extend(extra);
        self.run(cargo, &args)
    }

    /// Builds the copy as it is now: the version tests, and with them the
    /// `xtask` and `cgp` binaries the steps run.
    fn build(&self, step: &str) {
        let (ok, text) = self.cargo_test(&["--no-run"]);
        assert!(ok, "{step}: the copy does not build:\n{}", tail(&text));
    }

    /// Runs the copy's `cargo xtask`, which must succeed.
    fn xtask(&self, args: &[&str]) -> String {
        self.xtask_of(build_dir().join("debug/xtask"), args)
    }

    /// Runs `xtask --root <copy>` from `binary`, which must succeed.
    fn xtask_of(&self, binary: PathBuf, args: &[&str]) -> String {
        let mut all = vec!["--root", self.0.to_str().expect("a UTF-8 path")];
        all.extend(args);
        let (ok, text) = self.run(binary, &all);
        assert!(ok, "cargo xtask {}:\n{text}", args.join(" "));
        text
    }

    /// Builds the copy; every gate of `cargo xtask check` passes.
    fn gates_pass(&self, step: &str) {
        self.build(step);
        let check = self.xtask(&["check"]);
        assert!(!check.contains("FAIL"), "{step}: {check}");
    }

    /// Every gate and the copy's whole fast tier (`cargo test --workspace`)
    /// pass: the state where the protocol has grown by every additive kind,
    /// where a test that pins what the protocol may grow fails.
    fn gates_and_fast_tier_pass(&self, step: &str) {
        self.gates_pass(step);
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let (ok, text) = self.run(
            cargo,
            &["test", "--offline", "--workspace", "--no-fail-fast"],
        );
        assert!(ok, "{step}: the fast tier fails:\n{}", tail(&text));
        for test in VERSION_TESTS
            .iter()
            .chain(&["schema", "bench_smoke", "corpus_differential"])
        {
            assert!(
                text.contains(&format!("/{test}.rs (")),
                "{step}: {test} did not run:\n{}",
                tail(&text)
            );
        }
    }

    /// Every schema file in `folder` of the copy, read.
    fn schemas_in(&self, folder: &str) -> Vec<serde_json::Value> {
        std::fs::read_dir(self.0.join(folder))
            .unwrap_or_else(|error| panic!("{folder}: {error}"))
            .map(|entry| {
                let path = entry.expect("entry").path();
                let file = path.strip_prefix(&self.0).expect("in the copy");
                self.read_json(file.to_str().expect("a UTF-8 path"))
            })
            .collect()
    }

    /// A JSON file of the copy, such as a schema.
    fn read_json(&self, file: &str) -> serde_json::Value {
        serde_json::from_str(&self.read(file)).unwrap_or_else(|error| panic!("{file}: {error}"))
    }

    /// Writes `value` as the schema files are written: pretty, with a final
    /// line feed.
    fn write_json(&self, file: &str, value: &serde_json::Value) {
        self.write(
            file,
            &(serde_json::to_string_pretty(value).expect("json") + "\n"),
        );
    }

    fn read(&self, file: &str) -> String {
        std::fs::read_to_string(self.0.join(file)).unwrap_or_else(|error| panic!("{file}: {error}"))
    }

    fn write(&self, file: &str, text: &str) {
        std::fs::write(self.0.join(file), text).expect("write");
    }

    fn edit_query_schema(
        &self,
        edit: impl FnOnce(&mut serde_json::Map<String, serde_json::Value>),
    ) {
        let mut schema = self.read_json(QUERY_SCHEMA);
        edit(schema["properties"].as_object_mut().expect("properties"));
        self.write_json(QUERY_SCHEMA, &schema);
    }
}

/// What a minor added (recipe by recipe), kept so that the major removes
/// exactly that.
struct Minor {
    /// The new optional ContextQuery member.
    member: String,
    /// Its hand-written field.
    field: String,
    /// The constructors' lines of the two new ContextQuery members.
    none: String,
    /// The optional member the minor deprecates.
    deprecated: String,
    /// The FrameKind value it adds.
    kind: String,
    variant: AddedVariant,
    hint: AddedType,
    closed: AddedClosedValue,
}

/// Makes every additive kind of change in `minor` on the copy, as the recipes
/// list them, with `xtask` (a binary built before the hand-written types are
/// edited) running `set-version` and the first `codegen`. The caller builds
/// the copy and runs codegen again.
fn add_every_kind(copy: &Copy, minor: &support::Version, xtask: &Path) -> Minor {
    let schema = copy.read_json(QUERY_SCHEMA);
    let member = free_member(&schema);
    let field = rust_field(&member);
    // An optional member that is not deprecated yet: the one the minor
    // deprecates.
    let required: Vec<&str> = schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(serde_json::Value::as_str)
        .collect();
    let deprecated = schema["properties"]
        .as_object()
        .expect("properties")
        .iter()
        .find(|(name, value)| {
            !required.contains(&name.as_str()) && value.get("deprecated").is_none()
        })
        .map(|(name, _)| name.clone())
        .expect("an optional member to deprecate");
    copy.edit_query_schema(|members| {
        members[&deprecated]
            .as_object_mut()
            .expect("a member schema")
            .insert("deprecated".into(), json!(true));
        members.insert(
            member.clone(),
            json!({
                "type": "string",
                "description": "The query language of query_text, when it is not plain words.",
                "x-cgp-since": minor.number(),
                "x-cgp-emit": "omit-if-absent"
            }),
        );
    });
    let kind = add_frame_kind(copy);
    let variant = AddedVariant::add(copy, minor);
    let hint = AddedType::add(copy, minor);
    let closed = AddedClosedValue::add(copy);
    copy.xtask_of(xtask.to_owned(), &["set-version", &minor.to_string()]);
    let spec = copy.read("SPEC.md");
    copy.write("SPEC.md", &format!("{spec}{}", corpus_example(&member)));
    copy.xtask_of(xtask.to_owned(), &["codegen"]);
    let none = format!(
        "            {member}: None,\n            {}: None,\n",
        hint.member
    );
    let types = copy
        .read(QUERY_TYPE)
        .replacen(
            "    pub representation_preferences: Vec<Representation>,\n",
            &format!(
                "    pub representation_preferences: Vec<Representation>,{field}{}",
                hint.field()
            ),
            1,
        )
        .replacen(
            "            representation_preferences: Vec::new(),\n",
            &format!("            representation_preferences: Vec::new(),\n{none}"),
            1,
        );
    assert!(types.contains(&field) && types.contains(&none));
    copy.write(QUERY_TYPE, &types);
    let exports = copy.read("crates/cgp-types/src/lib.rs").replacen(
        "pub use query::{",
        &format!("pub use query::{{{}, ", hint.name),
        1,
    );
    copy.write("crates/cgp-types/src/lib.rs", &exports);
    Minor {
        member,
        field,
        none,
        deprecated,
        kind,
        variant,
        hint,
        closed,
    }
}

#[test]
#[ignore = "full tier"]
fn rehearse_a_minor_that_adds_every_kind_then_a_major_that_breaks_them() {
    let copy = Copy(built().join("rehearsal/tree"));
    remove_sources(&copy.0);
    copy_sources(&repo(), &copy.0);
    let Versions { w, major, .. } = Versions::derive();
    // The workspace's own xtask is built from the very sources the copy has
    // now; the copy's is first built once its types change.
    let unedited = PathBuf::from(env!("CARGO_BIN_EXE_xtask"));
    let manifest = copy.read(support::MANIFEST);
    let manifest = cgp_gates::release::Manifest::parse(support::MANIFEST, &manifest)
        .expect("the release manifest");
    if manifest.release(&w.0).is_none() {
        // Between a bump and its release: release it, as a maintainer would
        // before starting the next version.
        let released = copy.xtask_of(unedited.clone(), &["release"]);
        assert!(released.contains(&format!("released {w}")), "{released}");
    }

    // A maintainer has already added, by the recipes, everything under the
    // names the rehearsal chooses first, and released it: the rehearsal must
    // find other names, and they must hold in every scheme.
    let earlier = support::Version(w.0.with_number(w.0.major, w.0.minor + 1));
    let first = add_every_kind(&copy, &earlier, &unedited);
    assert_eq!(
        [
            first.variant.tag.as_str(),
            first.hint.name.as_str(),
            first.member.as_str(),
            first.kind.as_str(),
            first.closed.value.as_str()
        ],
        [
            "ping",
            "QueryHint",
            "query_language",
            "bookmark",
            "deferred"
        ],
        "the rehearsal's first choices, taken first"
    );
    copy.build(&format!("{earlier}, hand-written types"));
    copy.xtask(&["codegen"]);
    let released = copy.xtask(&["release"]);
    assert!(
        released.contains(&format!("released {earlier}")),
        "{released}"
    );

    // The next minor adds every kind again: unreleased, everything passes.
    let minor = support::Version(earlier.0.with_number(earlier.0.major, earlier.0.minor + 1));
    let built_xtask = build_dir().join("debug/xtask");
    let added = add_every_kind(&copy, &minor, &built_xtask);
    let Minor {
        member,
        field,
        none,
        deprecated,
        kind,
        variant,
        hint,
        closed,
    } = &added;
    let member = member.as_str();
    assert_ne!(variant.tag, first.variant.tag);
    // The vectors' decode expectations come from the hand-written types, so
    // codegen runs again once they are edited (the recipes' last step).
    copy.build(&format!("{minor}, hand-written types"));
    copy.xtask(&["codegen"]);
    copy.gates_and_fast_tier_pass(&format!("{minor}, unreleased"));
    let released = copy.xtask(&["release"]);
    assert!(
        released.contains(&format!("released {minor}")),
        "{released}"
    );

    // The next major removes it: everything, the whole fast tier included,
    // passes before and after its release. set-version moves SPEC.md's
    // spellings of the working version; the removed member's example goes.
    copy.xtask(&["set-version", &major.to_string()]);
    copy.edit_query_schema(|members| {
        assert!(members.shift_remove(member).is_some());
    });
    variant.remove(&copy, &major);
    hint.retype(&copy);
    closed.remove(&copy);
    let spec = copy.read("SPEC.md");
    assert!(spec.contains(&corpus_example(member)));
    copy.write("SPEC.md", &spec.replacen(&corpus_example(member), "", 1));
    copy.xtask(&["codegen"]);
    let types = copy.read(QUERY_TYPE).replacen(field, "\n", 1).replacen(
        none,
        &format!("            {}: None,\n", hint.member),
        1,
    );
    copy.write(QUERY_TYPE, &types);
    copy.build(&format!("{major}, hand-written types"));
    copy.xtask(&["codegen"]);
    copy.gates_and_fast_tier_pass(&format!("{major}, unreleased"));
    let released = copy.xtask(&["release"]);
    assert!(
        released.contains(&format!("released {major}")),
        "{released}"
    );
    copy.gates_and_fast_tier_pass(&format!("{major}, released"));

    // Each release put its section first in CHANGELOG.md, from the classifier.
    let changelog = copy.read("CHANGELOG.md");
    let at = |version: &str| {
        changelog
            .find(&format!("## {version}\n"))
            .unwrap_or_else(|| panic!("no section for {version}:\n{changelog}"))
    };
    assert!(
        at(&major.to_string()) < at(&minor.to_string()),
        "{changelog}"
    );
    assert!(
        at(&minor.to_string()) < at(&earlier.to_string()),
        "{changelog}"
    );
    assert!(at(&earlier.to_string()) < at(&w.to_string()), "{changelog}");
    assert!(
        changelog.contains(&format!(
            "- `FIELD_ADDED_OPTIONAL` `/ContextQuery/{member}` (schema/"
        )),
        "{changelog}"
    );
    assert!(
        changelog.contains(&format!("- `FIELD_REMOVED` `/ContextQuery/{member}` (")),
        "{changelog}"
    );

    // Every kind of change has its rule id in its release's section.
    let has_line = |rule: &str, about: &str| {
        assert!(
            changelog
                .lines()
                .any(|line| line.starts_with(&format!("- `{rule}` ")) && line.contains(about)),
            "no {rule} line about {about}:\n{changelog}"
        );
    };
    has_line("VARIANT_ADDED", &variant.tag);
    has_line("VARIANT_REMOVED", &variant.tag);
    has_line("TYPE_CHANGED", "text");
    has_line("DEPRECATION_CHANGED", deprecated);
    has_line("VOCABULARY_VALUE_ADDED", kind);
    has_line("ENUM_VALUE_ADDED", &closed.value);
    has_line("VALUE_SET_NARROWED", &closed.value);

    // The older family keeps the member, in its frozen bundle, the bundle cgp
    // embeds, its docs and its generated types; the working version has none.
    assert!(copy.read(&minor.bundle("interop")).contains(member));
    assert!(
        copy.read(&minor.bundle("interop"))
            .contains(&format!("\"{kind}\""))
    );
    assert!(
        copy.read(&format!(
            "crates/cgp-cli/bundles/{}/interop.schema.json",
            minor.0.slug()
        ))
        .contains(member)
    );
    let family = copy.read(&format!(
        "generated/rust/src/{}.rs",
        minor.family_slug().replace('-', "_")
    ));
    assert!(family.contains(&format!("pub {member}")), "the older types");
    assert!(
        copy.read(&format!(
            "generated/docs/{}/types/ContextQuery.md",
            minor.0.slug()
        ))
        .contains(member)
    );
    assert!(!copy.read("generated/rust/src/types.rs").contains(member));
    assert!(!copy.read(&major.bundle("interop")).contains(member));

    // cgp judges by either: the member is fine in the older family, unknown to
    // the strict profile of the new one.
    let query = format!(
        "{{\"type\":\"query\",\"query\":{{\"goal\":\"g\",\"max_frames\":1,\"max_tokens\":5,\"{member}\":\"sql\"}}}}\n"
    );
    copy.write("query.ndjson", &query);
    let validate = |version: &str| {
        copy.run(
            build_dir().join("debug/cgp"),
            &[
                "validate",
                "--profile",
                "strict",
                "--version",
                version,
                "query.ndjson",
            ],
        )
    };
    let (old_ok, old_report) = validate(&minor.to_string());
    assert!(old_ok, "{old_report}");
    let (new_ok, new_report) = validate(&major.to_string());
    assert!(!new_ok && new_report.contains(member), "{new_report}");
    // The removed variant is fine in the older family (judged by its schema
    // alone: the hand-written types no longer have it), unknown in the new.
    copy.write(
        "query.ndjson",
        &format!("{{\"type\":\"{}\",\"id\":\"p1\"}}\n", variant.tag),
    );
    let (old_ok, old_report) = validate(&minor.to_string());
    assert!(old_ok, "{old_report}");
    let (new_ok, new_report) = validate(&major.to_string());
    assert!(!new_ok, "{new_report}");
    assert!(
        copy.read(&format!(
            "generated/docs/{}/variants/{}.md",
            minor.0.slug(),
            variant.tag
        ))
        .contains(&format!("`\"type\": \"{}\"`", variant.tag)),
        "the older family's docs page of the removed variant"
    );
}
