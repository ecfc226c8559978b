//! `cgp diff`: rendering the classifier's comparison of two schema versions.

use crate::exit::Exit;
use crate::github::{Annotation, Level};
use crate::render::Format;
use cgp_schema::classify::{self, Bump, Comparison, Location};
use serde_json::{Value, json};
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

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
            return ExitCode::from(Exit::Trouble);
        }
    };
    let comparison = classify::classify(&old, &new);
    let text = match format {
        Format::Human => human(&comparison),
        Format::Json => {
            let mut text = serde_json::to_string_pretty(&json(&comparison)).unwrap_or_default();
            text.push('\n');
            text
        }
        Format::Github => github(&comparison),
    };
    let mut stdout = io::stdout().lock();
    if let Err(error) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        if error.kind() != io::ErrorKind::BrokenPipe {
            eprintln!("cgp diff: {error}");
        }
        return ExitCode::from(Exit::Trouble);
    }
    match fail_on {
        Some(level) if comparison.required_bump >= Bump::from(level) => {
            ExitCode::from(Exit::Invalid)
        }
        _ => ExitCode::from(Exit::Valid),
    }
}

/// One line per change, `file:line: RULE /pointer (directions) requires a
/// major bump: message`, then a summary line.
fn human(comparison: &Comparison) -> String {
    let mut out = String::new();
    for change in &comparison.changes {
        out.push_str(&change.to_string());
        out.push('\n');
    }
    match comparison.changes.len() {
        0 => out.push_str("no changes\n"),
        count => out.push_str(&format!(
            "{count} change{}; required bump: {}\n",
            if count == 1 { "" } else { "s" },
            comparison.required_bump
        )),
    }
    out
}

/// The comparison as JSON: `{"required_bump": "none|minor|major", "changes":
/// [{"rule", "pointer", "old", "new", "directions", "required_bump",
/// "message"}]}`, with `old` and `new` as `"file:line"` strings or `null`.
fn json(comparison: &Comparison) -> Value {
    let location = |location: &Option<Location>| match location {
        Some(location) => Value::String(location.to_string()),
        None => Value::Null,
    };
    let changes: Vec<Value> = comparison
        .changes
        .iter()
        .map(|change| {
            json!({
                "rule": change.rule.id(),
                "pointer": change.pointer,
                "old": location(&change.old),
                "new": location(&change.new),
                "directions": change.directions.iter().map(|d| d.as_str()).collect::<Vec<_>>(),
                "required_bump": change.required_bump.as_str(),
                "message": change.message,
            })
        })
        .collect();
    json!({
        "required_bump": comparison.required_bump.as_str(),
        "changes": changes,
    })
}

/// One annotation per change: `::error` for a major bump, `::warning` for a
/// minor one, `::notice` for the rest, on the change's file and line when known.
fn github(comparison: &Comparison) -> String {
    let mut out = String::new();
    for change in &comparison.changes {
        let location = change.location();
        let annotation = Annotation {
            level: level(change.required_bump),
            file: location.map(|location| location.file.as_str()),
            line: location.map(|location| location.line),
            column: None,
            title: change.rule.id(),
            message: &change.headline(),
        };
        out.push_str(&format!("{annotation}\n"));
    }
    out
}

fn level(bump: Bump) -> Level {
    match bump {
        Bump::Major => Level::Error,
        Bump::Minor => Level::Warning,
        Bump::None => Level::Notice,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotation_levels_follow_the_bump() {
        let levels = [Bump::Major, Bump::Minor, Bump::None].map(level);
        assert_eq!(levels, [Level::Error, Level::Warning, Level::Notice]);
    }
}
