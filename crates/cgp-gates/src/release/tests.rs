//! Unit tests of the release manifest, the bump gate and set-version.

use super::*;
use cgp_classify::ComparedVersion;

fn version(text: &str) -> ProtocolVersion {
    text.parse().expect("version")
}

fn side(version: &str, extra: Value) -> ComparedVersion {
    let mut members = json!({"type": {"const": "ask"}, "goal": {"type": "string"}});
    if let (Some(members), Value::Object(extra)) = (members.as_object_mut(), extra) {
        members.extend(extra);
    }
    let document = json!({
        "x-cgp-profile": "interop",
        "x-cgp-protocol-version": version,
        "oneOf": [{"x-cgp-direction": "host-to-provider", "type": "object",
                   "properties": members, "required": ["type", "goal"]}],
        "$defs": {}
    });
    let text = serde_json::to_string_pretty(&document).unwrap_or_default();
    ComparedVersion::from_bundle_text("b.json", &text).expect("bundle")
}

#[test]
fn judge_holds_the_version_to_the_changes() {
    let released = side("demo/1.0", json!({}));
    let unchanged = |v: &str| judge(Some(&released), &side(v, json!({})));
    let same = unchanged("demo/1.0");
    assert!(same.passed());
    assert_eq!(same.summary(), "schema/ is released demo/1.0, unchanged");
    assert_eq!(
        unchanged("demo/1.1").problems,
        vec![BumpProblem::UnchangedButBumped {
            released: version("demo/1.0"),
            working: version("demo/1.1"),
        }]
    );
    assert_eq!(
        unchanged("demo/1.1").problems[0].to_string(),
        "schema/ is identical to released demo/1.0, so its version must stay demo/1.0; schema says demo/1.1"
    );
    let older = judge(
        Some(&side("demo/1.2", json!({}))),
        &side("demo/1.1", json!({})),
    );
    assert_eq!(
        older.problems,
        vec![BumpProblem::OlderThanRelease {
            released: version("demo/1.2"),
            working: version("demo/1.1"),
        }]
    );
    assert_eq!(
        older.problems[0].to_string(),
        "schema says demo/1.1, but the latest release is demo/1.2; the working version must be demo/1.2 or newer"
    );
    let added = json!({"note": {"type": ["string", "null"]}});
    let skipped = judge(Some(&released), &side("demo/1.3", added.clone()));
    assert!(skipped.passed(), "{:?}", skipped.problems);
    assert_eq!(
        skipped.notes,
        vec!["demo/1.3 skips demo/1.1, the next minor version after demo/1.0".to_owned()]
    );
    assert_eq!(skipped.required_version, Some(version("demo/1.1")));
    assert_eq!(
        skipped.summary(),
        "1 change since released demo/1.0 needs a minor bump; schema says demo/1.3"
    );
    let documented = side(
        "demo/1.1",
        json!({"goal": {"type": "string", "description": "Why."}}),
    );
    let verdict = judge(Some(&released), &documented);
    assert!(verdict.passed(), "{:?}", verdict.problems);
    assert_eq!(
        verdict.summary(),
        "1 change since released demo/1.0 needs no bump; schema says demo/1.1"
    );
    let first = judge(None, &side("demo/1.0", added));
    assert!(first.passed());
    assert_eq!(
        first.summary(),
        "no protocol version is released yet; `cargo xtask release` freezes demo/1.0"
    );
}

#[test]
fn the_manifest_renders_sorted_and_parses_back() {
    let mut manifest = Manifest::default();
    let files = |slug: &str| {
        BTreeMap::from([
            (
                format!("generated/schema/{slug}/strict.schema.json"),
                "s".to_owned(),
            ),
            (
                format!("generated/schema/{slug}/interop.schema.json"),
                "i".to_owned(),
            ),
        ])
    };
    assert_eq!(
        manifest.bless(&version("demo/1.10"), &files("demo-1.10")),
        Ok(Blessing::Released)
    );
    assert_eq!(
        manifest
            .bless(&version("demo/1.2"), &files("demo-1.2"))
            .map_err(|error| error.to_string()),
        Err("demo/1.2 is older than the latest release demo/1.10".into())
    );
    let text = manifest.render();
    assert_eq!(Manifest::parse("m.json", &text), Ok(manifest.clone()));
    assert!(text.contains("\"generated/schema/demo-1.10/interop.schema.json\": [\n          \"sha256:de7d1b721a1e0632b7cf04edf5032c8ecffa9f9a08492152b926f1a5a7e765d7\"\n        ],\n        \"generated/schema/demo-1.10/strict.schema.json\""), "{text}");
    assert_eq!(
        manifest.bless(&version("demo/1.10"), &files("demo-1.10")),
        Ok(Blessing::AlreadyReleased)
    );
    let mut changed = files("demo-1.10");
    changed.insert(
        "generated/schema/demo-1.10/strict.schema.json".into(),
        "S".into(),
    );
    assert_eq!(
        manifest.bless(&version("demo/1.10"), &changed)
            .map_err(|error| error.to_string()),
        Err("demo/1.10 is already released and frozen, and these files would differ from it: generated/schema/demo-1.10/strict.schema.json; bump the version instead".into())
    );
}

#[test]
fn a_reissue_keeps_every_digest_a_file_had() {
    let path = "generated/schema/demo-1.0/interop.schema.json";
    let one = |text: &str| BTreeMap::from([(path.to_owned(), text.to_owned())]);
    let mut manifest = Manifest::default();
    manifest
        .bless(&version("demo/1.0"), &one("a"))
        .expect("bless");
    assert_eq!(
        manifest.reissue(&version("demo/1.0"), &one("a")),
        Ok(Vec::new())
    );
    assert_eq!(
        manifest.reissue(&version("demo/1.0"), &one("b")),
        Ok(vec![path.to_owned()])
    );
    manifest
        .reissue(&version("demo/1.0"), &one("c"))
        .expect("again");
    let release = manifest.release(&version("demo/1.0")).expect("released");
    assert_eq!(
        release.history(path),
        vec![
            cgp_schema::digest::of(b"a").as_str(),
            cgp_schema::digest::of(b"b").as_str(),
            cgp_schema::digest::of(b"c").as_str()
        ]
    );
    assert_eq!(manifest.verify(path, Some(b"c")), Ok(()));
    assert!(manifest.verify(path, Some(b"a")).is_err());
    let text = manifest.render();
    assert_eq!(Manifest::parse("m.json", &text), Ok(manifest.clone()));
    assert_eq!(
        manifest
            .reissue(&version("demo/1.1"), &one("d"))
            .map_err(|error| error.to_string()),
        Err("demo/1.1 is not released, so there is nothing to re-issue".into())
    );
    let other = BTreeMap::from([("generated/x".to_owned(), "x".to_owned())]);
    assert_eq!(
        manifest.reissue(&version("demo/1.0"), &other)
            .map_err(|error| error.to_string()),
        Err("generated/x is not a file of released demo/1.0; a re-issue replaces bytes, it adds no files".into())
    );
    // The form before re-issues (one digest a file) still reads.
    let legacy = format!(
        "{{\"releases\": [{{\"version\": \"demo/1.0\", \"files\": {{\"{path}\": \"{}\"}}}}]}}",
        cgp_schema::digest::of(b"a")
    );
    let read = Manifest::parse("m.json", &legacy).expect("legacy form");
    assert_eq!(read.verify(path, Some(b"a")), Ok(()));
}

#[test]
fn frozen_files_must_keep_their_bytes() {
    let mut manifest = Manifest::default();
    let path = "generated/schema/demo-1.0/interop.schema.json";
    manifest
        .bless(
            &version("demo/1.0"),
            &BTreeMap::from([(path.to_owned(), "abc".to_owned())]),
        )
        .expect("bless");
    assert_eq!(manifest.verify(path, Some(b"abc")), Ok(()));
    assert_eq!(manifest.verify("generated/other", None), Ok(()));
    assert_eq!(
        manifest.verify(path, None),
        Err(FrozenProblem::Missing {
            path: path.into(),
            version: version("demo/1.0"),
        })
    );
    let changed = manifest
        .verify(path, Some(b"abd"))
        .expect_err("other bytes");
    assert_eq!(
        changed,
        FrozenProblem::Changed {
            path: path.into(),
            version: version("demo/1.0"),
            recorded: cgp_schema::digest::of(b"abc"),
            found: cgp_schema::digest::of(b"abd"),
        }
    );
    assert_eq!(
        changed.to_string(),
        format!(
            "{path}: changed, but demo/1.0 is released and this file is frozen (manifest sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad, file {}); bump the version in the schemas instead, or re-issue it with `cargo xtask release` if its verdicts are unchanged",
            cgp_schema::digest::of(b"abd")
        )
    );
}

#[test]
fn a_hand_edited_manifest_is_rejected_with_positions() {
    let text = "{\n  \"releases\": [\n    {\"version\": \"demo/1.0\", \"files\": {\"../x\": \"sha256:00\"}}\n  ],\n  \"extra\": 1\n}\n";
    let problems = Manifest::parse("m.json", text).expect_err("invalid");
    assert_eq!(
        problems.to_string(),
        "m.json:3:47: /releases/0/files/..~1x: `../x` is not a repository-relative path\n\
         m.json:3:47: /releases/0/files/..~1x: a file's history is a non-empty array of digests, each `sha256:` and 64 lowercase hex digits\n\
         m.json:5:12: /extra: unknown member `extra`; the manifest has `description` and `releases`"
    );
}

#[test]
fn set_version_rewrites_only_what_the_version_owns() {
    let envelope = "{\n  \"$id\": \"https://x.test/demo-1/envelope.schema.json\",\n  \"x-cgp-protocol-version\": \"demo/1.0\",\n  \"x-cgp-since\": \"1.0\",\n  \"description\": \"demo/1.0 \\\"quoted\\\"\"\n}\n";
    let member = "{\"$id\": \"https://x.test/demo-1/types/a.schema.json\", \"properties\": {\"a\": {\"x-cgp-since\": \"1.0\"}, \"b\": {\"x-cgp-since\": \"1.1\"}}}";
    let sources = vec![
        ("envelope.schema.json".to_owned(), envelope.to_owned()),
        ("types/a.schema.json".to_owned(), member.to_owned()),
    ];
    let minor = set_version(&sources, &version("demo/1.1")).expect("minor");
    assert_eq!(
        minor,
        BTreeMap::from([(
            "envelope.schema.json".to_owned(),
            envelope.replace(
                "\"x-cgp-protocol-version\": \"demo/1.0\"",
                "\"x-cgp-protocol-version\": \"demo/1.1\""
            )
        )])
    );
    let major = set_version(&sources, &version("demo/2.0")).expect("major");
    assert_eq!(
        major.get("types/a.schema.json").map(String::as_str),
        Some(
            "{\"$id\": \"https://x.test/demo-2/types/a.schema.json\", \"properties\": {\"a\": {\"x-cgp-since\": \"2.0\"}, \"b\": {\"x-cgp-since\": \"2.0\"}}}"
        )
    );
    assert_eq!(
        major.get("envelope.schema.json").map(String::as_str),
        Some(
            "{\n  \"$id\": \"https://x.test/demo-2/envelope.schema.json\",\n  \"x-cgp-protocol-version\": \"demo/2.0\",\n  \"x-cgp-since\": \"2.0\",\n  \"description\": \"demo/1.0 \\\"quoted\\\"\"\n}\n"
        )
    );
    assert_eq!(
        set_version(&sources, &version("other/2.0")).map_err(|error| error.to_string()),
        Err("other/2.0 is not a version of demo, the protocol the schemas describe".into())
    );
}
