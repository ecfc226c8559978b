// Part of the runtime of the generated package, copied as it is by `cargo xtask
// codegen` from crates/cgp-codegen/templates/typescript/runtime/: edit it there.
//
// One NDJSON line in, one envelope out, and back. Each call tries the fast path
// (codec.ts: a read and an encode function generated per type, over fast.ts's
// reader and writers) and, wherever
// that cannot vouch for its answer, takes the exact path (exact.ts: a JSON
// reader of its own and the table of shapes), so every verdict, error and byte
// is the exact path's: the reference decoder's verdicts, the reference
// encoder's bytes.

import { decodeFast, encodeFast } from "./codec.js";
import { decodeExact, encodeExact } from "./exact.js";
import { MISSES } from "./fast.js";
import { trimEnd } from "./json.js";
import type { Envelope } from "./types.js";

/**
 * Decodes one NDJSON line (trailing whitespace and a newline allowed) into an
 * envelope, exactly where the reference decoder accepts it; throws
 * {@link WireError} on every line the reference decoder rejects.
 */
export function decodeLine(line: string): Envelope {
  if (typeof line === "string") {
    try {
      return decodeFast(trimEnd(line)) as Envelope;
    } catch {
      // The exact path decides.
      MISSES.decode += 1;
    }
  }
  return decodeExact(line) as Envelope;
}

/**
 * The canonical line of `envelope`, newline included: byte for byte what the
 * reference encoder writes. Members are written in their declared order; an
 * optional member is left out as its emit rule says. Throws
 * {@link WireError} on a value its type does not allow.
 */
export function encodeLine(envelope: Envelope): string {
  try {
    return `${encodeFast(envelope)}\n`;
  } catch {
    // The exact path writes it, or says why not.
    MISSES.encode += 1;
  }
  return encodeExact(envelope);
}

/** {@link decodeLine}, by the name of the package's first releases. */
export const decodeEnvelope: (line: string) => Envelope = decodeLine;

/** {@link encodeLine}, by the name of the package's first releases. */
export const encodeEnvelope: (envelope: Envelope) => string = encodeLine;
