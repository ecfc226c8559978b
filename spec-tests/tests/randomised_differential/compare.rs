//! The comparison every package's test makes: each line's outcome from the
//! package against the reference decoder's, the failures described and the
//! lines both rejected counted. The package files keep only how they get their
//! outcomes and which disagreement, if any, they expect.

use super::support;
use spec_tests::Outcome;

/// How a package's outcomes compare with the reference decoder's.
pub(super) struct Comparison {
    /// Each line they differ on, with both outcomes.
    failures: Vec<String>,
    /// How many lines both rejected.
    rejected: usize,
    /// How many lines were compared.
    lines: usize,
}

/// Compares the outcomes of the package `name` on `lines` with the reference
/// decoder's: the same re-encoded bytes, or both rejecting. A difference
/// `tolerated(reference, ours)` accepts is no failure.
pub(super) fn compare(
    name: &str,
    lines: &[String],
    outcomes: &[Outcome],
    tolerated: impl Fn(&Outcome, &Outcome) -> bool,
) -> Comparison {
    assert_eq!(lines.len(), outcomes.len(), "{name}: one outcome a line");
    let mut failures = Vec::new();
    let mut rejected = 0;
    for (line, theirs) in lines.iter().zip(outcomes) {
        let reference = support::reference("Envelope", line).expect("known target");
        match (&reference, theirs) {
            (Ok(a), Ok(b)) if a == b => {}
            (Err(_), Err(_)) => rejected += 1,
            _ if tolerated(&reference, theirs) => {}
            _ => failures.push(format!(
                "{line}\n  reference: {reference:?}\n  {name}: {theirs:?}"
            )),
        }
    }
    Comparison {
        failures,
        rejected,
        lines: lines.len(),
    }
}

/// No difference is tolerated.
pub(super) fn none(_: &Outcome, _: &Outcome) -> bool {
    false
}

impl Comparison {
    /// Panics unless no line differs, showing the first `shown` that do.
    pub(super) fn assert_no_line_differs(&self, shown: usize) {
        assert!(
            self.failures.is_empty(),
            "{} of {} lines differ:\n{}",
            self.failures.len(),
            self.lines,
            self.failures[..self.failures.len().min(shown)].join("\n")
        );
    }

    /// Panics unless both rejected more than a quarter of the lines: half of
    /// them are mutations, which mostly break the line.
    pub(super) fn assert_mutations_bite(&self) {
        assert!(
            self.rejected > self.lines / 4,
            "only {} of {} lines rejected: the mutations do not bite",
            self.rejected,
            self.lines
        );
    }
}
