//! The generated TypeScript package under node, on generated envelopes and
//! byte-level mutations of them, and on every `f32` spelling.

use super::compare::{compare, none};
use super::{on_a_big_stack, strategy::envelope, support};
use cgp_types::*;
use proptest::prelude::*;
use proptest::strategy::ValueTree;

/// A byte-level change to a canonical line, picked by `seed`: most give a line
/// the reference rejects, some one it reads differently.
fn mutate(line: &str, seed: u64) -> String {
    const PIECES: [&str; 16] = [
        "\"", ",", "}", "]", "{", "[", "1", ".0", "e5", "-", "\\", " ", "null", "\\u0000", "0", ":",
    ];
    let chars: Vec<char> = line.chars().collect();
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound.max(1) as u64) as usize
    };
    let at = next(chars.len());
    let piece = PIECES[next(PIECES.len())];
    let (head, tail) = chars.split_at(at);
    let head: String = head.iter().collect();
    let tail: String = tail.iter().collect();
    match next(4) {
        0 => format!("{head}{}", tail.chars().skip(1).collect::<String>()),
        1 => format!("{head}{piece}{tail}"),
        2 => format!("{head}{piece}{}", tail.chars().skip(1).collect::<String>()),
        // The first member again: a duplicate when it is a named one.
        _ => match line.find(',') {
            Some(comma) => format!("{},{}", &line[..comma], &line[1..]),
            None => head,
        },
    }
}

/// How many generated envelopes go through the TypeScript package per run; each
/// also goes through once mutated.
const TYPESCRIPT_CASES: u32 = 10_000;

/// Generated envelopes and mutations of them, through the generated TypeScript
/// package under node in one batch: the reference decoder's verdict on every
/// line, and byte-identical re-encoding of every line it accepts.
/// The generated envelopes' canonical lines, each followed by a mutation of it.
pub(super) fn generated_and_mutated_lines() -> Vec<String> {
    on_a_big_stack(|| {
        let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
            failure_persistence: None,
            ..ProptestConfig::default()
        });
        let strategy = envelope();
        let mut lines = Vec::new();
        for case in 0..TYPESCRIPT_CASES {
            let tree = strategy.new_tree(&mut runner).expect("a value");
            let line = encode_line(&tree.current()).expect("finite values always encode");
            let line = line.trim_end().to_owned();
            lines.push(mutate(&line, u64::from(case)));
            lines.push(line);
        }
        lines
    })
}

/// `lines`, mutations among them, through the TypeScript package in one
/// batch: the reference's verdict on every line, its bytes for every line it
/// accepts, and the fast path's values and bytes the exact path's.
pub(super) fn agrees_with_the_reference(lines: &[String]) {
    let outcomes =
        spec_tests::typescript::decode_lines(lines).unwrap_or_else(|error| panic!("{error}"));
    let comparison = compare("typescript", lines, &outcomes, none);
    comparison.assert_no_line_differs(20);
    comparison.assert_mutations_bite();
    // The same lines, the fast path against the exact one: same values, same
    // bytes, and the fast path takes most canonical lines (half are mutated).
    let fast =
        spec_tests::typescript::fast_path_agrees(lines).unwrap_or_else(|error| panic!("{error}"));
    assert!(
        fast > lines.len() / 3,
        "the fast path decoded only {fast} of {} lines",
        lines.len()
    );
}

/// Query lines whose `embedding` holds random `f32` bit patterns, the `f32`s
/// nearest random decimals of one to nine digits across the plain range
/// (where the writer's short spellings answer), and values halfway between two
/// shortest spellings, 1000 a line.
pub(super) fn f32_lines() -> Vec<String> {
    let mut values = Vec::new();
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    while values.len() < 100_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let value = f32::from_bits((state >> 32) as u32);
        if value.is_finite() {
            values.push(value);
        }
    }
    for _ in 0..30_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let digits = 1 + (state % 9) as u32;
        let significand = (state >> 8) % 10u64.pow(digits);
        let exponent = ((state >> 40) % 20) as i32 - 8 - digits as i32;
        let value: f32 = format!("{significand}e{exponent}")
            .parse()
            .expect("a decimal");
        values.push(if state >> 63 == 1 { -value } else { value });
    }
    for whole in [1u32, 7, 123, 4567, 26796, 324546, 1162792, 3772544, 8388607] {
        for eighths in 1..8 {
            let value = f64::from(whole) + f64::from(eighths) / 8.0;
            for scale in [1.0, 0.5, 2.0, 1e-3, 1e3] {
                values.push((value * scale) as f32);
            }
        }
    }
    values
        .chunks(1000)
        .map(|chunk| {
            let items: Vec<String> = chunk.iter().map(|value| format!("{value:e}")).collect();
            format!(
                r#"{{"type":"query","query":{{"goal":"g","embedding":[{}],"max_frames":0,"max_tokens":0}}}}"#,
                items.join(",")
            )
        })
        .collect()
}

/// Every `f32` the TypeScript package writes is spelled as the reference
/// encoder spells it, for every value of [`f32_lines`].
#[test]
#[ignore = "full tier"]
fn generated_typescript_package_spells_every_f32_like_the_reference_encoder() {
    let lines = f32_lines();
    let outcomes =
        spec_tests::typescript::decode_lines(&lines).unwrap_or_else(|error| panic!("{error}"));
    for (line, theirs) in lines.iter().zip(&outcomes) {
        let reference = support::reference("Envelope", line).expect("known target");
        let (Ok(expected), Ok(actual)) = (&reference, theirs) else {
            panic!("{line}\n  reference:  {reference:?}\n  typescript: {theirs:?}");
        };
        if expected != actual {
            let differing: Vec<String> = expected
                .split(',')
                .zip(actual.split(','))
                .filter(|(a, b)| a != b)
                .take(10)
                .map(|(a, b)| format!("reference {a}, typescript {b}"))
                .collect();
            panic!("f32 spellings differ: {}", differing.join("; "));
        }
    }
}
