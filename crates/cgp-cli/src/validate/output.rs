//! What `cgp validate` writes: each message's verdict in the chosen format,
//! the baseline applied to it, and the summary.

use super::STDIN;
use crate::github::{Annotation, Level};
use crate::progress::Verbosity;
use crate::render::{Format, absolute, finding_text, json_line};
use crate::style::{Style, printable};
use cgp_check::transcript::{Checked, Finding};
use cgp_conformance::Severity;
use cgp_report::baseline::{self, Command, Entry, Matcher};
use cgp_report::finding::FindingReport;
use cgp_report::junit::{self, Case, Suite};
use cgp_report::validate::{MessageVerdict, Record, Stale, Summary, Totals};
use cgp_types::Variant;
use std::io::{self, Write};
use std::path::PathBuf;

/// At most this many findings are listed in one file's JUnit failure.
const JUNIT_FINDINGS: usize = 1000;

/// One input file's JUnit case, as it is built.
#[derive(Debug, Default)]
pub(super) struct FileCase {
    file: String,
    messages: u64,
    failed: u64,
    findings: Vec<String>,
    more: u64,
}

pub(super) struct Output<W: Write> {
    pub(super) out: W,
    pub(super) format: Format,
    pub(super) style: Style,
    pub(super) verbosity: Verbosity,
    pub(super) totals: Totals,
    /// The baseline applied, when one is.
    pub(super) matcher: Option<Matcher>,
    /// The findings for `--write-baseline`, when one is to be written.
    pub(super) recorded: Option<Vec<Entry>>,
    /// The working directory, to name files in baseline entries.
    pub(super) cwd: Option<PathBuf>,
    /// The JUnit case of each file so far.
    pub(super) cases: Vec<FileCase>,
}

impl<W: Write> Output<W> {
    /// The baseline entry of a finding of the message on `line` of `file`.
    fn entry(&self, file: &str, line: usize, finding: &Finding) -> Entry {
        Entry {
            step: None,
            file: Some(baseline::portable_path(file, self.cwd.as_deref())),
            line: Some(absolute(line, finding).0 as u64),
            layer: finding.layer.as_str().to_owned(),
            rule: finding.rule.map(|rule| rule.as_str().to_owned()),
            side: None,
            pointer: finding.instance_path.clone(),
            message: finding.message.clone(),
        }
    }

    /// Renders the verdict on the message that starts on `line` of `file`.
    pub(super) fn message(&mut self, file: &str, line: usize, checked: &Checked) -> io::Result<()> {
        let (accepted, baselined) = self.count(file, line, checked);
        let open = |finding: &(usize, &Finding)| !accepted[finding.0];
        match self.format {
            Format::Human => {
                if self.verbosity == Verbosity::Quiet {
                    return Ok(());
                }
                for (_, finding) in checked.findings.iter().enumerate().filter(open) {
                    self.human(file, line, checked.variant, finding)?;
                }
                if self.verbosity == Verbosity::Verbose {
                    let verdict = if !checked.has_errors() {
                        self.style.good("valid")
                    } else if baselined {
                        self.style.dim("invalid, in the baseline")
                    } else {
                        self.style.bad("invalid")
                    };
                    writeln!(
                        self.out,
                        "{} {} {verdict}",
                        self.style.location(&format!("{}:{line}:", printable(file))),
                        self.style
                            .variant(checked.variant.map_or("-", Variant::as_str)),
                    )?;
                }
                Ok(())
            }
            Format::Github => {
                if self.verbosity == Verbosity::Quiet {
                    return Ok(());
                }
                for (_, finding) in checked.findings.iter().enumerate().filter(open) {
                    let (line, column) = absolute(line, finding);
                    let annotation = Annotation {
                        level: if finding.is_error() {
                            Level::Error
                        } else {
                            Level::Warning
                        },
                        // Standard input is no file of the repository.
                        file: Some(file).filter(|&file| file != STDIN),
                        line: Some(line),
                        column: Some(column),
                        title: "cgp validate",
                        message: &finding_text(self.style, checked.variant, finding),
                    };
                    writeln!(self.out, "{annotation}")?;
                }
                Ok(())
            }
            Format::Json => {
                let verdict = MessageVerdict {
                    file,
                    line,
                    valid: !checked.has_errors(),
                    variant: checked.variant.map(Variant::as_str),
                    errors: checked
                        .findings
                        .iter()
                        .map(|finding| {
                            let severity = if finding.is_error() {
                                Severity::Error
                            } else {
                                Severity::Warning
                            };
                            FindingReport::new(finding, Some(line), Some(severity))
                        })
                        .collect(),
                    baselined,
                };
                json_line(&mut self.out, &Record::Message(verdict))
            }
            Format::Junit => {
                self.junit_case(file, line, checked, &accepted, baselined);
                Ok(())
            }
        }
    }

    /// Applies the baseline to the message's findings, records them for
    /// `--write-baseline` and counts the message: which findings the baseline
    /// accepts, and whether it accepts all of them.
    fn count(&mut self, file: &str, line: usize, checked: &Checked) -> (Vec<bool>, bool) {
        // Which findings the baseline accepts (none without one).
        let mut accepted = vec![false; checked.findings.len()];
        if self.matcher.is_some() || self.recorded.is_some() {
            for (index, finding) in checked.findings.iter().enumerate() {
                let entry = self.entry(file, line, finding);
                if let Some(matcher) = &mut self.matcher {
                    accepted[index] = matcher.accept(&entry);
                }
                if let Some(recorded) = &mut self.recorded {
                    recorded.push(entry);
                }
            }
        }
        let baselined = !checked.findings.is_empty() && accepted.iter().all(|&yes| yes);
        if !checked.has_errors() {
            self.totals.passed += 1;
        } else if baselined {
            *self.totals.baselined.get_or_insert(0) += 1;
        } else {
            self.totals.failed += 1;
        }
        self.totals.warnings += checked
            .findings
            .iter()
            .filter(|finding| !finding.is_error())
            .count() as u64;
        (accepted, baselined)
    }

    /// Adds the message to its file's JUnit case.
    fn junit_case(
        &mut self,
        file: &str,
        line: usize,
        checked: &Checked,
        accepted: &[bool],
        baselined: bool,
    ) {
        let open = |finding: &(usize, &Finding)| !accepted[finding.0];
        if self.cases.last().is_none_or(|case| case.file != file) {
            self.cases.push(FileCase {
                file: file.to_owned(),
                ..FileCase::default()
            });
        }
        let style = self.style;
        if let Some(case) = self.cases.last_mut() {
            case.messages += 1;
            if checked.has_errors() && !baselined {
                case.failed += 1;
            }
            for (_, finding) in checked.findings.iter().enumerate().filter(open) {
                if case.findings.len() < JUNIT_FINDINGS {
                    let (line, column) = absolute(line, finding);
                    case.findings.push(format!(
                        "{file}:{line}:{column}: {}",
                        finding_text(style, checked.variant, finding)
                    ));
                } else {
                    case.more += 1;
                }
            }
        }
    }

    fn human(
        &mut self,
        file: &str,
        line: usize,
        variant: Option<Variant>,
        finding: &Finding,
    ) -> io::Result<()> {
        let (line, column) = absolute(line, finding);
        let style = self.style;
        writeln!(
            self.out,
            "{} {}",
            style.location(&format!("{}:{line}:{column}:", printable(file))),
            finding_text(style, variant, finding),
        )
    }

    /// The baseline entries nothing matched, then the summary.
    pub(super) fn summary(&mut self) -> io::Result<()> {
        let stale: Vec<Entry> = self
            .matcher
            .as_ref()
            .map(|matcher| matcher.stale().into_iter().cloned().collect())
            .unwrap_or_default();
        if self.matcher.is_some() {
            self.totals.stale = Some(stale.len() as u64);
            self.totals.baselined.get_or_insert(0);
        }
        match self.format {
            Format::Human | Format::Github => self.human_summary(&stale),
            Format::Json => {
                for entry in &stale {
                    json_line(&mut self.out, &Record::Stale(Stale { stale: entry }))?;
                }
                json_line(
                    &mut self.out,
                    &Record::Summary(Summary {
                        summary: self.totals,
                    }),
                )
            }
            Format::Junit => self.junit_summary(&stale),
        }
    }

    /// The stale entries and the summary line, for people or as GitHub
    /// annotations.
    fn human_summary(&mut self, stale: &[Entry]) -> io::Result<()> {
        let stale_text = |entry: &Entry| entry.stale_text(Command::Validate);
        let Totals {
            passed,
            failed,
            warnings,
            baselined,
            stale: stale_count,
        } = self.totals;
        for entry in stale {
            let at = format!(
                "{}:{}",
                entry.file.as_deref().unwrap_or_default(),
                entry.line.unwrap_or(1)
            );
            if self.format == Format::Github {
                let line = entry.line.map(|line| line as usize);
                let annotation = Annotation {
                    level: Level::Error,
                    file: entry.file.as_deref().filter(|&file| file != STDIN),
                    line,
                    column: None,
                    title: "cgp validate: stale baseline entry",
                    message: &stale_text(entry),
                };
                writeln!(self.out, "{annotation}")?;
            } else {
                writeln!(
                    self.out,
                    "{} {}",
                    self.style.location(&format!("{}:", printable(&at))),
                    printable(&stale_text(entry))
                )?;
            }
        }
        let style = self.style;
        let passed_text = format!("{passed} passed");
        let failed_text = format!("{failed} failed");
        let failed_text = if failed > 0 {
            style.bad(&failed_text)
        } else {
            failed_text
        };
        let passed_text = if failed == 0 && stale.is_empty() {
            style.good(&passed_text)
        } else {
            passed_text
        };
        let baseline_text = match (baselined, stale_count) {
            (Some(baselined), Some(stale)) => {
                let stale_text = format!("{stale} stale");
                format!(
                    ", {baselined} baselined, {}",
                    if stale > 0 {
                        style.bad(&stale_text)
                    } else {
                        stale_text
                    }
                )
            }
            _ => String::new(),
        };
        let warnings_text = match warnings {
            0 => String::new(),
            1 => ", 1 warning (a broken SHOULD)".to_owned(),
            _ => format!(", {warnings} warnings (broken SHOULDs)"),
        };
        writeln!(
            self.out,
            "{passed_text}, {failed_text}{warnings_text}{baseline_text}"
        )
    }

    /// The JUnit report: one case per file, and one for the stale entries.
    fn junit_summary(&mut self, stale: &[Entry]) -> io::Result<()> {
        let stale_text = |entry: &Entry| entry.stale_text(Command::Validate);
        let mut cases: Vec<Case> = self
            .cases
            .iter()
            .map(|file| {
                let mut case = Case::passed("cgp.validate", &file.file);
                if file.failed > 0 {
                    let mut text = file.findings.join("\n");
                    if file.more > 0 {
                        text.push_str(&format!("\n… and {} more", file.more));
                    }
                    case.failure = Some(junit::Failure {
                        message: format!(
                            "{} of {} messages are invalid",
                            file.failed, file.messages
                        ),
                        kind: "invalid".into(),
                        text,
                    });
                }
                case
            })
            .collect();
        if !stale.is_empty() {
            let mut case = Case::passed("cgp.validate", "baseline");
            case.failure = Some(junit::Failure {
                message: format!("{} stale baseline entries", stale.len()),
                kind: "stale".into(),
                text: stale
                    .iter()
                    .map(|entry| {
                        format!(
                            "{}:{}: {}",
                            entry.file.as_deref().unwrap_or_default(),
                            entry.line.unwrap_or(1),
                            stale_text(entry)
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("\n"),
            });
            cases.push(case);
        }
        let suite = Suite {
            name: "cgp validate".into(),
            cases,
        };
        self.out
            .write_all(junit::render("cgp validate", &[suite]).as_bytes())
    }
}
