//! The exit statuses of `cgp`, one name each, as `cgp --help` states them.

use std::process::ExitCode;

/// How a `cgp` run ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Everything judged is valid (for `diff`: no change exceeds `--fail-on`).
    Valid = 0,
    /// Something judged is not valid (for `diff`: a change exceeds `--fail-on`).
    Invalid = 1,
    /// A usage or I/O error: nothing could be judged.
    Trouble = 2,
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> Self {
        ExitCode::from(exit as u8)
    }
}
