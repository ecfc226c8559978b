//! The "In CI" section of the CI guide (`docs/ci.md`), run: every `cgp` command in its `sh` blocks, in
//! order, in a scratch git repository shaped like a provider's (schemas on
//! `main`, a compatible change in the work tree, a recorded transcript), with
//! the test provider standing in for `./their-provider`. Each must succeed, and
//! what it writes must be what the section says.

use cgp_test_support::{add_optional_query_member, copy_dir, git};
use std::path::{Path, PathBuf};
use std::process::Command;

const PROVIDER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/providers/provider.py");
const REPO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// The commands of the section's `sh` blocks, in order.
fn commands() -> Vec<String> {
    let guide = std::fs::read_to_string(Path::new(REPO).join("docs/ci.md")).expect("docs/ci.md");
    let start = guide.find("\n## In CI: ").expect("the In CI section");
    let rest = &guide[start + 4..];
    let section = &rest[..rest.find("\n## ").unwrap_or(rest.len())];
    let mut commands = Vec::new();
    let mut in_block = false;
    for line in section.lines() {
        match line.trim() {
            "```sh" => in_block = true,
            "```" => in_block = false,
            command if in_block && !command.is_empty() && !command.starts_with('#') => {
                commands.push(command.to_owned());
            }
            _ => {}
        }
    }
    commands
}

#[test]
fn the_in_ci_examples_run() {
    let commands = commands();
    assert!(commands.len() >= 8, "{commands:?}");
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"]);
    copy_dir(&Path::new(REPO).join("schema"), &root.join("schema"));
    std::fs::create_dir(root.join("transcripts")).expect("mkdir");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/errors.ndjson"),
        root.join("transcripts/session.ndjson"),
    )
    .expect("copy");
    git(root, &["add", "."]);
    git(root, &["commit", "-q", "-m", "schemas"]);
    git(root, &["update-ref", "refs/remotes/origin/main", "HEAD"]);
    // A compatible change in the pull request: a new optional member.
    add_optional_query_member(root, "cgp_readme_added", "Added in the pull request.");

    let bin = PathBuf::from(env!("CARGO_BIN_EXE_cgp"));
    let path = format!(
        "{}:{}",
        bin.parent().expect("bin dir").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for command in &commands {
        assert!(command.starts_with("cgp "), "{command}");
        let shell = command.replace("./their-provider", &format!("python3 {PROVIDER} budget"));
        let output = Command::new("sh")
            .current_dir(root)
            .env("PATH", &path)
            .args(["-c", &shell])
            .output()
            .expect("sh runs");
        assert_eq!(
            output.status.code(),
            Some(0),
            "{command}\n{}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    for file in ["cgp-validate-baseline.json", "cgp-check-baseline.json"] {
        let baseline: serde_json::Value =
            serde_json::from_slice(&std::fs::read(root.join(file)).expect(file)).expect("JSON");
        assert!(
            !baseline["entries"].as_array().expect("entries").is_empty(),
            "{file}"
        );
    }
    let changes = std::fs::read_to_string(root.join("schema-changes.md")).expect("markdown");
    assert!(changes.contains("### Minor"), "{changes}");
    assert!(
        changes.contains("`/ContextQuery/cgp_readme_added`"),
        "{changes}"
    );
    for file in ["cgp-validate.xml", "cgp-check.xml"] {
        let xml = std::fs::read_to_string(root.join(file)).expect(file);
        let document = roxmltree::Document::parse(&xml).expect("XML");
        assert_eq!(document.root_element().tag_name().name(), "testsuites");
        assert_eq!(
            document.root_element().attribute("failures"),
            Some("0"),
            "{file}: {xml}"
        );
    }
}
