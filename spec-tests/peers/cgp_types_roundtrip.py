"""Round-trips texts through the generated Python package `cgp_types`.

Usage: PYTHONPATH=generated/python python3 cgp_types_roundtrip.py < CASES
Each input line is a JSON array `[target, text]`: `target` is `Envelope`
(read with decode_line, written with encode_line) or another named type
(decode_as / encode_as). Each output line is `{"ok": text}` with the
re-encoding, `{"rejected": message}` for a WireError, or `{"crashed": trace}`
for any other exception, which is a bug in the package.

An envelope goes through both paths of the package: `decode_line` and
`encode_line` (msgspec's decoder when it is importable, the generated
writer) and `decode_line_exact` and `encode_line_exact` (the pure-Python
reader and writer). They must agree on the value (its `repr`, which tells
`-0.0` from `0.0` and an enum member from a string), the bytes and the
message; a disagreement is a crash. `"fast": true` says msgspec's decoder
took the line.
"""
import json
import sys
import traceback

import cgp_types


def outcome(function, *args):
    try:
        return ("ok", function(*args))
    except cgp_types.WireError as error:
        return ("rejected", str(error))


def round_trip(target, text):
    if target != "Envelope":
        return outcome(lambda: cgp_types.encode_as(target, cgp_types.decode_as(target, text))), False
    exact = outcome(cgp_types.decode_line_exact, text)
    ours = outcome(cgp_types.decode_line, text)
    fast = cgp_types.FAST_PATH and cgp_types._fast.decode(text) is not None
    if repr(exact) != repr(ours):
        raise AssertionError(f"the paths read {text!r} differently:\n{exact!r}\n{ours!r}")
    if exact[0] != "ok":
        return exact, fast
    written = outcome(cgp_types.encode_line_exact, exact[1])
    if outcome(cgp_types.encode_line, ours[1]) != written:
        raise AssertionError(f"the writers disagree on {text!r}")
    if written[0] == "ok":
        written = ("ok", written[1].rstrip("\n"))
    return written, fast


def main():
    out = []
    for request in sys.stdin:
        target, text = json.loads(request)
        try:
            (kind, value), fast = round_trip(target, text)
            reply = {kind: value, "fast": fast}
        except Exception:  # noqa: BLE001 - reported, not hidden
            reply = {"crashed": traceback.format_exc()}
        out.append(json.dumps(reply))
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
