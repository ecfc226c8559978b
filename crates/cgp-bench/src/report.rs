//! The report of one run and its rendering as the Markdown of `BENCHMARKS.md`:
//! every ratio is taken from figures of the same run.

use crate::corpus::{Mix, SHORT_LINE};
use crate::machine::Machine;
use crate::measure::{CliFormat, Measure, Sample, Throughput};
use std::fmt::Write as _;

/// Everything one run measured.
#[derive(Debug, Clone)]
pub struct Report {
    /// Where.
    pub machine: Machine,
    /// The transcript's seed.
    pub seed: u64,
    /// The transcript.
    pub mix: Mix,
    /// Its short lines.
    pub short_mix: Mix,
    /// The dense transcript.
    pub dense_mix: Mix,
    /// The SDK-style transcript.
    pub sdk_mix: Mix,
    /// The lines invalid on purpose in its 1%-invalid variant.
    pub sdk_invalid: u64,
    /// In-process rounds.
    pub rounds: usize,
    /// The throughput figures.
    pub rows: Vec<Row>,
    /// codegen and check, by schema size.
    pub schema: Vec<SchemaRun>,
    /// `cgp check` beside `contextgraph-inspect`, per provider.
    pub checks: Vec<crate::checks::CheckRun>,
    /// What was skipped, and why.
    pub skipped: Vec<String>,
}

impl Report {
    /// The figure of `measure` on `sample`, when it was measured.
    pub fn get(&self, sample: Sample, measure: Measure) -> Option<&Throughput> {
        self.rows
            .iter()
            .find(|row| row.sample == sample && row.measure == measure)
            .map(|row| &row.throughput)
    }
}

/// One measured figure.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// On which file.
    pub sample: Sample,
    /// What was measured.
    pub measure: Measure,
    /// How fast.
    pub throughput: Throughput,
    /// How it was measured, when it differs from the rest.
    pub note: String,
}

/// codegen and check on one schema tree.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaRun {
    /// How many copies of every schema file the tree holds (1: the real schema).
    pub factor: usize,
    /// Schema files.
    pub files: usize,
    /// Their size in bytes.
    pub bytes: u64,
    /// `cargo xtask codegen`, best wall time in seconds.
    pub codegen: f64,
    /// `cargo xtask check`, best wall time in seconds.
    pub check: f64,
    /// The gates check failed, as it names them (`FAIL <gate>`): none on the
    /// real tree; on a synthetic one those that need what it lacks (sync,
    /// coverage, links, changelog).
    pub failed_gates: Vec<String>,
}

/// A target of the issue, measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    /// What is aimed at.
    pub goal: String,
    /// On the mixed transcript, then on its short lines (when it applies):
    /// the measured value, e.g. `0.93×`, and whether it is met (`None`: not
    /// measured).
    pub results: Vec<(String, Option<bool>)>,
}

/// The most the time of codegen + check may grow per step of schema size, as
/// an exponent of the size ratio: 1 is linear; the 0.1 above is for noise.
pub const LINEAR_GROWTH: f64 = 1.1;

impl Report {
    fn speed(&self, sample: Sample, measure: Measure) -> Option<f64> {
        self.get(sample, measure).map(Throughput::mb_per_s)
    }

    fn ratio(&self, sample: Sample, a: Measure, b: Measure) -> Option<f64> {
        Some(self.speed(sample, a)? / self.speed(sample, b)?)
    }

    /// `a` × `b` on each file, and whether `met` says the ratio meets the goal.
    fn ratio_target(
        &self,
        goal: String,
        a: Measure,
        b: Measure,
        met: &dyn Fn(f64) -> Option<bool>,
    ) -> Target {
        Target {
            goal,
            results: Sample::ALL
                .iter()
                .map(|sample| match self.ratio(*sample, a, b) {
                    Some(ratio) => (format!("{ratio:.2}×"), met(ratio)),
                    None => ("not measured".into(), None),
                })
                .collect(),
        }
    }

    /// A ratio reported for scale, with no target to meet.
    fn for_scale(&self, what: &str, a: Measure, b: Measure) -> Target {
        self.ratio_target(format!("for scale, not a target: {what}"), a, b, &|_| None)
    }

    /// The targets, each with its measured ratio on each file.
    pub fn targets(&self) -> Vec<Target> {
        let mut targets = self.validate_targets();
        targets.push(self.for_scale(
            "parse-only on 2 independent threads, × 1 thread (what two threads of this machine gave during the run)",
            Measure::ParseValueTwoThreads,
            Measure::ParseValue,
        ));
        targets.extend(self.decode_targets());
        targets.extend(self.package_targets());
        targets.extend(self.sdk_targets());
        targets.extend(self.schema_targets());
        targets
    }

    /// `cgp validate` against parse-only, Ajv and Python jsonschema.
    fn validate_targets(&self) -> Vec<Target> {
        let human = |jobs| Measure::Cli {
            jobs,
            format: CliFormat::Human,
        };
        let mut goals = Vec::new();
        for &format in CliFormat::ALL {
            for (jobs, min, baseline) in [(1, 1.3, "parse-only"), (2, 2.0, "parse-only (1 thread)")]
            {
                goals.push((
                    format!(
                        "`cgp validate --jobs {jobs} --format {}` ≥ {min:.1}× {baseline}",
                        format.as_str()
                    ),
                    Measure::Cli { jobs, format },
                    Measure::ParseValue,
                    min,
                ));
            }
        }
        for (goal, a, b, min) in [
            (
                "`cgp validate --jobs 1` ≥ 1.2× Ajv",
                human(1),
                Measure::Ajv,
                1.2,
            ),
            (
                "`cgp validate --jobs 2` ≥ 2× Ajv",
                human(2),
                Measure::Ajv,
                2.0,
            ),
            (
                "`cgp validate --jobs 1` ≥ 100× Python jsonschema",
                human(1),
                Measure::PythonJsonschema,
                100.0,
            ),
        ] {
            goals.push((goal.to_owned(), a, b, min));
        }
        goals
            .into_iter()
            .map(|(goal, a, b, min)| self.ratio_target(goal, a, b, &|ratio| Some(ratio >= min)))
            .collect()
    }

    /// The generated Rust decode against the hand-written and reference ones.
    fn decode_targets(&self) -> Vec<Target> {
        [
            (
                "generated decode within 10% of hand-written",
                Measure::DecodeHandWritten,
            ),
            (
                "generated decode within 10% of the reference crate",
                Measure::DecodeReference,
            ),
        ]
        .into_iter()
        .map(|(goal, other)| {
            self.ratio_target(goal.into(), Measure::DecodeGenerated, other, &|ratio| {
                Some((ratio - 1.0).abs() <= 0.10)
            })
        })
        .collect()
    }

    /// The generated Python, Go and TypeScript packages against what their
    /// users would otherwise run.
    fn package_targets(&self) -> Vec<Target> {
        let mut targets = vec![
            self.for_scale(
                "the generated Python package's `decode_line`, × Python's `json.loads` (same process, same lines)",
                Measure::PythonPackageDecode,
                Measure::PythonJsonLoads,
            ),
            self.ratio_target(
                "the Go module's `Decode` at least as fast as `encoding/json` `Unmarshal` into the same structs (≥ 1.0×)".into(),
                Measure::GoDecode,
                Measure::GoEncodingJson,
                &|ratio| Some(ratio >= 1.0),
            ),
            self.ratio_target(
                "the Java package's `Wire.decode` at least as fast as Jackson databind into plain classes (≥ 1.0×, same JVM)".into(),
                Measure::JavaDecode,
                Measure::JavaDatabind,
                &|ratio| Some(ratio >= 1.0),
            ),
        ];
        for (goal, a, b, min) in [
            (
                "the TypeScript package's `decodeEnvelope` ≥ 1.0× `JSON.parse` + Ajv (same node process, same strings)",
                Measure::TypescriptDecode,
                Measure::NodeAjvSameProcess,
                1.0,
            ),
            (
                "the TypeScript package's `decodeEnvelope` ≥ 0.5× `JSON.parse` alone",
                Measure::TypescriptDecode,
                Measure::NodeJsonParse,
                0.5,
            ),
            (
                "the TypeScript package's `encodeEnvelope` ≥ 1.0× `JSON.stringify`",
                Measure::TypescriptEncode,
                Measure::NodeJsonStringify,
                1.0,
            ),
            (
                "the Python package's `decode_line` ≥ 1.0× pydantic v2 `model_validate_json` (same process, same lines)",
                Measure::PythonPackageDecode,
                Measure::PythonPydantic,
                1.0,
            ),
            (
                "the Python package's `encode_line` ≥ 1.0× `json.dumps`",
                Measure::PythonPackageEncode,
                Measure::PythonJsonDumps,
                1.0,
            ),
        ] {
            targets.push(self.ratio_target(goal.into(), a, b, &|ratio| Some(ratio >= min)));
        }
        targets
    }

    /// Codegen and check: time on the real schema, growth with its size.
    fn schema_targets(&self) -> Vec<Target> {
        let real = self.schema.iter().find(|run| run.factor == 1);
        let steps = self.growth();
        let growth = if steps.is_empty() {
            ("not measured".into(), None)
        } else {
            let shown: Vec<String> = steps
                .iter()
                .map(|(from, to, b)| format!("{from}→{to}: b = {b:.2}"))
                .collect();
            (
                shown.join("; "),
                Some(steps.iter().all(|(_, _, b)| *b <= LINEAR_GROWTH)),
            )
        };
        vec![
            Target {
                goal: "codegen + check warm < 2 s on the real schema".into(),
                results: vec![real.map_or(("not measured".into(), None), |run| {
                    let total = run.codegen + run.check;
                    (format!("{total:.2} s"), Some(total < 2.0))
                })],
            },
            Target {
                goal: format!(
                    "codegen + check grow no worse than linearly (time ∝ size^b, b ≤ {LINEAR_GROWTH} for noise, at each step)"
                ),
                results: vec![growth],
            },
        ]
    }

    /// Issue 37's targets, on the SDK-style transcript and its 1%-invalid
    /// variant only: there each package must reach at least half its
    /// alternative, so that a rejection costs at most twice what it pays.
    fn sdk_targets(&self) -> Vec<Target> {
        let goals = [
            (
                "SDK-style: the Python package's `decode_line` ≥ 1.0× pydantic v2 (1%-invalid: ≥ 0.5×)",
                Measure::PythonPackageDecode,
                Measure::PythonPydantic,
                1.0,
            ),
            (
                "SDK-style: the TypeScript package's `decodeEnvelope` ≥ 0.85× `JSON.parse` + Ajv (1%-invalid: ≥ 0.5×)",
                Measure::TypescriptDecode,
                Measure::NodeAjvSameProcess,
                0.85,
            ),
            (
                "SDK-style: the Go module's `Decode` ≥ 3× `encoding/json` (1%-invalid: ≥ 0.5×)",
                Measure::GoDecode,
                Measure::GoEncodingJson,
                3.0,
            ),
            (
                "SDK-style: `cgp validate --jobs 1` ≥ 2× parse-only (1%-invalid: ≥ 0.5×)",
                Measure::Cli {
                    jobs: 1,
                    format: CliFormat::Human,
                },
                Measure::ParseValue,
                2.0,
            ),
        ];
        goals
            .into_iter()
            .map(|(goal, a, b, min)| Target {
                goal: goal.into(),
                results: Sample::ALL
                    .iter()
                    .map(|sample| {
                        let min = match sample {
                            Sample::Sdk => min,
                            Sample::SdkInvalid => 0.5,
                            _ => return (String::new(), None),
                        };
                        match self.ratio(*sample, a, b) {
                            Some(ratio) => (format!("{ratio:.2}×"), Some(ratio >= min)),
                            None => ("not measured".into(), None),
                        }
                    })
                    .collect(),
            })
            .collect()
    }

    /// For each step between consecutive schema sizes: the sizes (`real`, `10×`)
    /// and `b` in `time ∝ size^b`.
    pub fn growth(&self) -> Vec<(String, String, f64)> {
        let mut runs: Vec<&SchemaRun> = self.schema.iter().collect();
        runs.sort_by_key(|run| run.factor);
        runs.windows(2)
            .filter_map(|pair| {
                let [small, large] = pair else { return None };
                let time = (large.codegen + large.check) / (small.codegen + small.check);
                let size = large.bytes as f64 / small.bytes as f64;
                (size > 1.0).then(|| {
                    (
                        scale(small.factor),
                        scale(large.factor),
                        time.ln() / size.ln(),
                    )
                })
            })
            .collect()
    }

    /// The Markdown of `BENCHMARKS.md`.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let m = &self.machine;
        let _ = writeln!(out, "# Benchmarks\n");
        let _ = writeln!(
            out,
            "Written by `cargo xtask bench` (release build); every ratio comes from figures of this one run. Targets are ratios; the absolute figures depend on the machine.\n"
        );
        let _ = writeln!(
            out,
            "- Machine: {}, {} cores, {:.0} GiB RAM; {}; {}. Load average {:.2} before the run, {:.2} after (other work on the machine slows every figure, the two-thread ones most).",
            m.cpu, m.cores, m.memory_gib, m.rustc, m.date, m.load.0, m.load.1
        );
        for (name, mix) in [
            ("Mixed transcript", &self.mix),
            ("Short lines", &self.short_mix),
            ("Dense transcript", &self.dense_mix),
            ("SDK-style transcript", &self.sdk_mix),
        ] {
            let _ = writeln!(
                out,
                "- {name}: {:.1} MB, {} lines, {:.0} B a line on average (longest {:.1} KiB); {:.0}% of the lines are under {} KiB, holding {:.0}% of the bytes.",
                mix.bytes as f64 / 1e6,
                mix.lines,
                mix.bytes as f64 / mix.lines.max(1) as f64,
                mix.longest as f64 / 1024.0,
                100.0 * mix.short_lines as f64 / mix.lines.max(1) as f64,
                SHORT_LINE / 1024,
                100.0 * mix.short_bytes as f64 / mix.bytes.max(1) as f64,
            );
        }
        let _ = writeln!(
            out,
            "- The mixed transcript is `cgp_bench::transcript` with seed {}: sessions of queries answered by lookups (1 to 3 frames of 200 B to 1 KiB) and, one in eight, by context (1 to 8 frames of 200 B to 64 KiB); every line valid. The short-lines file is its lines under {} KiB, in order: the traffic where per-line costs dominate. The dense transcript repeats {} maximal messages written from the interop bundle's model (`cgp_bench::dense`): every member present, every variant and union branch in turn, short strings, so that structure (names, numbers, enums, nesting) is most of every line.",
            self.seed,
            SHORT_LINE / 1024,
            crate::dense::SAMPLES
        );
        let _ = writeln!(
            out,
            "- The SDK-style transcript is the mixed one's envelopes spelled as the SDKs write them (`cgp_bench::sdk`, the same seed): defaulted members left out, empty `relations` written, other member orders, `\": \"`/`\", \"` separators, Python's `\\uXXXX` escapes of non-ASCII and Go's of `<`, `>`, `&`, prose with markup and many `\\n`, each habit on a large share of the lines; every line valid. Its 1%-invalid variant has {} lines spoiled (no `type`, an unknown `type`, or a number for it; still JSON), which every decoder and validator must reject.",
            self.sdk_invalid
        );
        let _ = writeln!(
            out,
            "- In-process figures: best of {} rounds, the candidates taking turns (each round starting with the next one); `cgp validate`: best of {} runs; Ajv: best of {} passes; codegen and check: best of {} runs. MB is 10^6 bytes.\n",
            self.rounds,
            2 * self.rounds,
            self.rounds,
            self.rounds
        );
        self.render_throughput(&mut out);
        self.render_schema(&mut out);
        self.render_targets(&mut out);
        if !self.checks.is_empty() {
            let _ = writeln!(
                out,
                "\n## `cgp check` beside `contextgraph-inspect`\n\nThe providers of SPEC.md's side-by-side table, over stdio; the wall time of each whole run (start to the provider's exit), the best of {} rounds, the two tools taking turns. Target: a ratio of at most 1.00 on every provider.\n\n| Provider | `cgp check` | `contextgraph-inspect` | ratio | target met |\n|---|---|---|---|---|",
                self.rounds
            );
            for run in &self.checks {
                let _ = writeln!(
                    out,
                    "| {} | {:.3} s | {:.3} s | {:.2} | {} |",
                    run.provider,
                    run.cgp_seconds,
                    run.inspect_seconds,
                    run.ratio(),
                    if run.ratio() <= 1.0 { "yes" } else { "no" }
                );
            }
        }
        for skipped in &self.skipped {
            let _ = writeln!(out, "\nSkipped: {skipped}.");
        }
        out
    }
    /// One table of throughput figures per sample.
    fn render_throughput(&self, out: &mut String) {
        for &sample in Sample::ALL {
            let _ = writeln!(out, "## Throughput: {}\n", sample.title());
            let _ = writeln!(
                out,
                "| what | MB/s | lines/s | × parse-only | notes |\n|---|---:|---:|---:|---|"
            );
            let baseline = self.speed(sample, Measure::ParseValue);
            for row in self.rows.iter().filter(|row| row.sample == sample) {
                let speed = row.throughput.mb_per_s();
                let ratio = baseline.map_or(String::new(), |b| format!("{:.2}×", speed / b));
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {ratio} | {} |",
                    row.measure.label(),
                    figure(speed),
                    figure(row.throughput.lines_per_s()),
                    row.note
                );
            }
            out.push('\n');
        }
    }

    /// codegen and check by schema size, when measured.
    fn render_schema(&self, out: &mut String) {
        if !self.schema.is_empty() {
            let _ = writeln!(out, "## codegen and check\n");
            let _ = writeln!(
                out,
                "The already-built xtask binary that `cargo xtask` runs (a debug build; no compilation), with `--root` on a scratch tree. The larger schemas hold N suffixed copies of every schema file, with the variants that reach them; codegen writes their `generated/` first.\n"
            );
            let _ = writeln!(
                out,
                "| schema | files | KB | codegen s | check s | total s | × real | check |\n|---|---:|---:|---:|---:|---:|---:|---|"
            );
            let real = self
                .schema
                .iter()
                .find(|run| run.factor == 1)
                .map(|run| run.codegen + run.check);
            for run in &self.schema {
                let total = run.codegen + run.check;
                let _ = writeln!(
                    out,
                    "| {} | {} | {:.0} | {:.2} | {:.2} | {total:.2} | {} | {} |",
                    scale(run.factor),
                    run.files,
                    run.bytes as f64 / 1e3,
                    run.codegen,
                    run.check,
                    real.map_or(String::new(), |r| format!("{:.1}×", total / r)),
                    match run.failed_gates.as_slice() {
                        [] => "passes".to_owned(),
                        gates if gates == ["sync", "coverage", "links", "changelog"] => "fails as expected: the copies have no hand-written types (sync) or examples (coverage); the tree no README (links) or release manifest (changelog)".to_owned(),
                        gates => format!("fails: {}", gates.join(", ")),
                    }
                );
            }
            out.push('\n');
        }
    }

    /// The targets, one column per sample.
    fn render_targets(&self, out: &mut String) {
        let _ = writeln!(out, "## Targets\n");
        let titles: Vec<&str> = Sample::ALL.iter().map(|sample| sample.title()).collect();
        let _ = writeln!(
            out,
            "| target | {} |\n|---|{}",
            titles.join(" | "),
            "---|".repeat(titles.len())
        );
        for target in self.targets() {
            let cells: Vec<String> = target
                .results
                .iter()
                .map(|(measured, met)| match met {
                    Some(true) => format!("{measured} met"),
                    Some(false) => format!("{measured} **missed**"),
                    None => measured.clone(),
                })
                .collect();
            let empty = Sample::ALL.len().saturating_sub(cells.len());
            let cells = format!("{}{}", cells.join(" | "), " | ".repeat(empty));
            let _ = writeln!(out, "| {} | {cells} |", target.goal);
        }
    }
}

/// The line after which `BENCHMARKS.md` holds notes written by hand (what the
/// profiles showed, what was changed for speed); a new run keeps them.
pub const NOTES_MARKER: &str =
    "<!-- Notes below are written by hand; `cargo xtask bench` keeps them. -->";

/// `rendered`, then the hand-written notes of `previous` (the file it replaces),
/// from [`NOTES_MARKER`] on, or the marker alone when there are none yet.
pub fn with_notes(rendered: &str, previous: Option<&str>) -> String {
    let notes = previous
        .and_then(|text| text.find(NOTES_MARKER).map(|start| &text[start..]))
        .unwrap_or(NOTES_MARKER);
    format!("{}\n\n{}\n", rendered.trim_end(), notes.trim_end())
}

fn scale(factor: usize) -> String {
    if factor == 1 {
        "real".into()
    } else {
        format!("{factor}×")
    }
}

fn figure(value: f64) -> String {
    if value >= 100.0 {
        format!("{value:.0}")
    } else if value >= 10.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.2}")
    }
}
