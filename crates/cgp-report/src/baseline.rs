//! Baselines: the findings a project has reviewed and accepts for now.
//!
//! `--write-baseline FILE` writes every current error as an [`Entry`];
//! `--baseline FILE` lets the findings it lists pass, fails on any other, and
//! fails on every entry no longer found (stale), so the file cannot rot. An
//! entry names where (a `cgp check` step, or a `cgp validate` file and line),
//! what (the layer, the rule when there is one, the JSON pointer) and, for a
//! reader, the message; the message is not compared, so rewording a message
//! leaves a baseline valid. The file has no timestamps and no absolute paths,
//! and its entries are sorted, so it is byte-identical across runs and machines
//! and diffs well.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The value of every baseline's `format` member.
pub const FORMAT: &str = "cgp-baseline";
/// The baseline format's version this `cgp` reads and writes.
pub const VERSION: u32 = 1;
/// The largest baseline file read (a baseline lists reviewed findings: a few
/// thousand at most).
pub const MAX_BYTES: u64 = 64 << 20;

/// The command a baseline is for.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Command {
    /// `cgp check`: entries name steps.
    Check,
    /// `cgp validate`: entries name files and lines.
    Validate,
}

impl Command {
    /// `check` or `validate`.
    pub fn as_str(self) -> &'static str {
        match self {
            Command::Check => "check",
            Command::Validate => "validate",
        }
    }
}

/// A baseline file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    /// Always `cgp-baseline`.
    #[schemars(extend("const" = "cgp-baseline"))]
    pub format: String,
    /// The format's version (1).
    #[schemars(extend("const" = 1))]
    pub version: u32,
    /// The command whose findings these are.
    pub command: Command,
    /// The accepted findings, sorted.
    pub entries: Vec<Entry>,
}

/// One accepted finding.
#[derive(
    Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// `cgp check`: the step's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<String>,
    /// `cgp validate`: the input file, relative to the working directory
    /// (`<stdin>` for standard input).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// `cgp validate`: the line the finding is on, from 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// Which check found it: `text`, `schema`, `decoder`, `semantic`, or
    /// `behaviour` for a `cgp check` problem that is not about one line.
    pub layer: String,
    /// The SPEC.md rule, when the finding has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// `cgp check`: `host` or `provider`, whose line or behaviour it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// The JSON pointer in the message (`""`: the whole message or none).
    pub pointer: String,
    /// What is wrong, for a reader; not compared.
    pub message: String,
}

impl Entry {
    /// What a report says of this entry when nothing matched it (stale): the
    /// finding it stood for, as `command` names findings (`cgp check` by
    /// step and side, `cgp validate` by pointer).
    pub fn stale_text(&self, command: Command) -> String {
        let rule = self
            .rule
            .as_ref()
            .map(|rule| format!(" rule {rule}"))
            .unwrap_or_default();
        match command {
            Command::Check => format!(
                "stale baseline entry in step `{}` ({} {}{rule}), no longer found: {}",
                self.step.as_deref().unwrap_or_default(),
                self.side.as_deref().unwrap_or_default(),
                self.layer,
                self.message
            ),
            Command::Validate => {
                let pointer = if self.pointer.is_empty() {
                    "/"
                } else {
                    &self.pointer
                };
                format!(
                    "stale baseline entry ({}{rule} at {pointer}), no longer found: {}",
                    self.layer, self.message
                )
            }
        }
    }

    /// Everything that identifies the finding: all but the message.
    fn key(&self) -> Key {
        (
            self.step.clone(),
            self.file.clone(),
            self.line,
            self.layer.clone(),
            self.rule.clone(),
            self.side.clone(),
            self.pointer.clone(),
        )
    }
}

type Key = (
    Option<String>,
    Option<String>,
    Option<u64>,
    String,
    Option<String>,
    Option<String>,
    String,
);

impl Baseline {
    /// A baseline of `command` with `entries`, sorted (duplicates kept: the
    /// same finding twice is accepted twice).
    pub fn new(command: Command, mut entries: Vec<Entry>) -> Self {
        entries.sort();
        Baseline {
            format: FORMAT.to_owned(),
            version: VERSION,
            command,
            entries,
        }
    }

    /// The file's text: pretty JSON, one member a line, with a final line feed.
    pub fn to_text(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Reads a baseline of `command` from `text`; `file` names it in errors.
    pub fn parse(file: &str, text: &str, command: Command) -> Result<Self, BaselineError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|error| BaselineError::Malformed {
                file: file.to_owned(),
                line: error.line(),
                column: error.column(),
                reason: error.to_string(),
            })?;
        if value.get("format").and_then(serde_json::Value::as_str) != Some(FORMAT) {
            return Err(BaselineError::Foreign {
                file: file.to_owned(),
                reason: format!(
                    "it has no `\"format\": \"{FORMAT}\"` member: it is not a cgp baseline (write one with --write-baseline)"
                ),
            });
        }
        if value.get("version").and_then(serde_json::Value::as_u64) != Some(u64::from(VERSION)) {
            return Err(BaselineError::Foreign {
                file: file.to_owned(),
                reason: format!(
                    "`/version` is {}, and this cgp reads version {VERSION} baselines",
                    value
                        .get("version")
                        .map_or("missing".into(), ToString::to_string)
                ),
            });
        }
        let baseline: Baseline =
            serde_json::from_value(value).map_err(|error| BaselineError::Malformed {
                file: file.to_owned(),
                line: 0,
                column: 0,
                reason: error.to_string(),
            })?;
        if baseline.command != command {
            return Err(BaselineError::Foreign {
                file: file.to_owned(),
                reason: format!(
                    "it is a baseline of `cgp {}`, not of `cgp {}`",
                    baseline.command.as_str(),
                    command.as_str()
                ),
            });
        }
        Ok(baseline)
    }
}

/// Why a baseline file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BaselineError {
    /// The file cannot be read.
    Unreadable {
        /// The file.
        file: String,
        /// What the system said.
        reason: String,
    },
    /// The file is not JSON, or not the baseline format.
    Malformed {
        /// The file.
        file: String,
        /// Where (0 when not known).
        line: usize,
        /// Where (0 when not known).
        column: usize,
        /// What is wrong.
        reason: String,
    },
    /// The file is JSON of another kind, another version, or another command's.
    Foreign {
        /// The file.
        file: String,
        /// What it is instead.
        reason: String,
    },
}

impl fmt::Display for BaselineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BaselineError::Unreadable { file, reason } => {
                write!(f, "{file}: cannot read the baseline: {reason}")
            }
            BaselineError::Malformed {
                file,
                line,
                column,
                reason,
            } if *line > 0 => write!(f, "{file}:{line}:{column}: not a valid baseline: {reason}"),
            BaselineError::Malformed { file, reason, .. } => {
                write!(f, "{file}: not a valid baseline: {reason}")
            }
            BaselineError::Foreign { file, reason } => {
                write!(f, "{file}: not a baseline this run can use: {reason}")
            }
        }
    }
}

impl std::error::Error for BaselineError {}

/// Reads the baseline file at `path` for `command`.
pub fn read(path: &std::path::Path, command: Command) -> Result<Baseline, BaselineError> {
    let file = path.display().to_string();
    let text =
        cgp_schema::source::read_text_bounded(path).map_err(|error| BaselineError::Unreadable {
            file: file.clone(),
            reason: error.to_string(),
        })?;
    Baseline::parse(&file, &text, command)
}

/// Matches findings against a baseline, each entry at most once.
#[derive(Debug, Clone)]
pub struct Matcher {
    entries: Vec<Entry>,
    used: Vec<bool>,
    by_key: BTreeMap<Key, Vec<usize>>,
}

impl Matcher {
    /// A matcher for `baseline`'s entries, none used yet.
    pub fn new(baseline: Baseline) -> Self {
        let mut by_key: BTreeMap<Key, Vec<usize>> = BTreeMap::new();
        for (index, entry) in baseline.entries.iter().enumerate() {
            by_key.entry(entry.key()).or_default().push(index);
        }
        for indices in by_key.values_mut() {
            indices.reverse();
        }
        Matcher {
            used: vec![false; baseline.entries.len()],
            entries: baseline.entries,
            by_key,
        }
    }

    /// Whether `finding` is accepted; an entry accepts one finding only.
    pub fn accept(&mut self, finding: &Entry) -> bool {
        let Some(indices) = self.by_key.get_mut(&finding.key()) else {
            return false;
        };
        match indices.pop() {
            Some(index) => {
                if let Some(used) = self.used.get_mut(index) {
                    *used = true;
                }
                true
            }
            None => false,
        }
    }

    /// The entries no finding matched, in the file's order.
    pub fn stale(&self) -> Vec<&Entry> {
        self.entries
            .iter()
            .zip(&self.used)
            .filter(|(_, used)| !**used)
            .map(|(entry, _)| entry)
            .collect()
    }
}

/// `path` as a baseline names it: relative to `cwd` when it lies under it,
/// with `/` separators, so the file is the same on every machine.
pub fn portable_path(path: &str, cwd: Option<&std::path::Path>) -> String {
    let given = std::path::Path::new(path);
    let relative = match cwd {
        Some(cwd) if given.is_absolute() => given.strip_prefix(cwd).unwrap_or(given),
        _ => given,
    };
    let text = relative
        .components()
        .filter(|part| !matches!(part, std::path::Component::CurDir))
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/");
    if text.is_empty() {
        path.to_owned()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(line: u64, pointer: &str, message: &str) -> Entry {
        Entry {
            step: None,
            file: Some("a.ndjson".into()),
            line: Some(line),
            layer: "schema".into(),
            rule: None,
            side: None,
            pointer: pointer.into(),
            message: message.into(),
        }
    }

    #[test]
    fn the_text_is_sorted_and_round_trips() {
        let baseline = Baseline::new(
            Command::Validate,
            vec![entry(9, "/b", "late"), entry(2, "/a", "early")],
        );
        let text = baseline.to_text();
        assert!(text.find("early") < text.find("late"), "{text}");
        assert_eq!(
            Baseline::parse("b.json", &text, Command::Validate),
            Ok(baseline)
        );
    }

    #[test]
    fn entries_match_once_without_their_message_and_the_rest_are_stale() {
        let baseline = Baseline::new(
            Command::Validate,
            vec![entry(2, "/a", "old words"), entry(3, "/c", "gone")],
        );
        let mut matcher = Matcher::new(baseline);
        assert!(matcher.accept(&entry(2, "/a", "new words")));
        assert!(!matcher.accept(&entry(2, "/a", "the same finding again")));
        assert!(!matcher.accept(&entry(4, "/a", "elsewhere")));
        assert_eq!(matcher.stale(), vec![&entry(3, "/c", "gone")]);
    }

    #[test]
    fn foreign_and_malformed_files_say_why() {
        let check = Baseline::new(Command::Check, Vec::new()).to_text();
        let error = Baseline::parse("b.json", &check, Command::Validate).unwrap_err();
        assert!(
            error.to_string().contains("a baseline of `cgp check`"),
            "{error}"
        );
        let error = Baseline::parse("b.json", "{\"entries\": []}", Command::Check).unwrap_err();
        assert!(matches!(error, BaselineError::Foreign { .. }), "{error}");
        let error = Baseline::parse("b.json", "{\n  \"format\": ", Command::Check).unwrap_err();
        assert!(error.to_string().starts_with("b.json:2:"), "{error}");
        let later = check.replace("\"version\": 1", "\"version\": 2");
        let error = Baseline::parse("b.json", &later, Command::Check).unwrap_err();
        assert!(error.to_string().contains("version 1"), "{error}");
        let extra = check.replace("\"entries\"", "\"extra\": 1, \"entries\"");
        let error = Baseline::parse("b.json", &extra, Command::Check).unwrap_err();
        assert!(error.to_string().contains("unknown field"), "{error}");
    }

    #[test]
    fn paths_under_the_working_directory_are_made_relative() {
        let cwd = std::path::Path::new("/work/repo");
        assert_eq!(
            portable_path("/work/repo/t/a.ndjson", Some(cwd)),
            "t/a.ndjson"
        );
        assert_eq!(portable_path("./t/a.ndjson", Some(cwd)), "t/a.ndjson");
        assert_eq!(portable_path("<stdin>", Some(cwd)), "<stdin>");
    }
}
