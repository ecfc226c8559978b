//! `sha256:<64 lowercase hex>`: the one digest text there is. The protocol
//! writes content digests and attestation commitments this way, and the release
//! manifest records frozen files this way; every reader and writer of it is here.

use sha2::{Digest, Sha256};

/// A SHA-256 hash.
pub type Hash = [u8; 32];

const PREFIX: &str = "sha256:";

/// The SHA-256 of the concatenation of `parts`.
pub fn sha256(parts: &[&[u8]]) -> Hash {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part);
    }
    hasher.finalize().into()
}

/// `hash` as digest text.
pub fn text(hash: &Hash) -> String {
    format!("{PREFIX}{}", crate::shown::hex(hash))
}

/// The digest text of `bytes`.
pub fn of(bytes: &[u8]) -> String {
    text(&sha256(&[bytes]))
}

/// Whether `text` is well-formed digest text: `sha256:` and 64 lowercase hex
/// digits, nothing else.
pub fn is_well_formed(text: &str) -> bool {
    text.strip_prefix(PREFIX).is_some_and(|hex| {
        hex.len() == 64
            && hex
                .bytes()
                .all(|byte| byte.is_ascii_digit() || (b'a'..=b'f').contains(&byte))
    })
}

/// The hash well-formed digest text names.
pub fn parse(text: &str) -> Option<Hash> {
    if !is_well_formed(text) {
        return None;
    }
    decode_hex(text.strip_prefix(PREFIX)?)?.try_into().ok()
}

/// The bytes of lowercase hex text, or `None` when it is not that.
pub fn decode_hex(text: &str) -> Option<Vec<u8>> {
    let digit = |byte: u8| match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        _ => None,
    };
    let bytes = text.as_bytes();
    if bytes.len() % 2 != 0 {
        return None;
    }
    bytes
        .chunks_exact(2)
        .map(|pair| match pair {
            [high, low] => Some(digit(*high)? << 4 | digit(*low)?),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_parse_round_trip() {
        let digest = of(b"abc");
        assert_eq!(
            digest,
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(is_well_formed(&digest));
        assert_eq!(parse(&digest).map(|hash| text(&hash)), Some(digest.clone()));
    }

    #[test]
    fn only_the_one_spelling_is_well_formed() {
        let good = of(b"x");
        assert!(!is_well_formed(&good.to_uppercase()));
        assert!(!is_well_formed(&good.replace("sha256", "sha512")));
        assert!(!is_well_formed(&format!("{good}0")));
        assert!(!is_well_formed("sha256:abc"));
        assert!(!is_well_formed(""));
        assert_eq!(parse(&good.to_uppercase()), None);
        assert_eq!(decode_hex("0"), None);
        assert_eq!(decode_hex("0g"), None);
        assert_eq!(decode_hex("00ff"), Some(vec![0, 255]));
    }
}
