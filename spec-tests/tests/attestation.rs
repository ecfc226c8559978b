//! Our attestation checks (`cgp_check::semantic::attestation` and the F12, F14 and F15
//! rules) against the reference implementation in `contextgraph-types`: the
//! same commitments, chain heads, Merkle roots and inclusion proofs, and the
//! reference's own signatures accepted while tampered answers are flagged.

use cgp_check::semantic::attestation;
use cgp_check::semantic::{Context, check_envelope};
use cgp_schema::digest::Hash;
use serde_json::{Value, json};

const PROVIDER: &str = "docs-index";
const SEED: [u8; 32] = [7; 32];
const OTHER_SEED: [u8; 32] = [8; 32];
const KEY_ID: &str = "docs-index-1";

/// Frames with and without a digest, and provenance chains of every length
/// up to three, with absent and empty members.
fn frames(count: usize) -> Vec<Value> {
    (0..count)
        .map(|index| {
            let mut frame = json!({
                "id": format!("doc:{}", (index * 7) % 10),
                "kind": "doc",
                "title": "t",
                "content": format!("content {index}"),
                "score": 0.5,
                "token_cost": 3,
                "citation_label": "c",
            });
            if index % 3 != 2 {
                frame["content_digest"] = json!(format!("sha256:{:064x}", index + 1));
            }
            let links: Vec<Value> = (0..index % 4)
                .map(|link| match link {
                    0 => json!({"type": "file", "uri": "file:///a.md", "range": "L1-2",
                                "digest": format!("sha256:{:064x}", 99)}),
                    1 => json!({"type": "derivation", "method": "summarize", "by": ""}),
                    _ => json!({"type": "episode", "uri": "", "by": "agent"}),
                })
                .collect();
            if !links.is_empty() {
                frame["provenance"] = json!(links);
            }
            frame
        })
        .collect()
}

fn ours(frame: &Value) -> cgp_types::ContextFrame {
    serde_json::from_value(frame.clone()).expect("our frame")
}

fn reference(frame: &Value) -> contextgraph_types::ContextFrame {
    serde_json::from_value(frame.clone()).expect("reference frame")
}

#[test]
fn commitments_and_chain_heads_are_the_reference_ones() {
    for frame in frames(12) {
        let (mine, theirs) = (ours(&frame), reference(&frame));
        assert_eq!(
            attestation::chain_head(&mine.provenance),
            contextgraph_types::provenance_chain_head(&theirs.provenance),
            "{frame}"
        );
        assert_eq!(
            attestation::frame_commitment(PROVIDER, &mine),
            contextgraph_types::frame_commitment(PROVIDER, &theirs),
            "{frame}"
        );
    }
}

#[test]
fn roots_and_inclusion_proofs_are_the_reference_ones() {
    for count in 0..=9 {
        let frames = frames(count);
        let mine: Vec<cgp_types::ContextFrame> = frames.iter().map(ours).collect();
        let theirs: Vec<contextgraph_types::ContextFrame> = frames.iter().map(reference).collect();
        let root = attestation::result_root(PROVIDER, &mine);
        assert_eq!(
            root,
            contextgraph_types::result_set_root(PROVIDER, &theirs),
            "{count}"
        );
        let leaves: Vec<Hash> = contextgraph_types::result_set_commitments(PROVIDER, &theirs)
            .into_iter()
            .map(|(_, leaf)| leaf)
            .collect();
        assert_eq!(attestation::merkle_root(&leaves), root);
        for (index, leaf) in leaves.iter().enumerate() {
            let proof = contextgraph_types::inclusion_proof(&leaves, index).expect("a proof");
            let proof: cgp_types::InclusionProof =
                serde_json::from_value(serde_json::to_value(proof).expect("json")).expect("ours");
            assert_eq!(attestation::root_from_proof(leaf, &proof), Some(root));
            let other = [0x55; 32];
            assert_ne!(attestation::root_from_proof(&other, &proof), Some(root));
        }
    }
}

fn sign(commitment: &Hash, seed: &[u8; 32]) -> Value {
    let attestation = contextgraph_types::sign_commitment(
        commitment,
        seed,
        KEY_ID,
        PROVIDER,
        "2026-03-01T12:00:00Z",
    );
    serde_json::to_value(attestation).expect("json")
}

fn identity(frame: &Value) -> Value {
    let mut identity = json!({"provider_id": PROVIDER, "frame_id": frame["id"]});
    if let Some(digest) = frame.get("content_digest") {
        identity["content_digest"] = digest.clone();
    }
    identity
}

/// An answer of four frames: a result root signed once, an inclusion proof
/// for each frame, and a signature of its own on the first.
fn signed_answer(seed: &[u8; 32]) -> Value {
    let frames = frames(4);
    let theirs: Vec<contextgraph_types::ContextFrame> = frames.iter().map(reference).collect();
    let commitments = contextgraph_types::result_set_commitments(PROVIDER, &theirs);
    let leaves: Vec<Hash> = commitments.iter().map(|(_, leaf)| *leaf).collect();
    let root = contextgraph_types::merkle_root(&leaves);
    let mut entries = Vec::new();
    for (index, frame) in frames.iter().enumerate() {
        let position = commitments
            .iter()
            .position(|(id, _)| id.frame_id == frame["id"])
            .expect("a leaf");
        let proof = contextgraph_types::inclusion_proof(&leaves, position).expect("a proof");
        let mut entry = json!({"frame": identity(frame), "inclusion_proof": proof});
        if index == 0 {
            let own = contextgraph_types::frame_commitment(PROVIDER, &theirs[0]);
            entry["attestation"] = sign(&own, seed);
        }
        entries.push(entry);
    }
    json!({
        "type": "frames",
        "result": {
            "frames": frames,
            "truncated": false,
            "frame_attestations": entries,
            "result_attestation": sign(&root, seed),
        }
    })
}

fn findings(answer: &Value) -> Vec<(String, String)> {
    let context = Context {
        provider_name: Some(PROVIDER.into()),
        attester_keys: vec![cgp_types::AttesterKey {
            key_id: KEY_ID.into(),
            algorithm: "ed25519".into(),
            public_key: contextgraph_types::public_key_for(&SEED)
                .iter()
                .map(|byte| format!("{byte:02x}"))
                .collect(),
        }],
        ..Context::default()
    };
    let envelope: cgp_types::Envelope = serde_json::from_value(answer.clone()).expect("envelope");
    check_envelope(&envelope, &context)
        .into_iter()
        .map(|v| (v.rule.as_str().to_owned(), v.instance_path))
        .collect()
}

#[test]
fn the_reference_signatures_verify_and_tampering_is_flagged() {
    let answer = signed_answer(&SEED);
    assert_eq!(findings(&answer), Vec::<(String, String)>::new());

    // Signed with a key the handshake did not publish under that id.
    let forged = findings(&signed_answer(&OTHER_SEED));
    assert_eq!(
        forged,
        [
            ("CGP-ATTEST-KEY", "/result/result_attestation"),
            ("CGP-ATTEST-KEY", "/result/frame_attestations/0/attestation"),
        ]
        .map(|(rule, at)| (rule.to_owned(), at.to_owned()))
    );

    // The second frame's provenance loses a link after signing.
    let mut truncated = answer.clone();
    truncated["result"]["frames"][1]["provenance"] = json!([]);
    assert_eq!(
        findings(&truncated),
        [
            ("F12", "/result/result_attestation/signed_commitment"),
            ("F13", "/result/frame_attestations/1/inclusion_proof"),
        ]
        .map(|(rule, at)| (rule.to_owned(), at.to_owned()))
    );

    // The first frame's signature is lifted onto the second.
    let mut lifted = answer.clone();
    lifted["result"]["frame_attestations"][1]["attestation"] =
        answer["result"]["frame_attestations"][0]["attestation"].clone();
    assert_eq!(
        findings(&lifted),
        [(
            "CGP-ATTEST-SIGNS".to_owned(),
            "/result/frame_attestations/1/attestation/signed_commitment".to_owned()
        )]
    );

    // An unknown key id, and a proof without the root it proves.
    let mut unknown = answer.clone();
    unknown["result"]["result_attestation"]["key_id"] = json!("nobody");
    assert_eq!(
        findings(&unknown),
        [(
            "CGP-ATTEST-KEY".to_owned(),
            "/result/result_attestation".to_owned()
        )]
    );
    let mut rootless = answer;
    rootless["result"]
        .as_object_mut()
        .expect("object")
        .remove("result_attestation");
    let rootless = findings(&rootless);
    assert_eq!(rootless.len(), 4, "{rootless:?}");
    assert!(
        rootless.iter().all(|(rule, _)| rule == "F13"),
        "{rootless:?}"
    );
}
