//! Peak memory of the stream checker on the largest hostile lines, measured from
//! /proc/self/status (VmHWM) in a process of its own (this file holds one test).
//! The bounds asserted are ceilings, not timings (the four-line case takes
//! +955 MiB when big lines are parsed on every thread at once, +341 MiB one at a
//! time); the measured values are printed (`cargo test --test hostile_memory --
//! --nocapture`) and recorded in SECURITY.md.

use cgp_check::Validator;
use cgp_check::stream::{LineVerdict, StreamOptions, check_stream};
use cgp_schema::Bundle;
use std::io::{Cursor, Read};

const MIB: u64 = 1024 * 1024;

fn peak_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status
        .lines()
        .find(|line| line.starts_with("VmHWM:"))
        .expect("VmHWM");
    let kib: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|value| value.parse().ok())
        .expect("a number");
    kib * 1024
}

fn validator(profile: &str) -> Validator {
    let version: cgp_schema::ProtocolVersion =
        cgp_types::PROTOCOL_VERSION.parse().expect("version");
    let path = format!(
        "{}/../../generated/schema/{}/{profile}.schema.json",
        env!("CARGO_MANIFEST_DIR"),
        version.slug()
    );
    let text = std::fs::read_to_string(path).expect("bundle");
    Validator::new(&Bundle::from_published(&text).expect("bundle")).expect("compiles")
}

/// Checks `input` on two threads; returns (passed, failed, first message).
fn check(input: impl Read + Send, validator: &Validator) -> (usize, usize, String) {
    check_on(input, validator, 2)
}

fn check_on(
    input: impl Read + Send,
    validator: &Validator,
    threads: usize,
) -> (usize, usize, String) {
    let (mut passed, mut failed, mut first) = (0, 0, String::new());
    check_stream(
        std::io::BufReader::new(input),
        validator,
        StreamOptions {
            semantic: true,
            threads,
        },
        |verdict: &LineVerdict| -> Result<(), ()> {
            if verdict.checked.is_valid() {
                passed += 1;
            } else {
                failed += 1;
                if first.is_empty() {
                    first = verdict.checked.findings[0].message.clone();
                }
            }
            Ok(())
        },
    )
    .expect("checks");
    (passed, failed, first)
}

fn line(prefix: &str, filler: u64, suffix: &str) -> impl Read + Send + use<> {
    Cursor::new(prefix.as_bytes().to_vec())
        .chain(std::io::repeat(b'a').take(filler))
        .chain(Cursor::new(format!("{suffix}\n").into_bytes()))
}

#[test]
fn the_largest_lines_stay_within_their_memory_bounds() {
    let (interop, strict) = (validator("interop"), validator("strict"));
    let base = peak_bytes();
    let mut report = Vec::new();

    // 20 MB without a line feed before the 16 MiB cap: skipped unread.
    let over = line("{\"type\":\"shutdown\",\"x\":\"", 20_000_000, "\"}")
        .chain(Cursor::new(b"{\"type\":\"shutdown\"}\n".to_vec()));
    let (passed, failed, message) = check(over, &interop);
    assert_eq!((passed, failed), (1, 1));
    assert!(
        message.contains("over the 16777216-byte limit"),
        "{message}"
    );
    let after_over = peak_bytes() - base;
    report.push(format!("20 MB line: +{} MiB", after_over / MIB));
    assert!(after_over < 64 * MIB, "{report:?}");

    // A valid line of 15 MiB.
    let content = 15 * MIB - 400;
    let valid = line(
        "{\"type\":\"frames\",\"result\":{\"frames\":[{\"id\":\"a\",\"kind\":\"doc\",\"title\":\"t\",\"content\":\"",
        content,
        &format!(
            "\",\"score\":0.5,\"token_cost\":{},\"citation_label\":\"c\"}}],\"truncated\":false}}}}",
            content.div_ceil(4)
        ),
    );
    let (passed, failed, message) = check(valid, &strict);
    assert_eq!((passed, failed), (1, 0), "{message}");
    let after_valid = peak_bytes() - base;
    report.push(format!("15 MiB valid line: +{} MiB", after_valid / MIB));
    assert!(after_valid < 192 * MIB, "{report:?}");

    // Four lines of a million small values each (4 MiB), on four threads: such
    // lines are parsed one at a time, so the peak is that of one, not four.
    let mut values = String::from("{\"type\":\"shutdown\",\"a\":[0");
    values.push_str(&",0".repeat(2 * 1024 * 1024 - 20));
    values.push_str("]}\n");
    let four = values.repeat(4);
    let (passed, _, _) = check_on(Cursor::new(four.as_bytes()), &interop, 4);
    assert_eq!(passed, 4);
    let after_values = peak_bytes() - base;
    report.push(format!(
        "4 lines of 2 million values on 4 threads: +{} MiB",
        after_values / MIB
    ));
    assert!(after_values < 560 * MIB, "{report:?}");
    drop(four);

    // A million members (12 MB), judged under both profiles.
    let mut members = String::from("{\"type\":\"shutdown\"");
    for index in 0..1_000_000 {
        members.push_str(&format!(",\"m{index}\":0"));
    }
    members.push_str("}\n");
    let (passed, _, _) = check(Cursor::new(members.as_bytes()), &interop);
    assert_eq!(passed, 1);
    let (_, failed, message) = check(Cursor::new(members.as_bytes()), &strict);
    assert_eq!(failed, 1);
    assert!(message.ends_with("and 999990 more (the strict profile allows only the members the schema names; interop receivers ignore them)"), "{message}");
    let after_members = peak_bytes() - base;
    report.push(format!("1,000,000 members: +{} MiB", after_members / MIB));
    assert!(after_members < 640 * MIB, "{report:?}");
    eprintln!(
        "peak RSS above the validators' {} MiB: {}",
        base / MIB,
        report.join("; ")
    );
}
