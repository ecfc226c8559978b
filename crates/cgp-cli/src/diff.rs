//! `cgp diff`: rendering the classifier's comparison of two schema versions.

use cgp_schema::classify::{self, Bump};
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

/// How the comparison is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// `file:line: RULE /pointer (directions) requires a … bump: message`.
    Human,
    /// One JSON object: `{"required_bump", "changes": [...]}`.
    Json,
    /// GitHub Actions annotations (`::error file=…,line=…::…`).
    Github,
}

/// The smallest bump that makes `cgp diff` fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    /// Fail when any change needs a minor or a major bump.
    Minor,
    /// Fail when any change needs a major bump.
    Major,
}

impl From<FailOn> for Bump {
    fn from(level: FailOn) -> Self {
        match level {
            FailOn::Minor => Bump::Minor,
            FailOn::Major => Bump::Major,
        }
    }
}

/// Runs `cgp diff`: 0 when the comparison ran, 1 when `fail_on` is reached, 2
/// when an input cannot be read.
pub fn run(old: &Path, new: &Path, format: Format, fail_on: Option<FailOn>) -> ExitCode {
    let sides = classify::load_side(old).and_then(|old| Ok((old, classify::load_side(new)?)));
    let (old, new) = match sides {
        Ok(sides) => sides,
        Err(problems) => {
            eprintln!("{problems}");
            return ExitCode::from(2);
        }
    };
    let comparison = classify::classify(&old, &new);
    let text = match format {
        Format::Human => comparison.to_human(),
        Format::Json => {
            let mut text = serde_json::to_string_pretty(&comparison.to_json()).unwrap_or_default();
            text.push('\n');
            text
        }
        Format::Github => comparison.to_github(),
    };
    let mut stdout = io::stdout().lock();
    if let Err(error) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        if error.kind() != io::ErrorKind::BrokenPipe {
            eprintln!("cgp diff: {error}");
        }
        return ExitCode::from(2);
    }
    match fail_on {
        Some(level) if comparison.required_bump >= Bump::from(level) => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    }
}
