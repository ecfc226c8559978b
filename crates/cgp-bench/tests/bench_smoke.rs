//! The benchmark machinery runs end to end on a small transcript, so
//! `cargo xtask bench` cannot rot. Nothing here looks at a timing: CI measures
//! nothing (crates/cgp-cli and xtask run the command-line halves).

use cgp_bench::{self as bench, Config, Decoders, Measure, Sample};

#[test]
#[ignore = "full tier"]
fn the_bench_runs_on_a_small_transcript_and_renders_its_table() {
    let repo = cgp_test_support::repo();
    let work_scratch = cgp_test_support::Scratch::new("bench-smoke");
    let work = work_scratch.path().to_path_buf();
    let config = Config {
        repo: repo.clone(),
        work: work.clone(),
        transcript_bytes: 1 << 20,
        seed: 3,
        rounds: 1,
        python_bytes: 100_000,
        cgp: None,
        xtask: None,
        peers: Some(spec_tests::peers::ensure_installed().expect("the peer validators")),
        schema_factors: Vec::new(),
    };
    let decoders = Decoders {
        generated: bench::decoder(|text: &str| {
            serde_json::from_str::<cgp_generated::Envelope>(text)
        }),
        reference: bench::decoder(contextgraph_host::wire::decode_line),
        reference_version: contextgraph_host::PROTOCOL_VERSION.into(),
    };
    let report = bench::run(&config, decoders).expect("the bench runs");
    assert!(report.mix.bytes >= 1 << 20, "{:?}", report.mix);
    assert!(
        report.mix.short_lines > report.mix.lines / 2,
        "{:?}",
        report.mix
    );
    assert_eq!(report.short_mix.lines, report.mix.short_lines);
    // Maximal messages, all of them short.
    assert!(report.dense_mix.bytes >= 1 << 20, "{:?}", report.dense_mix);
    assert_eq!(report.dense_mix.short_lines, report.dense_mix.lines);
    for &sample in Sample::ALL {
        for measure in [
            Measure::ParseValue,
            Measure::ParseValueFromStr,
            Measure::DecodeHandWritten,
            Measure::DecodeGenerated,
            Measure::DecodeReference,
            Measure::VerdictInProcess,
            Measure::StreamTwoThreads,
            Measure::ParseValueTwoThreads,
            Measure::Ajv,
            Measure::PythonJsonschema,
            Measure::PythonJsonLoads,
            Measure::PythonPackageDecode,
            Measure::GoEncodingJson,
            Measure::GoDecode,
            Measure::JavaDatabind,
            Measure::JavaDecode,
            Measure::PythonPydantic,
            Measure::PythonPackageEncode,
            Measure::PythonJsonDumps,
            Measure::NodeJsonParse,
            Measure::NodeAjvSameProcess,
            Measure::TypescriptDecode,
            Measure::TypescriptEncode,
            Measure::NodeJsonStringify,
        ] {
            let figure = report.get(sample, measure).expect("measured");
            assert!(figure.seconds > 0.0 && figure.lines > 0, "{measure:?}");
        }
        let python = report
            .get(sample, Measure::PythonJsonschema)
            .expect("python");
        assert!(python.bytes <= 100_000 + 70_000, "a prefix: {python:?}");
    }
    let table = report.render();
    for needle in [
        "the baseline",
        "Node Ajv",
        "Python jsonschema",
        "generated decode within 10% of hand-written",
        "`cgp_types.decode_line`",
        "`cgptypes.Decode`",
        "`Wire.decode` at least as fast as Jackson databind",
        "`decodeEnvelope` ≥ 1.0× `JSON.parse` + Ajv",
        "`decode_line` ≥ 1.0× pydantic v2 `model_validate_json`",
        "`encodeEnvelope` ≥ 1.0× `JSON.stringify`",
        "not measured",
        "Skipped: `cgp validate`",
        "## Throughput: the short lines",
        "## Throughput: the dense transcript",
    ] {
        assert!(table.contains(needle), "{needle} missing from\n{table}");
    }
    let first = bench::with_notes(&table, None);
    assert!(first.ends_with(&format!("{}\n", bench::NOTES_MARKER)));
    let noted = format!("{first}\nWhat the profile showed.\n");
    let again = bench::with_notes("# Benchmarks\n\nnew figures\n", Some(&noted));
    assert!(
        again.starts_with("# Benchmarks\n\nnew figures\n\n"),
        "{again}"
    );
    assert!(again.ends_with("What the profile showed.\n"), "{again}");
}

/// Copies of every schema file, with variants that reach them, pass the
/// loader's lints, bundle and compile.
#[test]
fn scaled_schemas_load() {
    let work_scratch = cgp_test_support::Scratch::new("bench-scaled");
    let work = work_scratch.path().to_path_buf();
    let real = bench::scaled_tree(&cgp_test_support::repo(), &work.join("x1"), 1).expect("x1");
    let (files, bytes) =
        bench::scaled_tree(&cgp_test_support::repo(), &work.join("x3"), 3).expect("x3");
    assert_eq!(files, 1 + (real.0 - 1) * 3);
    assert!(bytes > real.1 * 2, "{bytes} vs {}", real.1);
    // The count comes from the schemas, never a literal: the protocol grows.
    let repo = cgp_test_support::repo();
    let variants = cgp_schema::SchemaSet::load(&repo.join("schema"), "schema")
        .expect("the schemas load")
        .variants
        .len();
    assert_eq!(
        bench::load_scaled(&work.join("x1")).expect("x1 loads"),
        variants
    );
    assert_eq!(
        bench::load_scaled(&work.join("x3")).expect("x3 loads"),
        3 * variants
    );
}
