//! Checking a whole NDJSON stream, in order, with bounded memory, on several
//! threads.
//!
//! [`check_stream`] reads lines with a [`LineReader`] on one thread and hands
//! batches of them to worker threads, which run [`check_verdict`] (or
//! [`check_message`] when the semantic rules need the decoded envelope): the
//! text, schema and decoder layers, the expensive part. The calling thread puts the verdicts
//! back in input order, applies the semantic rules, which need the messages in
//! order, and passes each verdict to a sink. At most a few batches are in flight,
//! so memory stays bounded whatever the stream's length; a batch holds at most
//! [`BATCH_LINES`] lines or [`BATCH_BYTES`] bytes (or one line up to
//! `MAX_LINE_BYTES`).

use crate::transcript::{
    Checked, Finding, Line, LineReader, TranscriptChecker, check_message, check_verdict,
};
use crate::validate::Validator;
use std::collections::BTreeMap;
use std::io::{self, BufRead};
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};

/// The most lines a batch holds.
pub const BATCH_LINES: usize = 256;
/// A batch takes no more lines once it holds this many bytes.
pub const BATCH_BYTES: usize = 1 << 20;
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

struct Batch {
    sequence: u64,
    data: Vec<u8>,
    entries: Vec<Entry>,
}

struct Done {
    batch: Batch,
    verdicts: Vec<Checked>,
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
    let (work_sender, work_receiver) = sync_channel::<Batch>(threads);
    let (done_sender, done_receiver) = sync_channel::<Done>(threads);
    let work_receiver = Arc::new(Mutex::new(work_receiver));
    // Checked batches go back to the reader to be filled again: a fresh 1 MiB
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

fn read_batches<R: BufRead>(
    reader: R,
    work: &SyncSender<Batch>,
    spare: &Receiver<Batch>,
) -> io::Result<()> {
    let mut lines = LineReader::new(reader);
    let mut sequence = 0;
    // A batch the collector is done with, or a new one full-size from the
    // start: growing a batch to 1 MiB by doubling copied its bytes again, on
    // the thread every worker waits for.
    let fresh = |sequence| match spare.try_recv() {
        Ok(mut batch) => {
            batch.sequence = sequence;
            batch.data.clear();
            batch.entries.clear();
            batch
        }
        Err(_) => Batch {
            sequence,
            data: Vec::with_capacity(BATCH_BYTES),
            entries: Vec::with_capacity(BATCH_LINES),
        },
    };
    let mut batch = fresh(sequence);
    while let Some(line) = lines.next_line()? {
        match line {
            Line::Message { number, bytes, .. } => {
                let start = batch.data.len();
                batch.data.extend_from_slice(bytes);
                batch.entries.push(Entry::Message {
                    number,
                    start,
                    end: batch.data.len(),
                });
            }
            Line::TooLong { number, length } => {
                batch.entries.push(Entry::TooLong { number, length })
            }
        }
        if batch.entries.len() >= BATCH_LINES || batch.data.len() >= BATCH_BYTES {
            sequence += 1;
            let full = std::mem::replace(&mut batch, fresh(sequence));
            if work.send(full).is_err() {
                return Ok(());
            }
        }
    }
    if !batch.entries.is_empty() {
        let _ = work.send(batch);
    }
    Ok(())
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
        let verdicts = batch
            .entries
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
        if done.send(Done { batch, verdicts }).is_err() {
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
    while let Ok(finished) = done.recv() {
        waiting.insert(finished.batch.sequence, finished);
        while let Some(Done { batch, verdicts }) = waiting.remove(&next) {
            next += 1;
            for (entry, mut checked) in batch.entries.iter().zip(verdicts) {
                let number = match entry {
                    Entry::Message { number, start, end } => {
                        if semantic {
                            let bytes = batch.data.get(*start..*end).unwrap_or_default();
                            finish(checker, semantic, *number, bytes, &mut checked);
                        }
                        *number
                    }
                    Entry::TooLong { number, .. } => *number,
                };
                sink(&LineVerdict { number, checked }).map_err(StreamError::Sink)?;
            }
            // A batch that grew for one big line is not kept.
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
