//! `cgp validate` on hostile input, one test per case: every case gives a clear
//! per-line error or a clean exit code, and the tool stays up. (Peak memory for
//! the large cases is measured in crates/cgp-check/tests/hostile_memory.rs.)

use std::io::Write;
use std::process::{Command, Stdio};

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `cgp validate <args>` with `input` on standard input.
fn validate(args: &[&str], input: Vec<u8>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cgp"))
        .arg("validate")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cgp runs");
    let mut stdin = child.stdin.take().expect("stdin");
    // cgp may stop reading early; a failed write is not the test's business.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().expect("cgp finishes");
    writer.join().expect("writer");
    Run {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn lines(lines: &[&[u8]]) -> Vec<u8> {
    lines
        .iter()
        .flat_map(|line| [*line, b"\n"].concat())
        .collect()
}

const SHUTDOWN: &[u8] = b"{\"type\":\"shutdown\"}";

#[track_caller]
fn has(run: &Run, expected: &str) {
    assert!(
        run.stdout.contains(expected),
        "expected {expected:?} in:\n{}{}",
        run.stdout,
        run.stderr
    );
}

#[test]
fn a_line_nested_100000_levels_deep() {
    let deep = ["[".repeat(100_000), "]".repeat(100_000)].concat();
    let run = validate(&[], lines(&[deep.as_bytes(), SHUTDOWN]));
    assert_eq!(run.code, Some(1));
    has(&run, "<stdin>:1:128: -: /0/0/0/");
    has(
        &run,
        ": nesting deeper than 127 levels is not accepted (text layer)",
    );
    has(&run, "1 passed, 1 failed");
}

#[test]
fn a_20_mb_line_is_skipped_unread_and_a_15_mib_line_is_checked() {
    let over = [
        b"{\"type\":\"shutdown\",\"x\":\"".as_slice(),
        &vec![b'a'; 20_000_000],
        b"\"}",
    ]
    .concat();
    let content = "a".repeat(15 * 1024 * 1024 - 400);
    let valid = format!(
        "{{\"type\":\"frames\",\"result\":{{\"frames\":[{{\"id\":\"a\",\"kind\":\"doc\",\"title\":\"t\",\"content\":\"{content}\",\"score\":0.5,\"token_cost\":{},\"citation_label\":\"c\"}}],\"truncated\":false}}}}",
        content.len().div_ceil(4)
    );
    assert!(valid.len() > 15 * 1024 * 1024 - 300);
    let run = validate(&["--semantic"], lines(&[&over, valid.as_bytes(), SHUTDOWN]));
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    has(
        &run,
        "<stdin>:1:1: -: /: the line is 20000026 bytes long, over the 16777216-byte limit of the stdio transport; it was skipped unread (text layer)",
    );
    assert_eq!(run.stdout.lines().count(), 2, "{}", run.stdout);
    has(&run, "2 passed, 1 failed");
}

#[test]
fn invalid_utf8() {
    let run = validate(&[], lines(&[b"{\"type\":\"shut\xc3\x28down\"}", SHUTDOWN]));
    assert_eq!(run.code, Some(1));
    has(
        &run,
        "<stdin>:1:14: -: /: invalid UTF-8 (byte 0xc3 at byte offset 13); CGP messages are UTF-8 (text layer)",
    );
    has(&run, "1 passed, 1 failed");
}

#[test]
fn nul_bytes() {
    let run = validate(
        &[],
        lines(&[
            b"{\"type\":\"shut\x00down\"}",
            b"\x00{\"type\":\"shutdown\"}",
            b"{\"type\":\"shutdown\"}\x00",
            b"{\"type\":\"error\",\"code\":\"internal\",\"message\":\"\\u0000\"}",
        ]),
    );
    assert_eq!(run.code, Some(1));
    has(
        &run,
        "<stdin>:1:14: -: /type: control character in a string (it must be escaped) (text layer)",
    );
    // The NUL is shown escaped, never written raw to the terminal.
    has(&run, "<stdin>:2:1: -: /: expected a value, found `\\u0000`");
    has(
        &run,
        "<stdin>:3:20: -: /: trailing characters after the JSON value",
    );
    // Escaped, a NUL is an ordinary character.
    has(&run, "1 passed, 3 failed");
}

#[test]
fn a_byte_order_mark_is_an_error_by_name() {
    let run = validate(
        &[],
        lines(&[&[b"\xef\xbb\xbf", SHUTDOWN].concat(), SHUTDOWN]),
    );
    assert_eq!(run.code, Some(1));
    has(
        &run,
        "<stdin>:1:1: -: /: the message starts with a byte-order mark (U+FEFF, bytes EF BB BF)",
    );
    has(&run, "1 passed, 1 failed");
    let document = validate(&["--json-document"], [b"\xef\xbb\xbf", SHUTDOWN].concat());
    assert_eq!(document.code, Some(1));
    has(&document, "starts with a byte-order mark");
}

#[test]
fn crlf_line_endings_are_harmless() {
    let input = b"{\"type\":\"shutdown\"}\r\n\r\n{\"type\":\"shutdown\"}\r\n".to_vec();
    for profile in ["interop", "strict"] {
        let run = validate(&["--profile", profile], input.clone());
        assert_eq!(run.code, Some(0), "{}", run.stdout);
        assert_eq!(run.stdout, "2 passed, 0 failed\n");
    }
    let document = validate(
        &["--json-document"],
        b"{\r\n\"type\": \"shutdown\"\r\n}\r\n".to_vec(),
    );
    assert_eq!(document.code, Some(0), "{}", document.stdout);
}

#[test]
fn lone_surrogate_escapes() {
    let run = validate(
        &[],
        lines(&[
            br#"{"type":"error","code":"internal","message":"\ud800"}"#,
            br#"{"type":"error","code":"internal","message":"x\udc00"}"#,
            br#"{"type":"error","code":"internal","message":"\ud83d\ude00"}"#,
        ]),
    );
    assert_eq!(run.code, Some(1));
    has(
        &run,
        "<stdin>:1:52: -: /message: lone leading surrogate in a \\u escape (text layer)",
    );
    has(
        &run,
        "<stdin>:2:53: -: /message: lone trailing surrogate in a \\u escape (text layer)",
    );
    has(&run, "1 passed, 2 failed");
}

#[test]
fn numbers_beyond_every_range() {
    let query = |literal: &str| {
        format!(
            r#"{{"type":"query","query":{{"goal":"g","max_frames":{literal},"max_tokens":5}}}}"#
        )
    };
    let (huge, zero, big) = (query("1e400"), query("-0"), query("18446744073709551616"));
    let run = validate(
        &[],
        lines(&[huge.as_bytes(), zero.as_bytes(), big.as_bytes()]),
    );
    assert_eq!(run.code, Some(1));
    has(
        &run,
        "<stdin>:1:50: -: /query/max_frames: number `1e400` is out of range (text layer)",
    );
    has(
        &run,
        "<stdin>:2:50: query: /query/max_frames: -0 is read as a floating-point negative zero; write the integer 0",
    );
    has(
        &run,
        "<stdin>:3:50: query: /query/max_frames: 1.8446744073709552e+19 is greater than the maximum 4294967295",
    );
    has(&run, "0 passed, 3 failed");
    // -0 where a float is expected is fine.
    let score = br#"{"type":"frames","result":{"frames":[{"id":"a","kind":"doc","title":"t","score":-0,"token_cost":0}],"truncated":false}}"#;
    assert_eq!(validate(&[], lines(&[score])).code, Some(0));
}

#[test]
fn an_object_with_a_million_members() {
    let mut line = String::from("{\"type\":\"shutdown\"");
    for index in 0..1_000_000 {
        line.push_str(&format!(",\"m{index}\":0"));
    }
    line.push('}');
    let interop = validate(&[], lines(&[line.as_bytes()]));
    assert_eq!(interop.code, Some(0), "{}", interop.stdout);
    let strict = validate(&["--profile", "strict"], lines(&[line.as_bytes()]));
    assert_eq!(strict.code, Some(1));
    has(
        &strict,
        "<stdin>:1:1: shutdown: /: unknown members \"m0\", \"m1\", \"m2\", \"m3\", \"m4\", \"m5\", \"m6\", \"m7\", \"m8\", \"m9\" and 999990 more",
    );
    assert!(strict.stdout.len() < 1000, "{}", strict.stdout.len());
}

#[test]
fn duplicate_members_at_depth() {
    let run = validate(
        &[],
        lines(&[
            br#"{"type":"query","query":{"goal":"g","max_frames":1,"max_tokens":5,"max_tokens":6}}"#,
            format!(r#"{{"type":"handshake_ack","protocol_version":"{}","provider":{{"name":"p","version":"1","data_flow":{{"reads":true,"writes":false,"egress":false,"reads":false}}}},"capabilities":{{}}}}"#, cgp_types::PROTOCOL_VERSION).as_bytes(),
        ]),
    );
    assert_eq!(run.code, Some(1));
    has(
        &run,
        "<stdin>:1:67: -: /query/max_tokens: duplicate member name `max_tokens` (text layer)",
    );
    has(
        &run,
        "/provider/data_flow/reads: duplicate member name `reads`",
    );
    has(&run, "0 passed, 2 failed");
}

#[test]
fn a_file_that_is_a_directory() {
    let directory = env!("CARGO_TARGET_TMPDIR");
    let run = validate(&[directory, "-"], lines(&[SHUTDOWN]));
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .contains(&format!("cgp: {directory}: Is a directory")),
        "{}",
        run.stderr
    );
    // The other inputs are still checked.
    has(&run, "1 passed, 0 failed");
}

#[test]
fn standard_input_closed_early() {
    // The writer stops in the middle of a line.
    let run = validate(&[], b"{\"type\":\"shutdown\"}\n{\"type\":\"shut".to_vec());
    assert_eq!(run.code, Some(1));
    has(
        &run,
        "<stdin>:2:14: -: /type: unterminated string (text layer)",
    );
    has(&run, "1 passed, 1 failed");
    // Standard input is closed before cgp starts: no message, nothing failed.
    let output = Command::new("sh")
        .arg("-c")
        .arg("exec 0<&-; exec \"$0\" validate")
        .arg(env!("CARGO_BIN_EXE_cgp"))
        .output()
        .expect("sh runs");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "0 passed, 0 failed\n"
    );
}
