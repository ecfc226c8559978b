// Validate corpus cases with Ajv (draft 2020-12 mode) against a published bundle.
//
// Usage: node validate.mjs BUNDLE CASES
// CASES is a JSON array of {"name", "target", "json"}; prints a JSON object
// mapping each case name to true (valid) or false (invalid). Ajv runs in strict
// mode with the settings README.md gives implementers: the x-cgp-* annotations
// registered as a vocabulary, the uint32/uint64/float format hints declared,
// union types allowed, and discriminator support on.
import { readFileSync } from "node:fs";
import { ajvFor } from "./ajv.mjs";

const [bundlePath, casesPath] = process.argv.slice(2);
const bundle = JSON.parse(readFileSync(bundlePath, "utf8"));
const cases = JSON.parse(readFileSync(casesPath, "utf8"));
const ajv = ajvFor(bundle);

const validators = new Map();
const verdicts = {};
for (const item of cases) {
  if (!validators.has(item.target)) {
    const validate =
      item.target === "Envelope"
        ? ajv.getSchema(bundle.$id)
        : ajv.compile({ $ref: `${bundle.$id}#/$defs/${item.target}` });
    validators.set(item.target, validate);
  }
  verdicts[item.name] = validators.get(item.target)(JSON.parse(item.json));
}
process.stdout.write(JSON.stringify(verdicts));
