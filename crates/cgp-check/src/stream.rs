//! Checking a whole NDJSON stream, in order, with bounded memory, on several
//! threads.
//!
//! With one thread, [`check_stream`] reads lines with a [`LineReader`] and
//! checks each in turn. With more, one thread reads the input in blocks of
//! whole lines (one copy, no work per line) and worker threads split each block
//! into lines and run [`check_verdict`] (or [`check_message`] when the semantic
//! rules need the decoded envelope): the text, schema and decoder layers, the
//! expensive part. The calling thread puts the verdicts back in input order,
//! numbers the lines, applies the semantic rules, which need the messages in
//! order, and passes each verdict to a sink. At most a few blocks are in
//! flight, so memory stays bounded whatever the stream's length; a block holds
//! about [`BATCH_BYTES`] bytes (or one line up to `MAX_LINE_BYTES`).

use crate::transcript::{
    Checked, Finding, Line, LineReader, TranscriptChecker, check_message, check_verdict, is_blank,
    skip_line,
};
use crate::validate::Validator;
use cgp_types::MAX_LINE_BYTES;
use std::collections::BTreeMap;
use std::io::{self, BufRead};
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};

/// A block is handed to a worker once it holds this many bytes (cut after
/// its last whole line): small enough that a few MB of short lines make dozens
/// of blocks for the workers to share, large enough that handing one over costs
/// nothing beside checking it.
pub const BATCH_BYTES: usize = 256 << 10;
/// How much the reader asks of the input at a time.
const READ_BYTES: usize = 64 << 10;
/// Lines longer than this are checked one at a time, whatever the thread count,
/// so that the memory their parsed values take does not multiply.
pub const BIG_LINE_BYTES: usize = 1 << 20;

/// How to check a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamOptions {
    /// Apply the semantic rules.
    pub semantic: bool,
    /// Worker threads; 0 or 1 checks on the calling thread alone.
    pub threads: usize,
}

/// Why a stream check stopped early.
#[derive(Debug)]
pub enum StreamError<E> {
    /// Reading the input failed.
    Input(io::Error),
    /// The sink refused a verdict.
    Sink(E),
}

/// The verdict on one line of a stream.
#[derive(Debug, Clone)]
pub struct LineVerdict {
    /// The 1-based line number.
    pub number: usize,
    /// The verdict. Its `value` is always `None`, and its `envelope` is kept
    /// only when the semantic rules were applied.
    pub checked: Checked,
}

/// One line of a block, numbered from 1 within the block.
enum Entry {
    Message {
        number: usize,
        start: usize,
        end: usize,
    },
    TooLong {
        number: usize,
        length: u64,
    },
}

/// Input handed to a worker: whole lines, the last perhaps without its line
/// feed at the end of the input; or one line over `MAX_LINE_BYTES`, skipped.
struct Batch {
    sequence: u64,
    data: Vec<u8>,
    too_long: Option<u64>,
}

/// A checked block: its lines (blank ones left out), their verdicts, and how
/// many lines it held, blank ones included, for the numbering.
struct Done {
    batch: Batch,
    entries: Vec<Entry>,
    verdicts: Vec<Checked>,
    lines: usize,
}

/// Checks every line of `reader` and passes the verdicts, in input order, to
/// `sink`. Blank lines are skipped; a line over `MAX_LINE_BYTES` gets a
/// text-layer finding.
pub fn check_stream<R, E>(
    reader: R,
    validator: &Validator,
    options: StreamOptions,
    mut sink: impl FnMut(&LineVerdict) -> Result<(), E>,
) -> Result<(), StreamError<E>>
where
    R: BufRead + Send,
{
    let mut checker = TranscriptChecker::new(validator, options.semantic);
    if options.threads <= 1 {
        let mut lines = LineReader::new(reader);
        while let Some(line) = lines.next_line().map_err(StreamError::Input)? {
            let verdict = match line {
                Line::Message { number, bytes, .. } => {
                    let mut checked = check_line(validator, options.semantic, bytes);
                    finish(&mut checker, options.semantic, number, bytes, &mut checked);
                    LineVerdict { number, checked }
                }
                Line::TooLong { number, length } => too_long(number, length),
            };
            sink(&verdict).map_err(StreamError::Sink)?;
        }
        return Ok(());
    }
    let threads = options.threads;
    let (work_sender, work_receiver) = sync_channel::<Batch>(2 * threads);
    let (done_sender, done_receiver) = sync_channel::<Done>(2 * threads);
    let work_receiver = Arc::new(Mutex::new(work_receiver));
    // Checked batches go back to the reader to be filled again: a fresh
    // batch each time cost page faults on the thread every worker waits for.
    let (spare_sender, spare_receiver) = channel::<Batch>();
    let big_line = Mutex::new(());
    std::thread::scope(|scope| {
        let reading = scope.spawn(move || read_batches(reader, &work_sender, &spare_receiver));
        for _ in 0..threads {
            let work = Arc::clone(&work_receiver);
            let done = done_sender.clone();
            let semantic = options.semantic;
            let big_line = &big_line;
            scope.spawn(move || work_on(validator, semantic, &work, &done, big_line));
        }
        drop(done_sender);
        let collected = collect(
            &done_receiver,
            &spare_sender,
            &mut checker,
            options.semantic,
            &mut sink,
        );
        // Stop the others if the sink gave up: they fail to send and return.
        drop(done_receiver);
        drop(work_receiver);
        let read = reading
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the reading thread panicked")));
        collected?;
        read.map_err(StreamError::Input)
    })
}

/// The per-message layers; the semantic rules need the decoded envelope, the
/// rest only the verdict.
fn check_line(validator: &Validator, semantic: bool, bytes: &[u8]) -> Checked {
    if semantic {
        check_message(validator, bytes)
    } else {
        check_verdict(validator, bytes)
    }
}

fn too_long(number: usize, length: u64) -> LineVerdict {
    LineVerdict {
        number,
        checked: Checked {
            variant: None,
            findings: vec![Finding::line_too_long(length)],
            value: None,
            envelope: None,
        },
    }
}

fn finish(
    checker: &mut TranscriptChecker<'_>,
    semantic: bool,
    number: usize,
    bytes: &[u8],
    checked: &mut Checked,
) {
    checked.value = None;
    if semantic {
        checker.add_semantic(bytes, &format!("line {number}"), checked);
    } else {
        checked.envelope = None;
    }
}

/// Reads the input into blocks of whole lines and hands them to the workers.
/// It does nothing per line: the only bytes it looks at are those it searches
/// for the last line feed.
fn read_batches<R: BufRead>(
    mut reader: R,
    work: &SyncSender<Batch>,
    spare: &Receiver<Batch>,
) -> io::Result<()> {
    let mut sequence = 0;
    // A block the collector is done with, or a new one full-size from the
    // start: growing a block to full size by doubling copied its bytes again, on
    // the thread every worker waits for.
    let fresh = |sequence| match spare.try_recv() {
        Ok(mut batch) => {
            batch.sequence = sequence;
            batch.data.clear();
            batch.too_long = None;
            batch
        }
        Err(_) => Batch {
            sequence,
            data: Vec::with_capacity(BATCH_BYTES + READ_BYTES),
            too_long: None,
        },
    };
    let mut batch = fresh(sequence);
    // Where the last line feed in `batch.data` is, and how far it was searched.
    let mut last_feed: Option<usize> = None;
    loop {
        let filled = batch.data.len();
        batch.data.resize(filled + READ_BYTES, 0);
        let read = loop {
            match reader.read(batch.data.get_mut(filled..).unwrap_or_default()) {
                Ok(read) => break read,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(error),
            }
        };
        batch.data.truncate(filled + read);
        if read == 0 {
            break;
        }
        if let Some(at) = batch
            .data
            .get(filled..)
            .and_then(|new| memchr::memrchr(b'\n', new))
        {
            last_feed = Some(filled + at);
        }
        let line_start = last_feed.map_or(0, |at| at + 1);
        let partial = batch.data.len() - line_start;
        if batch.data.len() < BATCH_BYTES && partial <= MAX_LINE_BYTES {
            continue;
        }
        if last_feed.is_some() {
            // Hand over the whole lines; the partial one starts the next block.
            sequence += 1;
            let mut next = fresh(sequence);
            next.data
                .extend_from_slice(batch.data.get(line_start..).unwrap_or_default());
            batch.data.truncate(line_start);
            if work.send(std::mem::replace(&mut batch, next)).is_err() {
                return Ok(());
            }
            last_feed = None;
        }
        if batch.data.len() > MAX_LINE_BYTES {
            // One line over the limit: skipped to its end unread.
            let length = batch.data.len() as u64 + skip_line(&mut reader)?;
            batch.data.clear();
            batch.too_long = Some(length);
            sequence += 1;
            if work
                .send(std::mem::replace(&mut batch, fresh(sequence)))
                .is_err()
            {
                return Ok(());
            }
        }
    }
    if !batch.data.is_empty() {
        let _ = work.send(batch);
    }
    Ok(())
}

/// The lines of a block, blank (whitespace-only) ones left out, and how many
/// lines it held.
fn split_lines(batch: &Batch) -> (Vec<Entry>, usize) {
    if let Some(length) = batch.too_long {
        return (vec![Entry::TooLong { number: 1, length }], 1);
    }
    let data = &batch.data;
    let mut entries = Vec::new();
    let mut number = 0;
    let mut start = 0;
    let mut push = |number: usize, start: usize, end: usize| {
        if end - start > MAX_LINE_BYTES {
            // Whole, but over the limit: the reader kept it, as it ended
            // within the read that crossed the limit.
            let length = (end - start) as u64;
            entries.push(Entry::TooLong { number, length });
            return;
        }
        let blank = is_blank(data.get(start..end).unwrap_or_default());
        if !blank {
            entries.push(Entry::Message { number, start, end });
        }
    };
    for feed in memchr::memchr_iter(b'\n', data) {
        number += 1;
        push(number, start, feed);
        start = feed + 1;
    }
    if start < data.len() {
        number += 1;
        push(number, start, data.len());
    }
    (entries, number)
}

fn work_on(
    validator: &Validator,
    semantic: bool,
    work: &Mutex<Receiver<Batch>>,
    done: &SyncSender<Done>,
    big_line: &Mutex<()>,
) {
    loop {
        let batch = {
            let Ok(receiver) = work.lock() else { return };
            match receiver.recv() {
                Ok(batch) => batch,
                Err(_) => return,
            }
        };
        let (entries, lines) = split_lines(&batch);
        let verdicts = entries
            .iter()
            .map(|entry| match entry {
                Entry::Message { start, end, .. } => {
                    let bytes = batch.data.get(*start..*end).unwrap_or_default();
                    // Parsing a line can take some 40 times its size (a 16 MiB
                    // line of tiny values); one such line at a time keeps the
                    // peak near that of one thread whatever the thread count.
                    let _one_at_a_time = (bytes.len() > BIG_LINE_BYTES)
                        .then(|| big_line.lock().unwrap_or_else(PoisonError::into_inner));
                    let mut checked = check_line(validator, semantic, bytes);
                    checked.value = None;
                    checked
                }
                Entry::TooLong { number, length } => too_long(*number, *length).checked,
            })
            .collect();
        let finished = Done {
            batch,
            entries,
            verdicts,
            lines,
        };
        if done.send(finished).is_err() {
            return;
        }
    }
}

fn collect<E>(
    done: &Receiver<Done>,
    spare: &Sender<Batch>,
    checker: &mut TranscriptChecker<'_>,
    semantic: bool,
    sink: &mut impl FnMut(&LineVerdict) -> Result<(), E>,
) -> Result<(), StreamError<E>> {
    let mut waiting: BTreeMap<u64, Done> = BTreeMap::new();
    let mut next = 0;
    // Lines before the block being passed on.
    let mut before = 0;
    while let Ok(finished) = done.recv() {
        waiting.insert(finished.batch.sequence, finished);
        while let Some(finished) = waiting.remove(&next) {
            next += 1;
            let Done {
                batch,
                entries,
                verdicts,
                lines,
            } = finished;
            for (entry, mut checked) in entries.iter().zip(verdicts) {
                let number = match entry {
                    Entry::Message { number, start, end } => {
                        let number = before + number;
                        if semantic {
                            let bytes = batch.data.get(*start..*end).unwrap_or_default();
                            finish(checker, semantic, number, bytes, &mut checked);
                        }
                        number
                    }
                    Entry::TooLong { number, .. } => before + number,
                };
                sink(&LineVerdict { number, checked }).map_err(StreamError::Sink)?;
            }
            before += lines;
            // A block that grew for one big line is not kept.
            if batch.data.capacity() <= 2 * BATCH_BYTES {
                let _ = spare.send(batch);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::published_interop_validator as validator;

    #[test]
    fn threads_keep_the_order_and_the_session() {
        let validator = validator();
        let mut input = String::new();
        for index in 0..2000 {
            input.push_str(&format!(
                "{{\"type\":\"query\",\"id\":\"q{index}\",\"query\":{{\"goal\":\"g\",\"max_frames\":1,\"max_tokens\":1}}}}\n"
            ));
            let cost = if index % 7 == 0 { 5 } else { 1 };
            input.push_str(&format!(
                "{{\"type\":\"frames\",\"id\":\"q{index}\",\"result\":{{\"frames\":[{{\"id\":\"a\",\"kind\":\"doc\",\"title\":\"t\",\"content\":\"abcd\",\"score\":0.5,\"token_cost\":{cost},\"citation_label\":\"c\"}}],\"truncated\":false}}}}\n"
            ));
            if index % 100 == 0 {
                input.push_str("not json\n\n");
            }
        }
        let run = |threads| {
            let mut seen = Vec::new();
            check_stream(
                input.as_bytes(),
                &validator,
                StreamOptions {
                    semantic: true,
                    threads,
                },
                |verdict: &LineVerdict| -> Result<(), ()> {
                    let rules: Vec<_> = verdict
                        .checked
                        .findings
                        .iter()
                        .map(|f| (f.layer, f.rule))
                        .collect();
                    seen.push((verdict.number, rules));
                    Ok(())
                },
            )
            .expect("checks");
            seen
        };
        let alone = run(1);
        assert_eq!(alone.len(), 4000 + 20);
        assert!(alone.windows(2).all(|pair| pair[0].0 < pair[1].0));
        let failed = alone.iter().filter(|(_, rules)| !rules.is_empty()).count();
        // B3 on every 7th frames line (and B1), and the 20 garbage lines.
        assert_eq!(failed, 2000 / 7 + 1 + 20);
        assert_eq!(run(3), alone);
    }

    /// Every line's number and findings, checked on `threads` threads.
    fn verdicts(input: &[u8], threads: usize) -> Vec<(usize, Vec<String>)> {
        let validator = validator();
        let mut seen = Vec::new();
        check_stream(
            input,
            &validator,
            StreamOptions {
                semantic: false,
                threads,
            },
            |verdict: &LineVerdict| -> Result<(), ()> {
                let findings = verdict
                    .checked
                    .findings
                    .iter()
                    .map(|finding| format!("{} {:?}", finding.message, finding.position))
                    .collect();
                seen.push((verdict.number, findings));
                Ok(())
            },
        )
        .expect("checks");
        seen
    }

    #[test]
    fn blocks_cut_anywhere_give_the_verdicts_of_one_thread() {
        let mut input = Vec::new();
        let mut index = 0;
        // Several blocks: lines of many lengths, one longer than a block, blank
        // and whitespace-only lines, CRLF endings, garbage, a line over the
        // limit in the middle, and a last line without its line feed.
        while index < 4000 {
            index += 1;
            let goal = "g".repeat(index * 37 % 900);
            let line = format!(
                "{{\"type\":\"query\",\"id\":\"q{index}\",\"query\":{{\"goal\":\"{goal}\",\"max_frames\":1,\"max_tokens\":1}}}}"
            );
            input.extend_from_slice(line.as_bytes());
            input.extend_from_slice(match index % 5 {
                0 => b"\r\n",
                1 => b"\n\n",
                2 => b"\n \t\r\n",
                _ => b"\n",
            });
            if index % 97 == 0 {
                input.extend_from_slice(
                    b"{\"type\":\"shutdown\",\"type\":\"shutdown\"}\nnot json\n",
                );
            }
            if index == 500 {
                let goal = "h".repeat(BATCH_BYTES + BATCH_BYTES / 2);
                input.extend_from_slice(
                    format!("{{\"type\":\"query\",\"query\":{{\"goal\":\"{goal}\",\"max_frames\":1,\"max_tokens\":1}}}}\n").as_bytes(),
                );
            }
            // One that ends in the read crossing the limit, one far beyond it.
            if index == 900 || index == 1500 {
                let over = if index == 900 { 10 } else { 5 * READ_BYTES };
                input.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + over));
                input.push(b'\n');
            }
        }
        input.extend_from_slice(b"{\"type\":\"shutdown\"}");
        let alone = verdicts(&input, 1);
        assert!(alone.len() > 4000, "{}", alone.len());
        assert!(input.len() > MAX_LINE_BYTES + 3 * BATCH_BYTES);
        let too_long = alone
            .iter()
            .filter(|(_, findings)| findings.iter().any(|f| f.contains("byte limit")))
            .count();
        assert_eq!(too_long, 2);
        let invalid = alone
            .iter()
            .filter(|(_, findings)| !findings.is_empty())
            .count();
        assert!(invalid > 2 * (index / 97), "{invalid}");
        assert_eq!(alone.last().map(|(_, f)| f.is_empty()), Some(true));
        for threads in [2, 3] {
            let many = verdicts(&input, threads);
            let first = alone
                .iter()
                .zip(&many)
                .position(|(a, b)| a != b)
                .map(|at| (&alone[at], &many[at]));
            assert!(
                many == alone,
                "{threads} threads differ: {} lines, not {}; first difference {first:?}",
                many.len(),
                alone.len()
            );
        }
    }

    #[test]
    fn a_failing_sink_stops_the_threads() {
        let validator = validator();
        let input = "{\"type\":\"shutdown\"}\n".repeat(10_000);
        let mut count = 0;
        let result = check_stream(
            input.as_bytes(),
            &validator,
            StreamOptions {
                semantic: false,
                threads: 2,
            },
            |_: &LineVerdict| {
                count += 1;
                if count == 300 { Err("enough") } else { Ok(()) }
            },
        );
        assert!(matches!(result, Err(StreamError::Sink("enough"))));
        assert_eq!(count, 300);
    }
}
