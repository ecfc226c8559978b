// Throughput of Ajv (draft 2020-12 mode) on an NDJSON transcript, the way an
// implementer would run it: the bundle compiled once, then `JSON.parse` and
// `validate` for every line.
//
// Usage: node throughput.mjs BUNDLE NDJSON ROUNDS
// The file is read and split into lines before timing; the timed part is
// parsing and validating every line, best of ROUNDS passes (the first ones
// warm up the JIT). Prints {"lines", "invalid", "seconds", "compile_seconds"}.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";

const require = createRequire(import.meta.url);
const Ajv2020 = require("ajv/dist/2020").default;

const [bundlePath, ndjsonPath, roundsArg] = process.argv.slice(2);
const bundle = JSON.parse(readFileSync(bundlePath, "utf8"));
const lines = readFileSync(ndjsonPath, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "");

function collectAnnotations(value, found = {}) {
  if (Array.isArray(value)) {
    value.forEach((item) => collectAnnotations(item, found));
  } else if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (key.startsWith("x-cgp-")) found[key] = true;
      collectAnnotations(inner, found);
    }
  }
  return found;
}

const compileStart = performance.now();
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, discriminator: true });
ajv.addVocabulary(Object.keys(collectAnnotations(bundle)));
for (const format of ["uint32", "uint64", "float"]) {
  ajv.addFormat(format, true);
}
ajv.addSchema(bundle);
const validate = ajv.getSchema(bundle.$id);
const compileSeconds = (performance.now() - compileStart) / 1000;

let best = Infinity;
let invalid = 0;
for (let round = 0; round < Math.max(1, Number(roundsArg) || 1); round++) {
  invalid = 0;
  const start = performance.now();
  for (const line of lines) {
    if (!validate(JSON.parse(line))) invalid++;
  }
  best = Math.min(best, (performance.now() - start) / 1000);
}
process.stdout.write(
  JSON.stringify({ lines: lines.length, invalid, seconds: best, compile_seconds: compileSeconds }),
);
