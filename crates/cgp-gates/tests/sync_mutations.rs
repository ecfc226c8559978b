//! The sync gate bites on every kind of value shape, in both directions: each
//! test changes one thing in a bundle (or in the Rust contract) and asserts the
//! mismatch the gate reports, naming the member and the schema file.

use cgp_gates::sync::{Inputs, Mismatch, MismatchKind, RustSource, compare};
use cgp_schema::{Bundle, Profile, SchemaSet};
use cgp_test_support::repo;
use serde_json::{Value, json};
use std::path::Path;

struct Case {
    set: SchemaSet,
    interop: Bundle,
    strict: Bundle,
    deserialize: Value,
    serialize: Value,
}

impl Case {
    fn new() -> Case {
        Case::from_set(SchemaSet::load(&repo().join("schema"), "schema").expect("schemas load"))
    }

    /// The source tree with one file's text edited.
    fn with_source_edit(file: &str, edit: impl Fn(&mut Value)) -> Case {
        let root = repo().join("schema");
        let mut sources = Vec::new();
        collect(&root, &root, &mut sources);
        for (path, text) in &mut sources {
            if path == file {
                let mut schema: Value = serde_json::from_str(text).expect("json");
                edit(&mut schema);
                *text = serde_json::to_string_pretty(&schema).expect("text");
            }
        }
        Case::from_set(SchemaSet::from_sources("schema", sources).expect("mutated schemas load"))
    }

    fn from_set(set: SchemaSet) -> Case {
        Case {
            interop: set.bundle(Profile::Interop).expect("interop"),
            strict: set.bundle(Profile::Strict).expect("strict"),
            set,
            deserialize: cgp_types::schema_support::deserialize_contract(),
            serialize: cgp_types::schema_support::serialize_contract(),
        }
    }

    fn bundle(&mut self, profile: Profile) -> &mut Value {
        match profile {
            Profile::Interop => &mut self.interop.document,
            Profile::Strict => &mut self.strict.document,
        }
    }

    fn mismatches(&self) -> Vec<Mismatch> {
        let rust =
            RustSource::from_dir(&repo().join("crates/cgp-types/src"), "crates/cgp-types/src");
        compare(&Inputs {
            set: &self.set,
            interop: &self.interop,
            strict: &self.strict,
            deserialize: &self.deserialize,
            serialize: &self.serialize,
            rust: &rust,
        })
    }

    fn report(&self) -> String {
        self.mismatches()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    }
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(root, &path, out);
        } else {
            let relative = path
                .strip_prefix(root)
                .expect("inside")
                .to_string_lossy()
                .replace('\\', "/");
            out.push((relative, std::fs::read_to_string(&path).expect("text")));
        }
    }
}

fn member<'v>(document: &'v mut Value, owner: &str, name: &str) -> &'v mut Value {
    document
        .pointer_mut(&format!("/$defs/{owner}/properties/{name}"))
        .unwrap_or_else(|| panic!("{owner}.{name}"))
}

/// A mismatch of `kind` whose text contains `needle`; its path is the text
/// before the first `: ` of `needle`.
#[track_caller]
fn assert_finds(case: &Case, kind: MismatchKind, needle: &str) {
    let path = needle.split(": ").next().unwrap_or_default();
    let mismatches = case.mismatches();
    assert!(
        mismatches
            .iter()
            .any(|m| m.kind == kind && m.path == path && m.to_string().contains(needle)),
        "expected a {kind:?} mismatch at `{path}` saying `{needle}` in:\n{}",
        case.report()
    );
}

#[track_caller]
fn assert_reports(report: &str, needle: &str) {
    assert!(report.contains(needle), "expected `{needle}` in:\n{report}");
}

#[test]
fn the_real_types_and_bundles_agree() {
    assert_eq!(Case::new().mismatches(), Vec::new());
}

#[test]
fn a_lost_maximum_with_format_kept_is_a_wider_integer() {
    let case = Case::with_source_edit("types/context-frame.schema.json", |schema| {
        let token_cost = &mut schema["properties"]["token_cost"];
        token_cost
            .as_object_mut()
            .expect("member")
            .remove("maximum");
        assert_eq!(token_cost["format"], "uint32", "format is kept");
    });
    assert_finds(
        &case,
        MismatchKind::Shape,
        "ContextFrame.token_cost: is integer 0..=4294967295 in the Rust types but integer 0.. in schema/types/context-frame.schema.json:",
    );
}

#[test]
fn an_integer_bound_changed_in_either_profile() {
    for profile in Profile::ALL {
        let mut case = Case::new();
        member(case.bundle(profile), "ContextQuery", "max_frames")["minimum"] = json!(1);
        assert_finds(
            &case,
            MismatchKind::Shape,
            "ContextQuery.max_frames: is integer 0..=4294967295 in the Rust types but integer 1..=4294967295 in schema/types/context-query.schema.json:",
        );
    }
}

#[test]
fn an_integer_format_that_differs_is_reported_even_with_equal_ranges() {
    let mut case = Case::new();
    member(case.bundle(Profile::Interop), "ContextFrame", "token_cost")["format"] = json!("uint64");
    assert_finds(
        &case,
        MismatchKind::Shape,
        "ContextFrame.token_cost: is format `uint32` in the Rust types but format `uint64` in schema/types/context-frame.schema.json:",
    );
}

#[test]
fn a_bound_written_in_the_rust_contract_only() {
    let mut case = Case::new();
    case.deserialize["$defs"]["ContextFrame"]["properties"]["token_cost"]["maximum"] = json!(10);
    assert_finds(
        &case,
        MismatchKind::Shape,
        "ContextFrame.token_cost: is integer 0..=10 in the Rust types but integer 0..=4294967295 in",
    );
}

#[test]
fn a_number_range_added() {
    let mut case = Case::new();
    member(case.bundle(Profile::Interop), "ContextFrame", "score")["minimum"] = json!(0);
    assert_finds(
        &case,
        MismatchKind::Shape,
        "ContextFrame.score: is number in the Rust types but number [0, inf) in schema/types/context-frame.schema.json:",
    );
}

#[test]
fn a_string_constraint_added() {
    let mut case = Case::new();
    member(case.bundle(Profile::Strict), "ContextFrame", "title")["pattern"] = json!("^\\S");
    assert_finds(
        &case,
        MismatchKind::Shape,
        "ContextFrame.title: is string in the Rust types but string matching /^\\S/ in schema/types/context-frame.schema.json:",
    );
}

#[test]
fn a_closed_enum_value_removed() {
    let mut case = Case::new();
    let values = case.bundle(Profile::Interop)["$defs"]["Representation"]["enum"]
        .as_array_mut()
        .expect("enum");
    let removed = values.pop().expect("a value");
    assert_finds(
        &case,
        MismatchKind::MissingFromSchema,
        &format!("Representation: value {removed} is in crates/cgp-types/src/"),
    );
}

#[test]
fn an_open_vocabulary_value_added() {
    let mut case = Case::new();
    let defs = &mut case.bundle(Profile::Interop)["$defs"];
    defs["KnownFrameKind"]["enum"]
        .as_array_mut()
        .expect("enum")
        .push(json!("diagram"));
    defs["FrameKind"]["oneOf"][1]["not"]["enum"]
        .as_array_mut()
        .expect("enum")
        .push(json!("diagram"));
    assert_finds(
        &case,
        MismatchKind::MissingFromRust,
        "FrameKind: value \"diagram\" is in schema/vocab/frame-kind.schema.json",
    );
}

#[test]
fn an_open_vocabulary_closed() {
    let mut case = Case::new();
    let defs = &mut case.bundle(Profile::Interop)["$defs"];
    let known = defs["KnownFrameKind"]["enum"].clone();
    defs["FrameKind"] = json!({"type": "string", "enum": known});
    assert_finds(
        &case,
        MismatchKind::VocabularyKind,
        "FrameKind: open vocabulary in crates/cgp-types/src/",
    );
}

#[test]
fn a_tagged_union_branch_removed_and_its_tag_renamed() {
    let mut case = Case::new();
    let branches = case.bundle(Profile::Interop)["$defs"]["FrameVerdict"]["oneOf"]
        .as_array_mut()
        .expect("branches");
    branches.retain(|branch| branch["properties"]["status"]["const"] != "gone");
    assert_finds(
        &case,
        MismatchKind::MissingFromSchema,
        "FrameVerdict.status: value \"gone\" is accepted by crates/cgp-types/src/",
    );

    let mut case = Case::new();
    case.bundle(Profile::Strict)["$defs"]["FrameVerdict"]["x-cgp-tag"] = json!("state");
    for branch in case.bundle(Profile::Strict)["$defs"]["FrameVerdict"]["oneOf"]
        .as_array_mut()
        .expect("branches")
    {
        let status = branch["properties"]
            .as_object_mut()
            .expect("members")
            .remove("status")
            .expect("tag");
        branch["properties"]["state"] = status;
        for name in branch["required"].as_array_mut().expect("required") {
            if name == "status" {
                *name = json!("state");
            }
        }
    }
    assert_finds(
        &case,
        MismatchKind::Tag,
        "FrameVerdict: tagged on `status` in the Rust types but on `state`",
    );
}

#[test]
fn a_member_of_a_union_branch_changed() {
    let mut case = Case::new();
    let stale = &mut case.bundle(Profile::Interop)["$defs"]["FrameVerdict"]["oneOf"][1];
    assert_eq!(stale["properties"]["status"]["const"], "stale");
    stale["properties"]["replacement_digest"]["type"] = json!("string");
    assert_finds(
        &case,
        MismatchKind::Nullability,
        "FrameVerdict(stale).replacement_digest: accepts null in crates/cgp-types/src/",
    );
}

#[test]
fn null_dropped_from_an_optional_member() {
    let mut case = Case::new();
    member(case.bundle(Profile::Interop), "ContextFrame", "content")["type"] = json!("string");
    assert_finds(
        &case,
        MismatchKind::Nullability,
        "ContextFrame.content: accepts null in crates/cgp-types/src/frame.rs:",
    );
}

#[test]
fn array_items_and_bounds_changed() {
    let mut case = Case::new();
    member(case.bundle(Profile::Interop), "ContextQuery", "anchors")["items"] =
        json!({"type": "integer"});
    assert_finds(
        &case,
        MismatchKind::Shape,
        "ContextQuery.anchors[]: is string in the Rust types but integer in",
    );

    let mut case = Case::new();
    member(case.bundle(Profile::Interop), "ContextQuery", "anchors")["maxItems"] = json!(8);
    assert_finds(
        &case,
        MismatchKind::Shape,
        "ContextQuery.anchors: is an array of 0.. items in the Rust types but an array of 0..=8 items in",
    );
}

#[test]
fn a_reference_to_another_type() {
    let mut case = Case::new();
    member(case.bundle(Profile::Interop), "ContextFrame", "provenance")["items"]["$ref"] =
        json!("#/$defs/Transform");
    assert_finds(
        &case,
        MismatchKind::TypeName,
        "ContextFrame.provenance[]: is `Provenance` in the Rust types but `Transform`",
    );
}

#[test]
fn required_in_one_profile_only() {
    let mut case = Case::new();
    case.bundle(Profile::Strict)["$defs"]["ContextQuery"]["required"]
        .as_array_mut()
        .expect("required")
        .retain(|name| name != "goal");
    assert_finds(
        &case,
        MismatchKind::Required,
        "ContextQuery.goal: required in crates/cgp-types/src/query.rs:",
    );
    assert_reports(&case.report(), "(strict profile)");
}

#[test]
fn unknown_members_rejected_by_the_receiver_contract() {
    let mut case = Case::new();
    case.bundle(Profile::Interop)["$defs"]["ContextFrame"]["additionalProperties"] = json!(false);
    assert_finds(
        &case,
        MismatchKind::UnknownMembers,
        "ContextFrame: accepts unknown members in crates/cgp-types/src/frame.rs:",
    );
}

#[test]
fn a_schema_the_model_cannot_describe_fails_the_gate() {
    let mut case = Case::new();
    case.bundle(Profile::Interop)["$defs"]["ContextFrame"]["patternProperties"] =
        json!({"^x-": {}});
    assert_finds(
        &case,
        MismatchKind::Unsupported,
        "/$defs/ContextFrame: schema/types/context-frame.schema.json:1:1: a schema the gate cannot compare: keyword `patternProperties`",
    );
}

#[test]
fn emit_derived_strict_constraints_are_not_mistaken_for_wire_differences() {
    // The strict bundle states `minItems: 1` on omit-if-empty arrays and
    // `not: {"const": default}` on omit-if-default members; the gate knows these
    // come from `x-cgp-emit`. A `minItems` on another member is a difference.
    let mut case = Case::new();
    member(case.bundle(Profile::Strict), "ContextFrame", "relations")["minItems"] = json!(2);
    assert_finds(
        &case,
        MismatchKind::Shape,
        "ContextFrame.relations: is an array of 0.. items in the Rust types but an array of 2.. items in",
    );
}
