#!/usr/bin/env python3
"""A small docs provider built on the protocol's Python SDK (`contextgraph-sdk`
0.1.0), as an SDK author would write one: the SDK's runtime does the wire, this
file only answers queries and verify requests.

It serves two short documents of this project's own, as `doc` frames with
honest costs (the SDK's `budget_tokens`), digests, a `file` provenance link to
this very file (whole file, so anyone can re-hash it), and a relation between
the two documents (it declares `graph`). It honours `kinds`, `max_frames`,
`max_tokens`, `as_of` and `anchors` (anchored frames first), refuses a query
embedding of the wrong dimension with `bad_request`, and answers `verify`
honestly: `valid` for a digest it serves, `stale` for another digest of a
frame it serves, `gone` for a frame it does not know.

Run it with a Python that has the SDK: `cgp check -- python sdk_docs.py`.
"""

import hashlib
import os

from contextgraph_sdk import ProviderError, budget_tokens, run_stdio_provider

NAME = "sdk-docs"
DIMENSION = 4
HERE = os.path.abspath(__file__)

DOCUMENTS = [
    {
        "id": "doc:checking",
        "title": "Checking a provider",
        "content": "cgp check drives a provider as a host would and judges every line both sides send.",
        "valid_from": "2026-01-01T00:00:00Z",
        "uri": "cgp-doc:///checking",
        "related": "cgp-doc:///validating",
        "related_name": "Validating transcripts",
    },
    {
        "id": "doc:validating",
        "title": "Validating transcripts",
        "content": "cgp validate reads NDJSON transcripts and reports every message that breaks the schema or a rule.",
        "valid_from": "2026-03-01T00:00:00Z",
        "uri": "cgp-doc:///validating",
        "related": "cgp-doc:///checking",
        "related_name": "Checking a provider",
    },
]


def sha256(data):
    return "sha256:" + hashlib.sha256(data).hexdigest()


with open(HERE, "rb") as source:
    FILE_DIGEST = sha256(source.read())


def frame(document, score):
    content = document["content"]
    return {
        "id": document["id"],
        "kind": "doc",
        "title": document["title"],
        "content": content,
        "content_digest": sha256(content.encode("utf-8")),
        "uri": document["uri"],
        "score": score,
        "token_cost": budget_tokens(content),
        "valid_from": document["valid_from"],
        "provenance": [{"type": "file", "uri": "file://" + HERE, "digest": FILE_DIGEST}],
        "citation_label": document["title"],
        "relations": [{"rel": "doc.documents", "target_uri": document["related"],
                       "display_name": document["related_name"]}],
    }


def anchored(document, anchors):
    return document["uri"] in anchors or document["related"] in anchors


class DocsProvider:
    def info(self):
        return {"name": NAME, "version": "0.1.0",
                "data_flow": {"reads": True, "writes": False, "egress": False,
                              "egress_scopes": ["local-only"]}}

    def capabilities(self):
        return {"query": {"kinds": ["doc"]}, "correlation": True, "graph": True,
                "verify": True, "embeddings_fingerprint": f"sdk-docs-embed/{DIMENSION}/l2"}

    def query(self, query):
        embedding = query.get("embedding")
        if embedding is not None and len(embedding) != DIMENSION:
            raise ProviderError(f"the embedding must have {DIMENSION} dimensions", "bad_request")
        kinds = query.get("kinds") or []
        if kinds and "doc" not in kinds:
            return {"frames": [], "truncated": False}
        as_of = query.get("as_of")
        anchors = query.get("anchors") or []
        candidates = [d for d in DOCUMENTS if not as_of or d["valid_from"] <= as_of]
        candidates.sort(key=lambda d: not anchored(d, anchors))
        frames, spent, truncated = [], 0, False
        for rank, document in enumerate(candidates):
            served = frame(document, round(1.0 - rank / 4, 2))
            if len(frames) >= query["max_frames"] or spent + served["token_cost"] > query["max_tokens"]:
                truncated = True
                break
            frames.append(served)
            spent += served["token_cost"]
        return {"frames": frames, "truncated": truncated}

    def verify(self, request):
        verdicts = []
        for identity in request["frames"]:
            document = next((d for d in DOCUMENTS if d["id"] == identity.get("frame_id")), None)
            # The provider id is the host's name for this provider, which a
            # provider cannot know; only the frame id and digest are its own.
            if document is None:
                verdicts.append({"frame": identity, "status": "gone"})
                continue
            current = sha256(document["content"].encode("utf-8"))
            if identity.get("content_digest") == current:
                verdicts.append({"frame": identity, "status": "valid"})
            else:
                verdicts.append({"frame": identity, "status": "stale",
                                 "replacement_digest": current})
        return {"verdicts": verdicts}


if __name__ == "__main__":
    run_stdio_provider(DocsProvider())
