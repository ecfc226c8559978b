// Throughput of Ajv (draft 2020-12 mode) on an NDJSON transcript, the way an
// implementer would run it: the bundle compiled once, then `JSON.parse` and
// `validate` for every line.
//
// Usage: node throughput.mjs BUNDLE NDJSON ROUNDS
// The file is read and its line ends found before timing; the timed part is,
// for every line, what a reader of the stream does: decode its UTF-8 bytes,
// `JSON.parse` and validate. Best of ROUNDS passes (the first ones warm up the
// JIT). Prints {"lines", "invalid", "seconds", "compile_seconds",
// "seconds_predecoded"}: the last is the same passes on lines decoded to
// strings beforehand, the decoding not counted.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { ajvFor } from "./ajv.mjs";

const [bundlePath, ndjsonPath, roundsArg] = process.argv.slice(2);
const bundle = JSON.parse(readFileSync(bundlePath, "utf8"));
const bytes = readFileSync(ndjsonPath);
const lines = [];
for (let start = 0; start < bytes.length; ) {
  let end = bytes.indexOf(0x0a, start);
  if (end < 0) end = bytes.length;
  if (end > start) lines.push([start, end]);
  start = end + 1;
}

const compileStart = performance.now();
const ajv = ajvFor(bundle);
const validate = ajv.getSchema(bundle.$id);
const compileSeconds = (performance.now() - compileStart) / 1000;

const rounds = Math.max(1, Number(roundsArg) || 1);
const texts = lines.map(([start, end]) => bytes.toString("utf8", start, end));
let best = Infinity;
let bestPredecoded = Infinity;
let invalid = 0;
for (let round = 0; round < rounds; round++) {
  invalid = 0;
  let start = performance.now();
  for (const [first, end] of lines) {
    if (!validate(JSON.parse(bytes.toString("utf8", first, end)))) invalid++;
  }
  best = Math.min(best, (performance.now() - start) / 1000);
  start = performance.now();
  let invalidPredecoded = 0;
  for (const text of texts) {
    if (!validate(JSON.parse(text))) invalidPredecoded++;
  }
  if (invalidPredecoded !== invalid) {
    throw new Error(`the passes disagree: ${invalid} and ${invalidPredecoded} invalid lines`);
  }
  bestPredecoded = Math.min(bestPredecoded, (performance.now() - start) / 1000);
}
process.stdout.write(
  JSON.stringify({
    lines: lines.length,
    invalid,
    seconds: best,
    compile_seconds: compileSeconds,
    seconds_predecoded: bestPredecoded,
  }),
);
