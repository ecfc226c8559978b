//! Whether new bundle bytes may replace a released version's: the wire is frozen,
//! the bytes are not. A re-issue is allowed only when, under both profiles, the
//! classifier finds no change between the released and the new bundle, and the
//! two give identical verdicts on every SPEC.md example and on a randomised
//! differential (corpus envelopes mutated at random, deterministically seeded).
//!
//! A verdict is the sorted set of instance paths with a violation (empty when
//! valid): wording may improve in a re-issue, what is rejected and where may not.

use crate::corpus::Example;
use cgp_check::validate::Validator;
use cgp_classify::{self as classify, ComparedVersion};
use cgp_schema::bundle::{Bundle, Profile};
use cgp_schema::mutate::Mutator;
use cgp_schema::shown::short;
use serde_json::Value;
use std::collections::BTreeSet;

/// How many mutated envelopes the randomised differential checks a profile on.
pub const RANDOM_CASES: usize = 10_000;
/// At most this many differences are reported.
const SHOWN: usize = 12;

/// One profile's released and new bundle texts, with the names to report.
#[derive(Debug, Clone, Copy)]
pub struct Pair<'a> {
    /// The profile both bundles state.
    pub profile: Profile,
    /// Where the released bundle is, for messages.
    pub path: &'a str,
    /// The released bundle, as on disk.
    pub released: &'a str,
    /// The bundle codegen would publish now.
    pub reissued: &'a str,
}

/// What the comparison checked when it found nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Evidence {
    /// SPEC.md examples judged by both bundles, per profile.
    pub examples: usize,
    /// Mutated envelopes judged by both bundles, per profile.
    pub random_cases: usize,
}

/// Compares each pair; returns the evidence, or every difference found (the
/// first few of each kind).
pub fn same_wire(
    pairs: &[Pair<'_>],
    examples: &[Example],
    random_cases: usize,
) -> Result<Evidence, Vec<String>> {
    let mut problems = Vec::new();
    let values: Vec<(&Example, Value)> = examples
        .iter()
        .filter_map(|example| Some((example, example.parse().ok()?.value)))
        .collect();
    let envelopes: Vec<&Value> = values
        .iter()
        .filter(|(example, _)| example.target == "Envelope")
        .map(|(_, value)| value)
        .collect();
    for pair in pairs {
        let compiled = compile(pair);
        let (released, reissued) = match compiled {
            Ok(validators) => validators,
            Err(problem) => {
                problems.push(problem.to_string());
                continue;
            }
        };
        // The classifier compares interop bundles, the receiver's contract; the
        // strict pair is held to its verdicts.
        let classified = (pair.profile == Profile::Interop).then(|| {
            (
                ComparedVersion::from_bundle_text(pair.path, pair.released),
                ComparedVersion::from_bundle_text(pair.path, pair.reissued),
            )
        });
        match classified {
            None => {}
            Some((Ok(old), Ok(new))) => {
                for change in classify::classify(&old, &new).changes.iter().take(SHOWN) {
                    problems.push(format!(
                        "{} ({}): the classifier finds {} {}: {}",
                        pair.path, pair.profile, change.rule, change.pointer, change.message
                    ));
                }
            }
            Some((Err(error), _) | (_, Err(error))) => problems.push(error.to_string()),
        }
        let mut differences = 0;
        for (example, value) in &values {
            let old = verdict(&released, &example.target, value);
            let new = verdict(&reissued, &example.target, value);
            if old != new && differences < SHOWN {
                differences += 1;
                problems.push(format!(
                    "SPEC.md:{}: {} ({}): released {} says {}, the re-issue says {}",
                    example.fence_line,
                    example.name,
                    pair.profile,
                    pair.path,
                    shown(&old),
                    shown(&new)
                ));
            }
        }
        let mut cases = Mutator::new(0x5eed_c0de ^ pair.profile.as_str().len() as u64);
        for _ in 0..random_cases {
            let Some(case) = cases.next_case(&envelopes) else {
                break;
            };
            let old = verdict(&released, "Envelope", &case);
            let new = verdict(&reissued, "Envelope", &case);
            if old != new && differences < SHOWN {
                differences += 1;
                problems.push(format!(
                    "randomised ({}): {} — released {} says {}, the re-issue says {}",
                    pair.profile,
                    short(&case),
                    pair.path,
                    shown(&old),
                    shown(&new)
                ));
            }
        }
    }
    if problems.is_empty() {
        Ok(Evidence {
            examples: values.len(),
            random_cases: if envelopes.is_empty() {
                0
            } else {
                random_cases
            },
        })
    } else {
        Err(problems)
    }
}

/// Why one bundle of a pair cannot be judged with.
#[derive(Debug, thiserror::Error)]
enum Unusable {
    /// Not a published bundle.
    #[error("{path} ({what}): {error}")]
    Unpublished {
        path: String,
        what: &'static str,
        error: cgp_schema::PublishedBundleError,
    },
    /// A bundle of the other profile.
    #[error("{path} ({what}) states the {found} profile, not {expected}")]
    OtherProfile {
        path: String,
        what: &'static str,
        found: Profile,
        expected: Profile,
    },
    /// A bundle the validator cannot compile.
    #[error("{path} ({what}): {problems}")]
    Uncompilable {
        path: String,
        what: &'static str,
        problems: cgp_schema::Diagnostics,
    },
}

fn compile(pair: &Pair<'_>) -> Result<(Validator, Validator), Unusable> {
    let build = |text: &str, what: &'static str| -> Result<Validator, Unusable> {
        let path = pair.path.to_owned();
        let bundle = Bundle::from_published(text).map_err(|error| Unusable::Unpublished {
            path: path.clone(),
            what,
            error,
        })?;
        if bundle.profile != pair.profile {
            return Err(Unusable::OtherProfile {
                path,
                what,
                found: bundle.profile,
                expected: pair.profile,
            });
        }
        Validator::new(&bundle).map_err(|problems| Unusable::Uncompilable {
            path,
            what,
            problems,
        })
    };
    Ok((
        build(pair.released, "released")?,
        build(pair.reissued, "re-issue")?,
    ))
}

/// `None` when the bundle has no such type; else the instance paths at fault.
fn verdict(validator: &Validator, target: &str, value: &Value) -> Option<BTreeSet<String>> {
    validator.validate(target, value).map(|violations| {
        violations
            .into_iter()
            .map(|violation| violation.instance_path)
            .collect()
    })
}

fn shown(verdict: &Option<BTreeSet<String>>) -> String {
    match verdict {
        None => "no such type".into(),
        Some(paths) if paths.is_empty() => "valid".into(),
        Some(paths) => format!(
            "invalid at {}",
            paths
                .iter()
                .map(|path| if path.is_empty() { "/" } else { path })
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn bundle_text(max_frames_maximum: u64, description: &str) -> String {
        let document = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://x.test/demo-1.0/interop.schema.json",
            "description": description,
            "x-cgp-profile": "interop",
            "x-cgp-protocol-version": "demo/1.0",
            "oneOf": [{"x-cgp-direction": "host-to-provider", "type": "object",
                       "properties": {"type": {"const": "ask"},
                                      "max_frames": {"type": "integer", "minimum": 0, "maximum": max_frames_maximum}},
                       "required": ["type", "max_frames"]}],
            "$defs": {}
        });
        serde_json::to_string_pretty(&document).expect("json")
    }

    fn example(json: &str) -> Example {
        let markdown =
            format!("```json cgp-example name=ask.one target=Envelope expect=valid\n{json}\n```\n");
        let mut examples = crate::corpus::extract("SPEC.md", &markdown).expect("corpus");
        examples.pop().expect("one example")
    }

    #[test]
    fn bytes_may_change_but_not_verdicts() {
        let released = bundle_text(10, "v");
        let examples = [example(r#"{"type": "ask", "max_frames": 3}"#)];
        let pair = |reissued: &str| -> Result<Evidence, Vec<String>> {
            same_wire(
                &[Pair {
                    profile: Profile::Interop,
                    path: "b.json",
                    released: &released,
                    reissued,
                }],
                &examples,
                500,
            )
        };
        // The same document, compacted: new bytes, the same wire.
        let compact =
            serde_json::to_string(&serde_json::from_str::<Value>(&released).expect("json"))
                .expect("json");
        assert_eq!(
            pair(&compact),
            Ok(Evidence {
                examples: 1,
                random_cases: 500
            })
        );
        // A tighter bound changes what is accepted: refused, and named.
        let problems = pair(&bundle_text(2, "v")).expect_err("changed verdicts");
        assert!(
            problems
                .iter()
                .any(|problem| problem.contains("the classifier finds")),
            "{problems:?}"
        );
        assert!(
            problems.iter().any(|problem| problem.starts_with(
                "SPEC.md:1: ask.one (interop): released b.json says valid, the re-issue says invalid at /max_frames"
            )),
            "{problems:?}"
        );
    }

    #[test]
    fn mutations_are_deterministic_and_varied() {
        let base = json!({"type": "ask", "max_frames": 3, "list": [1, {"a": "b"}]});
        let envelopes = [&base];
        let run = || {
            let mut mutator = Mutator::new(7);
            (0..200)
                .map(|_| mutator.next_case(&envelopes).expect("case"))
                .collect::<Vec<_>>()
        };
        let cases = run();
        assert_eq!(cases, run());
        let distinct: BTreeSet<String> = cases.iter().map(Value::to_string).collect();
        assert!(distinct.len() > 50, "{}", distinct.len());
        assert!(cases.iter().any(|case| case.get("max_frames").is_none()));
        assert!(cases.iter().any(|case| case.get("type_unknown").is_some()));
    }
}
