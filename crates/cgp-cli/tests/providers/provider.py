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
  silent-garbage   does not answer a line it cannot decode (R1)

When CGP_TEST_STATE is set, the provider first writes {"pid": ..., "env": [...]}
to that file.
"""

import json
import os
import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
NAME = "test-provider"


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def frame(index, kind, content):
    return {
        "id": f"{kind}:{index}",
        "kind": kind,
        "title": f"Test frame {index}",
        "content": content,
        "content_digest": "sha256:" + f"{index:064x}",
        "score": 0.5,
        "token_cost": 1 if MODE == "dishonest-cost" else (len(content.encode()) + 3) // 4,
        "citation_label": f"Test {index}",
    }


def answer(query):
    kinds = query.get("kinds") or ["doc"]
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
    result = {"frames": frames, "truncated": False}
    if MODE == "bad-schema" and frames:
        frames[0]["score"] = "0.5"
    return result


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
                                 "correlation": correlation, "graph": False,
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
            reply["result"] = answer(message["query"])
            send(reply)
        elif kind == "verify":
            verdicts = [{"frame": f, "status": "valid"} for f in message["request"]["frames"]]
            send({"type": "verified", "response": {"verdicts": verdicts}})
        elif kind == "shutdown":
            if MODE == "ignore-shutdown":
                continue
            return
        else:
            send({"type": "error", "code": "bad_request", "message": f"unknown type {kind}"})


if __name__ == "__main__":
    main()
