"""Decode speed of the generated Python package against Python's own parse.

Usage: PYTHONPATH=generated/python python3 cgp_types_throughput.py NDJSON ROUNDS
The file is read and split into lines before timing. Each round times one pass
of `json.loads` and one of `cgp_types.decode_line` over every line (bytes, as
a stream reader has them), taking turns; the best pass of each counts. Prints
{"lines", "invalid", "seconds_json_loads", "seconds_decode_line"}; `invalid`
counts the lines decode_line refused.
"""
import json
import sys
import time

import cgp_types


def timed(function, lines):
    start = time.perf_counter()
    for line in lines:
        function(line)
    return time.perf_counter() - start


def main(ndjson_path, rounds):
    with open(ndjson_path, "rb") as handle:
        lines = [line for line in handle.read().split(b"\n") if line.strip()]
    invalid = 0
    for line in lines:
        try:
            cgp_types.decode_line(line)
        except cgp_types.WireError:
            invalid += 1
    best_loads = best_decode = float("inf")
    for _ in range(rounds):
        best_loads = min(best_loads, timed(json.loads, lines))
        best_decode = min(best_decode, timed(cgp_types.decode_line, lines))
    json.dump(
        {
            "lines": len(lines),
            "invalid": invalid,
            "seconds_json_loads": best_loads,
            "seconds_decode_line": best_decode,
        },
        sys.stdout,
    )


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
