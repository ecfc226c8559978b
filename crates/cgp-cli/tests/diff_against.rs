//! `cgp diff --against REF [NEW]` in a temporary git repository: the old side
//! is read with git at the ref (nothing checked out), or is a version cgp
//! embeds; a missing ref or a tree without schemas exits 2 with the reason.

use cgp_test_support::{add_optional_query_member, copy_dir, git};
use std::path::Path;
use std::process::{Command, Output};

const SCHEMA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../schema");

fn cgp_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cgp"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("cgp runs")
}

/// A repository whose first commit has only a README, whose second adds
/// `schema/`, and whose work tree adds an optional member to ContextQuery.
fn repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"]);
    std::fs::write(root.join("README"), "test\n").expect("write");
    git(root, &["add", "README"]);
    git(root, &["commit", "-q", "-m", "no schemas yet"]);
    git(root, &["tag", "empty"]);
    copy_dir(Path::new(SCHEMA), &root.join("schema"));
    git(root, &["add", "schema"]);
    git(root, &["commit", "-q", "-m", "schemas"]);
    add_optional_query_member(root, "cgp_test_added", "Added by the test.");
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn the_old_side_is_read_at_a_git_ref() {
    let repo = repository();
    let root = repo.path();
    let run = cgp_in(root, &["diff", "--against", "main"]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let report = text(&run.stdout);
    assert!(
        report.contains("FIELD_ADDED_OPTIONAL /ContextQuery/cgp_test_added"),
        "{report}"
    );
    assert!(
        report.contains("schema/types/context-query.schema.json:"),
        "{report}"
    );
    assert!(
        report.contains("1 change; required bump: minor"),
        "{report}"
    );
    // The same from a subdirectory, NEW named relative to it, and by commit.
    let nested = cgp_in(
        &root.join("schema/types"),
        &["diff", "--against", "HEAD", "--fail-on", "minor", ".."],
    );
    assert_eq!(nested.status.code(), Some(1), "{}", text(&nested.stderr));
    assert!(
        text(&nested.stdout).contains("FIELD_ADDED_OPTIONAL"),
        "{}",
        text(&nested.stdout)
    );
    // JSON names the old side at the ref.
    let json = cgp_in(
        root,
        &["diff", "--against", "main", "--format", "json", "schema"],
    );
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let old = report["changes"][0]["old"].as_str().expect("old location");
    assert!(
        old.starts_with("main:schema/types/context-query.schema.json:"),
        "{old}"
    );
    // Nothing was checked out: the work tree still has the change.
    let status = Command::new("git")
        .current_dir(root)
        .args(["status", "--porcelain"])
        .output()
        .expect("git");
    assert!(text(&status.stdout).contains("context-query.schema.json"));
}

#[test]
fn the_old_side_can_be_an_embedded_version() {
    let repo = repository();
    let version = cgp_types::PROTOCOL_VERSION;
    let run = cgp_in(repo.path(), &["diff", "--against", version, "schema"]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let report = text(&run.stdout);
    assert!(
        report.contains("FIELD_ADDED_OPTIONAL /ContextQuery/cgp_test_added"),
        "{report}"
    );
    assert!(report.contains("1 change"), "{report}");
}

#[test]
fn a_missing_ref_or_a_tree_without_schemas_exits_2() {
    let repo = repository();
    let root = repo.path();
    let missing = cgp_in(root, &["diff", "--against", "no-such-branch"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        text(&missing.stderr).contains("there is no commit `no-such-branch`"),
        "{}",
        text(&missing.stderr)
    );
    let empty = cgp_in(root, &["diff", "--against", "empty"]);
    assert_eq!(empty.status.code(), Some(2));
    assert!(
        text(&empty.stderr).contains("empty has no schemas at `schema`"),
        "{}",
        text(&empty.stderr)
    );
    let outside = tempfile::tempdir().expect("temp dir");
    copy_dir(Path::new(SCHEMA), &outside.path().join("schema"));
    let no_repo = cgp_in(outside.path(), &["diff", "--against", "main"]);
    assert_eq!(no_repo.status.code(), Some(2));
    assert!(
        text(&no_repo.stderr).contains("not inside a git repository"),
        "{}",
        text(&no_repo.stderr)
    );
    let both = cgp_in(root, &["diff", "--against", "main", "a", "b"]);
    assert_eq!(both.status.code(), Some(2));
}

#[test]
fn markdown_is_a_changelog_section_grouped_by_bump() {
    let repo = repository();
    let root = repo.path();
    let query = root.join("schema/types/context-query.schema.json");
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&query).expect("read")).expect("JSON");
    value["description"] = "Reworded by the test.".into();
    std::fs::write(
        &query,
        serde_json::to_string_pretty(&value).expect("JSON") + "\n",
    )
    .expect("write");
    let run = cgp_in(root, &["diff", "--against", "main", "--format", "markdown"]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let markdown = text(&run.stdout);
    assert!(
        markdown.starts_with("## main:schema → schema\n\nRequired bump: **minor**.\n"),
        "{markdown}"
    );
    let minor = markdown.find("### Minor").expect("a minor group");
    let none = markdown.find("### No bump").expect("a no-bump group");
    assert!(minor < none, "{markdown}");
    assert!(!markdown.contains("### Major"), "{markdown}");
    assert!(
        markdown.contains("- `FIELD_ADDED_OPTIONAL` `/ContextQuery/cgp_test_added` (schema/types/context-query.schema.json:"),
        "{markdown}"
    );
    assert!(
        markdown.contains("- `DOCUMENTATION_CHANGED` `/ContextQuery` ("),
        "{markdown}"
    );
}
