"""Speed of the generated Python package against what an implementer would
otherwise use, in one process on the same lines.

Usage: PYTHONPATH=generated/python python3 cgp_types_throughput.py NDJSON ROUNDS [MODELS_PY]
The file is read and split into lines (bytes, as a stream reader has them)
before timing. Each round times one pass of every candidate, taking turns; the
best pass of each counts:

- `json.loads` and `cgp_types.decode_line` on every line;
- with MODELS_PY (pydantic v2 models datamodel-code-generator wrote from the
  interop bundle, as README says), `Envelope.model_validate_json` on every line;
- `cgp_types.encode_line` of the envelopes decode_line returned, and
  `json.dumps` of the values `json.loads` returned for the same lines.

A line a decoder rejects is caught, as a host reading a stream does, and
neither encoder writes it.

Prints {"lines", "invalid", "invalid_pydantic", "fast_path", "seconds_json_loads",
"seconds_decode_line", "seconds_pydantic", "seconds_encode_line",
"seconds_json_dumps"}; `invalid` counts the lines decode_line refused,
`invalid_pydantic` those pydantic refused, `fast_path` says whether cgp_types
had msgspec.
"""
import importlib.util
import json
import sys
import time

import cgp_types


def timed(function, items):
    start = time.perf_counter()
    for item in items:
        function(item)
    return time.perf_counter() - start


def caught(function, error):
    """`function`, returning None where it raises `error`, as a host reading a
    stream catches a rejected line and goes on."""

    def call(item):
        try:
            return function(item)
        except error:
            return None

    return call


def load_models(path):
    spec = importlib.util.spec_from_file_location("cgp_bench_models", path)
    models = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = models
    spec.loader.exec_module(models)
    return models


def main(ndjson_path, rounds, models_path=None):
    with open(ndjson_path, "rb") as handle:
        lines = [line for line in handle.read().split(b"\n") if line.strip()]
    invalid = 0
    envelopes = []
    values = []
    for line in lines:
        try:
            envelopes.append(cgp_types.decode_line(line))
        except cgp_types.WireError:
            invalid += 1
            continue
        values.append(json.loads(line))
    candidates = {
        "seconds_json_loads": (json.loads, lines),
        "seconds_decode_line": (caught(cgp_types.decode_line, cgp_types.WireError), lines),
        "seconds_encode_line": (cgp_types.encode_line, envelopes),
        "seconds_json_dumps": (json.dumps, values),
    }
    extra = {}
    if models_path is not None:
        import pydantic

        validate = load_models(models_path).Envelope.model_validate_json
        invalid_pydantic = 0
        for line in lines:
            try:
                validate(line)
            except pydantic.ValidationError:
                invalid_pydantic += 1
        extra["invalid_pydantic"] = invalid_pydantic
        candidates["seconds_pydantic"] = (caught(validate, pydantic.ValidationError), lines)
    best = {name: float("inf") for name in candidates}
    names = list(candidates)
    for round_ in range(rounds):
        for turn in range(len(names)):
            name = names[(round_ + turn) % len(names)]
            function, items = candidates[name]
            best[name] = min(best[name], timed(function, items))
    fast_path = getattr(cgp_types, "FAST_PATH", False)
    json.dump(
        {"lines": len(lines), "invalid": invalid, "fast_path": fast_path, **extra, **best},
        sys.stdout,
    )


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), *sys.argv[3:4])
