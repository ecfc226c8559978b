//! NDJSON read line by line in bounded memory.

use cgp_types::MAX_LINE_BYTES;
use std::io::{self, BufRead};

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

/// Reads NDJSON line by line, so memory stays bounded whatever the input's
/// size: a line that lies whole in the reader's buffer is handed out from it,
/// any other is gathered in one reused buffer, and a line longer than
/// [`MAX_LINE_BYTES`] is skipped to its end without being buffered and
/// reported as [`Line::TooLong`]. The one line reader of the toolchain: files
/// and standard input (`cgp validate`), a provider's standard output and
/// standard error (`cgp check`). Dropped, it leaves the reader just after
/// the last line it returned, as if each had been consumed when read.
#[derive(Debug)]
pub struct LineReader<R: BufRead> {
    reader: R,
    buffer: Vec<u8>,
    /// The length, line feed included, of the line last handed out from the
    /// reader's own buffer: consumed when the next one is asked for.
    lent: usize,
    number: usize,
    skip_blank: bool,
    skip_overlong: bool,
}

impl<R: BufRead> LineReader<R> {
    /// A reader that skips blank (whitespace-only) lines.
    pub fn new(reader: R) -> Self {
        Self::with(reader, true, true)
    }

    /// A reader of a live peer's output: blank lines are returned (a peer must
    /// not send them), and a line that passes [`MAX_LINE_BYTES`] is reported
    /// as soon as it does, not skipped to its end (an endless line would never
    /// end): nothing more should be read after it, as the reference host fails
    /// the connection there.
    pub fn for_peer(reader: R) -> Self {
        Self::with(reader, false, false)
    }

    /// A reader that returns blank lines too (a live peer must not send them).
    pub fn keeping_blank_lines(reader: R) -> Self {
        Self::with(reader, false, true)
    }

    fn with(reader: R, skip_blank: bool, skip_overlong: bool) -> Self {
        LineReader {
            reader,
            buffer: Vec::new(),
            lent: 0,
            number: 0,
            skip_blank,
            skip_overlong,
        }
    }

    /// The next line, or `None` at the end of the input.
    pub fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        loop {
            self.reader.consume(std::mem::take(&mut self.lent));
            let available = fill(&mut self.reader)?;
            let whole = memchr::memchr(b'\n', available)
                .filter(|&end| end <= MAX_LINE_BYTES)
                .map(|end| (end, is_blank(available.get(..end).unwrap_or_default())));
            if let Some((end, blank)) = whole {
                self.number += 1;
                if blank && self.skip_blank {
                    self.reader.consume(end + 1);
                    continue;
                }
                self.lent = end + 1;
                let bytes = fill(&mut self.reader)?.get(..end).unwrap_or_default();
                return Ok(Some(Line::Message {
                    number: self.number,
                    bytes,
                    terminated: true,
                }));
            }
            if self.gather()? == 0 {
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

    /// Gathers a line that does not lie whole in the reader's buffer into
    /// `buffer`: up to its line feed, the end of the input, or one byte past
    /// [`MAX_LINE_BYTES`]. Returns how many bytes it took.
    fn gather(&mut self) -> io::Result<usize> {
        self.buffer.clear();
        let limit = MAX_LINE_BYTES + 1;
        loop {
            let available = fill(&mut self.reader)?;
            let room = limit - self.buffer.len();
            let window = available
                .get(..available.len().min(room))
                .unwrap_or_default();
            if window.is_empty() {
                return Ok(self.buffer.len());
            }
            let taken = memchr::memchr(b'\n', window).map_or(window.len(), |end| end + 1);
            self.buffer
                .extend_from_slice(window.get(..taken).unwrap_or_default());
            self.reader.consume(taken);
            if self.buffer.last() == Some(&b'\n') || self.buffer.len() == limit {
                return Ok(self.buffer.len());
            }
        }
    }
}

impl<R: BufRead> Drop for LineReader<R> {
    fn drop(&mut self) {
        self.reader.consume(self.lent);
    }
}

/// The reader's buffered input, refilled when it is empty; empty at the end.
fn fill(reader: &mut impl BufRead) -> io::Result<&[u8]> {
    loop {
        match reader.fill_buf() {
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
            // The end: not asked again (a terminal would wait for a second
            // end-of-file).
            Ok([]) => return Ok(&[]),
            // Asked again to hand the borrow out: a buffer that is not empty
            // is returned as it is, without reading.
            Ok(_) => return reader.fill_buf(),
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
        let available = fill(reader)?;
        if available.is_empty() {
            return Ok(skipped);
        }
        match memchr::memchr(b'\n', available) {
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
