//! `cargo xtask site`'s library: the same tree gives the same bytes, every
//! variant and type has a page in every version, nothing points outside the
//! site, and the search index lists, for every member name, every type that
//! has it.

use std::collections::{BTreeMap, BTreeSet};

use cgp_codegen::site::{self, WORKING};
use cgp_schema::model::{Protocol, Reading, Shape};
use cgp_schema::{Bundle, Profile};

#[test]
fn the_site_is_deterministic_complete_and_searchable() {
    let root = cgp_test_support::repo();
    let generation = cgp_codegen::generate(&root).expect("the tree generates");
    let first = site::build(&root, &generation).expect("the site builds");
    let second = site::build(&root, &generation).expect("the site builds again");
    assert_eq!(first, second, "the same tree gives the same bytes");

    let protocol = Protocol::of_bundle(&generation.set, generation.bundle(Profile::Interop));
    // Each version's pages follow its own model: a release holds what its
    // frozen bundle holds, the working version what the schemas hold now.
    let mut versions = Vec::new();
    for release in generation.releases.releases() {
        let path = cgp_codegen::plan::published_path(&release.version, Profile::Interop);
        let text = std::fs::read_to_string(root.join(&path)).expect("the frozen bundle");
        let bundle = Bundle::from_published(&text).expect("a published bundle");
        let released = Protocol::read(&bundle.document, Reading::Validator, &|_| None);
        versions.push((format!("v/{}/", release.version.slug()), released));
    }
    let working = Protocol::of_bundle(&generation.set, generation.bundle(Profile::Interop));
    versions.push((format!("v/{WORKING}/"), working));
    for (dir, protocol) in &versions {
        for variant in &protocol.variants {
            assert!(first.contains_key(&format!("{dir}variants/{}.html", variant.tag)));
        }
        for name in protocol.types.keys() {
            assert!(
                first.contains_key(&format!("{dir}types/{name}.html")),
                "{dir}{name}"
            );
        }
    }
    for page in [
        "index.html",
        "rules.html",
        "changes.html",
        "conversation.html",
        "spec.html",
    ] {
        assert!(first.contains_key(page), "{page}");
    }
    for (path, text) in &first {
        for outside in ["src=\"http", "href=\"//", "@import", "url(http"] {
            assert!(
                !text.contains(outside),
                "{path} fetches from outside: {outside}"
            );
        }
    }

    // The index: [name, shown, url, kind] entries.
    let script = &first["assets/search-index.js"];
    let json = script
        .split_once("= ")
        .and_then(|(_, rest)| rest.trim().strip_suffix(';'))
        .expect("the index script");
    let entries: Vec<[String; 4]> = serde_json::from_str(json).expect("the index is JSON");
    let mut indexed: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for [name, _, url, kind] in &entries {
        if kind == "member" {
            let page = url.split_once('#').map_or(url.as_str(), |(page, _)| page);
            indexed.entry(name).or_default().insert(page);
        }
    }
    let mut expected: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for variant in &protocol.variants {
        for member in &variant.object.members {
            expected
                .entry(member.name.clone())
                .or_default()
                .insert(format!("v/{WORKING}/variants/{}.html", variant.tag));
        }
    }
    for (name, named) in &protocol.types {
        let members: Vec<_> = match &named.shape {
            Shape::Object(object) => object.members.iter().collect(),
            Shape::TaggedUnion(union) => union
                .shared
                .members
                .iter()
                .chain(union.branches.iter().flat_map(|b| &b.object.members))
                .collect(),
            _ => Vec::new(),
        };
        for member in members {
            expected
                .entry(member.name.clone())
                .or_default()
                .insert(format!("v/{WORKING}/types/{name}.html"));
        }
    }
    assert!(expected["id"].len() > 1, "id is shared");
    for (name, pages) in &expected {
        let found = indexed.get(name.as_str()).cloned().unwrap_or_default();
        for page in pages {
            assert!(
                found.contains(page.as_str()),
                "searching {name} misses {page}"
            );
        }
    }
    assert!(expected["citation_label"].contains(&format!("v/{WORKING}/types/ContextFrame.html")));
}
