//! `--color` and the environment variables that steer colour: `never` and a
//! non-terminal give plain text, `always` and `CLICOLOR_FORCE` give ANSI
//! colour, and `NO_COLOR` wins over `CLICOLOR_FORCE` in `auto`.

use std::path::Path;
use std::process::Command;

/// `cgp validate` on a transcript with one invalid line, stdout captured (so
/// never a terminal), with `args` before the file and `env` set.
fn validate(args: &[&str], env: &[(&str, &str)]) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cgp"));
    command
        .arg("validate")
        .args(args)
        .arg("errors.ndjson")
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data"))
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR");
    for (key, value) in env {
        command.env(key, value);
    }
    let output = command.output().expect("cgp runs");
    assert_eq!(output.status.code(), Some(1), "the transcript has errors");
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

const ESCAPE: char = '\u{1b}';

#[test]
fn auto_is_plain_when_stdout_is_not_a_terminal() {
    assert!(!validate(&[], &[]).contains(ESCAPE));
    assert!(!validate(&["--color", "auto"], &[]).contains(ESCAPE));
}

#[test]
fn always_colours_and_never_does_not() {
    let coloured = validate(&["--color", "always"], &[]);
    assert!(
        coloured.contains("\u{1b}[31m"),
        "failures in red: {coloured}"
    );
    let plain = validate(&["--color", "never"], &[("CLICOLOR_FORCE", "1")]);
    assert!(!plain.contains(ESCAPE), "never beats CLICOLOR_FORCE");
    // Without the escapes the two reports say the same.
    let stripped: String = anstream::adapter::strip_str(&coloured).to_string();
    assert_eq!(stripped, validate(&[], &[]));
}

#[test]
fn clicolor_force_colours_and_no_color_wins_over_it() {
    assert!(validate(&[], &[("CLICOLOR_FORCE", "1")]).contains(ESCAPE));
    let both = validate(&[], &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]);
    assert!(!both.contains(ESCAPE), "NO_COLOR wins in auto");
}

#[test]
fn the_flag_goes_anywhere_on_the_command_line() {
    let output = Command::new(env!("CARGO_BIN_EXE_cgp"))
        .args(["--color", "never", "schema"])
        .output()
        .expect("cgp runs");
    assert!(output.status.success());
    let refused = Command::new(env!("CARGO_BIN_EXE_cgp"))
        .args(["schema", "--color", "sometimes"])
        .output()
        .expect("cgp runs");
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("sometimes"));
}
