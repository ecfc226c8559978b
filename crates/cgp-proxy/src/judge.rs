//! The live judge: every line that passes, in the order it passed, through the
//! checker of `cgp validate --semantic`, on a thread of its own behind a
//! bounded queue, so a slow reader of the findings loses findings, never
//! bytes.

use cgp_check::Validator;
use cgp_check::transcript::{Finding, TranscriptChecker};
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Who sent a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The host (the proxy's standard input, or an HTTP request body).
    Host,
    /// The provider (its standard output, or an HTTP response body).
    Provider,
}

impl Side {
    /// `"host"` or `"provider"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Host => "host",
            Side::Provider => "provider",
        }
    }
}

/// How findings are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `line 3 (host): error H4 at /id: …`
    Human,
    /// One JSON object per finding.
    Json,
    /// GitHub workflow commands (`::error title=…::…`).
    Github,
}

/// What the judge is handed.
#[derive(Debug)]
enum Item {
    Line(Side, Vec<u8>),
    TooLong(Side, u64),
    Note(String),
}

/// How many lines queue for the judge before findings are dropped.
pub const QUEUE_LINES: usize = 4096;

/// The sending end of the judge, shared by the pumps.
#[derive(Debug, Clone)]
pub struct Judge {
    sender: SyncSender<Item>,
    lost: Arc<AtomicU64>,
}

/// What the judge saw, when it is done.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verdict {
    /// Lines judged.
    pub lines: u64,
    /// Errors found (broken MUSTs, invalid lines).
    pub errors: u64,
    /// Warnings found (broken SHOULDs).
    pub warnings: u64,
}

impl Judge {
    /// Starts the judge thread, writing findings to `sink` in `format`.
    pub fn start(
        validator: Validator,
        format: Format,
        sink: Box<dyn Write + Send>,
    ) -> (Judge, JoinHandle<Verdict>) {
        let (sender, receiver) = sync_channel(QUEUE_LINES);
        let lost = Arc::new(AtomicU64::new(0));
        let handle = std::thread::spawn(move || judge(&validator, format, sink, &receiver));
        (Judge { sender, lost }, handle)
    }

    /// Hands one complete line (without its line feed) to the judge; when the
    /// judge is behind, the line goes unjudged and is counted as lost.
    pub fn line(&self, side: Side, bytes: &[u8]) {
        self.offer(Item::Line(side, bytes.to_vec()));
    }

    /// A line over the 16 MiB limit, not kept.
    pub fn too_long(&self, side: Side, length: u64) {
        self.offer(Item::TooLong(side, length));
    }

    /// Something about the conversation itself (a provider that died).
    pub fn note(&self, text: String) {
        // A note waits for room: there are few, and they matter.
        let _ = self.sender.send(Item::Note(text));
    }

    /// How many lines went unjudged because the judge was behind.
    pub fn lost(&self) -> u64 {
        self.lost.load(Ordering::Relaxed)
    }

    fn offer(&self, item: Item) {
        match self.sender.try_send(item) {
            Ok(()) | Err(TrySendError::Disconnected(_)) => {}
            Err(TrySendError::Full(_)) => {
                self.lost.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
}

fn judge(
    validator: &Validator,
    format: Format,
    sink: Box<dyn Write + Send>,
    receiver: &Receiver<Item>,
) -> Verdict {
    let sink = Mutex::new(sink);
    let mut checker = TranscriptChecker::new(validator, true);
    let mut verdict = Verdict::default();
    let write = |text: String| {
        if let Ok(mut sink) = sink.lock() {
            let _ = sink.write_all(text.as_bytes());
            let _ = sink.flush();
        }
    };
    for item in receiver {
        match item {
            Item::Line(side, bytes) => {
                verdict.lines += 1;
                let number = verdict.lines;
                let origin = format!("line {number}");
                let checked = checker.check(&bytes, &origin);
                let mut text = String::new();
                for finding in &checked.findings {
                    if finding.is_error() {
                        verdict.errors += 1;
                    } else {
                        verdict.warnings += 1;
                    }
                    text.push_str(&render(format, number, side, finding));
                }
                if !text.is_empty() {
                    write(text);
                }
            }
            Item::TooLong(side, length) => {
                verdict.lines += 1;
                verdict.errors += 1;
                let finding = Finding::line_too_long(length);
                write(render(format, verdict.lines, side, &finding));
            }
            Item::Note(note) => write(render_note(format, &note)),
        }
    }
    verdict
}

/// One finding as `format` writes it, with its line feed.
pub fn render(format: Format, line: u64, side: Side, finding: &Finding) -> String {
    let severity = if finding.is_error() {
        "error"
    } else {
        "warning"
    };
    let rule = finding.rule.map(|rule| rule.as_str()).unwrap_or_default();
    match format {
        Format::Human => {
            let rule = if rule.is_empty() {
                String::new()
            } else {
                format!(" {rule}")
            };
            let at = if finding.instance_path.is_empty() {
                String::new()
            } else {
                format!(" at {}", finding.instance_path)
            };
            format!(
                "cgp proxy: line {line} ({}): {severity}{rule}{at}: {} ({})\n",
                side.as_str(),
                finding.message,
                finding.origin()
            )
        }
        Format::Json => {
            let value = serde_json::json!({
                "line": line,
                "side": side.as_str(),
                "severity": severity,
                "rule": rule,
                "layer": finding.layer.as_str(),
                "instance_path": finding.instance_path,
                "message": finding.message,
            });
            format!("{value}\n")
        }
        Format::Github => {
            let title = if rule.is_empty() {
                finding.layer.as_str()
            } else {
                rule
            };
            format!(
                "::{severity} title={}::line {line} ({}): {}\n",
                escape_property(title),
                side.as_str(),
                escape_data(&finding.message)
            )
        }
    }
}

fn render_note(format: Format, note: &str) -> String {
    match format {
        Format::Human => format!("cgp proxy: {note}\n"),
        Format::Json => format!("{}\n", serde_json::json!({ "note": note })),
        Format::Github => format!("::warning title=cgp proxy::{}\n", escape_data(note)),
    }
}

fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}
