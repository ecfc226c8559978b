//! Hostile trees: `cargo xtask check` and `codegen` never fetch, never panic,
//! and name the file and line of what is wrong.

mod support;

use std::process::{Command, Output};
use support::Tree;

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn an_http_ref_is_refused_without_opening_a_socket() {
    let tree = Tree::new("http");
    tree.edit_text(
        "schema/types/context-frame.schema.json",
        "\"content-ref.schema.json\"",
        "\"http://127.0.0.1:9/content-ref.schema.json\"",
    );
    let trace = tree.0.join("trace.txt");
    let output = Command::new("strace")
        .args(["-f", "-qq", "-e", "trace=socket,connect", "-o"])
        .arg(&trace)
        .arg(env!("CARGO_BIN_EXE_xtask"))
        .arg("--root")
        .arg(&tree.0)
        .arg("check")
        .output()
        .expect("strace is needed for this test (apt-get install strace)");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("`$ref` `http://127.0.0.1:9/content-ref.schema.json` points outside this schema set; references resolve from local files under the schema root only and are never fetched"),
        "{}",
        stderr(&output)
    );
    let calls = std::fs::read_to_string(&trace).expect("trace");
    let network: Vec<&str> = calls
        .lines()
        .filter(|line| line.contains("AF_INET") || line.contains("connect("))
        .collect();
    assert!(
        network.is_empty(),
        "xtask touched the network:\n{}",
        network.join("\n")
    );
}

#[test]
fn an_unterminated_fence_in_spec_is_named() {
    let tree = Tree::new("fence");
    let spec = std::fs::read_to_string(tree.0.join("SPEC.md")).expect("read");
    std::fs::write(tree.0.join("SPEC.md"), format!("{spec}\n```json cgp-example name=late target=Envelope expect=valid\n{{\"type\": \"shutdown\"}}\n")).expect("write");
    let line = spec.lines().count() + 2;
    let output = tree.xtask(&["check"]);
    assert_eq!(output.code, Some(1));
    assert!(
        output.stderr.contains(&format!(
            "SPEC.md:{line}:1: unterminated code fence: it runs to the end of the file"
        )),
        "{}",
        output.stderr
    );
}

#[test]
fn a_duplicate_example_name_is_named_with_both_lines() {
    let tree = Tree::new("duplicate");
    let spec = std::fs::read_to_string(tree.0.join("SPEC.md")).expect("read");
    let first = spec
        .lines()
        .position(|l| l.contains("name=query.minimal "))
        .expect("example")
        + 1;
    std::fs::write(tree.0.join("SPEC.md"), format!("{spec}\n```json cgp-example name=query.minimal target=Envelope expect=valid\n{{\"type\": \"shutdown\"}}\n```\n")).expect("write");
    let line = spec.lines().count() + 2;
    let output = tree.xtask(&["check"]);
    assert_eq!(output.code, Some(1));
    assert!(
        output.stderr.contains(&format!(
            "SPEC.md:{line}:1: duplicate example name `query.minimal` (first used on line {first})"
        )),
        "{}",
        output.stderr
    );
}

#[test]
fn an_unwritable_generated_directory_is_named_and_nothing_is_lost() {
    let tree = Tree::new("unwritable");
    // A plain file where codegen needs a directory: no permission trick, so the
    // test holds when run as root too.
    std::fs::remove_dir_all(tree.0.join("generated/docs")).expect("remove");
    std::fs::write(tree.0.join("generated/docs"), "not a directory").expect("write");
    let before = std::fs::read(tree.0.join("generated/rust/src/types.rs")).expect("read");
    std::fs::write(tree.0.join("generated/rust/src/types.rs"), b"// stale\n").expect("write");
    let output = tree.xtask(&["codegen"]);
    assert_eq!(output.code, Some(1));
    let report = output.stderr;
    assert!(
        report.starts_with("generated/docs/README.md: cannot create its directory:"),
        "{report}"
    );
    assert!(report.contains("nothing was changed"), "{report}");
    assert_eq!(
        std::fs::read(tree.0.join("generated/docs")).expect("read"),
        b"not a directory"
    );
    assert_eq!(
        std::fs::read(tree.0.join("generated/rust/src/types.rs")).expect("read"),
        b"// stale\n",
        "a file was written although the run failed"
    );
    assert_ne!(before, b"// stale\n");
}

/// A pull request can turn SPEC.md or a generated file into a symbolic link;
/// one to /dev/zero would be read until memory ran out. Tree files are read
/// only when regular, and at most 16 MiB.
#[test]
fn a_spec_or_generated_file_linked_to_a_device_is_refused_unread() {
    let tree = Tree::new("device");
    std::fs::remove_file(tree.0.join("SPEC.md")).expect("remove");
    std::os::unix::fs::symlink("/dev/zero", tree.0.join("SPEC.md")).expect("symlink");
    let output = tree.xtask(&["check"]);
    assert_eq!(output.code, Some(1));
    assert!(
        output
            .stderr
            .contains("SPEC.md: cannot read: not a regular file (a pipe, a socket or a device)"),
        "{}",
        output.stderr
    );

    let tree = Tree::new("device-generated");
    let file = tree.0.join("generated/rust/src/types.rs");
    std::fs::remove_file(&file).expect("remove");
    std::os::unix::fs::symlink("/dev/zero", &file).expect("symlink");
    let output = tree.xtask(&["check"]);
    assert_eq!(output.code, Some(1));
    assert!(
        output.stderr.contains(
            "generated/rust/src/types.rs: cannot read: not a regular file (a pipe, a socket or a device)"
        ),
        "{}",
        output.stderr
    );
}

/// A pull request can turn a directory under generated/ into a symbolic link
/// to anywhere: codegen refuses to write through it, names it, and writes
/// nothing at all.
#[test]
fn codegen_never_writes_through_a_linked_directory() {
    let tree = Tree::new("linked");
    let outside = tree.0.join("outside");
    std::fs::create_dir_all(&outside).expect("mkdir");
    std::fs::remove_dir_all(tree.0.join("generated/docs")).expect("remove");
    std::os::unix::fs::symlink(&outside, tree.0.join("generated/docs")).expect("symlink");
    let types = tree.0.join("generated/rust/src/types.rs");
    std::fs::write(&types, "// stale\n").expect("write");
    let output = tree.xtask(&["codegen"]);
    assert_eq!(output.code, Some(1), "{}", output.stderr);
    assert!(
        output.stderr.contains(
            "cannot write: generated/docs is a symbolic link, and nothing is ever written through a link; nothing was changed"
        ),
        "{}",
        output.stderr
    );
    assert_eq!(std::fs::read_dir(&outside).expect("list").count(), 0);
    assert_eq!(std::fs::read_to_string(&types).expect("read"), "// stale\n");
}
