"""Validate corpus cases with Python `jsonschema` against a published bundle.

Usage: python3 validate.py BUNDLE CASES
CASES is a JSON array of {"name", "target", "json"}; prints a JSON object
mapping each case name to true (valid) or false (invalid). The validator is
built once per target, the way an implementer would use the bundle.
"""
import json
import sys

from jsonschema import Draft202012Validator
from referencing import Registry, Resource


def main(bundle_path, cases_path):
    with open(bundle_path, encoding="utf-8") as handle:
        bundle = json.load(handle)
    with open(cases_path, encoding="utf-8") as handle:
        cases = json.load(handle)
    Draft202012Validator.check_schema(bundle)
    registry = Registry().with_resource(bundle["$id"], Resource.from_contents(bundle))
    validators = {}
    verdicts = {}
    for case in cases:
        target = case["target"]
        if target not in validators:
            schema = bundle if target == "Envelope" else {"$ref": bundle["$id"] + "#/$defs/" + target}
            validators[target] = Draft202012Validator(schema, registry=registry)
        verdicts[case["name"]] = validators[target].is_valid(json.loads(case["json"]))
    json.dump(verdicts, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
