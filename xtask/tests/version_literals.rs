//! Nothing outside `schema/` and what codegen writes names a protocol version:
//! a version change is `cargo xtask set-version` and `cargo xtask codegen`, with
//! no hand edit anywhere else. Sources under crates/, xtask/ and spec-tests/
//! derive the version they need (from `cgp_types::PROTOCOL_VERSION` or the
//! schemas) instead of spelling one.

mod support;

use std::path::Path;

/// The source files a maintainer writes by hand: the ones the rule covers.
const SOURCE_EXTENSIONS: [&str; 5] = ["rs", "toml", "py", "mjs", "md"];

/// `name/1`, `name-1` or `name_1`: a version, a version slug or a family module.
fn version_literals(text: &str, name: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find(name) {
            let after = &rest[at + name.len()..];
            let mut chars = after.chars();
            let separated = matches!(chars.next(), Some('/' | '-' | '_'));
            if separated && chars.next().is_some_and(|c| c.is_ascii_digit()) {
                found.push((index + 1, line.trim().to_owned()));
                break;
            }
            rest = after;
        }
    }
    found
}

fn scan(root: &Path, relative: &str, name: &str, found: &mut Vec<String>) {
    if cgp_codegen::output::OWNED_DIRS.contains(&relative) {
        return;
    }
    let Ok(entries) = std::fs::read_dir(root.join(relative)) else {
        return;
    };
    for entry in entries {
        let entry = entry.expect("directory entry");
        let file_name = entry.file_name().to_string_lossy().into_owned();
        let path = format!("{relative}/{file_name}");
        let kind = entry.file_type().expect("file type");
        if kind.is_dir() {
            if !matches!(file_name.as_str(), "target" | "node_modules" | ".git") {
                scan(root, &path, name, found);
            }
            continue;
        }
        let extension = Path::new(&file_name)
            .extension()
            .map(|e| e.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !SOURCE_EXTENSIONS.contains(&extension.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).expect("read source");
        for (line, shown) in version_literals(&text, name) {
            found.push(format!("{path}:{line}: {shown}"));
        }
    }
}

#[test]
fn no_source_outside_schema_and_generated_names_a_protocol_version() {
    let root = support::repo();
    let (name, _) = cgp_types::PROTOCOL_VERSION
        .split_once('/')
        .expect("`<name>/<major>.<minor>`");
    let mut found = Vec::new();
    for top in ["crates", "xtask", "spec-tests"] {
        scan(&root, top, name, &mut found);
    }
    assert!(
        found.is_empty(),
        "these lines name a protocol version; derive it from cgp_types::PROTOCOL_VERSION or the schemas instead:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_sees_every_spelling_of_a_version() {
    let text = "a\nsays demo/1.0 here\nslug demo-12.3\nmodule demo_2\ndemo-types demo/x\n";
    let lines: Vec<usize> = version_literals(text, "demo")
        .into_iter()
        .map(|(line, _)| line)
        .collect();
    assert_eq!(lines, vec![2, 3, 4]);
}
