"""The conformance vectors through cgp_types: every case's verdict and
canonical line, as the package's harness gives them
(`python -m unittest discover -s tests` in this directory).

Copied by `cargo xtask codegen` from crates/cgp-codegen/templates/python/runtime/;
do not edit. The cases are read from `generated/vectors/<version>/` beside
this package, or from the folder in the CGP_VECTORS_DIR variable.
"""

import json
import os
import pathlib
import unittest

import cgp_types
from cgp_types.harness import answer, request_bytes


def vectors_dir() -> pathlib.Path:
    configured = os.environ.get("CGP_VECTORS_DIR")
    if configured:
        return pathlib.Path(configured)
    name, number = cgp_types.PROTOCOL_VERSION.split("/")
    return pathlib.Path(__file__).resolve().parents[2] / "vectors" / f"{name}-{number}"


class ConformanceVectors(unittest.TestCase):
    def test_every_case_agrees_with_the_reference(self):
        files = sorted(vectors_dir().glob("*.ndjson"))
        self.assertTrue(files, f"no case files in {vectors_dir()}")
        cases = 0
        failures = []
        for path in files:
            for line in path.read_text(encoding="utf-8").splitlines():
                if not line.strip():
                    continue
                case = json.loads(line)
                cases += 1
                got = answer(case["transport"], request_bytes(case))
                expected = case["decode"]
                if expected["accept"]:
                    same = got == expected["canonical"]
                else:
                    same = got is None
                if not same:
                    failures.append(
                        f"{case['id']} ({case['description']}): reference "
                        f"{expected}, cgp_types {'reject' if got is None else got!r}"
                    )
        self.assertGreater(cases, 0)
        self.assertEqual(
            failures,
            [],
            f"{len(failures)} of {cases} cases disagree:\n" + "\n".join(failures[:10]),
        )


if __name__ == "__main__":
    unittest.main()
