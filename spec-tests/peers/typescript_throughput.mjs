// Throughput of the generated TypeScript package against what an implementer
// would otherwise use, in one node process on the same NDJSON lines:
// `decodeEnvelope` against `JSON.parse` alone and against `JSON.parse` followed
// by Ajv's compiled validator of the interop bundle; `encodeEnvelope` against
// `JSON.stringify`.
//
// Usage: node typescript_throughput.mjs PACKAGE_ENTRY NDJSON ROUNDS [BUNDLE]
// PACKAGE_ENTRY is the built package's dist/index.js; BUNDLE the interop bundle
// (Ajv is measured only when it is given, with Ajv on NODE_PATH). The file is
// read and cut into strings before timing, so every candidate gets the same
// strings. Decoders are timed first, holding only the lines, then encoders,
// holding the decoded values: each round times every candidate once, taking
// turns; the best of ROUNDS rounds counts (the first ones warm up the JIT).
// `encodeEnvelope` writes
// the envelopes `decodeEnvelope` returned; `JSON.stringify` writes the values
// `JSON.parse` returned for the same lines (it cannot write the `bigint`s of
// 64-bit members). A line the package rejects is caught and counted, as a host
// reading a stream does, and neither encoder writes it. Each encoder's text is read in its middle, which makes node
// lay out a text built of pieces as one string (`JSON.stringify`'s already is
// one), so both pay for the whole text. Prints {"lines", "rejected", "invalid", "seconds",
// "seconds_json_parse", "seconds_ajv", "seconds_encode", "seconds_json_stringify"}.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

const [entry, ndjsonPath, roundsArg, bundlePath] = process.argv.slice(2);
const { decodeEnvelope, encodeEnvelope } = await import(pathToFileURL(entry).href);
const lines = readFileSync(ndjsonPath, "utf8").split("\n").filter((line) => line.length > 0);
const rounds = Math.max(1, Number(roundsArg) || 1);

let validate = null;
if (bundlePath !== undefined) {
  const { ajvFor } = await import("./ajv.mjs");
  const bundle = JSON.parse(readFileSync(bundlePath, "utf8"));
  validate = ajvFor(bundle).getSchema(bundle.$id);
}

let sink = 0;
function timed(run) {
  const start = performance.now();
  run();
  return (performance.now() - start) / 1000;
}

/** The best time of each candidate over ROUNDS rounds, taking turns. */
function race(candidates) {
  const names = Object.keys(candidates);
  const best = Object.fromEntries(names.map((name) => [name, Infinity]));
  for (let round = 0; round < rounds; round++) {
    for (let turn = 0; turn < names.length; turn++) {
      const name = names[(round + turn) % names.length];
      best[name] = Math.min(best[name], timed(candidates[name]));
    }
  }
  return best;
}

let rejected = 0;
let invalid = 0;
for (const line of lines) {
  try {
    decodeEnvelope(line);
  } catch {
    rejected++;
  }
  if (validate !== null && !validate(JSON.parse(line))) invalid++;
}

// Decoding first, holding nothing but the lines.
const decoders = {
  seconds_json_parse: () => {
    for (const line of lines) sink += JSON.parse(line) === null ? 1 : 0;
  },
  seconds: () => {
    for (const line of lines) {
      try {
        sink += decodeEnvelope(line) === null ? 1 : 0;
      } catch {
        sink += 1;
      }
    }
  },
};
if (validate !== null) {
  decoders.seconds_ajv = () => {
    for (const line of lines) sink += validate(JSON.parse(line)) ? 1 : 0;
  };
}
const decoding = race(decoders);

/** A character from the middle of `text`, which lays it out as one string. */
function laidOut(text) {
  return text.charCodeAt(text.length >> 1);
}

// Then encoding, holding the decoded values.
const envelopes = [];
const values = [];
for (const line of lines) {
  try {
    envelopes.push(decodeEnvelope(line));
  } catch {
    continue; // Counted above; neither encoder writes a rejected line.
  }
  values.push(JSON.parse(line));
}
const encoding = race({
  seconds_encode: () => {
    for (const envelope of envelopes) sink += laidOut(encodeEnvelope(envelope));
  },
  seconds_json_stringify: () => {
    for (const value of values) sink += laidOut(JSON.stringify(value));
  },
});
process.stdout.write(JSON.stringify({ lines: lines.length, rejected, invalid, ...decoding, ...encoding, sink }));
