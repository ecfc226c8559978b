//! The SDK-style transcript: the canonical transcript's envelopes, spelled as
//! the protocol's SDKs write them ([`spec_tests::sdk_spelling`] says how)
//! rather than as the canonical encoder does.
//!
//! [`write()`] can also spoil one line in `invalid_every`, in one of a few ways
//! both the validator and the reference crate reject (the line stays JSON, so
//! that every peer's parse takes it); it returns which lines it spoiled.
//! `tests/sdk.rs` proves every line is decided as it is labelled.

use serde_json::Value;
use spec_tests::rng::Rng;
use spec_tests::sdk_spelling;
use std::io;

/// What a re-spelled transcript holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Spelled {
    /// The lines, each ending in a line feed.
    pub bytes: Vec<u8>,
    /// The (0-based) indices of the lines spoiled on purpose, in order.
    pub invalid: Vec<usize>,
}

/// Re-spells every line of the canonical transcript `canonical`; with
/// `invalid_every` = `Some(n)`, one line in `n` (chosen at random) is spoiled.
pub fn write(canonical: &[u8], seed: u64, invalid_every: Option<u64>) -> io::Result<Spelled> {
    let mut rng = Rng::new(seed ^ 0x5d4_u64);
    let mut spelled = Spelled::default();
    for (index, line) in canonical
        .split(|byte| *byte == b'\n')
        .filter(|line| !line.is_empty())
        .enumerate()
    {
        let mut value: Value = serde_json::from_slice(line).map_err(io::Error::other)?;
        sdk_spelling::sdk_habits(&mut value, &mut rng);
        let spoil = invalid_every.is_some_and(|every| rng.below(every) == 0);
        if spoil {
            spoil_value(&mut value, &mut rng);
        }
        let text = sdk_spelling::write(&value, &mut rng);
        if spoil {
            spelled.invalid.push(index);
        }
        spelled.bytes.extend_from_slice(text.as_bytes());
        spelled.bytes.push(b'\n');
    }
    Ok(spelled)
}

/// Makes the envelope invalid in a way every decoder notices.
fn spoil_value(value: &mut Value, rng: &mut Rng) {
    let Value::Object(members) = value else {
        return;
    };
    match rng.below(3) {
        0 => {
            members.remove("type");
        }
        1 => {
            members.insert("type".into(), Value::String("handshake_nak".into()));
        }
        _ => {
            members.insert("type".into(), Value::from(7));
        }
    }
}
