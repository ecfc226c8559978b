//! The errors of a report that count, as baseline entries, and the report as
//! JUnit XML.

use super::*;

/// Every error of the report as a baseline entry, in the report's order, with
/// the step it is in.
pub(super) fn errors(report: &Report) -> Vec<Entry> {
    let mut entries = Vec::new();
    for step in &report.steps {
        for (_, entry) in step_errors(step) {
            entries.push(entry);
        }
    }
    entries
}

/// Where an error is in its step: the message and finding, or the problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum At {
    Finding(usize, usize),
    Problem(usize),
}

/// The errors of one step that count, as baseline entries.
pub(super) fn step_errors(step: &Step) -> Vec<(At, Entry)> {
    let mut entries = Vec::new();
    for (index, message) in step.messages.iter().enumerate() {
        if message.probe {
            continue;
        }
        for (finding_index, (severity, finding)) in message.findings.iter().enumerate() {
            if *severity != Severity::Error {
                continue;
            }
            entries.push((
                At::Finding(index, finding_index),
                Entry {
                    step: Some(step.name.clone()),
                    file: None,
                    line: None,
                    layer: finding.layer.as_str().to_owned(),
                    rule: finding.rule.map(|rule| rule.as_str().to_owned()),
                    side: Some(message.side.as_str().to_owned()),
                    pointer: finding.instance_path.clone(),
                    message: finding.message.clone(),
                },
            ));
        }
    }
    for (index, problem) in step.problems.iter().enumerate() {
        if problem.severity != Severity::Error {
            continue;
        }
        entries.push((
            At::Problem(index),
            Entry {
                step: Some(step.name.clone()),
                file: None,
                line: None,
                layer: "behaviour".to_owned(),
                rule: problem.rule.map(|rule| rule.as_str().to_owned()),
                side: Some(problem.side.as_str().to_owned()),
                pointer: String::new(),
                message: problem.message.clone(),
            },
        ));
    }
    entries
}

/// The report judged with the baseline, when there is one.
pub(super) struct Judged {
    /// The errors the baseline accepts, by step.
    pub(super) accepted_at: Vec<Vec<At>>,
    /// How many errors it accepts.
    pub(super) accepted: usize,
    /// The entries nothing matched (`None`: no baseline).
    pub(super) stale: Option<Vec<Entry>>,
    /// The errors left.
    pub(super) errors: usize,
}

impl Judged {
    pub(super) fn new(report: &Report, matcher: Option<Matcher>) -> Self {
        let Some(mut matcher) = matcher else {
            return Judged {
                accepted_at: vec![Vec::new(); report.steps.len()],
                accepted: 0,
                stale: None,
                errors: report.errors(),
            };
        };
        let mut accepted_at = Vec::new();
        let mut accepted = 0;
        for step in &report.steps {
            let mut here = Vec::new();
            for (at, entry) in step_errors(step) {
                if matcher.accept(&entry) {
                    here.push(at);
                    accepted += 1;
                }
            }
            accepted_at.push(here);
        }
        Judged {
            accepted_at,
            accepted,
            stale: Some(matcher.stale().into_iter().cloned().collect()),
            errors: report.errors().saturating_sub(accepted),
        }
    }

    pub(super) fn passed(&self) -> bool {
        self.errors == 0 && self.stale.as_ref().is_none_or(Vec::is_empty)
    }

    pub(super) fn is_accepted(&self, step: usize, at: At) -> bool {
        self.accepted_at
            .get(step)
            .is_some_and(|accepted| accepted.contains(&at))
    }

    /// A step's outcome once the baseline's errors are set aside.
    pub(super) fn outcome(&self, index: usize, step: &Step) -> Outcome {
        match step.outcome() {
            Outcome::Failed => {
                let left = step_errors(step)
                    .iter()
                    .filter(|(at, _)| !self.is_accepted(index, *at))
                    .count();
                if left > 0 {
                    Outcome::Failed
                } else {
                    Outcome::Warned
                }
            }
            outcome => outcome,
        }
    }
}

/// One test case per step: failed when it has an error the baseline does not
/// accept, skipped when skipped, its warnings as output; one more for stale
/// baseline entries.
pub(super) fn junit_report(report: &Report, judged: &Judged) -> String {
    let plain = Style::plain();
    let mut cases = Vec::new();
    for (index, step) in report.steps.iter().enumerate() {
        let mut case = Case::passed("cgp.check", &step.name);
        let mut errors = Vec::new();
        let mut warnings = Vec::new();
        for (message_index, message) in step.messages.iter().enumerate() {
            if message.probe {
                continue;
            }
            for (finding_index, (severity, finding)) in message.findings.iter().enumerate() {
                let column = finding.position.map_or(1, |position| position.column);
                let text = format!(
                    "{} #{}:{column}: {}",
                    message.side,
                    message.sequence,
                    finding_text(plain, message.variant, finding)
                );
                match severity {
                    Severity::Error
                        if !judged
                            .is_accepted(index, At::Finding(message_index, finding_index)) =>
                    {
                        errors.push(text)
                    }
                    _ => warnings.push(text),
                }
            }
        }
        for (problem_index, problem) in step.problems.iter().enumerate() {
            let at = problem
                .sequence
                .map(|sequence| format!(" at #{sequence}"))
                .unwrap_or_default();
            let rule = problem
                .rule
                .map(|rule| format!(" (rule {rule})"))
                .unwrap_or_default();
            let text = format!("{}{at}: {}{rule}", problem.side, problem.message);
            match problem.severity {
                Severity::Error if !judged.is_accepted(index, At::Problem(problem_index)) => {
                    errors.push(text)
                }
                _ => warnings.push(text),
            }
        }
        if let Some(reason) = &step.skipped {
            case.skipped = Some(reason.clone());
        }
        if let Some(first) = errors.first() {
            case.failure = Some(Failure {
                message: first.clone(),
                kind: "error".into(),
                text: errors.join("\n"),
            });
        }
        let mut output = Vec::new();
        if !step.detail.is_empty() {
            output.push(step.detail.clone());
        }
        output.extend(warnings);
        if !output.is_empty() {
            case.output = Some(output.join("\n"));
        }
        cases.push(case);
    }
    if let Some(stale) = judged.stale.as_ref().filter(|stale| !stale.is_empty()) {
        let mut case = Case::passed("cgp.check", "baseline");
        case.failure = Some(Failure {
            message: format!("{} stale baseline entries", stale.len()),
            kind: "stale".into(),
            text: stale
                .iter()
                .map(|entry| entry.stale_text(Command::Check))
                .collect::<Vec<_>>()
                .join("\n"),
        });
        cases.push(case);
    }
    junit::render(
        "cgp check",
        &[Suite {
            name: "cgp check".into(),
            cases,
        }],
    )
}
