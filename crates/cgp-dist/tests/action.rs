//! `action.yml`'s shell steps (action/install.sh, action/run.sh) run here as
//! a runner runs them: `GITHUB_ACTION_PATH`, `RUNNER_TEMP`, `GITHUB_PATH`
//! and `GITHUB_OUTPUT` set, the inputs in the variables action.yml maps
//! them to, and the packages from `cargo xtask dist`'s output (full tier).
//! The fast test checks that action.yml pins this crate's version and hands
//! every input to the scripts through the environment.

#[path = "../../cgp-cli/tests/support/http_provider.rs"]
mod http_provider;

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    cgp_test_support::repo()
}

#[test]
fn action_yml_pins_this_version_and_passes_inputs_by_environment() {
    let action = std::fs::read_to_string(root().join("action.yml")).expect("action.yml");
    let pinned = format!(
        "  version:\n    description: \"The cgp version to install (pinned to this action's release)\"\n    required: false\n    default: \"{}\"\n",
        env!("CARGO_PKG_VERSION")
    );
    assert!(action.contains(&pinned), "action.yml pins another version");
    assert!(action.contains("using: composite"));
    for step in ["install", "run"] {
        assert!(action.contains(&format!("run: '\"$GITHUB_ACTION_PATH/action/{step}.sh\"'")));
    }
    for (input, variable) in [
        ("version", "CGP_VERSION"),
        ("installer", "CGP_INSTALLER"),
        ("package-source", "CGP_PACKAGE_SOURCE"),
        ("mode", "CGP_MODE"),
        ("files", "CGP_FILES"),
        ("command", "CGP_COMMAND"),
        ("url", "CGP_URL"),
        ("bearer-env", "CGP_BEARER_ENV"),
        ("ca-cert", "CGP_CA_CERT"),
        ("args", "CGP_ARGS"),
    ] {
        assert!(
            action.contains(&format!("{variable}: ${{{{ inputs.{input} }}}}")),
            "{input}"
        );
    }
    // No input is pasted into a script.
    assert!(
        !action
            .lines()
            .any(|line| line.trim_start().starts_with("run:") && line.contains("inputs.")),
        "an input is interpolated into a run line"
    );
}

/// A runner's environment for one job.
struct Runner {
    scratch: PathBuf,
    output: PathBuf,
    path_file: PathBuf,
}

impl Runner {
    fn new(name: &str) -> Runner {
        let scratch = root().join("target/action-test").join(name);
        let _ = std::fs::remove_dir_all(&scratch);
        std::fs::create_dir_all(scratch.join("temp")).expect("RUNNER_TEMP");
        Runner {
            output: scratch.join("output"),
            path_file: scratch.join("path"),
            scratch,
        }
    }

    /// `PATH` as the runner builds it: GITHUB_PATH's entries first, then the
    /// inherited one less any directory with a Rust toolchain.
    fn path(&self, first: Option<&Path>) -> OsString {
        let added = std::fs::read_to_string(&self.path_file).unwrap_or_default();
        let inherited = std::env::var_os("PATH").unwrap_or_default();
        let kept = std::env::split_paths(&inherited)
            .filter(|dir| !dir.join("cargo").exists() && !dir.join("rustc").exists());
        let dirs: Vec<PathBuf> = first
            .map(Path::to_path_buf)
            .into_iter()
            .chain(added.lines().rev().map(PathBuf::from))
            .chain(kept)
            .collect();
        std::env::join_paths(dirs).expect("PATH")
    }

    fn step(&self, script: &str, inputs: &[(&str, &str)], first: Option<&Path>) -> Output {
        let _ = std::fs::remove_file(&self.output);
        let mut command = Command::new(root().join("action").join(script));
        command
            .current_dir(root().join("crates/cgp-cli/tests"))
            .env("GITHUB_ACTION_PATH", root())
            .env("GITHUB_ACTIONS", "true")
            .env("CI", "true")
            .env("RUNNER_TEMP", self.scratch.join("temp"))
            .env("GITHUB_OUTPUT", &self.output)
            .env("GITHUB_PATH", &self.path_file)
            .env("PATH", self.path(first));
        for variable in [
            "CGP_MODE",
            "CGP_FILES",
            "CGP_COMMAND",
            "CGP_URL",
            "CGP_ARGS",
        ] {
            command.env_remove(variable);
        }
        for (name, value) in inputs {
            command.env(name, value);
        }
        command.output().expect("the step runs")
    }

    fn outputs(&self) -> String {
        std::fs::read_to_string(&self.output).unwrap_or_default()
    }
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// A conforming provider over plain HTTP on 127.0.0.1, for `count` requests.
fn http_provider(count: usize) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}/cgp", listener.local_addr().expect("address"));
    std::thread::spawn(move || {
        for stream in listener.incoming().take(count) {
            let Ok(stream) = stream else { return };
            let _ = stream.set_read_timeout(Some(std::time::Duration::from_secs(5)));
            let mut reader = BufReader::new(&stream);
            let mut length = 0u64;
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|read| read > 0) {
                if line.trim().is_empty() {
                    break;
                }
                if let Some((name, value)) = line.split_once(':') {
                    if name.eq_ignore_ascii_case("content-length") {
                        length = value.trim().parse().unwrap_or(0);
                    }
                }
                line.clear();
            }
            let mut body = Vec::new();
            let _ = reader.take(length).read_to_end(&mut body);
            let answer = http_provider::reply(&body, false)
                .map(|reply| serde_json::to_string(&reply).expect("JSON"))
                .unwrap_or_default();
            let status = if answer.is_empty() {
                "204 No Content"
            } else {
                "200 OK"
            };
            let mut writer = &stream;
            let _ = write!(
                writer,
                "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
                answer.len()
            );
        }
    });
    url
}

#[test]
#[ignore = "full tier"]
fn the_action_installs_the_pinned_cgp_and_runs_each_mode() {
    cgp_dist::dist(&root()).expect("cargo xtask dist");
    let source = cgp_dist::dist_dir(&root());
    let source = source.to_str().expect("UTF-8 path");
    let version = env!("CARGO_PKG_VERSION");
    for installer in ["pip", "npm"] {
        let runner = Runner::new(installer);
        let install = runner.step(
            "install.sh",
            &[
                ("CGP_VERSION", version),
                ("CGP_INSTALLER", installer),
                ("CGP_PACKAGE_SOURCE", source),
            ],
            None,
        );
        assert!(install.status.success(), "{installer}: {}", text(&install));
        assert!(
            runner
                .outputs()
                .contains(&format!("cgp-version=cgp {version}\n")),
            "{}",
            runner.outputs()
        );

        let valid = runner.step(
            "run.sh",
            &[
                ("CGP_MODE", "validate"),
                ("CGP_FILES", "data/strict.ndjson"),
            ],
            None,
        );
        assert_eq!(valid.status.code(), Some(0), "{}", text(&valid));
        assert!(runner.outputs().contains("exit-code=0\n"));

        let invalid = runner.step(
            "run.sh",
            &[
                ("CGP_MODE", "validate"),
                ("CGP_FILES", "data/errors*.ndjson\ndata/strict.ndjson"),
                ("CGP_ARGS", "--semantic"),
            ],
            None,
        );
        assert_eq!(invalid.status.code(), Some(1), "{}", text(&invalid));
        assert!(runner.outputs().contains("exit-code=1\n"));
        let annotations = String::from_utf8_lossy(&invalid.stdout);
        assert!(
            annotations
                .lines()
                .any(|line| line.starts_with("::error file=data/errors.ndjson,line=")),
            "{annotations}"
        );

        let stdio = runner.step(
            "run.sh",
            &[
                ("CGP_MODE", "check"),
                ("CGP_COMMAND", "python3 providers/provider.py good"),
            ],
            None,
        );
        assert_eq!(stdio.status.code(), Some(0), "{}", text(&stdio));

        let url = http_provider(64);
        let http = runner.step("run.sh", &[("CGP_MODE", "check"), ("CGP_URL", &url)], None);
        assert_eq!(http.status.code(), Some(0), "{}", text(&http));
        assert!(runner.outputs().contains("exit-code=0\n"));

        let broken = runner.step(
            "run.sh",
            &[
                ("CGP_MODE", "check"),
                ("CGP_COMMAND", "python3 providers/provider.py bad-schema"),
            ],
            None,
        );
        assert_eq!(broken.status.code(), Some(1), "{}", text(&broken));
        assert!(String::from_utf8_lossy(&broken.stdout).contains("::error title=cgp check%3A"));

        for (inputs, needle) in [
            (
                vec![("CGP_MODE", "lint")],
                "mode must be validate, check or vectors",
            ),
            (
                vec![("CGP_MODE", "check")],
                "needs the url or the command input",
            ),
            (vec![("CGP_MODE", "validate")], "needs the files input"),
        ] {
            let refused = runner.step("run.sh", &inputs, None);
            assert_eq!(refused.status.code(), Some(2), "{inputs:?}");
            assert!(text(&refused).contains(needle), "{}", text(&refused));
        }
    }

    // vectors: the inputs go through to `cgp vectors run` as they are (a
    // recording cgp stands in, since vectors is another branch's command).
    let runner = Runner::new("vectors");
    let fake = runner.scratch.join("fake-bin");
    std::fs::create_dir_all(&fake).expect("fake bin");
    let argv = runner.scratch.join("argv");
    let script = format!(
        "#!/bin/sh\nfor argument in \"$@\"; do printf '%s\\n' \"$argument\"; done > '{}'\n",
        argv.display()
    );
    std::fs::write(fake.join("cgp"), script).expect("fake cgp");
    Command::new("chmod")
        .args(["+x"])
        .arg(fake.join("cgp"))
        .status()
        .expect("chmod");
    let vectors = runner.step(
        "run.sh",
        &[
            ("CGP_MODE", "vectors"),
            ("CGP_FILES", "vectors/"),
            ("CGP_URL", "https://provider.example/cgp"),
            ("CGP_BEARER_ENV", "TOKEN"),
            ("CGP_ARGS", "--profile strict"),
        ],
        Some(&fake),
    );
    assert_eq!(vectors.status.code(), Some(0), "{}", text(&vectors));
    assert_eq!(
        std::fs::read_to_string(&argv).expect("argv"),
        "vectors\nrun\n--format\ngithub\nvectors/\n--http\nhttps://provider.example/cgp\n--bearer-env\nTOKEN\n--profile\nstrict\n"
    );
}
