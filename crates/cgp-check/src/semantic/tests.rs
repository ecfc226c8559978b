//! Unit tests of the semantic rules.

use super::*;
use cgp_types::{Envelope, PROTOCOL_VERSION};

#[test]
fn digest_grammar() {
    let good = format!("sha256:{}", "0123456789abcdef".repeat(4));
    assert!(cgp_schema::digest::is_well_formed(&good));
    assert!(!cgp_schema::digest::is_well_formed(&good.to_uppercase()));
    assert!(!cgp_schema::digest::is_well_formed("sha256:abc"));
    assert!(!cgp_schema::digest::is_well_formed(
        &good.replace("sha256", "sha512")
    ));
    assert!(!cgp_schema::digest::is_well_formed(&format!("{good}0")));
    assert!(!cgp_schema::digest::is_well_formed(""));
}

#[test]
fn timestamp_profile_follows_spec_examples() {
    for good in [
        "2026-03-01T12:00:00Z",
        "2026-03-01T12:00:00.250Z",
        "2024-02-29T00:00:00Z",
        "2016-12-31T23:59:60Z",
        "0000-01-01T00:00:00Z",
        "2000-02-29T00:00:00Z",
    ] {
        assert!(is_protocol_timestamp(good), "{good}");
    }
    for bad in [
        "2026-03-01T12:00:00+00:00",
        "2026-03-01 12:00:00Z",
        "2026-03-01t12:00:00z",
        "2026-03-01T12:00:00.Z",
        "2026-02-29T00:00:00Z",
        "1900-02-29T00:00:00Z",
        "2026-03-01",
        "last tuesday",
        "2026-13-01T00:00:00Z",
        "2026-04-31T00:00:00Z",
        "2026-03-01T24:00:00Z",
        "2026-03-01T12:60:00Z",
        "2026-03-01T12:00:61Z",
        "2026-03-01T12:00:00ZZ",
        "2026-03-01T12:00:00",
        "２026-03-01T12:00:00Z",
        "",
    ] {
        assert!(!is_protocol_timestamp(bad), "{bad}");
    }
}

#[test]
fn budget_tokens_examples() {
    assert_eq!(budget_tokens(Some("")), 0);
    assert_eq!(budget_tokens(Some("abcd")), 1);
    assert_eq!(budget_tokens(Some("abcde")), 2);
    assert_eq!(budget_tokens(Some("é")), 1);
    assert_eq!(budget_tokens(None), 0);
}

fn line(text: &str) -> Envelope {
    cgp_types::decode_line(text).expect("decodes")
}

fn rules(found: &[SemanticViolation]) -> Vec<(&'static str, &str)> {
    found
        .iter()
        .map(|v| (v.rule.as_str(), v.instance_path.as_str()))
        .collect()
}

#[test]
fn session_checks_budget_and_id_echo() {
    let mut session = Session::new();
    let ack = line(
        r#"{"type":"handshake_ack","protocol_version":"demo/1.0","provider":{"name":"p","version":"1","data_flow":{}},"capabilities":{"correlation":true}}"#,
    );
    assert!(session.observe(&ack, "line 2").is_empty());
    let query =
        line(r#"{"type":"query","id":"q1","query":{"goal":"g","max_frames":1,"max_tokens":1}}"#);
    assert!(session.observe(&query, "line 3").is_empty());
    let frames = line(
        r#"{"type":"frames","id":"q2","result":{"frames":[{"id":"a","kind":"doc","title":"t","content":"abcdefgh","score":0.5,"token_cost":2},{"id":"b","kind":"doc","title":"t","score":0.5,"token_cost":0}],"truncated":false}}"#,
    );
    let found = session.observe(&frames, "line 4");
    assert_eq!(
        rules(&found),
        vec![
            ("H4", "/id"),
            ("B1", "/result/frames"),
            ("B4", "/result/frames")
        ]
    );
    assert!(found[0].message.contains("\"q1\""), "{}", found[0].message);
    // The query was answered (badly); a second reply is unsolicited.
    let again = session.observe(&frames, "line 5");
    assert_eq!(rules(&again), vec![("H4", "/id")]);
}

/// Unanswered queries with megabyte ids: the session keeps at most
/// MAX_PENDING_ID_BYTES of them, forgetting the oldest.
#[test]
fn long_ids_of_unanswered_queries_are_bounded() {
    let mut session = Session::new();
    let id = "x".repeat(MAX_PENDING_ID_BYTES / 4 + 1);
    for index in 0..10 {
        let query = line(&format!(
            r#"{{"type":"query","id":"{index}{id}","query":{{"goal":"g","max_frames":1,"max_tokens":1}}}}"#
        ));
        session.observe(&query, &format!("line {index}"));
        assert!(session.pending_id_bytes <= MAX_PENDING_ID_BYTES);
    }
    assert_eq!(session.pending.len(), 3);
    let kept: usize = session
        .pending
        .iter()
        .filter_map(|p| p.id.as_ref())
        .map(String::len)
        .sum();
    assert_eq!(kept, session.pending_id_bytes);
    // The newest is still answered by its id.
    let frames = line(&format!(
        r#"{{"type":"frames","id":"9{id}","result":{{"frames":[],"truncated":false}}}}"#
    ));
    assert!(session.observe(&frames, "line 10").is_empty());
    assert_eq!(session.pending.len(), 2);
}

#[test]
fn ids_on_queries_need_correlation() {
    let mut session = Session::new();
    let ack = line(
        r#"{"type":"handshake_ack","protocol_version":"demo/1.0","provider":{"name":"p","version":"1","data_flow":{}},"capabilities":{}}"#,
    );
    session.observe(&ack, "line 1");
    let query =
        line(r#"{"type":"query","id":"q1","query":{"goal":"g","max_frames":1,"max_tokens":1}}"#);
    assert_eq!(
        rules(&session.observe(&query, "line 2")),
        vec![("H4", "/id")]
    );
    // A lock-step error without an id answers the oldest query.
    let error = line(r#"{"type":"error","message":"no"}"#);
    assert!(session.observe(&error, "line 3").is_empty());
    assert!(session.pending.is_empty());
}

/// The SPEC.md corpus: an example whose reason says it breaks a rule is
/// flagged with exactly that rule; every other valid example is clean.
#[test]
fn the_corpus_rule_examples() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../SPEC.md");
    let markdown = std::fs::read_to_string(path).expect("SPEC.md");
    let examples = cgp_gates::corpus::extract("SPEC.md", &markdown).expect("corpus");
    let mut breaking = 0;
    for example in examples
        .iter()
        .filter(|e| e.expect == cgp_gates::corpus::Expect::Valid)
    {
        let reason = example.reason.as_deref().unwrap_or_default();
        let context = Context {
            graph: reason.contains("graph provider"),
            ..Context::default()
        };
        let json = example.json.as_str();
        fn de<T: serde::de::DeserializeOwned>(json: &str) -> T {
            serde_json::from_str(json).expect("decodes")
        }
        let found = match example.target.as_str() {
            "Envelope" => check_envelope(&de(json), &context),
            "ContextFrame" => check_frame(&de(json), "", &context),
            "ContextQueryResult" => check_result(&de(json), "", &context),
            "Provenance" => check_provenance(&de(json), ""),
            "Capabilities" => check_capabilities(&de(json), ""),
            "DataFlow" => check_data_flow(&de(json), ""),
            "Relation" => check_relation(&de(json), "", &context),
            "InclusionProof" => check_inclusion_proof(&de(json), ""),
            _ => continue,
        };
        let expected = reason
            .strip_prefix("breaks ")
            .or_else(|| reason.strip_prefix("fails verification under "))
            .and_then(|rest| rest.split([':', ' ']).next());
        let ids: Vec<&str> = found.iter().map(|v| v.rule.as_str()).collect();
        match expected {
            Some(rule) => {
                breaking += 1;
                assert!(
                    !ids.is_empty() && ids.iter().all(|id| *id == rule),
                    "{}: expected only {rule}, got {found:?}",
                    example.name
                );
            }
            None => assert!(found.is_empty(), "{}: {found:?}", example.name),
        }
    }
    assert_eq!(breaking, 17, "the corpus has 17 rule-breaking examples");
}

/// Every rule has its anchor in SPEC.md, and its paragraph says MUST when
/// the rule is a MUST and SHOULD (and no MUST) when it is a SHOULD.
#[test]
fn every_rule_is_written_in_the_spec_with_its_strength() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../SPEC.md");
    let markdown = std::fs::read_to_string(path).expect("SPEC.md");
    for rule in Rule::ALL {
        let anchor = format!("<a id=\"rule-{}\"></a>", rule.as_str().to_ascii_lowercase());
        let start = markdown
            .find(&anchor)
            .unwrap_or_else(|| panic!("{rule}: no {anchor}"));
        let rest = &markdown[start + anchor.len()..];
        // The rule's text runs to the next rule's anchor after some text of
        // its own (P1–P3 share one paragraph), or to the next heading.
        let own = rest.trim_start_matches(|c: char| c.is_whitespace());
        let own = own
            .strip_prefix("<a id=")
            .map_or(own, |_| &own[own.find("**").unwrap_or(0)..]);
        let end = ["\n<a id=\"rule-", "\n### ", "\n## "]
            .iter()
            .filter_map(|marker| own.find(marker))
            .min()
            .unwrap_or(own.len());
        let text = &own[..end];
        // A protocol rule may hold clauses of both levels (R1, E1); each
        // level a rule is checked at must be written in its paragraph.
        assert!(text.contains(rule.requirement().as_str()), "{rule}: {text}");
        // The rule is a row of the table of rule ids, at its level.
        let row = format!(
            "| [{rule}](#rule-{}) | {} |",
            rule.as_str().to_ascii_lowercase(),
            rule.requirement().as_str()
        );
        assert!(markdown.contains(&row), "{rule}: no row {row}");
        assert_eq!(rule.is_upstream(), !rule.as_str().starts_with("CGP-"));
    }
}

#[test]
fn instants_compare_with_their_fractions() {
    assert_eq!(
        is_later("2026-09-01T00:00:00Z", "2026-07-01T00:00:00Z"),
        Some(true)
    );
    assert_eq!(
        is_later("2026-07-01T00:00:00Z", "2026-07-01T00:00:00Z"),
        Some(false)
    );
    assert_eq!(
        is_later("2026-07-01T00:00:00.5Z", "2026-07-01T00:00:00Z"),
        Some(true)
    );
    assert_eq!(
        is_later("2026-07-01T00:00:00.5Z", "2026-07-01T00:00:00.25Z"),
        Some(true)
    );
    assert_eq!(
        is_later("2026-07-01T00:00:00.500Z", "2026-07-01T00:00:00.5Z"),
        Some(false)
    );
    assert_eq!(
        is_later("2026-07-01T00:00:00Z", "2026-07-01T00:00:00.000Z"),
        Some(false)
    );
    assert_eq!(is_later("last tuesday", "2026-07-01T00:00:00Z"), None);
    assert_eq!(fingerprint_dimension("bge-small-en-v1.5/384/l2"), Some(384));
    assert_eq!(fingerprint_dimension("model/4"), Some(4));
    assert_eq!(fingerprint_dimension("model"), None);
    assert_eq!(fingerprint_dimension("model/+4/l2"), None);
}

/// Q1, Q2, G4 and E1 judge a `frames` reply against the query it answers.
#[test]
fn session_checks_kinds_as_of_anchors_and_embedding() {
    let mut session = Session::new();
    let ack = line(&format!(
        r#"{{"type":"handshake_ack","protocol_version":"{PROTOCOL_VERSION}","provider":{{"name":"p","version":"1","data_flow":{{}}}},"capabilities":{{"graph":true,"embeddings_fingerprint":"m/3/l2"}}}}"#
    ));
    assert!(session.observe(&ack, "line 1").is_empty());
    let frame = |id: &str, kind: &str, valid_from: &str, uri: &str| {
        format!(
            r#"{{"id":"{id}","kind":"{kind}","title":"t","content":"abcd","score":0.5,"token_cost":1,"valid_from":"{valid_from}","uri":"{uri}"}}"#
        )
    };
    let query = line(
        r#"{"type":"query","query":{"goal":"g","kinds":["doc"],"anchors":["file:///a"],"as_of":"2026-07-01T00:00:00Z","embedding":[0.5],"max_frames":5,"max_tokens":50}}"#,
    );
    // A 1-dimensional embedding to a provider of 3 breaks the host's E1.
    let sent = session.observe(&query, "line 2");
    assert_eq!(rules(&sent), vec![("E1", "/query/embedding")]);
    assert_eq!(sent[0].rule, Rule::E1Host);
    let frames = line(&format!(
        r#"{{"type":"frames","result":{{"frames":[{},{}],"truncated":false}}}}"#,
        frame("x", "snippet", "2026-09-01T00:00:00Z", "file:///b"),
        frame("y", "doc", "2026-01-01T00:00:00Z", "file:///a"),
    ));
    assert_eq!(
        rules(&session.observe(&frames, "line 3")),
        vec![
            ("Q1", "/result/frames/0/kind"),
            ("CGP-AS-OF", "/result/frames/0/valid_from"),
            ("G3", "/result/frames/1"),
            ("E1", "/result"),
        ]
    );
    // The same answer to an unrestricted query breaks nothing.
    let open = line(r#"{"type":"query","query":{"goal":"g","max_frames":5,"max_tokens":50}}"#);
    session.observe(&open, "line 4");
    assert!(session.observe(&frames, "line 5").is_empty());
    assert_eq!(Rule::G3.requirement(), Requirement::Should);
    assert_eq!(Rule::AsOf.requirement(), Requirement::Should);
    assert_eq!(Rule::Q1.requirement(), Requirement::Must);
}

#[test]
fn version_family_is_h1() {
    let ack = line(
        r#"{"type":"handshake_ack","protocol_version":"demo/10.0","provider":{"name":"p","version":"1","data_flow":{"egress_scopes":["acme"]}},"capabilities":{"representations":["compact"]}}"#,
    );
    // A host speaking the acknowledged family has no H1 to report.
    let demo_host = Context {
        host_version: Some("demo/10.3".into()),
        ..Context::default()
    };
    assert!(!rules(&check_envelope(&ack, &demo_host)).contains(&("H1", "/protocol_version")));
    let found = check_envelope(&ack, &Context::default());
    assert_eq!(
        rules(&found),
        vec![
            ("H1", "/protocol_version"),
            ("U3", "/provider/data_flow/egress_scopes/0"),
            ("C5", "/provider/data_flow/egress_scopes/0"),
            ("CGP-RESOLVE", "/capabilities/representations/0"),
        ]
    );
}

/// H2: an empty provider name or version; CGP-VERIFY-OPTIN: `verify` sent to a
/// provider that did not declare it.
#[test]
fn empty_identity_is_h2_and_unasked_verify_is_ours() {
    let ack = line(&format!(
        r#"{{"type":"handshake_ack","protocol_version":"{PROTOCOL_VERSION}","provider":{{"name":"","version":"","data_flow":{{}}}},"capabilities":{{}}}}"#
    ));
    assert_eq!(
        rules(&check_envelope(&ack, &Context::default())),
        vec![("H2", "/provider/name"), ("H2", "/provider/version")]
    );
    let mut session = Session::new();
    assert!(session.observe(&ack, "line 1").is_empty());
    let verify =
        line(r#"{"type":"verify","request":{"frames":[{"provider_id":"p","frame_id":"f"}]}}"#);
    assert_eq!(
        rules(&session.observe(&verify, "line 2")),
        vec![("CGP-VERIFY-OPTIN", "")]
    );
    assert_eq!(Rule::VerifyOptIn.requirement(), Requirement::Must);
    assert!(!Rule::VerifyOptIn.is_upstream());
}

/// Every id of ours is in our namespace, every other one looks like the
/// protocol's (letters then digits), and no id names two rules at different
/// levels but R1 and E1, whose MUST and SHOULD clauses the protocol states
/// together.
#[test]
fn rule_ids_are_the_protocols_or_ours() {
    for rule in Rule::ALL {
        let id = rule.as_str();
        if rule.is_upstream() {
            let letters = id.trim_end_matches(|c: char| c.is_ascii_digit());
            assert!(
                !letters.is_empty()
                    && letters.len() < id.len()
                    && letters.chars().all(|c| c.is_ascii_uppercase()),
                "{id}"
            );
        } else {
            assert!(
                id.starts_with("CGP-") && !id.contains(char::is_lowercase),
                "{id}"
            );
        }
        for other in Rule::ALL {
            if other != rule && other.as_str() == id {
                assert!(id == "R1" || id == "E1", "{id}");
                assert_ne!(other.requirement(), rule.requirement());
            }
        }
    }
}

/// E1, the host's MUST: a query embedding goes only to a provider whose
/// fingerprint is the host's own. On the wire that shows as an embedding sent
/// to a provider that declares no fingerprint (or an empty one), or one whose
/// length is not the dimension the provider's fingerprint states.
#[test]
fn host_e1_embedding_only_to_a_matching_fingerprint() {
    let ack = |capabilities: &str| {
        line(&format!(
            r#"{{"type":"handshake_ack","protocol_version":"{PROTOCOL_VERSION}","provider":{{"name":"p","version":"1","data_flow":{{}}}},"capabilities":{capabilities}}}"#
        ))
    };
    let query = |embedding: &str| {
        line(&format!(
            r#"{{"type":"query","query":{{"goal":"g","embedding":{embedding},"max_frames":5,"max_tokens":50}}}}"#
        ))
    };
    let sent = |capabilities: &str, embedding: &str| {
        let mut session = Session::new();
        assert!(session.observe(&ack(capabilities), "line 1").is_empty());
        session.observe(&query(embedding), "line 2")
    };
    // No fingerprint, an empty one, or a different dimension: a host MUST NOT.
    for (capabilities, embedding) in [
        ("{}", "[0.5, 0.5]"),
        (r#"{"embeddings_fingerprint":null}"#, "[0.5]"),
        (r#"{"embeddings_fingerprint":""}"#, "[0.5]"),
        ("{}", "[]"),
        (r#"{"embeddings_fingerprint":"m/3/l2"}"#, "[0.5, 0.5]"),
        (r#"{"embeddings_fingerprint":"m/3"}"#, "[]"),
    ] {
        let found = sent(capabilities, embedding);
        assert_eq!(
            rules(&found),
            vec![("E1", "/query/embedding")],
            "{capabilities} {embedding}"
        );
        assert_eq!(found[0].rule, Rule::E1Host);
        assert_eq!(found[0].rule.requirement(), Requirement::Must);
    }
    // The fingerprint's dimension, or one the host cannot tell apart from its
    // own (no decimal dimension), or no embedding at all: nothing to report.
    for (capabilities, embedding) in [
        (r#"{"embeddings_fingerprint":"m/3/l2"}"#, "[0.5, 0.5, 0.5]"),
        (r#"{"embeddings_fingerprint":"m/x"}"#, "[0.5]"),
        ("{}", "null"),
    ] {
        assert!(
            sent(capabilities, embedding).is_empty(),
            "{capabilities} {embedding}"
        );
    }
    // Before any handshake_ack nothing is known about the provider.
    assert!(Session::new().observe(&query("[0.5]"), "line 1").is_empty());
    // The provider's E1 stays a SHOULD.
    assert_eq!(Rule::E1.requirement(), Requirement::Should);
}

/// [`Rule::in_transcript`] is what the table of rule ids says: a rule is
/// checked over a transcript exactly when its row's "Checked by" column starts
/// with *message* or *session* (so `cgp validate --help`, which lists
/// [`Rule::transcript_ids`], names the rules the table says it checks).
#[test]
fn transcript_rules_are_the_tables_message_and_session_rows() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../SPEC.md");
    let markdown = std::fs::read_to_string(path).expect("SPEC.md");
    for rule in Rule::ALL {
        let row = format!(
            "| [{rule}](#rule-{}) | {} | ",
            rule.as_str().to_ascii_lowercase(),
            rule.requirement().as_str()
        );
        let start = markdown
            .find(&row)
            .unwrap_or_else(|| panic!("{rule}: no row"));
        let line = markdown[start..].lines().next().unwrap();
        let checked_by = line.split(" | ").nth(3).expect("a Checked by column");
        let listed = checked_by.starts_with("message") || checked_by.starts_with("session");
        assert_eq!(listed, rule.in_transcript(), "{rule}: {line}");
    }
    let ids = Rule::transcript_ids();
    assert_eq!(ids.iter().filter(|id| **id == "E1").count(), 1);
    assert!(!ids.contains(&"R1") && !ids.contains(&"G4"));
}
