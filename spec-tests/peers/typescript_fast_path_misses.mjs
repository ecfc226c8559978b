// Counts the lines the generated TypeScript package's fast path (codec.ts)
// leaves to its exact path (exact.ts): each line goes through the package's
// own decodeEnvelope and encodeEnvelope, and fastPathStats() (diagnostic only)
// says whether either missed. argv[2] is the package's dist/ directory, argv[3]
// a JSON array of lines, each one the package accepts. Prints
// {"lines", "decodeMisses", "encodeMisses", "missed": [...]}, `missed` naming
// (at most 20 of) the lines that missed.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [, , dist, cases] = process.argv;
const { decodeEnvelope, encodeEnvelope, fastPathStats } = await import(pathToFileURL(`${dist}/index.js`).href);
const lines = JSON.parse(readFileSync(cases, "utf8"));

const missed = [];
for (const line of lines) {
  const before = fastPathStats();
  encodeEnvelope(decodeEnvelope(line));
  const after = fastPathStats();
  if (after.decodeMisses !== before.decodeMisses) missed.push({ line, path: "decode" });
  if (after.encodeMisses !== before.encodeMisses) missed.push({ line, path: "encode" });
}
const { decodeMisses, encodeMisses } = fastPathStats();
process.stdout.write(JSON.stringify({ lines: lines.length, decodeMisses, encodeMisses, missed: missed.slice(0, 20) }));
