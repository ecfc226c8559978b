//! Base64 with the standard alphabet and `=` padding (RFC 4648 §4), for the
//! `input_base64` of a case whose bytes are not UTF-8.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `bytes` in base64, padded.
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let mut group = [0u8; 3];
        for (slot, byte) in group.iter_mut().zip(chunk) {
            *slot = *byte;
        }
        let bits = u32::from(group[0]) << 16 | u32::from(group[1]) << 8 | u32::from(group[2]);
        for index in 0..4 {
            if index <= chunk.len() {
                let sextet = (bits >> (18 - 6 * index)) & 0x3f;
                out.push(char::from(
                    ALPHABET.get(sextet as usize).copied().unwrap_or(b'='),
                ));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Why text is not padded base64.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Base64Error {
    /// The text's length is not a multiple of 4.
    #[error("base64 of {0} characters: not a multiple of 4")]
    Length(usize),
    /// Padding before the last group, or more than two `=`.
    #[error("misplaced `=` in base64 at {0}")]
    Padding(usize),
    /// A byte outside the alphabet.
    #[error("`{character}` at {at} is not a base64 character")]
    Character {
        /// The byte, as a character.
        character: char,
        /// Its offset in the text.
        at: usize,
    },
}

/// The bytes of padded base64 text, or why it is not.
pub fn decode(text: &str) -> Result<Vec<u8>, Base64Error> {
    let bytes = text.as_bytes();
    if bytes.len() % 4 != 0 {
        return Err(Base64Error::Length(bytes.len()));
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    for (index, group) in bytes.chunks(4).enumerate() {
        let last = (index + 1) * 4 == bytes.len();
        let padding = group.iter().rev().take_while(|byte| **byte == b'=').count();
        if padding > 2 || (padding > 0 && !last) {
            return Err(Base64Error::Padding(index * 4));
        }
        let mut bits = 0u32;
        for (offset, byte) in group.iter().enumerate() {
            let value = if offset >= 4 - padding {
                0
            } else {
                match ALPHABET.iter().position(|letter| letter == byte) {
                    Some(position) => position as u32,
                    None => {
                        return Err(Base64Error::Character {
                            character: char::from(*byte),
                            at: index * 4 + offset,
                        });
                    }
                }
            };
            bits = bits << 6 | value;
        }
        let decoded = [(bits >> 16) as u8, (bits >> 8) as u8, bits as u8];
        out.extend(decoded.iter().take(3 - padding));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_matches_the_rfc_examples() {
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(encode(plain.as_bytes()), coded);
            assert_eq!(decode(coded).as_deref(), Ok(plain.as_bytes()));
        }
        let bytes: Vec<u8> = (0..=255).collect();
        assert_eq!(decode(&encode(&bytes)), Ok(bytes));
        assert!(decode("Zg=").is_err());
        assert!(decode("Z===").is_err());
        assert!(decode("Zg==Zg==").is_err());
        assert!(decode("Z!==").is_err());
    }
}
