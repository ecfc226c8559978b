//! End-to-end tests of `cgp diff` on copies of the published bundle with one
//! change each: formats and exit codes.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The working version's published interop bundle.
fn published() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../generated/schema")
        .join(cgp_types::PROTOCOL_VERSION.replacen('/', "-", 1))
        .join("interop.schema.json")
        .to_string_lossy()
        .into_owned()
}

/// A copy of the published bundle, changed by `edit`, written under `name`.
fn variant(name: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let text = std::fs::read_to_string(published()).expect("published bundle");
    let mut bundle: Value = serde_json::from_str(&text).expect("JSON");
    edit(&mut bundle);
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let mut text = serde_json::to_string_pretty(&bundle).expect("JSON");
    text.push('\n');
    std::fs::write(&path, text).expect("write");
    path
}

fn cgp(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cgp"))
        .args(args)
        .output()
        .expect("cgp runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn identical_versions_have_no_changes() {
    // Re-serialised with another member order: still no change.
    let copy = variant("diff-same.json", |bundle| {
        if let Some(defs) = bundle["$defs"].as_object_mut() {
            defs.sort_keys();
        }
    });
    let copy = copy.to_str().expect("UTF-8 path");
    let output = cgp(&["diff", &published(), copy, "--fail-on", "minor"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert_eq!(stdout(&output), "no changes\n");
}

#[test]
fn fail_on_decides_the_exit_code() {
    let minor = variant("diff-minor.json", |bundle| {
        bundle["$defs"]["ContextQuery"]["properties"]["priority"] = json!({
            "type": ["integer", "null"],
            "x-cgp-since": "1.1",
            "x-cgp-emit": "omit-if-absent"
        });
    });
    let minor = minor.to_str().expect("UTF-8 path");
    let output = cgp(&["diff", &published(), minor]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    assert!(
        text.contains("FIELD_ADDED_OPTIONAL /ContextQuery/priority"),
        "{text}"
    );
    assert!(text.ends_with("1 change; required bump: minor\n"), "{text}");
    // The annotation says what the human line says: `FILE:LINE:COL: HEADLINE`.
    let (place, headline) = text
        .lines()
        .next()
        .and_then(|line| line.split_once(": "))
        .expect("a change line");
    let (place, column) = place.rsplit_once(':').expect("file:line:col");
    let (file, line) = place.rsplit_once(':').expect("file:line");
    let github = cgp(&["diff", "--format", "github", &published(), minor]);
    assert_eq!(
        stdout(&github),
        format!(
            "::warning file={file},line={line},col={column},title=FIELD_ADDED_OPTIONAL::{headline}\n"
        )
    );
    assert_eq!(
        cgp(&["diff", &published(), minor, "--fail-on", "major"])
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        cgp(&["diff", &published(), minor, "--fail-on", "minor"])
            .status
            .code(),
        Some(1)
    );

    let major = variant("diff-major.json", |bundle| {
        if let Some(required) = bundle["$defs"]["ContextQuery"]["required"].as_array_mut() {
            required.push(json!("as_of"));
        }
    });
    let major = major.to_str().expect("UTF-8 path");
    let json = cgp(&[
        "diff",
        "--format",
        "json",
        &published(),
        major,
        "--fail-on",
        "major",
    ]);
    assert_eq!(json.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&json.stdout).expect("one JSON object");
    assert_eq!(report["required_bump"], "major");
    assert_eq!(report["changes"][0]["pointer"], "/ContextQuery/as_of");
    let github = cgp(&["diff", "--format", "github", &published(), major]);
    assert_eq!(github.status.code(), Some(0));
    assert!(
        stdout(&github).starts_with("::error file="),
        "{}",
        stdout(&github)
    );
}

#[test]
fn unreadable_input_exits_2() {
    let output = cgp(&["diff", &published(), "/no/such/bundle.json"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("/no/such/bundle.json"));
    let garbage = Path::new(env!("CARGO_TARGET_TMPDIR")).join("diff-garbage.json");
    std::fs::write(&garbage, "{ not json").expect("write");
    let output = cgp(&["diff", &published(), garbage.to_str().expect("UTF-8")]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(cgp(&["diff", &published()]).status.code(), Some(2));
}

/// A copy of `schema/` under a fresh directory, for hostile source trees.
fn schema_copy(name: &str) -> PathBuf {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).expect("mkdir");
        for entry in std::fs::read_dir(from).expect("read_dir") {
            let entry = entry.expect("entry");
            let target = to.join(entry.file_name());
            if entry.file_type().expect("type").is_dir() {
                copy(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), &target).expect("copy");
            }
        }
    }
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("diff-hostile-{name}"));
    let _ = std::fs::remove_dir_all(&root);
    copy(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schema"),
        &root.join("schema"),
    );
    root.join("schema")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Runs `cgp diff` on a hostile input and expects exit 2 with `expected` on stderr.
fn refused(new: &Path, expected: &str) {
    let output = cgp(&["diff", &published(), new.to_str().expect("UTF-8 path")]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains(expected), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
}

#[test]
fn a_reference_cycle_in_a_bundle_is_refused() {
    let cycle = variant("diff-cycle.json", |bundle| {
        bundle["$defs"]["ContextQuery"]["properties"]["goal"] = json!({"$ref": "#/$defs/Loop1"});
        bundle["$defs"]["Loop1"] = json!({"$ref": "#/$defs/Loop2"});
        bundle["$defs"]["Loop2"] = json!({"$ref": "#/$defs/Loop1"});
    });
    refused(
        &cycle,
        "/$defs/Loop1/$ref: `$ref` cycle with no schema in between: Loop1 -> Loop2 -> Loop1",
    );
}

#[test]
fn a_reference_cycle_in_a_schema_directory_is_refused() {
    let schema = schema_copy("cycle");
    let file = schema.join("types/context-query.schema.json");
    let text = std::fs::read_to_string(&file).expect("read");
    let mut document: Value = serde_json::from_str(&text).expect("JSON");
    document["$defs"] = json!({"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}});
    document["properties"]["goal"]["$ref"] = json!("#/$defs/A");
    std::fs::write(
        &file,
        serde_json::to_string_pretty(&document).expect("JSON"),
    )
    .expect("write");
    refused(&schema, "`$ref` cycle with no schema in between");
}

/// The bundle names an `http://` reference: refused as a non-local reference,
/// and no socket is ever opened (strace, as in xtask/tests/hostile.rs).
#[test]
fn an_http_ref_is_refused_without_opening_a_socket() {
    let http = variant("diff-http.json", |bundle| {
        bundle["$defs"]["ContextQuery"]["properties"]["goal"] =
            json!({"$ref": "http://127.0.0.1:9/goal.schema.json"});
    });
    let schema = schema_copy("http");
    let file = schema.join("types/context-frame.schema.json");
    let text = std::fs::read_to_string(&file).expect("read");
    std::fs::write(
        &file,
        text.replace(
            "\"content-ref.schema.json\"",
            "\"http://127.0.0.1:9/content-ref.schema.json\"",
        ),
    )
    .expect("write");
    for (input, expected) in [
        (
            http,
            "`$ref` \"http://127.0.0.1:9/goal.schema.json\" does not name an entry of the bundle's `$defs`",
        ),
        (
            schema,
            "points outside this schema set; references resolve from local files under the schema root only and are never fetched",
        ),
    ] {
        let trace = input.with_extension("trace");
        let output = Command::new("strace")
            .args(["-f", "-qq", "-e", "trace=socket,connect", "-o"])
            .arg(&trace)
            .arg(env!("CARGO_BIN_EXE_cgp"))
            .args(["diff", &published()])
            .arg(&input)
            .output()
            .expect("strace is needed for this test (apt-get install strace)");
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        assert!(stderr(&output).contains(expected), "{}", stderr(&output));
        let calls = std::fs::read_to_string(&trace).expect("trace");
        let network: Vec<&str> = calls
            .lines()
            .filter(|line| line.contains("AF_INET") || line.contains("connect("))
            .collect();
        assert!(
            network.is_empty(),
            "cgp diff touched the network:\n{}",
            network.join("\n")
        );
    }
}

#[test]
fn a_ref_leaving_the_schema_directory_is_refused() {
    let schema = schema_copy("dotdot");
    let file = schema.join("types/context-frame.schema.json");
    let text = std::fs::read_to_string(&file).expect("read");
    std::fs::write(
        &file,
        text.replace(
            "\"content-ref.schema.json\"",
            "\"../../outside.schema.json\"",
        ),
    )
    .expect("write");
    std::fs::write(schema.join("../../outside.schema.json"), "{}").expect("write");
    refused(&schema, "../../outside.schema.json");
    let dotdot = variant("diff-dotdot.json", |bundle| {
        bundle["$defs"]["ContextQuery"]["properties"]["goal"] =
            json!({"$ref": "../schema/types/goal.schema.json"});
    });
    refused(&dotdot, "does not name an entry of the bundle's `$defs`");
}

#[test]
fn a_symlink_loop_is_refused() {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("diff-symlink-loop");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).expect("mkdir");
    let link = root.join("loop.json");
    std::os::unix::fs::symlink(&link, &link).expect("symlink");
    refused(&link, "loop.json: cannot read:");
    // Inside a schema directory a link is refused before it is followed.
    let schema = schema_copy("symlink");
    let inner = schema.join("types/loop.schema.json");
    std::os::unix::fs::symlink(&inner, &inner).expect("symlink");
    refused(
        &schema,
        "types/loop.schema.json: is a symbolic link; schema files must be regular files inside the schema root",
    );
}

#[test]
fn malformed_json_is_named_with_line_and_column() {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("diff-malformed.json");
    std::fs::write(
        &path,
        "{\n  \"x-cgp-profile\": \"interop\",\n  \"oneOf\": [,]\n}\n",
    )
    .expect("write");
    refused(
        &path,
        "diff-malformed.json:3:13: invalid JSON: expected a value, found `,`",
    );
    let deep = Path::new(env!("CARGO_TARGET_TMPDIR")).join("diff-deep.json");
    std::fs::write(&deep, "[".repeat(100_000)).expect("write");
    refused(
        &deep,
        "diff-deep.json:1:128: invalid JSON: nesting deeper than 127 levels is not accepted",
    );
    let schema = schema_copy("malformed");
    std::fs::write(
        schema.join("types/broken.schema.json"),
        "{\"a\": 1 \"b\": 2}",
    )
    .expect("write");
    refused(
        &schema,
        "types/broken.schema.json:1:9: invalid JSON: expected `,` or `}` in the object",
    );
}

/// A device, a pipe or a directory where a bundle should be: refused without
/// being read (reading `/dev/zero` to its end would take all the memory; opening
/// a pipe would wait for a writer forever).
#[test]
fn a_device_a_pipe_and_an_oversized_file_are_refused_unread() {
    refused(
        Path::new("/dev/zero"),
        "/dev/zero: cannot read: not a regular file",
    );
    let pipe = Path::new(env!("CARGO_TARGET_TMPDIR")).join("diff-pipe.json");
    let _ = std::fs::remove_file(&pipe);
    let made = Command::new("mkfifo").arg(&pipe).status().expect("mkfifo");
    assert!(made.success());
    refused(&pipe, "diff-pipe.json: cannot read: not a regular file");
    let huge = Path::new(env!("CARGO_TARGET_TMPDIR")).join("diff-huge.json");
    let file = std::fs::File::create(&huge).expect("create");
    file.set_len(17 * 1024 * 1024).expect("sparse file");
    refused(&huge, "larger than 16777216 bytes");
}
