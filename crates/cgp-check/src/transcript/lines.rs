//! NDJSON read line by line in bounded memory.

use cgp_types::MAX_LINE_BYTES;
use std::io::{self, BufRead, Read};

/// One line read by a [`LineReader`].
#[derive(Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// A line, without its line feed.
    Message {
        /// The 1-based line number.
        number: usize,
        /// The line's bytes, without the line feed.
        bytes: &'a [u8],
        /// Whether a line feed ended it (false for an unterminated last line).
        terminated: bool,
    },
    /// A line longer than [`MAX_LINE_BYTES`]; it was skipped without being kept
    /// (a [`LineReader::for_peer`] stops there instead, and `length` is what it
    /// read: more than the limit).
    TooLong {
        /// The 1-based line number.
        number: usize,
        /// Its length in bytes, without the line feed.
        length: u64,
    },
}

/// Reads NDJSON line by line with one reused buffer, so memory stays bounded
/// whatever the input's size: a line longer than [`MAX_LINE_BYTES`] is skipped
/// to its end without being buffered and reported as [`Line::TooLong`]. The
/// one line reader of the toolchain: files and standard input (`cgp
/// validate`), a provider's standard output and standard error (`cgp check`).
#[derive(Debug)]
pub struct LineReader<R> {
    reader: R,
    buffer: Vec<u8>,
    number: usize,
    skip_blank: bool,
    skip_overlong: bool,
}

impl<R: BufRead> LineReader<R> {
    /// A reader that skips blank (whitespace-only) lines.
    pub fn new(reader: R) -> Self {
        LineReader {
            reader,
            buffer: Vec::new(),
            number: 0,
            skip_blank: true,
            skip_overlong: true,
        }
    }

    /// A reader of a live peer's output: blank lines are returned (a peer must
    /// not send them), and a line that passes [`MAX_LINE_BYTES`] is reported
    /// as soon as it does, not skipped to its end (an endless line would never
    /// end): nothing more should be read after it, as the reference host fails
    /// the connection there.
    pub fn for_peer(reader: R) -> Self {
        LineReader {
            skip_blank: false,
            skip_overlong: false,
            ..LineReader::new(reader)
        }
    }

    /// A reader that returns blank lines too (a live peer must not send them).
    pub fn keeping_blank_lines(reader: R) -> Self {
        LineReader {
            skip_blank: false,
            ..LineReader::new(reader)
        }
    }

    /// The next line, or `None` at the end of the input.
    pub fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        loop {
            self.buffer.clear();
            let limit = MAX_LINE_BYTES as u64 + 1;
            let read = (&mut self.reader)
                .take(limit)
                .read_until(b'\n', &mut self.buffer)?;
            if read == 0 {
                return Ok(None);
            }
            self.number += 1;
            let terminated = self.buffer.last() == Some(&b'\n');
            if terminated {
                self.buffer.pop();
            } else if self.buffer.len() > MAX_LINE_BYTES {
                let rest = if self.skip_overlong {
                    skip_line(&mut self.reader)?
                } else {
                    0
                };
                let length = self.buffer.len() as u64 + rest;
                self.buffer.clear();
                return Ok(Some(Line::TooLong {
                    number: self.number,
                    length,
                }));
            }
            if self.skip_blank && is_blank(&self.buffer) {
                continue;
            }
            return Ok(Some(Line::Message {
                number: self.number,
                bytes: &self.buffer,
                terminated,
            }));
        }
    }
}

/// Whether a line holds only spaces, tabs and carriage returns: a blank line,
/// which readers of a transcript skip.
pub(crate) fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|byte| matches!(byte, b' ' | b'\t' | b'\r'))
}

/// Consumes input up to and including the next line feed; returns the number of
/// bytes before it.
pub(crate) fn skip_line(reader: &mut impl BufRead) -> io::Result<u64> {
    let mut skipped = 0u64;
    loop {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if available.is_empty() {
            return Ok(skipped);
        }
        match available.iter().position(|&byte| byte == b'\n') {
            Some(end) => {
                reader.consume(end + 1);
                return Ok(skipped + end as u64);
            }
            None => {
                let length = available.len();
                reader.consume(length);
                skipped += length as u64;
            }
        }
    }
}
