// Throughput of the generated TypeScript package's `decodeEnvelope` against
// plain `JSON.parse` on the same NDJSON lines, in one node process.
//
// Usage: node typescript_throughput.mjs PACKAGE_ENTRY NDJSON ROUNDS
// PACKAGE_ENTRY is the built package's dist/index.js. The file is read and cut
// into strings before timing, so both candidates get the same strings. Each
// round times `JSON.parse` on every line, then `decodeEnvelope`; the best of
// ROUNDS rounds counts (the first ones warm up the JIT). Prints {"lines",
// "rejected", "seconds", "seconds_json_parse"}.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

const [entry, ndjsonPath, roundsArg] = process.argv.slice(2);
const { decodeEnvelope } = await import(pathToFileURL(entry).href);
const lines = readFileSync(ndjsonPath, "utf8").split("\n").filter((line) => line.length > 0);
const rounds = Math.max(1, Number(roundsArg) || 1);
let best = Infinity;
let bestParse = Infinity;
let rejected = 0;
let sink = 0;
for (let round = 0; round < rounds; round++) {
  let start = performance.now();
  for (const line of lines) {
    sink += JSON.parse(line) === null ? 1 : 0;
  }
  bestParse = Math.min(bestParse, (performance.now() - start) / 1000);
  rejected = 0;
  start = performance.now();
  for (const line of lines) {
    try {
      sink += decodeEnvelope(line) === null ? 1 : 0;
    } catch {
      rejected++;
    }
  }
  best = Math.min(best, (performance.now() - start) / 1000);
}
process.stdout.write(
  JSON.stringify({ lines: lines.length, rejected, seconds: best, seconds_json_parse: bestParse, sink }),
);
