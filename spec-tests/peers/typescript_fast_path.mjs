// Checks the generated TypeScript package's fast path (codec.ts) against its
// exact path (exact.ts) on every line: wherever the fast path decodes a line,
// the exact path must decode it to the same value (members in the same order,
// `bigint`s and numbers alike), and the fast encoder must write the bytes the
// exact encoder writes. argv[2] is the package's dist/ directory, argv[3] a
// JSON array of lines. Prints {"lines", "fast", "disagreements": [...]}: `fast`
// counts the lines the fast path decoded.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [, , dist, cases] = process.argv;
const load = (file) => import(pathToFileURL(`${dist}/${file}`).href);
const { decodeFast, encodeFast } = await load("codec.js");
const { decodeExact, encodeExact } = await load("exact.js");
const { trimEnd } = await load("json.js");
const lines = JSON.parse(readFileSync(cases, "utf8"));

/** A value's text with its members in order and the type of every number. */
function shown(value) {
  return JSON.stringify(value, (_, item) => (typeof item === "bigint" ? `${item}n` : item));
}

let fast = 0;
const disagreements = [];
for (const line of lines) {
  let quick;
  try {
    quick = decodeFast(trimEnd(line));
  } catch {
    quick = undefined;
  }
  if (quick === undefined) continue;
  fast++;
  let exact;
  try {
    exact = decodeExact(line);
  } catch (error) {
    disagreements.push({ line, fast: shown(quick), exact: String(error) });
    continue;
  }
  if (shown(quick) !== shown(exact)) {
    disagreements.push({ line, fast: shown(quick), exact: shown(exact) });
    continue;
  }
  let written;
  try {
    written = `${encodeFast(exact)}\n`;
  } catch {
    written = null;
  }
  if (written === null || written !== encodeExact(exact)) {
    disagreements.push({ line, encoded: written, exact: encodeExact(exact) });
  }
}
process.stdout.write(JSON.stringify({ lines: lines.length, fast, disagreements: disagreements.slice(0, 20) }));
