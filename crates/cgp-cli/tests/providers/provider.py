#!/usr/bin/env python3
"""A small Context Graph Protocol stdio provider for the `cgp check` tests.

`provider.py MODE`: `good` behaves; every other mode breaks one rule:

  good-lockstep    behaves, without correlation or verify
  bad-schema       a frame's score is the string "0.5"
  wrong-id         echoes the query id with "-x" appended
  budget           always answers three 40-byte frames, whatever the budget
  dishonest-cost   declares token_cost 1 for every frame (B3, --semantic only)
  hang             reads queries and never answers them
  mid-line         writes half a handshake_ack, then exits
  flood            after the handshake, writes error lines without end
  endless-line     answers the handshake with one line that never ends
  ignore-shutdown  stays alive after shutdown
  exit-early       exits right after the handshake
  silent-garbage   does not answer a line it cannot decode (R1, a SHOULD)
  crash-garbage    exits on a line it cannot decode (R1, the MUST)
  silent-unknown   does not answer an envelope of an unknown type (allowed)
  rubber-stamp     answers `valid` to every verify, whatever the digest (V2)
  ignore-kinds     answers every query with frames of every declared kind (Q1)
  ignore-as-of     answers as if the query had no as_of (CGP-AS-OF, a SHOULD)
  stale-digest     declares a file provenance digest its file does not have
                   (CGP-FILE-BYTES)

Every mode declares graph and a 3-dimensional embedding fingerprint; frame i of
an answer became valid on the first day of month i + 1 of 2026, has a relation
to symbol:///test/i, and frame 0 cites this file, with its digest.

When CGP_TEST_STATE is set, the provider first writes {"pid": ..., "env": [...]}
to that file.
"""

import hashlib
import json
import os
import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
NAME = "test-provider"
HERE = os.path.abspath(__file__)
with open(HERE, "rb") as source:
    HERE_DIGEST = "sha256:" + hashlib.sha256(source.read()).hexdigest()
if MODE == "stale-digest":
    HERE_DIGEST = HERE_DIGEST[:-1] + ("1" if HERE_DIGEST.endswith("0") else "0")
DIMENSION = 3


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def digest(index):
    return "sha256:" + f"{index:064x}"


def frame(index, kind, content):
    frame = {
        "id": f"{kind}:{index}",
        "kind": kind,
        "title": f"Test frame {index}",
        "content": content,
        "content_digest": digest(index),
        "score": 0.5,
        "token_cost": 1 if MODE == "dishonest-cost" else (len(content.encode()) + 3) // 4,
        "citation_label": f"Test {index}",
        "valid_from": f"2026-{index % 12 + 1:02d}-01T00:00:00Z",
        "relations": [{"rel": "doc.documents", "target_uri": f"symbol:///test/{index}",
                       "display_name": f"Symbol {index}"}],
    }
    if index == 0:
        frame["provenance"] = [{"type": "file", "uri": "file://" + HERE, "digest": HERE_DIGEST}]
    return frame


def anchored(frame, anchors):
    return any(r["target_uri"] in anchors for r in frame["relations"])


def answer(query):
    kinds = query.get("kinds") or ["doc"]
    if MODE == "ignore-kinds":
        kinds = ["doc", "snippet"]
    if MODE == "budget":
        frames = [frame(i, kinds[0], "x" * 40) for i in range(3)]
    else:
        frames = []
        budget = query["max_tokens"]
        for i in range(query["max_frames"]):
            candidate = frame(i, kinds[i % len(kinds)], "abcdefgh" * (i + 1))
            if candidate["token_cost"] > budget:
                break
            budget -= candidate["token_cost"]
            frames.append(candidate)
    as_of = query.get("as_of")
    if as_of and MODE != "ignore-as-of":
        frames = [f for f in frames if f["valid_from"] <= as_of]
    anchors = query.get("anchors") or []
    frames.sort(key=lambda f: not anchored(f, anchors))
    result = {"frames": frames, "truncated": False}
    if MODE == "bad-schema" and frames:
        frames[0]["score"] = "0.5"
    return result


def verdict(identity):
    """Compares the presented digest with the one served for the frame id."""
    _, _, index = identity["frame_id"].partition(":")
    if not index.isdigit():
        return {"frame": identity, "status": "gone"}
    current = digest(int(index))
    if MODE == "rubber-stamp" or identity.get("content_digest") == current:
        return {"frame": identity, "status": "valid"}
    return {"frame": identity, "status": "stale", "replacement_digest": current}


def main():
    state = os.environ.get("CGP_TEST_STATE")
    if state:
        with open(state, "w") as out:
            json.dump({"pid": os.getpid(), "env": sorted(os.environ)}, out)
    correlation = MODE != "good-lockstep"
    for raw in sys.stdin:
        line = raw.strip()
        try:
            message = json.loads(line)
            kind = message["type"]
        except (ValueError, KeyError, TypeError):
            if MODE == "silent-garbage":
                continue
            if MODE == "crash-garbage":
                sys.exit(3)
            send({"type": "error", "code": "bad_request", "message": "cannot decode the line"})
            continue
        if kind == "handshake":
            if MODE == "endless-line":
                sys.stdout.write('{"type":"handshake_ack","protocol_version":"')
                chunk = "a" * 65536
                while True:
                    sys.stdout.write(chunk)
            if MODE == "mid-line":
                sys.stdout.write('{"type":"handshake_ack","protocol_version":"context')
                sys.stdout.flush()
                os._exit(0)
            version = "1.0.0"
            send({
                "type": "handshake_ack",
                "protocol_version": message.get("protocol_version"),
                "provider": {"name": NAME, "version": version,
                             "data_flow": {"reads": True, "writes": False, "egress": False}},
                "capabilities": {"query": {"kinds": ["doc", "snippet"]},
                                 "correlation": correlation, "graph": True,
                                 "embeddings_fingerprint": f"test-embed/{DIMENSION}/l2",
                                 "verify": MODE != "good-lockstep", "resolve": False},
            })
            if MODE == "exit-early":
                return
            if MODE == "flood":
                while True:
                    send({"type": "error", "code": "unavailable", "message": "flooding"})
        elif kind == "query":
            if MODE == "hang":
                continue
            reply = {"type": "frames"}
            if "id" in message:
                reply["id"] = message["id"] + ("-x" if MODE == "wrong-id" else "")
            embedding = message["query"].get("embedding")
            if embedding is not None and len(embedding) != DIMENSION:
                reply = {key: value for key, value in reply.items() if key == "id"}
                reply.update({"type": "error", "code": "bad_request",
                              "message": f"the embedding must have {DIMENSION} dimensions"})
            else:
                reply["result"] = answer(message["query"])
            send(reply)
        elif kind == "verify":
            send({"type": "verified", "response": {
                "verdicts": [verdict(f) for f in message["request"]["frames"]]}})
        elif kind == "shutdown":
            if MODE == "ignore-shutdown":
                continue
            return
        elif MODE != "silent-unknown":
            send({"type": "error", "code": "bad_request", "message": f"unknown type {kind}"})


if __name__ == "__main__":
    main()
