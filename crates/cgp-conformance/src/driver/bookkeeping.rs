//! The report as the conversation builds it: steps begun, skipped and
//! finished, their details and problems, and why the conversation ended.

use super::*;

impl Driver<'_> {
    pub(super) fn step(&mut self) -> &mut Step {
        self.current.get_or_insert_with(|| Step::new("setup"))
    }

    pub(super) fn begin(&mut self, name: &str) -> bool {
        self.finish();
        self.status = None;
        let mut step = Step::new(name);
        let running = match &self.ended {
            Some(reason) => {
                step.skipped = Some(format!("the conversation ended early: {reason}"));
                false
            }
            None => true,
        };
        if running {
            (self.observe)(Event::Started(name));
        }
        self.current = Some(step);
        if !running {
            self.finish();
        }
        running
    }

    pub(super) fn skip(&mut self, reason: &str) {
        self.step().skipped = Some(reason.to_owned());
        self.finish();
    }

    pub(super) fn finish(&mut self) {
        if let Some(tally) = self.unsolicited_in_step.take() {
            let others = tally.lines - tally.notifications;
            let problem = |severity, rule, message| Problem {
                severity,
                side: Side::Provider,
                rule,
                message,
                sequence: Some(tally.first),
            };
            let step = self.step();
            if others > 0 {
                step.problems.push(problem(
                    Severity::Error,
                    Some(Rule::Answer),
                    format!("{others} unsolicited line(s): {}", tally.when),
                ));
            }
            if tally.notifications > 0 {
                step.problems.push(problem(
                    Severity::Warning,
                    None,
                    format!(
                        "{} unsolicited error(s) without an id (notifications): {}",
                        tally.notifications, tally.when
                    ),
                ));
            }
        }
        if let Some(step) = self.current.take() {
            (self.observe)(Event::Finished(&step));
            self.steps.push(step);
        }
    }

    pub(super) fn detail(&mut self, detail: String) {
        let detail = match &self.status {
            Some(status) if detail.is_empty() => status.clone(),
            Some(status) if !detail.contains(status.as_str()) => format!("{detail} ({status})"),
            _ => detail,
        };
        self.step().detail = detail;
    }

    pub(super) fn problem(
        &mut self,
        severity: Severity,
        side: Side,
        rule: Option<Rule>,
        message: String,
    ) {
        let sequence = Some(self.sequence).filter(|&s| s > 0);
        self.step().problems.push(Problem {
            severity,
            side,
            rule,
            message,
            sequence,
        });
    }

    /// A problem of the provider's in the step that just finished.
    pub(super) fn problem_in_last(&mut self, severity: Severity, rule: Rule, message: String) {
        let sequence = Some(self.sequence).filter(|&s| s > 0);
        if let Some(step) = self.steps.last_mut() {
            step.problems.push(Problem {
                severity,
                side: Side::Provider,
                rule: Some(rule),
                message,
                sequence,
            });
        }
    }

    pub(super) fn end(&mut self, reason: &str) {
        if self.ended.is_none() {
            self.ended = Some(reason.to_owned());
        }
    }
}
