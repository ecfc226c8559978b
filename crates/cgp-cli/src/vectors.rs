//! `cgp vectors run / list / export`: the conformance vectors `cgp` embeds
//! (codegen's copy of `generated/vectors/`, in `crates/cgp-cli/vectors/`),
//! and the rendering of a run's report. Reading the cases, driving the
//! harness and comparing are `cgp_vectors`'.

use crate::exit::Exit;
use crate::github::{Annotation, Level};
use crate::render::Format;
use crate::style::{Style, printable};
use crate::usage::Usage;
use cgp_report::junit::{self, Failure as JunitFailure, Suite};
use cgp_vectors::harness::{self, Options};
use cgp_vectors::report::{Report, Tally};
use cgp_vectors::{Case, read_cases};
use std::ffi::OsString;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

/// One version's embedded files.
struct EmbeddedVectors {
    version: &'static str,
    files: &'static [(&'static str, &'static str)],
}

include!("../vectors/index.rs");

/// The embedded files of `version`, or a usage error naming the known ones.
fn files(version: &str) -> Result<&'static [(&'static str, &'static str)], Usage> {
    EMBEDDED
        .iter()
        .find(|embedded| embedded.version == version)
        .map(|embedded| embedded.files)
        .ok_or_else(|| {
            let known: Vec<&str> = EMBEDDED.iter().map(|e| e.version).collect();
            Usage(format!(
                "no embedded vectors for {version}; known: {}",
                known.join(", ")
            ))
        })
}

/// Every case of `version`, file by file in name order.
fn cases(version: &str) -> Result<Vec<Case>, Usage> {
    let mut cases = Vec::new();
    for (name, text) in files(version)? {
        if name.ends_with(".ndjson") {
            cases.extend(read_cases(name, text).map_err(|error| Usage(error.to_string()))?);
        }
    }
    Ok(cases)
}

fn trouble(problem: impl std::fmt::Display) -> ExitCode {
    eprintln!("cgp: {problem}");
    ExitCode::from(Exit::Trouble)
}

/// Writes `text` to standard output; a closed pipe ends quietly.
fn emit(text: &str) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => ExitCode::from(Exit::Valid),
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::from(Exit::Valid),
        Err(error) => trouble(error),
    }
}

/// `cgp vectors list`: one case a line; `--format json` prints the cases
/// themselves (NDJSON).
pub fn list(version: &str, format: Format) -> ExitCode {
    let cases = match cases(version) {
        Ok(cases) => cases,
        Err(problem) => return trouble(&problem),
    };
    let mut text = String::new();
    for case in &cases {
        if format == Format::Json {
            text.push_str(&case.to_line());
        } else {
            let expected = match (&case.decode.canonical, case.decode.reason) {
                (Some(_), _) => "accept".to_owned(),
                (None, Some(reason)) => format!("reject:{reason}"),
                (None, None) => "?".to_owned(),
            };
            text.push_str(&format!(
                "{}\t{}\t{}\t{}",
                case.id,
                case.transport,
                expected,
                printable(&case.description)
            ));
        }
        text.push('\n');
    }
    emit(&text)
}

/// `cgp vectors export DIR`: the version's folder, README and schema included.
pub fn export(version: &str, dir: &Path) -> ExitCode {
    let files = match files(version) {
        Ok(files) => files,
        Err(problem) => return trouble(&problem),
    };
    if let Err(error) = std::fs::create_dir_all(dir) {
        return trouble(format!("cannot create {}: {error}", dir.display()));
    }
    for (name, text) in files {
        let path = dir.join(name);
        if let Err(error) = std::fs::write(&path, text) {
            return trouble(format!("cannot write {}: {error}", path.display()));
        }
    }
    eprintln!(
        "cgp: wrote the {} vectors of {version} to {} ({} files)",
        cases(version).map(|cases| cases.len()).unwrap_or_default(),
        dir.display(),
        files.len()
    );
    ExitCode::from(Exit::Valid)
}

/// What `cgp vectors run` needs.
pub struct RunOptions {
    /// The protocol version whose vectors run.
    pub version: String,
    /// The report's format.
    pub format: Format,
    /// How long to wait for each answer.
    pub timeout: Duration,
    /// How many disagreements to show in full.
    pub shown: usize,
    /// Variables to pass to the program.
    pub env: Vec<(OsString, OsString)>,
    /// The program and its arguments.
    pub command: Vec<OsString>,
}

/// `cgp vectors run -- PROGRAM [ARGS]`.
pub fn run(options: &RunOptions) -> ExitCode {
    let cases = match cases(&options.version) {
        Ok(cases) => cases,
        Err(problem) => return trouble(&problem),
    };
    let Some((program, args)) = options.command.split_first() else {
        return trouble("no program given after --");
    };
    let report = harness::run(
        &cases,
        program,
        args,
        &Options {
            version: options.version.clone(),
            timeout: options.timeout,
            shown: options.shown,
            env: options.env.clone(),
        },
    );
    let text = match options.format {
        Format::Json => {
            let mut text = serde_json::to_string_pretty(&report).unwrap_or_default();
            text.push('\n');
            text
        }
        Format::Human => human(&report, Style::detect(&std::io::stdout())),
        Format::Github => github(&report),
        Format::Junit => junit_report(&report, &cases),
    };
    let written = emit(&text);
    if written != ExitCode::from(Exit::Valid) {
        return written;
    }
    ExitCode::from(if report.passed() {
        Exit::Valid
    } else {
        Exit::Invalid
    })
}

/// One JUnit test case per vector case, in one suite per file of cases: a
/// disagreement fails its case (with both answers when the report shows it in
/// full), a case the run never reached is skipped with the reason.
fn junit_report(report: &Report, cases: &[Case]) -> String {
    let mut suites: Vec<Suite> = Vec::new();
    for (index, case) in cases.iter().enumerate() {
        let file = case.source.split(':').next().unwrap_or_default();
        let suite_name = format!("cgp vectors {}", report.version);
        if suites.last().is_none_or(|suite| suite.name != suite_name) {
            suites.push(Suite {
                name: suite_name,
                cases: Vec::new(),
            });
        }
        let mut test = junit::Case::passed(
            format!("cgp.vectors.{}", case.variant.as_deref().unwrap_or("-")),
            &case.id,
        );
        match report.outcomes.get(index) {
            Some(true) => {}
            Some(false) => {
                let shown = report
                    .disagreements
                    .iter()
                    .find(|disagreement| disagreement.id == case.id);
                test.failure = Some(JunitFailure {
                    message: format!("{}: the answer is not the reference's", case.description),
                    kind: "disagreement".into(),
                    text: match shown {
                        Some(disagreement) => format!(
                            "{file}: expected {}\nanswered {}",
                            answer(&disagreement.expected),
                            answer(&disagreement.actual)
                        ),
                        None => format!("{file}: {}", case.description),
                    },
                });
            }
            None => {
                test.skipped = Some(match &report.failure {
                    Some(failure) => format!("not reached: {}", failure.message()),
                    None => "not reached".to_owned(),
                });
            }
        }
        if let Some(suite) = suites.last_mut() {
            suite.cases.push(test);
        }
    }
    if let Some(failure) = &report.failure {
        let mut test = junit::Case::passed("cgp.vectors", "harness");
        test.failure = Some(JunitFailure {
            message: failure.message(),
            kind: "harness".into(),
            text: failure.message(),
        });
        suites.push(Suite {
            name: "cgp vectors harness".into(),
            cases: vec![test],
        });
    }
    junit::render("cgp vectors run", &suites)
}

fn table(style: Style, heading: &str, tallies: &[Tally]) -> String {
    let mut text = format!("{heading}\n");
    for tally in tallies {
        let counts = format!("{}/{}", tally.agreed, tally.cases);
        let counts = if tally.agreed == tally.cases {
            style.good(&counts)
        } else {
            style.bad(&counts)
        };
        text.push_str(&format!("  {:<22} {counts}\n", printable(&tally.name)));
    }
    text
}

fn answer(answer: &cgp_vectors::report::Answer) -> String {
    match (&answer.canonical, &answer.reason) {
        (Some(canonical), _) if answer.accept => format!("accept {}", printable(canonical)),
        (_, Some(reason)) => format!("reject ({reason})"),
        _ if answer.accept => "accept".to_owned(),
        _ => "reject".to_owned(),
    }
}

/// The report for reading: tallies, the first disagreements, the failure,
/// and a summary line.
pub fn human(report: &Report, style: Style) -> String {
    let mut text = format!(
        "cgp vectors run: {} cases of {} through {}\n\n",
        report.cases,
        report.version,
        printable(&report.program.join(" "))
    );
    text.push_str(&table(
        style,
        "per category (agreed/cases):",
        &report.categories,
    ));
    text.push_str(&table(style, "per variant:", &report.variants));
    text.push_str(&table(style, "per transport:", &report.transports));
    if !report.disagreements.is_empty() {
        text.push_str(&format!(
            "\nfirst {} of {} disagreements:\n",
            report.disagreements.len(),
            report.disagreement_count
        ));
        for disagreement in &report.disagreements {
            text.push_str(&format!(
                "  {} ({}): {}\n    input:     {}\n    reference: {}\n    program:   {}\n",
                style.location(&disagreement.id),
                disagreement.transport,
                printable(&disagreement.description),
                printable(&disagreement.input),
                answer(&disagreement.expected),
                answer(&disagreement.actual),
            ));
        }
    }
    if let Some(failure) = &report.failure {
        text.push_str(&format!(
            "\n{} {}\n",
            style.bad("error:"),
            printable(&failure.message())
        ));
    }
    text.push('\n');
    text.push_str(&summary(report, style));
    text
}

fn summary(report: &Report, style: Style) -> String {
    if report.passed() {
        style.good(&format!(
            "all {} cases agree with the reference\n",
            report.cases
        ))
    } else {
        style.bad(&format!(
            "{} of {} cases agree with the reference ({} answered, {} disagree)\n",
            report.agreed, report.cases, report.answered, report.disagreement_count
        ))
    }
}

/// One `::error` per shown disagreement and for a failure, then the summary.
pub fn github(report: &Report) -> String {
    let mut text = String::new();
    for disagreement in &report.disagreements {
        let title = format!("cgp vectors: {}", disagreement.id);
        let message = format!(
            "{} ({}): reference {}, program {}; input {}",
            disagreement.description,
            disagreement.transport,
            answer(&disagreement.expected),
            answer(&disagreement.actual),
            disagreement.input
        );
        text.push_str(
            &Annotation {
                level: Level::Error,
                file: None,
                line: None,
                column: None,
                title: &title,
                message: &message,
            }
            .to_string(),
        );
        text.push('\n');
    }
    if let Some(failure) = &report.failure {
        text.push_str(
            &Annotation {
                level: Level::Error,
                file: None,
                line: None,
                column: None,
                title: "cgp vectors: the harness failed",
                message: &failure.message(),
            }
            .to_string(),
        );
        text.push('\n');
    }
    text.push_str(&summary(report, Style::plain()));
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use cgp_vectors::report::{Answer, Disagreement, Failure};

    #[test]
    fn the_working_version_has_embedded_vectors() {
        let cases = cases(crate::bundles::WORKING).expect("cases");
        assert!(cases.len() > 1000, "{}", cases.len());
        assert!(files("no/such").is_err());
    }

    #[test]
    fn reports_name_the_cases_in_every_format() {
        let report = Report {
            version: "demo/1.0".into(),
            program: vec!["./harness".into(), "--flag".into()],
            cases: 3,
            answered: 2,
            agreed: 1,
            categories: vec![Tally {
                name: "accept".into(),
                cases: 3,
                agreed: 1,
            }],
            variants: Vec::new(),
            transports: Vec::new(),
            disagreement_count: 1,
            disagreements: vec![Disagreement {
                id: "edge/x/stdio".into(),
                description: "an edge".into(),
                transport: "stdio".into(),
                input: "{\"type\":\"shutdown\"}".into(),
                expected: Answer {
                    accept: true,
                    canonical: Some("{\"type\":\"shutdown\"}".into()),
                    reason: None,
                },
                actual: Answer {
                    accept: false,
                    canonical: None,
                    reason: None,
                },
            }],
            failure: Some(Failure::Timeout {
                case: "edge/y/http".into(),
                seconds: 2.0,
            }),
            outcomes: vec![true, false],
        };
        let text = human(&report, Style::plain());
        assert!(text.contains("  accept                 1/3\n"), "{text}");
        assert!(
            text.contains("  edge/x/stdio (stdio): an edge\n    input:     {\"type\":\"shutdown\"}\n    reference: accept {\"type\":\"shutdown\"}\n    program:   reject\n"),
            "{text}"
        );
        assert!(
            text.contains("error: no answer to case edge/y/http within 2 s (timeout)"),
            "{text}"
        );
        assert!(text.ends_with("1 of 3 cases agree with the reference (2 answered, 1 disagree)\n"));
        let annotations = github(&report);
        let lines: Vec<&str> = annotations.lines().collect();
        assert!(
            lines[0].starts_with("::error title=cgp vectors%3A edge/x/stdio::an edge (stdio)"),
            "{annotations}"
        );
        assert!(
            lines[1].starts_with(
                "::error title=cgp vectors%3A the harness failed::no answer to case edge/y/http"
            ),
            "{annotations}"
        );
    }

    #[test]
    fn junit_has_a_test_case_per_vector_case() {
        let all = cases(crate::bundles::WORKING).expect("cases");
        let three = &all[..3];
        let report = Report {
            version: "demo/1.0".into(),
            program: vec!["./harness".into()],
            cases: 3,
            answered: 2,
            agreed: 1,
            categories: Vec::new(),
            variants: Vec::new(),
            transports: Vec::new(),
            disagreement_count: 1,
            disagreements: vec![Disagreement {
                id: three[1].id.clone(),
                description: three[1].description.clone(),
                transport: "stdio".into(),
                input: "{}".into(),
                expected: Answer {
                    accept: true,
                    canonical: Some("{}".into()),
                    reason: None,
                },
                actual: Answer {
                    accept: false,
                    canonical: None,
                    reason: None,
                },
            }],
            failure: Some(Failure::Timeout {
                case: three[2].id.clone(),
                seconds: 2.0,
            }),
            outcomes: vec![true, false],
        };
        let xml = junit_report(&report, three);
        let document = roxmltree::Document::parse(&xml).expect("well-formed XML");
        let tests: Vec<_> = document
            .descendants()
            .filter(|node| node.has_tag_name("testcase"))
            .collect();
        // Three cases and the harness's own.
        assert_eq!(tests.len(), 4, "{xml}");
        let named = |index: usize| tests[index].attribute("name").unwrap_or_default();
        assert_eq!(named(0), three[0].id);
        assert!(tests[0].children().all(|child| !child.is_element()));
        let failure = tests[1]
            .children()
            .find(|child| child.has_tag_name("failure"))
            .expect("the disagreement fails");
        assert!(
            failure
                .text()
                .unwrap_or_default()
                .contains("answered reject"),
            "{xml}"
        );
        assert!(
            tests[2]
                .children()
                .any(|child| child.has_tag_name("skipped")),
            "{xml}"
        );
        assert_eq!(named(3), "harness");
    }
}
