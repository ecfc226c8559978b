//! The stdio proxy: the provider as a child process group; every byte of the
//! host's standard input goes to the provider's, and every byte of the
//! provider's standard output to the host's, unchanged and as soon as it
//! arrives. Complete lines are copied to the record and handed to the judge
//! (never waiting for it) as their last byte passes.

use crate::judge::{Judge, Side};
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The record, shared by both pumps: complete lines, in the order they passed.
pub type Record = Arc<Mutex<BufWriter<File>>>;

/// How a proxied conversation ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ending {
    /// The exit status to pass on: the provider's code, or 128 + the signal
    /// that ended it.
    pub status: i32,
    /// What happened, for the findings (a provider that died or stalled).
    pub notes: Vec<String>,
}

/// Splits a byte stream into lines for the record and the judge, in bounded
/// memory: a line over 16 MiB is reported by length and not kept.
#[derive(Debug)]
pub struct Splitter {
    side: Side,
    partial: Vec<u8>,
    overlong: Option<u64>,
}

impl Splitter {
    /// A splitter of what `side` sends.
    pub fn new(side: Side) -> Self {
        Splitter {
            side,
            partial: Vec::new(),
            overlong: None,
        }
    }

    /// Takes the next chunk; every line it completes goes to `judge` and
    /// `record`.
    pub fn feed(&mut self, mut chunk: &[u8], judge: &Judge, record: Option<&Record>) {
        while !chunk.is_empty() {
            let end = chunk.iter().position(|byte| *byte == b'\n');
            let (piece, rest, complete) = match end {
                Some(at) => (
                    chunk.get(..at).unwrap_or_default(),
                    chunk.get(at + 1..).unwrap_or_default(),
                    true,
                ),
                None => (chunk, &[][..], false),
            };
            self.take(piece);
            if complete {
                self.finish(judge, record);
            }
            chunk = rest;
        }
    }

    fn take(&mut self, piece: &[u8]) {
        if let Some(length) = &mut self.overlong {
            *length += piece.len() as u64;
        } else if self.partial.len() + piece.len() > cgp_types::MAX_LINE_BYTES {
            self.overlong = Some((self.partial.len() + piece.len()) as u64);
            self.partial = Vec::new();
        } else {
            self.partial.extend_from_slice(piece);
        }
    }

    /// Ends the current line (at a line feed, or at the end of the stream
    /// when something is pending).
    pub fn finish(&mut self, judge: &Judge, record: Option<&Record>) {
        if let Some(length) = self.overlong.take() {
            judge.too_long(self.side, length);
            return;
        }
        if let Some(record) = record {
            if let Ok(mut record) = record.lock() {
                let _ = record.write_all(&self.partial);
                let _ = record.write_all(b"\n");
                let _ = record.flush();
            }
        }
        judge.line(self.side, &self.partial);
        self.partial.clear();
    }

    /// Ends the stream: an unterminated last line is judged too.
    pub fn close(&mut self, judge: &Judge, record: Option<&Record>) {
        if !self.partial.is_empty() || self.overlong.is_some() {
            self.finish(judge, record);
        }
    }
}

/// Copies `from` to `to` chunk by chunk, flushing each at once; the lines a
/// chunk completes go to the record and the judge just before it is passed on. Returns at the end of
/// `from`, or when `to` refuses bytes.
pub fn pump(
    mut from: impl Read,
    mut to: impl Write,
    side: Side,
    judge: &Judge,
    record: Option<&Record>,
) -> io::Result<()> {
    let mut splitter = Splitter::new(side);
    let mut buffer = vec![0u8; 64 * 1024];
    let outcome = loop {
        let read = match from.read(&mut buffer) {
            Ok(0) => break Ok(()),
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => break Err(error),
        };
        let chunk = buffer.get(..read).unwrap_or_default();
        // Lines are handed on first, so the record and the judge see a
        // request before the reply it causes; handing on never blocks.
        splitter.feed(chunk, judge, record);
        if let Err(error) = to.write_all(chunk).and_then(|()| to.flush()) {
            break Err(error);
        }
    };
    splitter.close(judge, record);
    outcome
}

/// Starts `command` in a process group of its own, its standard input and
/// output piped, its standard error the proxy's.
pub fn spawn(command: &[OsString]) -> io::Result<Child> {
    let (program, args) = command
        .split_first()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no provider command"))?;
    let mut process = Command::new(program);
    process
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut process, 0);
    process.spawn()
}

/// The exit status to pass on for `status`.
pub fn pass_on(status: ExitStatus) -> i32 {
    if let Some(code) = status.code() {
        return code;
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return 128 + signal;
        }
    }
    1
}

/// Signals the provider's process group (unix; elsewhere, nothing).
pub fn signal_group(group: u32, signal: i32) {
    #[cfg(unix)]
    {
        let pid = i32::try_from(group)
            .ok()
            .and_then(rustix::process::Pid::from_raw);
        let signal = rustix::process::Signal::from_named_raw(signal);
        if let (Some(pid), Some(signal)) = (pid, signal) {
            let _ = rustix::process::kill_process_group(pid, signal);
        }
    }
    #[cfg(not(unix))]
    let _ = (group, signal);
}

/// What the main thread hears.
enum Event {
    HostClosed,
    ProviderClosed,
    Exited(io::Result<ExitStatus>),
}

/// Runs the proxy over the host's `input` and `output` (the proxy's own
/// standard input and output) until the provider ends: when the host closes
/// its side, the provider's standard input is closed, and the provider is
/// given `grace` to exit before its process group is killed.
pub fn run(
    command: &[OsString],
    input: impl Read + Send + 'static,
    output: impl Write + Send + 'static,
    judge: &Judge,
    record: Option<Record>,
    grace: Duration,
) -> io::Result<Ending> {
    let mut child = spawn(command)?;
    let group = child.id();
    let to_provider = child.stdin.take();
    let from_provider = child.stdout.take();
    let (events, heard) = mpsc::channel();
    #[cfg(unix)]
    let _signals = forward_signals(group);

    let host_judge = judge.clone();
    let host_record = record.clone();
    let host_events = events.clone();
    // The host's side: a thread the proxy never joins (its read of standard
    // input may block past the provider's end).
    std::thread::spawn(move || {
        if let Some(to_provider) = to_provider {
            let _ = pump(
                input,
                to_provider,
                Side::Host,
                &host_judge,
                host_record.as_ref(),
            );
            // Dropping the pipe closes the provider's standard input.
        }
        let _ = host_events.send(Event::HostClosed);
    });
    let provider_judge = judge.clone();
    let provider_record = record.clone();
    let provider_events = events.clone();
    let provider_side = std::thread::spawn(move || {
        if let Some(from_provider) = from_provider {
            let _ = pump(
                from_provider,
                output,
                Side::Provider,
                &provider_judge,
                provider_record.as_ref(),
            );
        }
        let _ = provider_events.send(Event::ProviderClosed);
    });
    std::thread::spawn(move || {
        let _ = events.send(Event::Exited(child.wait()));
    });

    let mut notes = Vec::new();
    let mut host_closed = false;
    let mut killed = false;
    let status = loop {
        let event = if host_closed && !killed {
            match heard.recv_timeout(grace) {
                Ok(event) => event,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    notes.push(format!(
                        "the provider did not exit within {:.1} s of the host closing its side; its process group was killed",
                        grace.as_secs_f64()
                    ));
                    signal_group(group, 9);
                    killed = true;
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break None,
            }
        } else {
            match heard.recv() {
                Ok(event) => event,
                Err(_) => break None,
            }
        };
        match event {
            Event::HostClosed => host_closed = true,
            Event::ProviderClosed => {}
            Event::Exited(status) => break status.ok(),
        }
    };
    // Whatever the provider wrote before it ended reaches the host.
    let _ = provider_side.join();
    let status = status.map_or(1, pass_on);
    // After a shutdown a provider exits 0 with the host still connected; any
    // other status while the host is there is a provider that died.
    if !host_closed && status != 0 {
        notes.push(format!(
            "the provider ended (exit status {status}) while the host was still connected"
        ));
    }
    for note in &notes {
        judge.note(note.clone());
    }
    Ok(Ending { status, notes })
}

/// Forwards SIGINT, SIGTERM, SIGHUP and SIGQUIT to the provider's group while
/// the proxy runs.
#[cfg(unix)]
fn forward_signals(group: u32) -> Option<signal_hook::iterator::Handle> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    let mut signals =
        signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP, SIGQUIT]).ok()?;
    let handle = signals.handle();
    std::thread::spawn(move || {
        for signal in signals.forever() {
            signal_group(group, signal);
        }
    });
    Some(handle)
}
