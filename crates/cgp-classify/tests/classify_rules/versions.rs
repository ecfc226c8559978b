//! Locations in both versions, bumps, the published bundle against its
//! sources, and the rule table of SPEC.md.

use super::fixture::*;
use cgp_classify::{self as classify, Bump, ChangeRule};
use serde_json::json;

#[test]
fn locations_point_into_both_versions() {
    let old = base();
    let mut new = base();
    members(&mut new, QUERY).shift_remove("as_of");
    let comparison = classify::classify(&load(&old), &load(&new));
    let [change] = comparison.changes.as_slice() else {
        panic!("{:#?}", comparison.changes);
    };
    let old_text = serde_json::to_string_pretty(&old[QUERY]).expect("serialise");
    let new_text = serde_json::to_string_pretty(&new[QUERY]).expect("serialise");
    // `line:col` of the value of the member `needle`, 1-based.
    let place = |text: &str, needle: &str| {
        let (line, at) = text
            .lines()
            .enumerate()
            .find_map(|(line, l)| l.find(needle).map(|at| (line, at)))
            .expect("line");
        format!("{}:{}", line + 1, at + needle.len() + ": ".len() + 1)
    };
    let old_place = place(&old_text, "\"as_of\"");
    let new_place = place(&new_text, "\"properties\"");
    assert_eq!(
        change.old.as_ref().map(ToString::to_string),
        Some(format!("schema/types/query.schema.json:{old_place}"))
    );
    // The member is gone from the new file: the object that lost it is shown.
    assert_eq!(
        change.new.as_ref().map(ToString::to_string),
        Some(format!("schema/types/query.schema.json:{new_place}"))
    );
    assert_eq!(
        comparison.changes[0].to_string(),
        format!(
            "schema/types/query.schema.json:{new_place}: FIELD_REMOVED /Query/as_of (host-to-provider) requires a major bump: the member `as_of` was removed; deprecate it instead (SPEC U4)"
        )
    );
    let change = &comparison.changes[0];
    let location = change.location().expect("a location");
    assert_eq!(
        format!("{}:{}:{}", location.file, location.line, location.column),
        format!("schema/types/query.schema.json:{new_place}")
    );
    assert_eq!(
        change.headline(),
        "FIELD_REMOVED /Query/as_of (host-to-provider) requires a major bump: the member `as_of` was removed; deprecate it instead (SPEC U4)"
    );
}

#[test]
fn an_added_optional_member_is_minor_and_a_description_edit_needs_no_bump() {
    let old = base();
    let mut new = base();
    members(&mut new, QUERY).insert(
        "note".into(),
        json!({"type": "string", "description": "A note, 100% optional.", "x-cgp-since": "1.0", "x-cgp-emit": "omit-if-absent"}),
    );
    *at(&mut new, SHAPE, "/description") = json!("Shapes: full, compact.");
    let comparison = classify::classify(&load(&old), &load(&new));
    let bumps: Vec<Bump> = comparison
        .changes
        .iter()
        .map(|change| change.required_bump)
        .collect();
    assert_eq!(bumps, vec![Bump::Minor, Bump::None]);
    assert_eq!(comparison.required_bump, Bump::Minor);
}

#[test]
fn bumps_order_and_apply() {
    let v = |text: &str| {
        text.parse::<cgp_schema::ProtocolVersion>()
            .expect("version")
    };
    assert!(Bump::None < Bump::Minor && Bump::Minor < Bump::Major);
    assert_eq!(
        Bump::between(&v("demo/1.0"), &v("demo/1.0")),
        Some(Bump::None)
    );
    assert_eq!(
        Bump::between(&v("demo/1.0"), &v("demo/1.4")),
        Some(Bump::Minor)
    );
    assert_eq!(
        Bump::between(&v("demo/1.3"), &v("demo/2.0")),
        Some(Bump::Major)
    );
    assert_eq!(Bump::between(&v("demo/1.3"), &v("demo/1.2")), None);
    assert_eq!(Bump::between(&v("demo/1.0"), &v("other/1.1")), None);
    assert_eq!(Bump::Minor.apply(&v("demo/1.9")), v("demo/1.10"));
    assert_eq!(Bump::Major.apply(&v("demo/1.9")), v("demo/2.0"));
    assert_eq!("major".parse::<Bump>(), Ok(Bump::Major));
    assert_eq!(
        "huge".parse::<Bump>(),
        Err("unknown bump `huge`; expected `none`, `minor` or `major`".to_owned())
    );
}

#[test]
fn the_published_bundle_compares_equal_to_its_sources() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let source = classify::load_side(&root.join("schema")).expect("schema/ loads");
    let bundle_path = root.join(format!(
        "generated/schema/{}/interop.schema.json",
        source.version().slug()
    ));
    let published = classify::load_side(&bundle_path).expect("the interop bundle loads");
    for (old, new) in [(&source, &published), (&published, &source)] {
        let comparison = classify::classify(old, new);
        assert_eq!(comparison.changes, Vec::new());
    }
}

/// SPEC.md §Compatibility documents every rule, with the bump the code requires.
#[test]
fn the_spec_rule_table_matches_the_rules() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let spec = std::fs::read_to_string(root.join("SPEC.md")).expect("SPEC.md");
    let table = spec
        .split("**The classifier's rules.**")
        .nth(1)
        .expect("SPEC.md §Compatibility has the rule table");
    let rows: Vec<(String, String)> = table
        .lines()
        .skip_while(|line| !line.starts_with("| Rule |"))
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            (
                cells.get(1).unwrap_or(&"").trim_matches('`').to_owned(),
                cells.get(3).unwrap_or(&"").to_string(),
            )
        })
        .collect();
    let expected: Vec<(String, String)> = ChangeRule::ALL
        .iter()
        .map(|rule| {
            let bump = match rule.decision() {
                classify::Decision::Fixed(bump) => bump.to_string(),
                classify::Decision::Narrowed | classify::Decision::Widened => {
                    "major or minor".to_owned()
                }
            };
            (rule.id().to_owned(), bump)
        })
        .collect();
    assert_eq!(rows, expected);
}
