//! The driver against scripted peers: what it reports does not depend on
//! timing it cannot control.

use super::*;
use std::collections::VecDeque;
use std::io;

/// A provider that answers the handshake and then exits: every later write
/// fails with a broken pipe, as it does once the process is gone. Its closed
/// output shows at once (`closed_shows_at_once`: the read notices first) or
/// only after a write failed (the write notices first).
struct ExitsAfterHandshake {
    replies: VecDeque<Vec<u8>>,
    exited: bool,
    write_failed: bool,
    closed_shows_at_once: bool,
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
            None if self.write_failed || (self.exited && self.closed_shows_at_once) => {
                Received::Closed
            }
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

/// The problems of a run against a provider that exits after the handshake.
fn problems_when_exiting_after_handshake(closed_shows_at_once: bool) -> Vec<Problem> {
    let mut peer = ExitsAfterHandshake {
        replies: VecDeque::new(),
        exited: false,
        write_failed: false,
        closed_shows_at_once,
    };
    let interop = validator(cgp_schema::Profile::Interop);
    let strict = validator(cgp_schema::Profile::Strict);
    let report = run(
        &mut peer,
        &interop,
        &strict,
        Options::new(Duration::from_secs(1)),
    );
    report
        .steps
        .into_iter()
        .flat_map(|step| step.problems)
        .collect()
}

/// A provider that exits after the handshake is reported the same way
/// whichever notices first, a write to it or a read of its closed output: the
/// closed output, under the rule of the first request it left unanswered
/// (found as flaky `exit-early` tests under load).
#[test]
fn a_provider_that_exited_is_reported_alike_whichever_notices_first() {
    let write_first = problems_when_exiting_after_handshake(false);
    let read_first = problems_when_exiting_after_handshake(true);
    for problems in [&write_first, &read_first] {
        assert!(
            problems
                .iter()
                .all(|problem| !problem.message.contains("cannot write")),
            "{problems:#?}"
        );
        let first = problems.first().expect("a problem");
        assert!(
            first.rule.is_some()
                && first
                    .message
                    .contains("closed its output instead of answering"),
            "{problems:#?}"
        );
    }
    let rules = |problems: &[Problem]| -> Vec<Option<Rule>> {
        problems.iter().map(|problem| problem.rule).collect()
    };
    assert_eq!(rules(&write_first), rules(&read_first));
}
