//! What a Go developer would otherwise use: go-jsonschema and quicktype,
//! pinned and installed under `target/peers`, run on both bundles; their
//! output compiled, and the SPEC.md corpus run through quicktype's (the one
//! that compiles), against the reference decoder. The assertions are the
//! limits README's Go section states.

use cgp_schema::Profile;
use spec_tests::examples;
use spec_tests::go::go_command;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The reference host's reading of a line, re-encoded.
fn reference(line: &str) -> Result<String, String> {
    use contextgraph_host::wire;
    wire::decode_line(line)
        .and_then(|envelope| wire::encode_line(&envelope))
        .map(|line| line.trim_end().to_owned())
        .map_err(|error| error.to_string())
}

/// The installed generators, installed once per test process (the two tests
/// run on threads of one process, which share a scratch directory name).
fn tools() -> PathBuf {
    static TOOLS: std::sync::OnceLock<Result<PathBuf, String>> = std::sync::OnceLock::new();
    TOOLS
        .get_or_init(spec_tests::peers::ensure_go_generators)
        .clone()
        .unwrap_or_else(|error| panic!("{error}"))
}

fn bundle_path(profile: Profile) -> PathBuf {
    let version = spec_tests::schema_set().version;
    cgp_test_support::repo().join(format!(
        "generated/schema/{}/{}.schema.json",
        version.slug(),
        match profile {
            Profile::Interop => "interop",
            Profile::Strict => "strict",
        }
    ))
}

/// A scratch module `target/go-generators/<name>` holding `files`.
fn scratch_module(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = cgp_test_support::repo()
        .join("target/go-generators")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch module");
    std::fs::write(dir.join("go.mod"), "module models\n\ngo 1.22\n").expect("go.mod");
    for (file, text) in files {
        std::fs::write(dir.join(file), text).expect("a module file");
    }
    dir
}

fn run(command: &mut Command) -> (bool, String) {
    let output = command.output().expect("the tool runs");
    (
        output.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ),
    )
}

fn go_build(dir: &Path) -> (bool, String) {
    run(go_command("go")
        .current_dir(dir)
        .args(["build", "-o", "decode", "."]))
}

#[test]
#[ignore = "full tier"]
fn go_jsonschema_has_no_envelope_type_and_its_output_does_not_compile() {
    let tools = tools();
    for profile in [Profile::Interop, Profile::Strict] {
        let out = cgp_test_support::repo()
            .join(format!("target/go-generators/go-jsonschema-{profile:?}.go"));
        std::fs::create_dir_all(out.parent().expect("a parent")).expect("target");
        let (ok, report) = run(Command::new(tools.join("bin/go-jsonschema"))
            .args(["-p", "main", "-o"])
            .arg(&out)
            .arg(bundle_path(profile)));
        assert!(
            ok,
            "go-jsonschema fails on the {profile:?} bundle:\n{report}"
        );
        let models = std::fs::read_to_string(&out).expect("its output");
        // The root `oneOf` (the envelope) is no type: a map of anything.
        assert!(
            models.contains("SchemaJson map[string]interface{}"),
            "{profile:?}: the envelope became a type after all"
        );
        // Open vocabularies are `interface{}`, not strings.
        assert!(models.contains("type FrameKind interface{}"), "{profile:?}");
        let main = "package main\n\nfunc main() {}\n";
        let dir = scratch_module(
            &format!("go-jsonschema-{profile:?}"),
            &[("models.go", &models), ("main.go", main)],
        );
        let (ok, report) = go_build(&dir);
        assert!(
            !ok && report.contains("./models.go:"),
            "{profile:?}: go-jsonschema's output compiles now:\n{report}"
        );
    }
}

/// Decodes each line of a JSON array on stdin with quicktype's
/// `UnmarshalEnvelope` (encoding/json) and re-encodes it with `Marshal`.
const QUICKTYPE_MAIN: &str = r#"package main

import (
	"encoding/json"
	"os"
)

type outcome struct {
	Ok  *string `json:"ok,omitempty"`
	Err *string `json:"err,omitempty"`
}

func main() {
	var lines []string
	if err := json.NewDecoder(os.Stdin).Decode(&lines); err != nil {
		panic(err)
	}
	outcomes := make([]outcome, 0, len(lines))
	for _, line := range lines {
		envelope, err := UnmarshalEnvelope([]byte(line))
		if err == nil {
			var encoded []byte
			if encoded, err = envelope.Marshal(); err == nil {
				text := string(encoded)
				outcomes = append(outcomes, outcome{Ok: &text})
				continue
			}
		}
		text := err.Error()
		outcomes = append(outcomes, outcome{Err: &text})
	}
	if err := json.NewEncoder(os.Stdout).Encode(outcomes); err != nil {
		panic(err)
	}
}
"#;

/// Lines on which encoding/json through quicktype's types is known to part
/// from the reference: (line, what README says goes wrong).
const PROBES: &[(&str, &str)] = &[
    (r#"{"type":"handshake"}"#, "accepts: every member optional"),
    (
        r#"{"type":"handshake","protocol_version":"a","Protocol_Version":"b"}"#,
        "member names matched case-insensitively",
    ),
    (
        r#"{"type":"handshake","protocol_version":"a","protocol_version":"b"}"#,
        "accepts: the last duplicate wins",
    ),
    (
        r#"{"type":"query","query":{"goal":"g","max_frames":1,"max_tokens":2,"embedding":[0.123456789]}}"#,
        "f32 held as float64",
    ),
];

#[test]
#[ignore = "full tier"]
fn quicktype_merges_the_variants_and_encoding_json_parts_from_the_reference() {
    let tools = tools();
    let mut lines: Vec<String> = examples()
        .iter()
        .filter(|example| example.target == "Envelope")
        .map(|example| example.as_line())
        .collect();
    lines.extend(PROBES.iter().map(|(line, _)| (*line).to_owned()));
    for profile in [Profile::Interop, Profile::Strict] {
        let out =
            cgp_test_support::repo().join(format!("target/go-generators/quicktype-{profile:?}.go"));
        std::fs::create_dir_all(out.parent().expect("a parent")).expect("target");
        let (ok, report) = run(Command::new(tools.join("node/node_modules/.bin/quicktype"))
            .args(["--lang", "go", "--src-lang", "schema", "--package", "main"])
            .args(["--top-level", "Envelope", "-o"])
            .arg(&out)
            .arg(bundle_path(profile)));
        assert!(ok, "quicktype fails on the {profile:?} bundle:\n{report}");
        let models = std::fs::read_to_string(&out).expect("its output");
        // One struct for all the variants, the tag and every member in it.
        assert!(models.contains("type Envelope struct {"), "{profile:?}");
        assert!(
            models.contains("`json:\"protocol_version,omitempty\"`"),
            "{profile:?}"
        );
        let dir = scratch_module(
            &format!("quicktype-{profile:?}"),
            &[("models.go", &models), ("main.go", QUICKTYPE_MAIN)],
        );
        let (ok, report) = go_build(&dir);
        assert!(
            ok,
            "{profile:?}: quicktype's output does not compile:\n{report}"
        );
        let input = serde_json::to_vec(&lines).expect("lines");
        let output = {
            use std::io::Write;
            let mut child = Command::new(dir.join("decode"))
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .expect("run the decoder");
            child
                .stdin
                .take()
                .expect("stdin")
                .write_all(&input)
                .expect("write lines");
            child.wait_with_output().expect("its answer")
        };
        let outcomes: Vec<serde_json::Value> =
            serde_json::from_slice(&output.stdout).expect("a JSON answer");
        assert_eq!(outcomes.len(), lines.len());
        let (mut same, mut verdict, mut bytes) = (0, 0, 0);
        let mut probes = Vec::new();
        for (line, outcome) in lines.iter().zip(&outcomes) {
            let reference = reference(line);
            let theirs = outcome.get("ok").and_then(|ok| ok.as_str());
            let parted = match (&reference, theirs) {
                (Ok(a), Some(b)) if a == b => {
                    same += 1;
                    false
                }
                (Err(_), None) => {
                    same += 1;
                    false
                }
                (Ok(_), Some(_)) => {
                    bytes += 1;
                    true
                }
                _ => {
                    verdict += 1;
                    true
                }
            };
            if let Some((_, why)) = PROBES.iter().find(|(probe, _)| probe == line) {
                probes.push((*why, parted));
            }
        }
        for (why, parted) in &probes {
            assert!(
                parted,
                "{profile:?}: quicktype agrees with the reference where {why}"
            );
        }
        assert!(
            bytes > 0 && same > 0,
            "{profile:?}: {same} lines agree, {verdict} verdicts and {bytes} re-encodings differ"
        );
        eprintln!(
            "quicktype, {profile:?} bundle: {same} of {} lines agree with the reference; {verdict} verdicts and {bytes} re-encodings differ",
            lines.len()
        );
    }
}
