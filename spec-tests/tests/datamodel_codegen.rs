//! The published bundles in datamodel-code-generator, the generator Python
//! implementers use: the pydantic v2 models it writes for each profile must
//! import and give every SPEC.md example its verdict under that profile, except
//! where pydantic cannot express the schema (there it may accept an invalid
//! example, never reject a valid one):
//!
//! - a rule on the JSON text (duplicate members, a number beyond a double):
//!   Python's parser has already collapsed or rounded it;
//! - strict only: an optional member with no `default` becomes `X | None = None`,
//!   so `null` is accepted where the member may only be absent (the excuse
//!   covers every `null` example; required members still refuse `null`);
//! - strict only: `not` (an omit-if-default member never holds its default) is
//!   dropped.
//!
//! The generator is installed, pinned, under `target/peers` on first use
//! (`spec_tests::peers`), so this needs `python3` with `venv` and `pip`.

use cgp_gates::corpus::Example;
use cgp_schema::Profile;
use spec_tests::{examples, peers, schema_set, write_cases};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// The options of the README's recipe.
const OPTIONS: &[&str] = peers::DATAMODEL_CODEGEN_OPTIONS;

/// Members whose strict schema says `not: {const: <default>}`.
const STRICT_NOT_DROPPED: &[&str] = &["frame.representation-full-explicit"];

fn run(python: &Path, args: &[&str]) -> String {
    let output = Command::new(python)
        .args(args)
        .output()
        .unwrap_or_else(|error| panic!("cannot run {}: {error}", python.display()));
    assert!(
        output.status.success(),
        "{} {} failed:\n{}",
        python.display(),
        args.join(" "),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Whether the value at the example's pointer is `null`.
fn null_at(example: &Example) -> bool {
    let value: Option<serde_json::Value> = serde_json::from_str(&example.json).ok();
    let pointer = example.at.as_deref().unwrap_or("");
    value.is_some_and(|value| value.pointer(pointer) == Some(&serde_json::Value::Null))
}

/// Why the models may accept an example the profile rejects, if they may.
fn cannot_express(example: &Example, profile: Profile) -> Option<&'static str> {
    if example.text_layer {
        Some("a rule on the JSON text")
    } else if profile == Profile::Strict && null_at(example) {
        Some("absent but never null")
    } else if profile == Profile::Strict && STRICT_NOT_DROPPED.contains(&example.name.as_str()) {
        Some("`not` is dropped")
    } else {
        None
    }
}

#[test]
#[ignore = "full tier"]
fn pydantic_models_of_both_bundles_give_the_corpus_verdicts_where_pydantic_can_express_them() {
    let python = peers::ensure_datamodel_codegen().unwrap_or_else(|problem| panic!("{problem}"));
    let version = schema_set().version;
    let scratch_scratch = cgp_test_support::Scratch::new("pydantic");
    let scratch = scratch_scratch.path().to_path_buf();
    std::fs::create_dir_all(&scratch).expect("scratch directory");
    // Texts Python's parser cannot read at all (a lone surrogate) say nothing
    // about the models.
    let examples: Vec<Example> = examples()
        .into_iter()
        .filter(|example| serde_json::from_str::<serde_json::Value>(&example.json).is_ok())
        .collect();
    let cases_path = scratch.join("cases.json");
    write_cases(&examples, &cases_path);
    let driver = cgp_test_support::repo().join("spec-tests/peers/pydantic_corpus.py");
    let mut failures = Vec::new();
    let mut tolerated = 0;
    for profile in Profile::ALL {
        let bundle =
            cgp_test_support::repo().join(cgp_codegen::plan::published_path(&version, profile));
        let models = scratch.join(format!("{profile}_models.py"));
        let mut args = vec![
            "-m",
            "datamodel_code_generator",
            "--input",
            bundle.to_str().expect("utf-8 path"),
            "--output",
            models.to_str().expect("utf-8 path"),
        ];
        args.extend_from_slice(OPTIONS);
        run(&python, &args);
        let verdicts: BTreeMap<String, serde_json::Value> = serde_json::from_str(&run(
            &python,
            &[
                driver.to_str().expect("utf-8 path"),
                models.to_str().expect("utf-8 path"),
                cases_path.to_str().expect("utf-8 path"),
            ],
        ))
        .expect("the driver prints verdicts");
        for example in &examples {
            let expected = example.expect.valid_under(profile);
            let found = verdicts.get(&example.name);
            let excuse = cannot_express(example, profile);
            match (found.and_then(serde_json::Value::as_bool), excuse) {
                (Some(verdict), _) if verdict == expected => {}
                (Some(true), Some(_)) => tolerated += 1,
                (found, excuse) => failures.push(format!(
                    "{profile}: SPEC.md:{}: {}: pydantic says {found:?}, the profile says {expected}{}",
                    example.fence_line,
                    example.name,
                    excuse.map(|why| format!(" ({why})")).unwrap_or_default()
                )),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        tolerated > 0,
        "no example falls under a documented limitation"
    );
}
