use super::*;
use cgp_types::{ContextQuery, Envelope, decode_line};
use std::time::Duration;

fn options(behaviours: &[Behaviour]) -> Options {
    Options {
        version: cgp_types::PROTOCOL_VERSION.to_owned(),
        seed: 7,
        behaviours: behaviours.to_vec(),
        without: Without::default(),
        delay: Duration::from_millis(1),
    }
}

fn ask(mock: &mut Mock, envelope: &Envelope) -> Vec<Envelope> {
    let line = cgp_types::encode_line(envelope).expect("encodes");
    mock.answer(line.as_bytes())
        .lines
        .iter()
        .map(|line| decode_line(std::str::from_utf8(line).expect("utf-8")).expect("decodes"))
        .collect()
}

fn query(id: Option<&str>, max_frames: u32, max_tokens: u32) -> Envelope {
    Envelope::Query {
        id: id.map(str::to_owned),
        // From the wire, not a struct literal: a member a later version adds
        // (the rehearsal adds some) leaves this test as it is.
        query: serde_json::from_value::<ContextQuery>(serde_json::json!({
            "goal": "anything",
            "max_frames": max_frames,
            "max_tokens": max_tokens,
        }))
        .expect("a query"),
    }
}

fn frames(reply: &[Envelope]) -> (Option<String>, Vec<cgp_types::ContextFrame>, bool) {
    match reply {
        [Envelope::Frames { id, result }] => (id.clone(), result.frames.clone(), result.truncated),
        other => panic!("not one frames reply: {other:?}"),
    }
}

#[test]
fn the_corpus_gives_frames_and_the_ack_declares_every_capability() {
    let mut mock = Mock::new(options(&[]));
    assert!(mock.frames().len() >= 3, "{:?}", mock.frames());
    let reply = ask(&mut mock, &Envelope::handshake());
    let [
        Envelope::HandshakeAck {
            capabilities,
            protocol_version,
            ..
        },
    ] = reply.as_slice()
    else {
        panic!("{reply:?}");
    };
    assert_eq!(protocol_version, cgp_types::PROTOCOL_VERSION);
    assert!(capabilities.correlation && capabilities.verify && capabilities.graph);
    assert!(capabilities.embeddings_fingerprint.is_some());
    assert!(!capabilities.query.kinds.is_empty());
}

#[test]
fn replies_keep_the_budget_echo_the_id_and_say_what_was_dropped() {
    let mut mock = Mock::new(options(&[]));
    let (id, served, truncated) = frames(&ask(&mut mock, &query(Some("q1"), 1, 1_000_000)));
    assert_eq!(id.as_deref(), Some("q1"));
    assert_eq!(served.len(), 1);
    assert!(truncated);
    let (_, none, _) = frames(&ask(&mut mock, &query(Some("q2"), 10, 0)));
    assert!(none.iter().all(|frame| frame.token_cost == 0), "{none:?}");
}

#[test]
fn the_same_seed_gives_the_same_bytes_and_another_seed_another_order() {
    let run = |seed: u64| {
        let mut mock = Mock::new(Options {
            seed,
            ..options(&[])
        });
        let line = cgp_types::encode_line(&query(Some("q"), 100, 1_000_000)).expect("encodes");
        mock.answer(line.as_bytes()).lines
    };
    assert_eq!(run(1), run(1));
    let orders: std::collections::BTreeSet<_> = (0..8).map(run).collect();
    assert!(orders.len() > 1, "the seed changes nothing");
}

#[test]
fn verify_is_valid_for_what_it_served_and_unknown_for_the_rest() {
    let mut mock = Mock::new(options(&[]));
    let (_, served, _) = frames(&ask(&mut mock, &query(None, 1, 1_000_000)));
    let frame = &served[0];
    let ask_about = |frame_id: &str, digest: Option<String>| Envelope::Verify {
        request: cgp_types::VerifyRequest {
            frames: vec![cgp_types::FrameId {
                provider_id: PROVIDER_NAME.into(),
                frame_id: frame_id.into(),
                content_digest: digest,
            }],
        },
    };
    let status = |reply: Vec<Envelope>| match reply.as_slice() {
        [Envelope::Verified { response }] => response.verdicts[0].verdict.status(),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        status(ask(
            &mut mock,
            &ask_about(&frame.id, frame.content_digest.clone())
        )),
        "valid"
    );
    assert_eq!(
        status(ask(&mut mock, &ask_about("never-served", None))),
        "unknown"
    );
    let mut stale = Mock::new(options(&[Behaviour::StaleVerify]));
    assert_eq!(status(ask(&mut stale, &ask_about("x", None))), "stale");
}

#[test]
fn garbage_gets_a_coded_error_shutdown_ends_and_unknown_types_are_ignored() {
    let mut mock = Mock::new(options(&[]));
    let answer = mock.answer(b"not json");
    let reply =
        decode_line(std::str::from_utf8(&answer.lines[0]).expect("utf-8")).expect("decodes");
    assert!(matches!(
        reply,
        Envelope::Error {
            code: Some(cgp_types::ErrorCode::BadRequest),
            ..
        }
    ));
    assert!(mock.answer(br#"{"type":"subscribe"}"#).lines.is_empty());
    assert_eq!(mock.answer(br#"{"type":"shutdown"}"#).end, End::Shutdown);
}

#[test]
fn each_fault_does_what_it_says() {
    let over = frames(&ask(
        &mut Mock::new(options(&[Behaviour::OverBudget])),
        &query(None, 1, 1),
    ))
    .1;
    assert!(over.len() > 1);
    let wrong = frames(&ask(
        &mut Mock::new(options(&[Behaviour::WrongId])),
        &query(Some("q1"), 1, 100),
    ))
    .0;
    assert_ne!(wrong.as_deref(), Some("q1"));
    let line = cgp_types::encode_line(&query(Some("q1"), 1, 100)).expect("encodes");
    let crash = Mock::new(options(&[Behaviour::Crash])).answer(line.as_bytes());
    assert!(matches!(crash.end, End::Crash(ref partial) if !partial.is_empty()));
    let huge = Mock::new(options(&[Behaviour::HugeLine])).answer(line.as_bytes());
    assert!(huge.lines[0].len() > cgp_types::MAX_LINE_BYTES);
    let garbage = Mock::new(options(&[Behaviour::GarbageLine])).answer(line.as_bytes());
    assert_eq!(garbage.lines.len(), 2);
    let slow = Mock::new(options(&[Behaviour::SlowReply])).answer(line.as_bytes());
    assert_eq!(slow.delay, Duration::from_millis(1));
    let ack = ask(
        &mut Mock::new(options(&[Behaviour::OtherMajor])),
        &Envelope::handshake(),
    );
    let [
        Envelope::HandshakeAck {
            protocol_version, ..
        },
    ] = ack.as_slice()
    else {
        panic!()
    };
    assert!(!cgp_types::versions_compatible(
        protocol_version,
        cgp_types::PROTOCOL_VERSION
    ));
    let unknown = Mock::new(options(&[Behaviour::UnknownVocabulary]));
    assert!(
        unknown
            .frames()
            .iter()
            .any(|frame| frame.kind.as_str() == UNKNOWN_KIND)
    );
    assert_eq!(Behaviour::ALL.iter().filter(|b| b.is_allowed()).count(), 2);
    for behaviour in Behaviour::ALL {
        assert_eq!(Behaviour::from_name(behaviour.name()), Some(behaviour));
    }
}

#[test]
fn withheld_capabilities_are_not_declared_nor_used() {
    let mut without = Without::default();
    for name in Without::NAMES {
        assert!(without.add(name));
    }
    assert!(!without.add("attestation"));
    let mut mock = Mock::new(Options {
        without,
        ..options(&[])
    });
    let reply = ask(&mut mock, &Envelope::handshake());
    let [Envelope::HandshakeAck { capabilities, .. }] = reply.as_slice() else {
        panic!()
    };
    assert!(!capabilities.correlation && !capabilities.verify && !capabilities.graph);
    assert!(capabilities.embeddings_fingerprint.is_none());
    let (id, served, _) = frames(&ask(&mut mock, &query(Some("q1"), 100, 1_000_000)));
    assert_eq!(id, None);
    assert!(
        served
            .iter()
            .all(|frame| frame.relations.is_empty() && frame.embedding.is_none())
    );
}

#[test]
fn stdio_serving_ends_on_shutdown_and_crashes_mid_line() {
    let mut mock = Mock::new(options(&[]));
    let input = format!(
        "{}\n{}\n{{\"type\":\"shutdown\"}}\nnever read\n",
        cgp_types::encode_line(&Envelope::handshake())
            .expect("encodes")
            .trim_end(),
        cgp_types::encode_line(&query(Some("q1"), 2, 1000))
            .expect("encodes")
            .trim_end(),
    );
    let mut output = Vec::new();
    let ending = serve::serve_stdio(&mut mock, input.as_bytes(), &mut output).expect("serves");
    assert_eq!(ending, serve::Ending::Shutdown);
    assert_eq!(
        output.iter().filter(|byte| **byte == b'\n').count(),
        2,
        "{}",
        String::from_utf8_lossy(&output)
    );
    let mut crash = Mock::new(options(&[Behaviour::Crash]));
    let mut output = Vec::new();
    let ending = serve::serve_stdio(&mut crash, input.as_bytes(), &mut output).expect("serves");
    assert_eq!(ending, serve::Ending::Crashed);
    assert_ne!(output.last(), Some(&b'\n'));
    assert_eq!(serve::listen_address("8080"), "127.0.0.1:8080");
    assert_eq!(serve::listen_address("0.0.0.0:1"), "0.0.0.0:1");
}
