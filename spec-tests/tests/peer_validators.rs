//! The published bundles in the validators other-language implementers use:
//! Python `jsonschema` and Node Ajv (draft 2020-12 mode) must give every SPEC.md
//! example the verdict the corpus declares, under both profiles, exactly as our
//! own validator does.
//!
//! The pinned peers are installed under `target/peers` on first use
//! (`spec_tests::peers`), so `cargo test --workspace` needs `python3` with `pip`
//! and Node.js with `npm` on the machine.

use cgp_check::Validator;
use cgp_schema::Profile;
use spec_tests::{bundle, examples, peers, write_cases};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

fn run_peer(
    program: &str,
    script: &str,
    env: (&str, PathBuf),
    bundle: &str,
    cases: &str,
) -> BTreeMap<String, bool> {
    let (key, path) = env;
    let output = Command::new(program)
        .arg(
            cgp_test_support::repo()
                .join("spec-tests/peers")
                .join(script),
        )
        .arg(bundle)
        .arg(cases)
        .env(key, path)
        .output()
        .unwrap_or_else(|error| panic!("cannot run {program}: {error}"));
    assert!(
        output.status.success(),
        "{program} {script} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|error| panic!("{script} printed no verdicts: {error}"))
}

#[test]
#[ignore = "full tier"]
fn python_jsonschema_and_ajv_agree_with_the_corpus_under_both_profiles() {
    let base = peers::ensure_installed().unwrap_or_else(|problem| panic!("{problem}"));
    let examples = examples();
    let scratch_scratch = cgp_test_support::Scratch::new("peers");
    let scratch = scratch_scratch.path().to_path_buf();
    std::fs::create_dir_all(&scratch).expect("scratch directory");
    // A text no JSON parser of ours reads (a lone surrogate, 1e400, a byte-order
    // mark) has no value to validate: other languages' parsers read it each their
    // own way (Python turns 1e400 into infinity), so it says nothing about the
    // bundle. `cgp validate` and the corpus check reject it from the text.
    let examples: Vec<_> = examples
        .into_iter()
        .filter(|example| {
            !example.text_layer || serde_json::from_str::<serde_json::Value>(&example.json).is_ok()
        })
        .collect();
    let cases_path = scratch.join("cases.json");
    write_cases(&examples, &cases_path);
    let mut failures = Vec::new();
    for profile in Profile::ALL {
        let bundle = bundle(profile);
        let ours = Validator::new(&bundle).expect("validator");
        let bundle_path = scratch.join(format!("{profile}.schema.json"));
        std::fs::write(&bundle_path, bundle.to_pretty_json()).expect("write bundle");
        let (bundle_arg, cases_arg) = (
            bundle_path.to_string_lossy().into_owned(),
            cases_path.to_string_lossy().into_owned(),
        );
        let peers = [
            (
                "python jsonschema",
                run_peer(
                    "python3",
                    "validate.py",
                    ("PYTHONPATH", peers::python_path(&base)),
                    &bundle_arg,
                    &cases_arg,
                ),
            ),
            (
                "ajv",
                run_peer(
                    "node",
                    "validate.mjs",
                    ("NODE_PATH", peers::node_path(&base)),
                    &bundle_arg,
                    &cases_arg,
                ),
            ),
        ];
        for example in &examples {
            // A parsed value cannot show a text-layer problem (duplicate member
            // names): every value-based validator accepts such an example, ours
            // included; `cgp validate` and the corpus check reject it from the text.
            let expected = if example.text_layer {
                true
            } else {
                example.expect.valid_under(profile)
            };
            let value: serde_json::Value = serde_json::from_str(&example.json).expect("json");
            let own = ours
                .validate(&example.target, &value)
                .map(|violations| violations.is_empty());
            if own != Some(expected) {
                failures.push(format!(
                    "{profile}: ours: {}: {own:?}, expected {expected}",
                    example.name
                ));
            }
            for (peer, verdicts) in &peers {
                match verdicts.get(&example.name) {
                    Some(verdict) if *verdict == expected => {}
                    other => failures.push(format!(
                        "{profile}: {peer}: SPEC.md:{}: {}: {other:?}, expected {expected}",
                        example.fence_line, example.name
                    )),
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
