//! json-schema-to-typescript (pinned, under `target/peers`) on both published
//! bundles: it names each schema once (no `FrameId1`), its output compiles
//! with `tsc --strict`, every SPEC.md example valid under the profile
//! type-checks as the example's type, and the invalid examples the types
//! cannot tell apart are counted, not guessed (README §TypeScript).
//!
//! Two names are still the titles' doing, and a title is frozen with its
//! release (a change is `DOCUMENTATION_CHANGED`, a minor bump): the `Other`
//! branch of each of the three open vocabularies (`Other`, `Other1`, `Other2`,
//! each `= string`), and the `error` variant's `Error`, which shadows the
//! global `Error` inside the generated module.

use cgp_schema::Profile;
use spec_tests::{examples, peers};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// Titles several schemas share, renamed with the next minor version.
const SHARED_TITLES: [&str; 1] = ["Other"];

/// The names `export type X` / `export interface X` declares.
fn exported_names(declarations: &str) -> Vec<String> {
    declarations
        .lines()
        .filter_map(|line| {
            let rest = line
                .strip_prefix("export type ")
                .or_else(|| line.strip_prefix("export interface "))?;
            let end = rest.find(|c: char| !c.is_ascii_alphanumeric() && c != '_')?;
            Some(rest[..end].to_owned())
        })
        .collect()
}

fn run(program: &str, args: &[&str]) -> (bool, String) {
    let output = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|error| panic!("cannot run {program}: {error}"));
    (
        output.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ),
    )
}

/// What tsc made of one profile's corpus file.
struct Compiled {
    /// `line → error text` for every error tsc reports.
    errors: BTreeMap<usize, String>,
}

fn compile(modules: &Path, file: &Path) -> Compiled {
    let tsc = modules.join("typescript/bin/tsc");
    let (_, output) = run(
        "node",
        &[
            &tsc.to_string_lossy(),
            "--strict",
            "--noEmit",
            "--target",
            "ES2022",
            "--module",
            "NodeNext",
            "--types",
            "",
            &file.to_string_lossy(),
        ],
    );
    let name = file
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut errors = BTreeMap::new();
    for line in output.lines() {
        // corpus.ts(12,5): error TS2322: …
        let Some(rest) = line.strip_prefix(&format!("{name}(")).or_else(|| {
            line.find(&format!("{name}("))
                .map(|at| &line[at + name.len() + 1..])
        }) else {
            continue;
        };
        if let Some((number, _)) = rest.split_once(',') {
            if let Ok(number) = number.parse::<usize>() {
                errors.entry(number).or_insert_with(|| line.to_owned());
            }
        }
    }
    assert!(
        !errors.is_empty() || output.trim().is_empty(),
        "tsc said something this test cannot read:\n{output}"
    );
    Compiled { errors }
}

#[test]
#[ignore = "full tier"]
fn json_schema_to_typescript_names_each_schema_once_and_its_types_hold_the_corpus() {
    let modules = peers::ensure_typescript().unwrap_or_else(|error| panic!("{error}"));
    let generator = modules.join("json-schema-to-typescript/dist/src/cli.js");
    let scratch = cgp_test_support::repo()
        .join("target/json-schema-to-typescript")
        .join(std::process::id().to_string());
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("scratch directory");
    let version: cgp_schema::ProtocolVersion = cgp_types::PROTOCOL_VERSION
        .parse()
        .expect("the protocol version");
    let examples = examples();
    let mut failures = Vec::new();
    let mut report = Vec::new();
    for profile in Profile::ALL {
        let bundle_path =
            cgp_test_support::repo().join(cgp_codegen::plan::published_path(&version, profile));
        let bundle: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(&bundle_path).expect("the published bundle"),
        )
        .expect("bundle JSON");
        let declarations = scratch.join(format!("{profile}.d.ts"));
        let (ok, output) = run(
            "node",
            &[
                &generator.to_string_lossy(),
                "-i",
                &bundle_path.to_string_lossy(),
                "-o",
                &declarations.to_string_lossy(),
                "--unreachableDefinitions",
            ],
        );
        assert!(ok, "json-schema-to-typescript on {profile}: {output}");
        let text = std::fs::read_to_string(&declarations).expect("its output");
        let names = exported_names(&text);

        // One type per named schema: every $defs type and every variant once,
        // and no name the generator had to number.
        let mut expected: Vec<String> = bundle["$defs"]
            .as_object()
            .expect("$defs")
            .values()
            .filter_map(|schema| schema["title"].as_str().map(str::to_owned))
            .collect();
        expected.extend(
            bundle["oneOf"]
                .as_array()
                .expect("variants")
                .iter()
                .filter_map(|variant| variant["title"].as_str().map(str::to_owned)),
        );
        for name in &expected {
            let count = names.iter().filter(|found| *found == name).count();
            if count != 1 {
                failures.push(format!("{profile}: `{name}` declared {count} times"));
            }
        }
        for name in &names {
            let numbered = name.trim_end_matches(|c: char| c.is_ascii_digit());
            if numbered != name
                && names.iter().any(|other| other == numbered)
                && !SHARED_TITLES.contains(&numbered)
            {
                failures.push(format!("{profile}: `{name}` copies `{numbered}`"));
            }
        }

        // The corpus as typed data: each example as a value of its type.
        let mut source = format!("import type * as T from \"./{profile}.js\";\n");
        let mut lines: Vec<(usize, bool, String)> = Vec::new();
        for (index, example) in examples.iter().enumerate() {
            if example.target.is_empty() {
                continue;
            }
            let valid = example.expect.valid_under(profile);
            if !valid {
                source.push_str("// @ts-expect-error the example is invalid\n");
            }
            lines.push((source.lines().count() + 1, valid, example.name.clone()));
            source.push_str(&format!(
                "export const example{index}: T.{} = {};\n",
                example.target,
                example.as_line()
            ));
        }
        let corpus = scratch.join(format!("{profile}-corpus.ts"));
        std::fs::write(&corpus, &source).expect("write the corpus file");
        let compiled = compile(&modules, &corpus);
        let (mut typed, mut caught, mut uncaught) = (0, 0, Vec::new());
        for (line, valid, name) in &lines {
            // An invalid example's error is on its line; an unused
            // @ts-expect-error is reported on the comment above it.
            let own = compiled.errors.get(line);
            let unused = compiled.errors.get(&(line - 1));
            match (valid, own, unused) {
                (true, None, _) => typed += 1,
                (true, Some(error), _) => failures.push(format!(
                    "{profile}: valid example {name} does not type-check: {error}"
                )),
                (false, _, Some(_)) => uncaught.push(name.clone()),
                (false, _, None) => caught += 1,
            }
        }
        report.push(format!(
            "{profile}: {typed} valid examples type-check; of {} invalid ones the types reject {caught} (not: {})",
            caught + uncaught.len(),
            uncaught.join(", ")
        ));
        if typed == 0 || caught == 0 {
            failures.push(format!("{profile}: nothing was checked"));
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(
        failures.is_empty(),
        "{}\n{}",
        failures.join("\n"),
        report.join("\n")
    );
    println!("{}", report.join("\n"));
}
