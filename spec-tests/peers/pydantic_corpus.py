"""Run corpus cases through pydantic models datamodel-code-generator wrote.

Usage: python3 pydantic_corpus.py MODELS_PY CASES
MODELS_PY is the generated module; CASES a JSON array of {"name", "target",
"json"}. Prints a JSON object mapping each case name to true (the model of
`target` validates the JSON text), false (it raises ValidationError), or
"missing: ..." when the module has no model of that name.
"""
import importlib.util
import json
import sys

import pydantic


def main(models_path, cases_path):
    spec = importlib.util.spec_from_file_location("generated_models", models_path)
    models = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = models
    spec.loader.exec_module(models)
    with open(cases_path, encoding="utf-8") as handle:
        cases = json.load(handle)
    verdicts = {}
    for case in cases:
        model = getattr(models, case["target"], None)
        if model is None:
            verdicts[case["name"]] = f"missing: {case['target']}"
            continue
        adapter = pydantic.TypeAdapter(model)
        try:
            adapter.validate_json(case["json"])
            verdicts[case["name"]] = True
        except pydantic.ValidationError:
            verdicts[case["name"]] = False
    json.dump(verdicts, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
