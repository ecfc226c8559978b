//! The library's layers form no cycle: code in one layer names only itself and
//! the layers before it (lib.rs lists them in this order). A path such as
//! `crate::validate` or `use crate::semantic::Rule` in code (not in comments)
//! is a dependency on the layer that holds that module.

use std::collections::BTreeMap;
use std::path::Path;

/// The layers, first to last, with the modules (as `crate::` names them) each
/// holds.
const LAYERS: [(&str, &[&str]); 8] = [
    (
        "text",
        &[
            "text",
            "json_text",
            "diagnostic",
            "Diagnostic",
            "Diagnostics",
        ],
    ),
    (
        "schema",
        &[
            "schema",
            "source",
            "bundle",
            "keywords",
            "version",
            "model",
            "Bundle",
            "Profile",
            "SchemaSet",
            "ProtocolVersion",
        ],
    ),
    ("semantic", &["semantic", "attestation"]),
    (
        "wire",
        &[
            "wire",
            "validate",
            "transcript",
            "stream",
            "Validator",
            "Violation",
        ],
    ),
    ("gates", &["gates", "corpus", "sync"]),
    ("compat", &["compat", "classify", "reissue", "release"]),
    ("conformance", &["conformance"]),
    ("report", &["report"]),
];

fn layer_of_module(name: &str) -> Option<usize> {
    LAYERS
        .iter()
        .position(|(_, modules)| modules.contains(&name))
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read the source directory") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// Every `crate::<name>` in code lines of `text`, with its line number.
fn crate_paths(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or_default();
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            found.push((index + 1, name));
            rest = after;
        }
    }
    found
}

#[test]
fn no_layer_names_a_later_one() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut upward = Vec::new();
    let mut counted: BTreeMap<&str, usize> = BTreeMap::new();
    for file in &files {
        let relative = file.strip_prefix(&src).expect("under src");
        let Some(top) = relative.components().next() else {
            continue;
        };
        let top = top.as_os_str().to_string_lossy();
        // lib.rs sits above every layer; unit tests may reach anywhere.
        let Some(own) = layer_of_module(&top) else {
            continue;
        };
        if relative.ends_with("tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("read");
        for (line, name) in crate_paths(&text) {
            if name.is_empty() {
                upward.push(format!(
                    "{}:{line}: a grouped `crate::{{…}}` path hides its layers from this check; write one path a module",
                    relative.display()
                ));
                continue;
            }
            let Some(other) = layer_of_module(&name) else {
                continue;
            };
            *counted.entry(LAYERS[own].0).or_default() += 1;
            if other > own {
                upward.push(format!(
                    "{}:{line}: the {} layer names crate::{name}, of the later {} layer",
                    relative.display(),
                    LAYERS[own].0,
                    LAYERS[other].0
                ));
            }
        }
    }
    assert!(upward.is_empty(), "{}", upward.join("\n"));
    // The scan saw the crate's cross-layer paths, so it is looking at real code.
    assert!(counted.get("wire").copied().unwrap_or(0) > 5, "{counted:?}");
    assert!(
        counted.get("conformance").copied().unwrap_or(0) > 5,
        "{counted:?}"
    );
}

#[test]
fn the_scan_sees_paths_in_code_and_not_in_comments() {
    let text = "use crate::validate::Validator;\n// crate::conformance in a comment\nlet x = crate::text::shown::cut(a, 1); // crate::stream\n";
    assert_eq!(
        crate_paths(text),
        vec![(1, "validate".to_owned()), (3, "text".to_owned())]
    );
}
