//! `cgp completions SHELL` prints a completion script for each shell that
//! names the subcommands, and the hidden `cgp manpage` prints roff carrying
//! the crate's version.

use std::process::Command;

fn cgp(args: &[&str]) -> (Option<i32>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_cgp"))
        .args(args)
        .output()
        .expect("cgp runs");
    (
        output.status.code(),
        String::from_utf8(output.stdout).expect("UTF-8"),
    )
}

#[test]
fn completions_cover_every_shell_and_subcommand() {
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef cgp"),
        ("fish", "complete -c cgp"),
    ] {
        let (code, text) = cgp(&["completions", shell]);
        assert_eq!(code, Some(0), "{shell}");
        assert!(text.contains(marker), "{shell}: {text}");
        for subcommand in ["validate", "check", "diff", "schema", "completions"] {
            assert!(text.contains(subcommand), "{shell}: no {subcommand}");
        }
        assert!(text.contains("header-env"), "{shell}: no check flags");
    }
    let (code, _) = cgp(&["completions", "tcsh"]);
    assert_eq!(code, Some(2));
}

#[test]
fn the_man_page_carries_the_version() {
    let (code, text) = cgp(&["manpage"]);
    assert_eq!(code, Some(0));
    assert!(text.contains(".TH cgp 1"), "{text}");
    assert!(
        text.contains(concat!("cgp ", env!("CARGO_PKG_VERSION"))),
        "{text}"
    );
}
