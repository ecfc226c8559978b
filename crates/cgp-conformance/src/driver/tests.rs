//! The driver against scripted peers: what it reports does not depend on
//! timing it cannot control.

use super::*;
use std::collections::VecDeque;
use std::io;

/// A provider that answers the handshake and then exits: every later write
/// fails with a broken pipe, as it does once the process is gone, and its
/// closed output shows only after that (the write notices first).
struct ExitsAfterHandshake {
    replies: VecDeque<Vec<u8>>,
    exited: bool,
    write_failed: bool,
}

impl Peer for ExitsAfterHandshake {
    fn send(&mut self, _line: &[u8]) -> io::Result<()> {
        if self.exited {
            self.write_failed = true;
            return Err(io::Error::from(io::ErrorKind::BrokenPipe));
        }
        let ack = cgp_types::Envelope::HandshakeAck {
            protocol_version: cgp_types::PROTOCOL_VERSION.to_owned(),
            provider: cgp_types::ProviderInfo {
                name: "scripted".into(),
                version: "0".into(),
                data_flow: cgp_types::DataFlow::default(),
            },
            capabilities: cgp_types::Capabilities::default(),
            attester_keys: Vec::new(),
        };
        let line = cgp_types::encode_line(&ack).expect("encodes");
        self.replies.push_back(line.trim_end().as_bytes().to_vec());
        self.exited = true;
        Ok(())
    }

    fn receive(&mut self, _timeout: Duration) -> Received {
        match self.replies.pop_front() {
            Some(bytes) => Received::Line {
                bytes,
                terminated: true,
            },
            None if self.write_failed => Received::Closed,
            None => Received::Timeout,
        }
    }

    fn wait_exit(&mut self, _timeout: Duration) -> Option<String> {
        Some("exit status: 0".into())
    }

    fn kill(&mut self) -> String {
        "exit status: 0".into()
    }
}

fn validator(profile: cgp_schema::Profile) -> Validator {
    let version: cgp_schema::ProtocolVersion =
        cgp_types::PROTOCOL_VERSION.parse().expect("a version");
    let path = cgp_test_support::repo().join(format!(
        "generated/schema/{}/{profile}.schema.json",
        version.slug()
    ));
    let text = std::fs::read_to_string(&path).expect("the published bundle");
    let bundle = cgp_schema::Bundle::from_published(&text).expect("a bundle");
    Validator::new(&bundle).expect("compiles")
}

/// A write to a provider that has exited fails before its closed output is
/// read: the report is the closed output, under the rule of the request it
/// left unanswered, exactly as when the read notices first (found as a flaky
/// `exit-early` test under load).
#[test]
fn a_write_to_a_provider_that_exited_reports_its_closed_output() {
    let mut peer = ExitsAfterHandshake {
        replies: VecDeque::new(),
        exited: false,
        write_failed: false,
    };
    let interop = validator(cgp_schema::Profile::Interop);
    let strict = validator(cgp_schema::Profile::Strict);
    let report = run(
        &mut peer,
        &interop,
        &strict,
        Options::new(Duration::from_secs(1)),
    );
    let problems: Vec<&Problem> = report
        .steps
        .iter()
        .flat_map(|step| &step.problems)
        .collect();
    assert!(
        problems
            .iter()
            .all(|problem| !problem.message.contains("cannot write")),
        "{problems:#?}"
    );
    let closed = problems
        .iter()
        .find(|problem| problem.message.contains("closed its output"))
        .unwrap_or_else(|| panic!("no closed output: {problems:#?}"));
    assert!(
        closed.rule.is_some() && closed.message.contains("instead of answering"),
        "{closed:#?}"
    );
}
