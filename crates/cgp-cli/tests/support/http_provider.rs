//! The replies of a small conforming CGP provider, shared by the tests that
//! serve it over HTTP and HTTPS.

use serde_json::{Value, json};

/// One `doc` frame, the same for the same index.
fn frame(index: usize, kind: &str) -> Value {
    let content = "abcdefgh".repeat(index + 1);
    json!({
        "id": format!("{kind}:{index}"),
        "kind": kind,
        "title": format!("Test frame {index}"),
        "content_digest": format!("sha256:{index:064x}"),
        "score": 0.5,
        "token_cost": content.len().div_ceil(4),
        "citation_label": format!("Test {index}"),
        "content": content,
    })
}

/// The reply to one request body; `None` for `shutdown`. With `bad_schema`,
/// the first frame's score is the string "0.5".
pub fn reply(body: &[u8], bad_schema: bool) -> Option<Value> {
    let bad_request =
        json!({"type": "error", "code": "bad_request", "message": "cannot decode the body"});
    let Ok(message) = serde_json::from_slice::<Value>(body) else {
        return Some(bad_request);
    };
    Some(match message["type"].as_str() {
        Some("handshake") => json!({
            "type": "handshake_ack",
            "protocol_version": message["protocol_version"],
            "provider": {"name": "http-test-provider", "version": "1.0.0",
                         "data_flow": {"reads": true, "writes": false, "egress": true}},
            "capabilities": {"query": {"kinds": ["doc"]}, "correlation": true,
                             "graph": false, "verify": true, "resolve": false},
        }),
        Some("query") => {
            let query = &message["query"];
            let mut budget = query["max_tokens"].as_u64().unwrap_or(0);
            let mut frames = Vec::new();
            for index in 0..query["max_frames"].as_u64().unwrap_or(0) as usize {
                let candidate = frame(index, "doc");
                let cost = candidate["token_cost"].as_u64().unwrap_or(0);
                if cost > budget {
                    break;
                }
                budget -= cost;
                frames.push(candidate);
            }
            if bad_schema {
                if let Some(first) = frames.first_mut() {
                    first["score"] = json!("0.5");
                }
            }
            let mut reply =
                json!({"type": "frames", "result": {"frames": frames, "truncated": false}});
            if let Some(id) = message.get("id") {
                reply["id"] = id.clone();
            }
            reply
        }
        Some("verify") => {
            let verdicts: Vec<Value> = message["request"]["frames"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|asked| {
                    // Honest verify (SPEC V1/V4): `valid` only for a digest this
                    // provider serves for that frame, `stale` otherwise.
                    let served = asked["frame_id"]
                        .as_str()
                        .and_then(|id| id.strip_prefix("doc:"))
                        .and_then(|index| index.parse::<usize>().ok())
                        .map(|index| frame(index, "doc")["content_digest"].clone());
                    let status = if served.as_ref() == Some(&asked["content_digest"]) {
                        "valid"
                    } else {
                        "stale"
                    };
                    json!({"frame": asked, "status": status})
                })
                .collect();
            json!({"type": "verified", "response": {"verdicts": verdicts}})
        }
        Some("shutdown") => return None,
        _ => bad_request,
    })
}
