// Ajv set up the way README.md tells implementers to: draft 2020-12 mode in
// strict mode, the bundle's x-cgp-* annotations registered as a vocabulary, the
// uint32/uint64/float format hints declared, union types allowed, and
// discriminator support on. Shared by validate.mjs and throughput.mjs.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const Ajv2020 = require("ajv/dist/2020").default;

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

// An Ajv instance holding `bundle`.
export function ajvFor(bundle) {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, discriminator: true });
  ajv.addVocabulary(Object.keys(collectAnnotations(bundle)));
  for (const format of ["uint32", "uint64", "float"]) {
    ajv.addFormat(format, true);
  }
  ajv.addSchema(bundle);
  return ajv;
}
