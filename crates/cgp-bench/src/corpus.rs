//! The transcript a bench run measures, cut into lines, and what it holds.

use crate::BenchError;
/// The published bundle every validator here uses, relative to the repository:
/// the working version's interop bundle.
pub fn interop_bundle() -> Result<String, BenchError> {
    let version: cgp_schema::ProtocolVersion = cgp_types::PROTOCOL_VERSION
        .parse()
        .map_err(|error| format!("{error}"))?;
    Ok(cgp_codegen::plan::published_path(
        &version,
        cgp_schema::Profile::Interop,
    ))
}

/// A transcript held in memory, split into lines (blank lines dropped), and
/// which of its lines are invalid on purpose.
#[derive(Debug, Clone)]
pub struct Corpus {
    bytes: Vec<u8>,
    lines: Vec<(usize, usize)>,
    /// Whether each line is invalid; empty when every line is valid.
    invalid: Vec<bool>,
}

impl Corpus {
    /// Splits `bytes` on line feeds.
    pub fn new(bytes: Vec<u8>) -> Self {
        let mut lines = Vec::new();
        let mut start = 0;
        for (index, byte) in bytes.iter().enumerate() {
            if *byte == b'\n' {
                if index > start {
                    lines.push((start, index));
                }
                start = index + 1;
            }
        }
        if bytes.len() > start {
            lines.push((start, bytes.len()));
        }
        Corpus {
            bytes,
            lines,
            invalid: Vec::new(),
        }
    }

    /// The same lines, those at the (0-based) `indices` invalid on purpose.
    pub fn with_invalid(mut self, indices: &[usize]) -> Self {
        self.invalid = vec![false; self.lines.len()];
        for index in indices {
            if let Some(slot) = self.invalid.get_mut(*index) {
                *slot = true;
            }
        }
        self
    }

    /// Whether the line at `index` (0-based) is invalid on purpose.
    pub fn is_invalid(&self, index: usize) -> bool {
        self.invalid.get(index).copied().unwrap_or(false)
    }

    /// How many lines are invalid on purpose.
    pub fn invalid_count(&self) -> u64 {
        self.invalid.iter().filter(|invalid| **invalid).count() as u64
    }

    /// How many lines are valid.
    pub fn valid_count(&self) -> u64 {
        self.line_count() - self.invalid_count()
    }

    /// The whole text.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Every line, without its line feed.
    pub fn lines(&self) -> impl Iterator<Item = &[u8]> {
        self.lines
            .iter()
            .map(|(start, end)| &self.bytes[*start..*end])
    }

    /// The number of lines.
    pub fn line_count(&self) -> u64 {
        self.lines.len() as u64
    }

    /// The size in bytes, line feeds included.
    pub fn size(&self) -> u64 {
        self.bytes.len() as u64
    }

    /// The first whole lines, at most `max_bytes` of them (at least one line).
    pub fn prefix(&self, max_bytes: u64) -> Corpus {
        let mut end = 0;
        for (index, (_, line_end)) in self.lines.iter().enumerate() {
            let next = (*line_end + 1).min(self.bytes.len());
            if next as u64 > max_bytes && index > 0 {
                break;
            }
            end = next;
        }
        let prefix = Corpus::new(self.bytes[..end].to_vec());
        let invalid: Vec<usize> = (0..prefix.lines.len())
            .filter(|index| self.is_invalid(*index))
            .collect();
        prefix.with_invalid(&invalid)
    }

    /// Only the lines shorter than `max_line` bytes.
    pub fn short_lines(&self, max_line: usize) -> Corpus {
        let mut bytes = Vec::new();
        let mut invalid = Vec::new();
        let kept = self
            .lines()
            .enumerate()
            .filter(|(_, line)| line.len() < max_line);
        for (count, (index, line)) in kept.enumerate() {
            if self.is_invalid(index) {
                invalid.push(count);
            }
            bytes.extend_from_slice(line);
            bytes.push(b'\n');
        }
        Corpus::new(bytes).with_invalid(&invalid)
    }

    /// How line lengths are spread.
    pub fn mix(&self) -> Mix {
        let mut mix = Mix {
            lines: self.line_count(),
            bytes: self.size(),
            ..Mix::default()
        };
        for line in self.lines() {
            let length = line.len() as u64 + 1;
            mix.longest = mix.longest.max(length);
            if line.len() < SHORT_LINE {
                mix.short_lines += 1;
                mix.short_bytes += length;
            }
        }
        mix
    }
}

/// Lines shorter than this many bytes count as short.
pub const SHORT_LINE: usize = 4096;

/// How a corpus's line lengths are spread.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Mix {
    /// Lines.
    pub lines: u64,
    /// Bytes, line feeds included.
    pub bytes: u64,
    /// Lines shorter than [`SHORT_LINE`].
    pub short_lines: u64,
    /// The bytes of those lines.
    pub short_bytes: u64,
    /// The longest line, with its line feed.
    pub longest: u64,
}
