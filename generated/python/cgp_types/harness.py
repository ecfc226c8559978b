"""The harness of the cgp_types package for the conformance vectors (SPEC.md
§Conformance vectors): `cgp vectors run -- python3 -m cgp_types.harness`.

Copied by `cargo xtask codegen` from crates/cgp-codegen/templates/python/runtime/;
do not edit. Reads one request a line on standard input, decodes its bytes as
its transport says with `decode_line`, and answers each with one line: the
canonical line `encode_line` writes, or a refusal.
"""

from __future__ import annotations

import base64
import json
import sys
from typing import Any

from . import WireError, decode_line, encode_line

_JSON_WHITESPACE = " \t\n\r"


def request_bytes(request: dict[str, Any]) -> bytes:
    """The bytes of a request or a case: `input`, or `input_base64` decoded."""
    if "input" in request:
        text: str = request["input"]
        return text.encode("utf-8")
    encoded: str = request["input_base64"]
    return base64.b64decode(encoded, validate=True)


def answer(transport: str, data: bytes) -> str | None:
    """The canonical line (no newline) for `data` on `transport`, or None when
    the bytes do not decode there."""
    try:
        if transport == "http":
            # A body: invalid UTF-8 is an error, and only JSON whitespace may
            # follow the value (a stdio line also loses trailing Unicode
            # whitespace).
            text = data.decode("utf-8").rstrip(_JSON_WHITESPACE)
            if text[-1:].isspace():
                return None
            envelope = decode_line(text)
        else:
            envelope = decode_line(data)
        return encode_line(envelope).removesuffix("\n")
    except (WireError, UnicodeDecodeError):
        return None


def main() -> int:
    for line in sys.stdin:
        request = json.loads(line)
        canonical = answer(request["transport"], request_bytes(request))
        reply: dict[str, Any] = {"id": request["id"], "accept": canonical is not None}
        if canonical is not None:
            reply["canonical"] = canonical
        sys.stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
