"""Throughput of Python `jsonschema` on an NDJSON transcript.

Usage: python3 throughput.py BUNDLE NDJSON
The validator is built once, as an implementer would; the file is read and
split into lines before timing; the timed part is `json.loads` and `is_valid`
for every line, one pass. Prints {"lines", "invalid", "seconds"}.
"""
import json
import sys
import time

from jsonschema import Draft202012Validator


def main(bundle_path, ndjson_path):
    with open(bundle_path, encoding="utf-8") as handle:
        bundle = json.load(handle)
    with open(ndjson_path, "rb") as handle:
        lines = [line for line in handle.read().split(b"\n") if line.strip()]
    validator = Draft202012Validator(bundle)
    start = time.perf_counter()
    invalid = 0
    for line in lines:
        if not validator.is_valid(json.loads(line)):
            invalid += 1
    seconds = time.perf_counter() - start
    json.dump({"lines": len(lines), "invalid": invalid, "seconds": seconds}, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
