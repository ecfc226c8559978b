//! Live progress on standard error, for a person at a terminal: `cgp check`'s
//! steps as they run, `cgp validate`'s bar on large inputs. Nothing is drawn
//! when standard error is not a terminal, when the report is for a program
//! (`--format json|junit`), or with `--quiet`.

use crate::render::Format;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// How much `cgp` says (`-q`, `-v`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verbosity {
    /// The summary only.
    Quiet,
    /// Findings and the summary.
    Normal,
    /// Every line's verdict too.
    Verbose,
}

/// Inputs smaller than this finish before a bar would mean anything.
pub const LARGE_INPUT_BYTES: u64 = 8 << 20;

/// Whether progress may be drawn for a run in `format` at `verbosity`.
pub fn wanted(format: Format, verbosity: Verbosity) -> bool {
    verbosity != Verbosity::Quiet && !format.is_machine() && std::io::stderr().is_terminal()
}

/// A bar or spinner on standard error, or nothing.
pub struct Progress(Option<ProgressBar>);

impl Progress {
    /// Nothing drawn.
    pub fn none() -> Self {
        Progress(None)
    }

    /// A bar over `total` bytes (a spinner when the size is not known), for
    /// reading a transcript: bytes, lines and rate.
    pub fn bytes(name: &str, total: Option<u64>) -> Self {
        let bar = match total {
            Some(total) => ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
                .with_style(style(
                    "{msg} [{bar:30}] {bytes}/{total_bytes} {binary_bytes_per_sec} eta {eta}",
                )),
            None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
                .with_style(style("{spinner} {msg} {bytes} {binary_bytes_per_sec}")),
        };
        bar.set_message(format!("{name}: 0 lines"));
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress(Some(bar))
    }

    /// A spinner with a message, for a conversation.
    pub fn spinner() -> Self {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
            .with_style(style("{spinner} {msg}"));
        bar.enable_steady_tick(Duration::from_millis(120));
        Progress(Some(bar))
    }

    /// Sets the position (bytes read).
    pub fn set_position(&self, position: u64) {
        if let Some(bar) = &self.0 {
            bar.set_position(position);
        }
    }

    /// Sets the message beside the bar.
    pub fn message(&self, message: String) {
        if let Some(bar) = &self.0 {
            bar.set_message(message);
        }
    }

    /// Prints a line above the bar, which stays.
    pub fn println(&self, line: &str) {
        if let Some(bar) = &self.0 {
            bar.println(line);
        }
    }

    /// Whether anything is drawn.
    pub fn is_shown(&self) -> bool {
        self.0.is_some()
    }

    /// Removes the bar.
    pub fn clear(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ")
}
