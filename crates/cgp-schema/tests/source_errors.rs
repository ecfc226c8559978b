//! A broken schema file gets an error with file, line and column: each test
//! breaks one thing in an in-memory copy of `schema/` and asserts the message.

use cgp_schema::SchemaSet;
use cgp_schema::source::read_schema_dir;
use std::path::Path;

fn sources() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schema");
    read_schema_dir(&dir, "schema").expect("the real schemas load")
}

/// Loads the real schemas with `file`'s text edited by `edit`; returns the report.
fn load_with(file: &str, edit: impl FnOnce(&str) -> String) -> String {
    let mut sources = sources();
    let entry = sources
        .iter_mut()
        .find(|(path, _)| path == file)
        .expect("file exists");
    entry.1 = edit(&entry.1);
    match SchemaSet::from_sources("schema", sources) {
        Ok(_) => "loaded".into(),
        Err(problems) => problems.to_string(),
    }
}

fn line_col(text: &str, needle: &str) -> (usize, usize) {
    let offset = text.find(needle).expect("needle");
    let line = text[..offset].matches('\n').count() + 1;
    let column = offset - text[..offset].rfind('\n').map_or(0, |n| n + 1) + 1;
    (line, column)
}

/// The working version, which the sources declare.
fn working() -> cgp_schema::ProtocolVersion {
    cgp_types::PROTOCOL_VERSION
        .parse()
        .expect("the working version parses")
}

/// `<major>.0` of the working family: the `x-cgp-since` of a member it has
/// always had.
fn family_start() -> String {
    format!("{}.0", working().major)
}

#[test]
fn the_real_schemas_load() {
    assert_eq!(load_with("envelope.schema.json", str::to_owned), "loaded");
}

#[test]
fn malformed_json_names_line_and_column() {
    let report = load_with("types/transform.schema.json", |text| {
        text.replacen("\"method\": {", "\"method\" {", 1)
    });
    let original = sources()
        .into_iter()
        .find(|(p, _)| p == "types/transform.schema.json")
        .expect("file")
        .1;
    let (line, column) = line_col(&original, "\"method\": {");
    assert_eq!(
        report,
        format!(
            "schema/types/transform.schema.json:{line}:{}: invalid JSON: expected `:` after the member name",
            column + 9
        )
    );
}

#[test]
fn a_misspelt_keyword_is_an_error_with_a_suggestion() {
    let report = load_with("types/transform.schema.json", |text| {
        text.replacen("\"required\":", "\"requird\":", 1)
    });
    let edited =
        load_source("types/transform.schema.json").replacen("\"required\":", "\"requird\":", 1);
    let (line, column) = line_col(&edited, "\"requird\"");
    assert!(
        report.contains(&format!("schema/types/transform.schema.json:{line}:{column}: /requird: unknown keyword `requird` (did you mean `required`?)")),
        "{report}"
    );
}

fn load_source(file: &str) -> String {
    sources()
        .into_iter()
        .find(|(p, _)| p == file)
        .expect("file")
        .1
}

#[test]
fn a_ref_to_nothing_names_the_missing_file() {
    let report = load_with("types/context-frame.schema.json", |text| {
        text.replacen(
            "\"content-ref.schema.json\"",
            "\"content-reference.schema.json\"",
            1,
        )
    });
    assert!(
        report.contains("schema/types/context-frame.schema.json:")
            && report.contains("/properties/content_ref/$ref: `$ref` `content-reference.schema.json` names `types/content-reference.schema.json`, which is not a schema file under the schema root"),
        "{report}"
    );
}

#[test]
fn a_ref_to_a_missing_pointer_names_it() {
    let report = load_with("vocab/frame-kind.schema.json", |text| {
        text.replacen("\"#/$defs/KnownFrameKind\"", "\"#/$defs/KnownKind\"", 1)
    });
    assert!(report.contains("`$ref` `#/$defs/KnownKind`: `vocab/frame-kind.schema.json` has nothing at `/$defs/KnownKind`"), "{report}");
}

#[test]
fn a_ref_leaving_the_schema_root_is_refused() {
    let report = load_with("types/context-frame.schema.json", |text| {
        text.replacen(
            "\"content-ref.schema.json\"",
            "\"../../secrets/content-ref.schema.json\"",
            1,
        )
    });
    assert!(
        report.contains("leaves the schema root (too many `../`)"),
        "{report}"
    );
}

#[test]
fn a_network_ref_is_refused_and_never_fetched() {
    let report = load_with("types/context-frame.schema.json", |text| {
        text.replacen(
            "\"content-ref.schema.json\"",
            "\"http://example.invalid/content-ref.schema.json\"",
            1,
        )
    });
    assert!(
        report.contains("`$ref` `http://example.invalid/content-ref.schema.json` points outside this schema set; references resolve from local files under the schema root only and are never fetched"),
        "{report}"
    );
}

#[test]
fn an_optional_member_without_an_emit_rule_is_named() {
    let report = load_with("types/transform.schema.json", |text| {
        let mut schema: serde_json::Value = serde_json::from_str(text).expect("json");
        schema["required"]
            .as_array_mut()
            .expect("required")
            .retain(|name| name != "version");
        serde_json::to_string_pretty(&schema).expect("json")
    });
    assert!(
        report.contains("/properties/version: optional member `version` needs `x-cgp-emit` (one of always, omit-if-absent, omit-if-empty, omit-if-default)"),
        "{report}"
    );
}

#[test]
fn a_missing_since_is_named() {
    let report = load_with("types/inclusion-step.schema.json", |text| {
        let at = text.find("\"sibling_is_left\"").expect("member");
        let declared = format!("\"x-cgp-since\": \"{}\"", family_start());
        let since = text[at..].find(&declared).expect("since") + at;
        format!(
            "{}\"x-cgp-spec\": \"x\"{}",
            &text[..since],
            &text[since + declared.len()..]
        )
    });
    assert!(
        report.contains("/properties/sibling_is_left: missing `x-cgp-since`"),
        "{report}"
    );
}

#[test]
fn a_version_that_is_not_name_major_minor_is_refused() {
    let working = cgp_types::PROTOCOL_VERSION;
    let report = load_with("envelope.schema.json", |text| {
        text.replacen(
            &format!("\"{working}\""),
            &format!("\"{working}-draft\""),
            1,
        )
    });
    assert!(
        report.contains("schema/envelope.schema.json:")
            && report.contains(&format!(
                "`{working}-draft` is not a protocol version of the form `<name>/<major>.<minor>`"
            )),
        "{report}"
    );
}

#[test]
fn an_id_that_disagrees_with_the_path_is_named() {
    let report = load_with("types/transform.schema.json", |text| {
        text.replacen(
            "types/transform.schema.json",
            "types/transformation.schema.json",
            1,
        )
    });
    assert!(
        report.contains("schema/types/transform.schema.json:3:")
            && report.contains(&format!(
                "`$id` must be `https://cgp-schema.dev/{}/types/transform.schema.json`",
                working().family_slug()
            )),
        "{report}"
    );
}

#[test]
fn a_symlink_in_the_schema_root_is_refused() {
    let root_scratch = cgp_test_support::Scratch::new("symlink");
    let root = root_scratch.path().to_path_buf();
    std::fs::create_dir_all(root.join("types")).expect("dir");
    std::os::unix::fs::symlink(&root, root.join("types/loop")).expect("symlink");
    let report = read_schema_dir(&root, "schema")
        .expect_err("refused")
        .to_string();
    assert_eq!(
        report,
        "schema/types/loop: is a symbolic link; schema files must be regular files inside the schema root"
    );
}

/// A pipe would block the reader forever and a huge file would take the
/// memory: both are refused without being read.
#[test]
fn a_pipe_and_an_oversized_schema_file_are_refused_unread() {
    let root_scratch = cgp_test_support::Scratch::new("special");
    let root = root_scratch.path().to_path_buf();
    std::fs::create_dir_all(root.join("types")).expect("dir");
    let made = std::process::Command::new("mkfifo")
        .arg(root.join("types/pipe.schema.json"))
        .status()
        .expect("mkfifo");
    assert!(made.success());
    let huge = std::fs::File::create(root.join("huge.schema.json")).expect("create");
    huge.set_len(cgp_schema::source::MAX_SCHEMA_FILE_BYTES + 1)
        .expect("a sparse file");
    let report = read_schema_dir(&root, "schema")
        .expect_err("refused")
        .to_string();
    assert_eq!(
        report,
        "schema/huge.schema.json: cannot read: larger than 16777216 bytes, the most a schema file may have\n\
         schema/types/pipe.schema.json: is not a regular file (a pipe, a socket or a device); schema files must be regular files"
    );
}

#[test]
fn a_stray_file_is_refused_rather_than_skipped() {
    let root_scratch = cgp_test_support::Scratch::new("stray");
    let root = root_scratch.path().to_path_buf();
    std::fs::create_dir_all(&root).expect("dir");
    std::fs::write(root.join("notes.json"), "{}").expect("write");
    let report = read_schema_dir(&root, "schema")
        .expect_err("refused")
        .to_string();
    assert_eq!(
        report,
        "schema/notes.json: is not a schema file: every file under the schema root must end in `.schema.json`"
    );
}

#[test]
fn a_reference_cycle_with_no_schema_in_between_is_named() {
    let mut sources = sources();
    let header = |name: &str, title: &str| {
        format!(
            "{{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", \"$id\": \"https://cgp-schema.dev/{}/types/{name}.schema.json\", \"title\": \"{title}\", \"description\": \"d\", \"x-cgp-since\": \"{}\",\n\"$ref\": \"{}.schema.json\"}}",
            working().family_slug(),
            working().number(),
            if name == "loop-a" { "loop-b" } else { "loop-a" }
        )
    };
    sources.push(("types/loop-a.schema.json".into(), header("loop-a", "LoopA")));
    sources.push(("types/loop-b.schema.json".into(), header("loop-b", "LoopB")));
    let transform = sources
        .iter_mut()
        .find(|(path, _)| path == "types/transform.schema.json")
        .expect("file");
    let mut schema: serde_json::Value = serde_json::from_str(&transform.1).expect("json");
    schema["properties"]["next"] = serde_json::json!({"$ref": "loop-a.schema.json", "description": "n", "x-cgp-since": family_start(), "x-cgp-emit": "omit-if-absent"});
    transform.1 = serde_json::to_string_pretty(&schema).expect("json");
    let report = SchemaSet::from_sources("schema", sources)
        .expect_err("a cycle")
        .to_string();
    assert_eq!(
        report,
        "schema/types/loop-a.schema.json:2:9: /$ref: `$ref` cycle with no schema in between: types/loop-a.schema.json# -> types/loop-b.schema.json# -> types/loop-a.schema.json#"
    );
}

#[test]
fn recursion_through_a_member_is_a_legitimate_recursive_type() {
    let mut sources = sources();
    let transform = sources
        .iter_mut()
        .find(|(path, _)| path == "types/transform.schema.json")
        .expect("file");
    let mut schema: serde_json::Value = serde_json::from_str(&transform.1).expect("json");
    schema["properties"]["previous"] = serde_json::json!({"$ref": "transform.schema.json", "description": "p", "x-cgp-since": family_start(), "x-cgp-emit": "omit-if-absent"});
    transform.1 = serde_json::to_string_pretty(&schema).expect("json");
    let set = SchemaSet::from_sources("schema", sources).expect("a recursive type loads");
    let bundle = set.bundle(cgp_schema::Profile::Interop).expect("bundles");
    let validator = cgp_check::Validator::new(&bundle).expect("compiles");
    let nested = serde_json::json!({"method": "m", "implementation": "i", "version": "v", "previous": {"method": "m", "implementation": "i", "version": 1}});
    let violations = validator.validate("Transform", &nested).expect("type");
    assert_eq!(violations.len(), 1);
    assert_eq!(violations[0].instance_path, "/previous/version");
}
