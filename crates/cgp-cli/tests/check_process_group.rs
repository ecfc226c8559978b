//! `cgp check` runs a stdio provider in a process group of its own and kills
//! the whole group: a provider started through a shell, or one that leaves a
//! grandchild behind, leaves no process running once `cgp check` returns.
#![cfg(unix)]

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const PROVIDER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/providers/provider.py");

fn scratch(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&path);
    path
}

fn cgp_check(env: &[String], script: &str) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cgp"));
    command.args(["check", "--json", "--timeout", "2"]);
    for pair in env {
        command.args(["--env", pair]);
    }
    command
        .args(["--", "bash", "-c", script])
        .output()
        .expect("cgp runs")
}

/// The pid a test process wrote to `path`, as a JSON state file or a bare number.
fn pid_in(path: &PathBuf) -> u32 {
    let text = std::fs::read_to_string(path).expect("the pid file was written");
    let value: serde_json::Value = serde_json::from_str(text.trim()).expect("a pid");
    value
        .get("pid")
        .unwrap_or(&value)
        .as_u64()
        .and_then(|pid| u32::try_from(pid).ok())
        .expect("a pid")
}

/// The process is gone, or is a zombie waiting for init: it no longer runs.
/// Killed processes take a moment to disappear, so this waits up to 5 seconds.
fn assert_gone(what: &str, pid: u32) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // The state is the field after the parenthesised command name.
        let state = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .unwrap_or("");
        if stat.is_empty() || state == "Z" || state == "X" {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{what} (pid {pid}) is still running after cgp check returned: {stat}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_provider_behind_a_shell_is_killed_with_the_shell_and_its_grandchild() {
    // The shell waits for the provider, which ignores shutdown, so cgp check
    // kills: the shell, the provider and the `sleep` the shell left behind.
    let state = scratch("group-shell.json");
    let pid_file = scratch("group-shell.pid");
    let output = cgp_check(
        &[format!("CGP_TEST_STATE={}", state.display())],
        &format!(
            "sleep 600 & echo $! > {}; python3 {PROVIDER} ignore-shutdown; true",
            pid_file.display()
        ),
    );
    assert_eq!(
        output.status.code(),
        Some(1),
        "ignoring shutdown is an error"
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert!(
        report["exit"]
            .as_str()
            .unwrap_or_default()
            .contains("killed by cgp check"),
        "{report}"
    );
    assert_gone("the provider started by the shell", pid_in(&state));
    assert_gone("the sleeping grandchild", pid_in(&pid_file));
}

#[test]
fn a_grandchild_left_by_a_provider_that_exits_is_killed() {
    // The provider itself behaves and exits after shutdown; the `sleep` it
    // leaves in its process group must not outlive `cgp check`.
    let pid_file = scratch("group-grandchild.pid");
    let output = cgp_check(
        &[],
        &format!(
            "sleep 600 & echo $! > {}; exec python3 {PROVIDER} good",
            pid_file.display()
        ),
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(output.status.code(), Some(0), "{report}");
    assert!(
        report["exit"]
            .as_str()
            .unwrap_or_default()
            .starts_with("exit status: 0"),
        "{report}"
    );
    assert_gone("the sleeping grandchild", pid_in(&pid_file));
}

#[test]
fn an_interrupted_check_kills_the_provider_group() {
    // The provider is not in the terminal's process group, so Ctrl-C reaches
    // only cgp check, which must take the provider and its grandchild along.
    for signal in ["INT", "TERM"] {
        let state = scratch(&format!("group-interrupt-{signal}.json"));
        let pid_file = scratch(&format!("group-interrupt-{signal}.pid"));
        let mut cgp = Command::new(env!("CARGO_BIN_EXE_cgp"))
            .args(["check", "--json", "--timeout", "60", "--env"])
            .arg(format!("CGP_TEST_STATE={}", state.display()))
            .args(["--", "bash", "-c"])
            .arg(format!(
                "sleep 600 & echo $! > {}; exec python3 {PROVIDER} hang",
                pid_file.display()
            ))
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("cgp runs");
        let deadline = Instant::now() + Duration::from_secs(20);
        while !(state.exists() && pid_file.exists()) {
            assert!(Instant::now() < deadline, "the provider did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        // The pid files are written before the handshake is answered, and
        // the hanging provider never answers a query: cgp check is waiting.
        // A second leaves room for a loaded machine (two test binaries and a
        // build sharing two cores) to get cgp check there.
        std::thread::sleep(Duration::from_millis(1000));
        let killed = Command::new("kill")
            .args([format!("-{signal}"), cgp.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(killed.success());
        let status = cgp.wait().expect("cgp ends");
        let expected = if signal == "INT" { 130 } else { 143 };
        assert_eq!(status.code(), Some(expected), "SIG{signal}");
        assert_gone("the provider", pid_in(&state));
        assert_gone("the sleeping grandchild", pid_in(&pid_file));
    }
}
