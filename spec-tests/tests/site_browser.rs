//! The site `cargo xtask site` builds, in a real browser: the system's
//! Chromium driven by the pinned playwright-core, with the pinned axe-core
//! (both installed under `target/peers/browser`). The site is built by the
//! same library call as the xtask, into a directory outside the repository;
//! `peers/site_browser.cjs` does the browsing. Screenshots of each kind of
//! page are kept in `target/site-screenshots/`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use cgp_schema::Profile;
use cgp_schema::model::{Protocol, Shape};

/// The Chromium to drive: `$CGP_CHROMIUM`, else `chromium` on the PATH.
fn chromium() -> PathBuf {
    if let Some(path) = std::env::var_os("CGP_CHROMIUM") {
        return PathBuf::from(path);
    }
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join("chromium"))
        .find(|path| path.is_file())
        .expect("chromium on the PATH (Debian: apt-get install chromium; .ci/run installs it)")
}

/// Every member name of the working version, with the pages of the types and
/// variants that have it.
fn member_owners(protocol: &Protocol, dir: &str) -> BTreeMap<String, Vec<String>> {
    let mut owners: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut add = |members: &[cgp_schema::model::Member], page: &str| {
        for member in members {
            let list = owners.entry(member.name.clone()).or_default();
            if !list.iter().any(|known| known == page) {
                list.push(page.to_owned());
            }
        }
    };
    for variant in &protocol.variants {
        add(
            &variant.object.members,
            &format!("{dir}variants/{}.html", variant.tag),
        );
    }
    for (name, named) in &protocol.types {
        let page = format!("{dir}types/{name}.html");
        match &named.shape {
            Shape::Object(object) => add(&object.members, &page),
            Shape::TaggedUnion(union) => {
                add(&union.shared.members, &page);
                for branch in &union.branches {
                    add(&branch.object.members, &page);
                }
            }
            _ => {}
        }
    }
    owners
}

#[test]
#[ignore = "full tier"]
fn the_site_holds_in_a_real_browser() {
    let root = cgp_test_support::repo();
    let generation = cgp_codegen::generate(&root).expect("the tree generates");
    let files = cgp_codegen::site::build(&root, &generation).expect("the site builds");
    let scratch = cgp_test_support::Scratch::new("site");
    let site = scratch.join("site");
    cgp_codegen::site::write(&site, &files).expect("the site is written");

    let protocol = Protocol::of_bundle(&generation.set, generation.bundle(Profile::Interop));
    let working = format!("v/{}/", cgp_codegen::site::WORKING);
    let owners = member_owners(&protocol, &working);
    assert!(owners.get("id").is_some_and(|pages| pages.len() > 1));
    let published: Vec<String> = generation
        .releases
        .releases()
        .iter()
        .map(|release| release.version.to_string())
        .collect();
    assert!(!published.is_empty(), "at least one published version");
    let first_variant = protocol.variants.first().expect("a variant");
    let guide = files
        .keys()
        .find(|path| path.starts_with("guides/"))
        .cloned()
        .expect("at least one guide under docs/");
    let expectations = serde_json::json!({
        "published": published,
        "members": owners,
        "first_hit": {
            "query": "citation_label",
            "page": format!("{working}types/ContextFrame.html"),
            "heading": "ContextFrame",
        },
        "screenshots": {
            "home": "index.html",
            "version": format!("{working}index.html"),
            "published-version": format!("v/{}/index.html", generation.releases.releases()[0].version.slug()),
            "variant": format!("{working}variants/{}.html", first_variant.tag),
            "type": format!("{working}types/ContextFrame.html"),
            "vocabulary": format!("{working}types/FrameKind.html"),
            "rules": "rules.html",
            "changes": "changes.html",
            "conversation": "conversation.html",
            "spec": "spec.html",
            "guide": guide,
        },
    });
    let expectations_path = scratch.join("expectations.json");
    std::fs::write(&expectations_path, expectations.to_string()).expect("expectations written");

    let peers = spec_tests::peers::ensure_browser().unwrap_or_else(|error| panic!("{error}"));
    let shots = root.join("target/site-screenshots");
    let output = Command::new("node")
        .arg(root.join("spec-tests/peers/site_browser.cjs"))
        .arg(chromium())
        .arg(&site)
        .arg(&expectations_path)
        .arg(&shots)
        .env("NODE_PATH", spec_tests::peers::node_path(&peers))
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the browser check failed:\n{stdout}\n{stderr}"
    );
    let summary: serde_json::Value = serde_json::from_str(&stdout).expect("a JSON summary");
    assert_eq!(
        summary["pages"],
        files.keys().filter(|p| p.ends_with(".html")).count()
    );
    assert_eq!(summary["axe_checked"], summary["pages"]);
    assert_eq!(summary["members_searched"], owners.len());
    assert!(
        summary["internal_links"].as_u64().unwrap_or(0) > 100,
        "{summary}"
    );
    for kind in expectations["screenshots"]
        .as_object()
        .expect("kinds")
        .keys()
    {
        assert!(
            shots.join(format!("{kind}.png")).is_file(),
            "no screenshot of {kind}"
        );
    }
}
