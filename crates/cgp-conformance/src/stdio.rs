//! A provider run as a child process and spoken to over stdio.
//!
//! The child gets a cleared environment (only `PATH`, `HOME`, `LANG` and the
//! variables the caller passes explicitly). Its standard output is read on a
//! thread a line of at most `MAX_LINE_BYTES` at a time, so a flood or an
//! endless line costs bounded memory; reads wait on a channel with a timeout. Its standard error is
//! drained on another thread, keeping the last lines for the report.
//!
//! On Unix the child leads a process group of its own, as in the reference
//! host; [`Peer::kill`] and dropping the [`ChildProvider`] send `SIGKILL` to the
//! whole group, so a shell wrapper's provider or a forgotten grandchild goes
//! too, and the child is reaped on every path.

use super::{Peer, Received};
use cgp_check::transcript::{Line, LineReader};
use cgp_types::MAX_LINE_BYTES;
use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The environment variables a provider inherits; everything else is cleared.
pub const INHERITED_ENV: &[&str] = &["PATH", "HOME", "LANG"];

/// How many lines of the provider's standard error a report keeps.
pub(crate) const DIAGNOSTIC_LINES: usize = 20;

/// How many output lines may wait to be read; the child blocks beyond that.
const QUEUED_LINES: usize = 4;

/// How to start a provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Launch {
    /// The program.
    pub program: OsString,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// Variables to set besides [`INHERITED_ENV`].
    pub env: Vec<(OsString, OsString)>,
}

/// A running provider.
#[derive(Debug)]
pub struct ChildProvider {
    child: Child,
    stdin: Option<ChildStdin>,
    output: Receiver<Received>,
    diagnostics: Arc<Mutex<VecDeque<String>>>,
    exit: Option<ExitStatus>,
}

impl ChildProvider {
    /// Starts the provider.
    pub fn spawn(launch: &Launch) -> io::Result<Self> {
        let mut command = Command::new(&launch.program);
        command
            .args(&launch.args)
            .env_clear()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for name in INHERITED_ENV {
            if let Some(value) = std::env::var_os(name) {
                command.env(name, value);
            }
        }
        for (name, value) in &launch.env {
            command.env(name, value);
        }
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn()?;
        let stdin = child.stdin.take();
        let (sender, output) = sync_channel(QUEUED_LINES);
        let diagnostics = Arc::new(Mutex::new(VecDeque::new()));
        // From here on the child is running: dropping `provider` kills it.
        let mut provider = ChildProvider {
            child,
            stdin,
            output,
            diagnostics: Arc::clone(&diagnostics),
            exit: None,
        };
        let stdout = provider.child.stdout.take();
        let stderr = provider.child.stderr.take();
        let (Some(stdout), Some(stderr)) = (stdout, stderr) else {
            return Err(io::Error::other("the provider's output pipes are missing"));
        };
        std::thread::Builder::new()
            .name("cgp-provider-stdout".into())
            .spawn(move || read_output(BufReader::new(stdout), &sender))?;
        std::thread::Builder::new()
            .name("cgp-provider-stderr".into())
            .spawn(move || keep_tail(BufReader::new(stderr), &diagnostics))?;
        Ok(provider)
    }

    fn describe(status: ExitStatus) -> String {
        status.to_string()
    }

    /// The provider's process group, for [`kill_process_group`] from where the
    /// [`ChildProvider`] is out of reach (a signal handler).
    pub fn process_group(&self) -> u32 {
        self.child.id()
    }

    /// Closes the provider's standard input: it reads end-of-file next.
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Kills the child's process group, then the child itself (off Unix, only
    /// the child).
    fn kill_group(&mut self) {
        kill_process_group(self.process_group());
        // An error means the child has already exited; `wait` reaps it either way.
        let _ = self.child.kill();
    }
}

/// Sends `SIGKILL` to process group `group`: a provider and everything it
/// started that did not leave the group. Harmless when the group is already
/// empty; does nothing off Unix.
pub fn kill_process_group(group: u32) {
    #[cfg(unix)]
    if let Some(group) = i32::try_from(group)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        // An error means no process is left in the group.
        let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    }
    #[cfg(not(unix))]
    let _ = group;
}

/// Reads the provider's output a line at a time, at most [`MAX_LINE_BYTES`] a
/// line. A line that grows past that without a line feed ends the reading, as
/// it fails the connection in the reference host (SPEC.md §Transport): an
/// endless line is reported as soon as it passes the limit, not at a deadline.
fn read_output(reader: impl BufRead, sender: &SyncSender<Received>) {
    let mut lines = LineReader::for_peer(reader);
    loop {
        let received = match lines.next_line() {
            Ok(None) => Received::Closed,
            Ok(Some(Line::Message {
                bytes, terminated, ..
            })) => Received::Line {
                bytes: bytes.to_vec(),
                terminated,
            },
            Ok(Some(Line::TooLong { .. })) => Received::Failed(format!(
                "a line passed the {MAX_LINE_BYTES}-byte limit without a line feed; cgp check stops reading, as the reference host fails the connection here"
            )),
            Err(error) => Received::Failed(error.to_string()),
        };
        let last = matches!(received, Received::Closed | Received::Failed(_));
        if sender.send(received).is_err() || last {
            return;
        }
    }
}

fn keep_tail(reader: impl BufRead, tail: &Mutex<VecDeque<String>>) {
    let mut lines = LineReader::keeping_blank_lines(reader);
    while let Ok(Some(line)) = lines.next_line() {
        let text = match line {
            Line::Message { bytes, .. } => {
                String::from_utf8_lossy(bytes).chars().take(500).collect()
            }
            Line::TooLong { length, .. } => format!("<a line of {length} bytes>"),
        };
        let Ok(mut kept) = tail.lock() else { return };
        if kept.len() == DIAGNOSTIC_LINES {
            kept.pop_front();
        }
        kept.push_back(text);
    }
}

impl Peer for ChildProvider {
    fn send(&mut self, line: &[u8]) -> io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::new(io::ErrorKind::BrokenPipe, "stdin is closed"))?;
        stdin.write_all(line)?;
        stdin.write_all(b"\n")?;
        stdin.flush()
    }

    fn receive(&mut self, timeout: Duration) -> Received {
        let received = if timeout.is_zero() {
            self.output.try_recv().map_err(|error| match error {
                std::sync::mpsc::TryRecvError::Empty => RecvTimeoutError::Timeout,
                std::sync::mpsc::TryRecvError::Disconnected => RecvTimeoutError::Disconnected,
            })
        } else {
            self.output.recv_timeout(timeout)
        };
        match received {
            Ok(received) => received,
            Err(RecvTimeoutError::Timeout) => Received::Timeout,
            Err(RecvTimeoutError::Disconnected) => Received::Closed,
        }
    }

    fn wait_exit(&mut self, timeout: Duration) -> Option<String> {
        if let Some(status) = self.exit {
            return Some(Self::describe(status));
        }
        let deadline = super::deadline(timeout);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.exit = Some(status);
                    self.stdin = None;
                    return Some(Self::describe(status));
                }
                Ok(None) => {}
                Err(error) => return Some(format!("cannot wait for the provider: {error}")),
            }
            let now = Instant::now();
            if now >= deadline {
                return None;
            }
            std::thread::sleep((deadline - now).min(Duration::from_millis(10)));
        }
    }

    fn kill(&mut self) -> String {
        self.stdin = None;
        // The group too when the child has exited: a grandchild may be left.
        self.kill_group();
        if let Some(status) = self.exit {
            return Self::describe(status);
        }
        match self.child.wait() {
            Ok(status) => {
                self.exit = Some(status);
                Self::describe(status)
            }
            Err(error) => format!("cannot reap the provider: {error}"),
        }
    }

    fn diagnostics(&self) -> Vec<String> {
        self.diagnostics
            .lock()
            .map(|kept| kept.iter().cloned().collect())
            .unwrap_or_default()
    }
}

impl Drop for ChildProvider {
    fn drop(&mut self) {
        self.kill();
    }
}
