//! Unit tests of the Python package renderer.

use super::*;
use cgp_schema::model::Reading;
use serde_json::json;

fn protocol(frame_id: Value) -> Protocol {
    let document = json!({
        "oneOf": [{
            "type": "object",
            "properties": {
                "type": {"const": "verify"},
                "frames": {"type": "array", "items": {"$ref": "#/$defs/FrameId"}, "default": [], "x-cgp-emit": "always"}
            },
            "required": ["type"]
        }],
        "$defs": {"FrameId": frame_id}
    });
    Protocol::read(&document, Reading::Validator, &|_| None)
}

fn file<'f>(files: &'f [(String, String)], name: &str) -> &'f str {
    files
        .iter()
        .find(|(path, _)| path.ends_with(name))
        .map(|(_, text)| text.as_str())
        .expect("rendered")
}

#[test]
fn a_model_renders_into_dataclasses_and_a_wire_table() {
    let files = render(
        &protocol(json!({
            "type": "object",
            "description": "Says \"\"\"which\"\"\" frame.",
            "properties": {
                "frame_id": {"type": "integer", "minimum": 0, "maximum": 7},
                "from": {"type": ["string", "null"], "x-cgp-emit": "omit-if-absent"}
            },
            "required": ["frame_id"]
        })),
        "demo/1.0",
        &crate::test_model::home(),
    )
    .expect("renders");
    let init = file(&files, "cgp_types/__init__.py");
    assert!(init.contains("class Verify:"), "{init}");
    assert!(init.contains("frames: list[FrameId] = dataclasses.field(default_factory=list)"));
    assert!(
        init.contains("from_: str | None = None"),
        "a keyword gets a trailing _"
    );
    assert!(
        init.contains(r#"Says \"\"\"which\"\"\" frame."#),
        "docstrings are escaped"
    );
    assert!(init.contains(r#"_w.Member("frame_id", "frame_id", _w.Integer(0, 7), True"#));
    assert!(init.contains(r#"PROTOCOL_VERSION = "demo/1.0""#));
    assert!(file(&files, "pyproject.toml").contains(r#"version = "1.0.0""#));
}

#[test]
fn the_fast_paths_mirror_what_msgspec_must_read_otherwise() {
    let frame_id = json!({
        "type": "object",
        "properties": {
            "frame_id": {"type": "integer", "minimum": 0, "maximum": 7},
            "by": {"type": ["string", "null"], "x-cgp-emit": "omit-if-absent"}
        },
        "required": ["frame_id"]
    });
    let files =
        render(&protocol(frame_id), "demo/1.0", &crate::test_model::home()).expect("renders");
    let fast = file(&files, "cgp_types/_fast.py");
    assert!(
        fast.contains("class _M_FrameId(msgspec.Struct, kw_only=True, gc=False):"),
        "{fast}"
    );
    assert!(
        fast.contains("    frame_id: typing.Annotated[int, msgspec.Meta(ge=0, le=7)]\n"),
        "{fast}"
    );
    // An optional member the line leaves out is `UNSET`, never written again;
    // the dataclass gets its default.
    assert!(
        fast.contains("    by: str | None | msgspec.UnsetType = msgspec.UNSET\n"),
        "{fast}"
    );
    // The converter counts the members the mirror holds: the required one,
    // and each optional one not `UNSET`.
    assert!(
        fast.contains("    v_by = s.by\n    if v_by is _UNSET:\n        o.by = None\n    else:\n        o.by = v_by\n        n += 1\n"),
        "{fast}"
    );
    assert!(
        fast.contains("def _c_FrameId(s: _M_FrameId, held: list[int]) -> FrameId:\n    o: FrameId = _new(FrameId)\n    n = 1\n"),
        "{fast}"
    );
    assert!(
        fast.contains("    held.append(n)\n    return o\n"),
        "{fast}"
    );
    assert!(fast.contains("class _M_Verify(msgspec.Struct, kw_only=True, gc=False, tag_field=\"type\", tag=\"verify\"):"), "{fast}");
    // The lone variant is read as a tagged Struct on its own, which msgspec
    // takes without its tag: the tag is not counted among the members held
    // (the snapshot's two variants count theirs).
    assert!(
        fast.contains("def _c_Verify(s: _M_Verify, held: list[int]) -> Verify:\n    o: Verify = _new(Verify)\n    n = 0\n"),
        "{fast}"
    );
    let writer = file(&files, "cgp_types/_writer.py");
    assert!(writer.contains("def _write_FrameId("), "{writer}");
    assert!(
        writer.contains(r#"add("{\"type\":\"verify\"")"#),
        "{writer}"
    );
}

#[test]
fn a_member_named_as_a_keyword_is_renamed_in_both_fast_paths() {
    let files = render(
        &protocol(json!({
            "type": "object",
            "properties": {"from": {"type": "string"}},
            "required": ["from"]
        })),
        "demo/1.0",
        &crate::test_model::home(),
    )
    .expect("renders");
    let fast = file(&files, "cgp_types/_fast.py");
    assert!(
        fast.contains(r#"    from_: str = msgspec.field(name="from")"#),
        "{fast}"
    );
    assert!(
        fast.contains("    o.from_ = s.from_\n    held.append(1)\n"),
        "{fast}"
    );
    let writer = file(&files, "cgp_types/_writer.py");
    assert!(writer.contains("item = value.from_"), "{writer}");
    assert!(writer.contains(r#"add("{\"from\":")"#), "{writer}");
}

#[test]
fn a_shape_the_package_cannot_carry_is_refused_not_guessed() {
    let refused = render(
        &protocol(json!({
            "type": "object",
            "properties": {"frame_id": {"type": "string", "pattern": "^f"}},
            "required": ["frame_id"]
        })),
        "demo/1.0",
        &crate::test_model::home(),
    )
    .expect_err("a pattern has no Python form here");
    assert!(refused.to_string().contains("has no form"), "{refused}");
}

#[test]
fn enum_values_become_constant_names() {
    assert_eq!(constant_name("third-party-index"), "THIRD_PARTY_INDEX");
    assert_eq!(constant_name("1st"), "_1ST");
    assert_eq!(constant_name(""), "_");
}
