// Feeds lines through the built generated/typescript package: argv[2] is the
// package's dist/index.js, argv[3] a JSON array of lines. Prints a JSON array
// with, per line, {"ok": <the re-encoded line, newline dropped>} or
// {"err": <the WireError's message>}; anything else thrown is {"crash": ...}.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [, , entry, cases] = process.argv;
const { decodeEnvelope, encodeEnvelope, WireError } = await import(pathToFileURL(entry).href);
const lines = JSON.parse(readFileSync(cases, "utf8"));
const outcomes = lines.map((line) => {
  try {
    const text = encodeEnvelope(decodeEnvelope(line));
    return text.endsWith("\n") ? { ok: text.slice(0, -1) } : { crash: "no newline at the end" };
  } catch (error) {
    return error instanceof WireError ? { err: error.message } : { crash: String(error?.stack ?? error) };
  }
});
process.stdout.write(JSON.stringify(outcomes));
