"""Round-trips texts through the generated Python package `cgp_types`.

Usage: PYTHONPATH=generated/python python3 cgp_types_roundtrip.py < CASES
Each input line is a JSON array `[target, text]`: `target` is `Envelope`
(read with decode_line, written with encode_line) or another named type
(decode_as / encode_as). Each output line is `{"ok": text}` with the
re-encoding, `{"rejected": message}` for a WireError, or `{"crashed": trace}`
for any other exception, which is a bug in the package.
"""
import json
import sys
import traceback

import cgp_types


def round_trip(target, text):
    if target == "Envelope":
        return cgp_types.encode_line(cgp_types.decode_line(text)).rstrip("\n")
    return cgp_types.encode_as(target, cgp_types.decode_as(target, text))


def main():
    out = []
    for request in sys.stdin:
        target, text = json.loads(request)
        try:
            outcome = {"ok": round_trip(target, text)}
        except cgp_types.WireError as error:
            outcome = {"rejected": str(error)}
        except Exception:  # noqa: BLE001 - reported, not hidden
            outcome = {"crashed": traceback.format_exc()}
        out.append(json.dumps(outcome))
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
