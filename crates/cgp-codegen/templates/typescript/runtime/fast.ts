// Part of the runtime of the generated package, copied as it is by `cargo xtask
// codegen` from crates/cgp-codegen/templates/typescript/runtime/: edit it there.
//
// The helpers of the fast path (codec.ts). The fast path lets `JSON.parse`
// build the values and checks them with functions generated per type; it
// accepts a line only when it can prove the exact path (exact.ts) would accept
// it and decode the same value, and otherwise throws `MISS`, after which the
// exact path decides. What `JSON.parse` hides is found as follows:
//
// - number spellings (`1.0`, `1e2`, `-0`), integers of 16 digits or more and
//   numbers a double cannot hold: `SUSPECT` finds every number that could be
//   one, and such a line takes the exact path;
// - lone surrogates spelled as escapes, and the escaped colon: `SUSPECT` too;
// - duplicate members (`JSON.parse` keeps the last) and members the types do
//   not name: every member written in the text has one colon outside strings,
//   so the colons of the text, less those inside the strings the fast path
//   read, must equal the members it read (`tally`); one member it did not read,
//   or read once for two, leaves a colon over;
// - nesting depth: the generated functions read only the types' own nesting,
//   which codegen checks is within the reference's limit; anything deeper is
//   in a member the types do not name.

import { formatFloat } from "./numbers.js";

/** Thrown where the fast path cannot vouch for a line or a value. */
export class Miss {}

/** The one instance thrown. */
export const MISS = new Miss();

/** Throws {@link MISS}; for use in expressions. */
export function miss(): never {
  throw MISS;
}

/** Members read, and colons inside the strings read, in the current line. */
export const tally = { keys: 0, colons: 0 };

/**
 * `SUSPECT`, what `suspect` looks for: a lone-surrogate escape
 * (`\ud800`…`\udfff`), an escaped colon, or, right after a `:`, `,` or
 * `[`, whitespace before a number, or a number spelled
 * `-0`, with 16 or more digits before its point, with a fraction of zeros
 * only, or with an exponent, ended as a number ends (so that the hexadecimal
 * digits of a digest after `sha256:` do not look like one), or a fraction of
 * 16 digits or more that may round to an integer: a double holds 15 digits
 * exactly, so a shorter decimal is integral only when its fraction is zeros,
 * and a longer one (of less than 16 digits before its point) rounds to an
 * integer only from within 1/16 of it, where its fraction starts with 0 or 9
 * (after `0.`, with 9 or with 16 zeros). A match inside a string only costs
 * speed.
 */
const SUSPECT_NUMBER =
  /[:,[](?=[-\d. \t\n\r])(?:[ \t\n\r]+[-\d]|-0(?=[,}\] \t\n\r])|-?(?:\d{16}[\d.]*(?:[eE][+-]?\d+)?(?=[,}\] \t\n\r])|(?=[\d.]{17})(?:0\.(?:9|0{16})|[1-9]\d*\.[09])|(?:\d+\.0+|[\d.]+[eE][+-]?\d+)(?=[,}\] \t\n\r])))/;

/** The escapes of `SUSPECT` (see above), tested only where `\u` occurs. */
const SUSPECT_ESCAPE = /\\u[dD][89a-fA-F]|\\u003[aA]/;

/** Whether `text` holds a match of `SUSPECT`. The same matches as one
 * expression, found faster: the escapes are sought only in a text holding
 * `\u`, and the lookahead after `:`, `,` or `[` turns away at once a string,
 * an object or an array (every number alternative starts with one of its
 * characters), where the alternatives were tried one by one. */
function suspect(text: string): boolean {
  return SUSPECT_NUMBER.test(text) || (text.indexOf("\\u") >= 0 && SUSPECT_ESCAPE.test(text));
}

/** The value of `text`, or {@link MISS} where the fast path cannot read it. */
export function parse(text: string): unknown {
  if (suspect(text)) throw MISS;
  try {
    return JSON.parse(text);
  } catch {
    throw MISS;
  }
}

/** How many colons `text` holds. */
export function colons(text: string): number {
  let count = 0;
  let at = text.indexOf(":");
  while (at >= 0) {
    count += 1;
    at = text.indexOf(":", at + 1);
  }
  return count;
}

/** Whether every member of `text` was read once: see the module comment. */
export function allRead(text: string): boolean {
  return colons(text) - tally.colons === tally.keys;
}

/** A string, its colons counted. */
export function str(value: unknown): string {
  if (typeof value !== "string") throw MISS;
  if (value.indexOf(":") >= 0) tally.colons += colons(value);
  return value;
}

/** A string of `min..=max` characters (code points). */
export function strLength(value: unknown, min: number, max: number): string {
  const text = str(value);
  // Code points lie between half the UTF-16 units and all of them.
  if (text.length <= max && text.length >= 2 * min) return text;
  const length = [...text].length;
  if (length < min || length > max) throw MISS;
  return text;
}

/** One of the strings of `values`. */
export function oneOf(value: unknown, values: ReadonlySet<string>): string {
  if (typeof value !== "string" || !values.has(value)) throw MISS;
  if (value.indexOf(":") >= 0) tally.colons += colons(value);
  return value;
}

/** Exactly `constant` (a string, a boolean, a number or `null`). */
export function exactly<T>(value: unknown, constant: T): T {
  if (value !== constant) throw MISS;
  if (typeof constant === "string" && constant.indexOf(":") >= 0) tally.colons += colons(constant);
  return constant;
}

export function bool(value: unknown): boolean {
  if (typeof value !== "boolean") throw MISS;
  return value;
}

export function nul(value: unknown): null {
  if (value !== null) throw MISS;
  return null;
}

/** An integer in `min..=max`. `SUSPECT` has made sure it was spelled as one
 * and holds fewer than 16 digits, so the double is the integer written. */
export function int(value: unknown, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) throw MISS;
  return value;
}

/** An integer that may need 64 bits, as a `bigint`. */
export function bigInt(value: unknown, min: number, max: number): bigint {
  return BigInt(int(value, min, max));
}

/** A double within the limits (an exclusive one given as such). */
export function num(value: unknown, min: number, minExclusive: boolean, max: number, maxExclusive: boolean): number {
  if (typeof value !== "number") throw MISS;
  if (minExclusive ? value <= min : value < min) throw MISS;
  if (maxExclusive ? value >= max : value > max) throw MISS;
  return value;
}

/** A number read as the reference reads an `f32`, within the limits. */
export function f32(value: unknown, min: number, minExclusive: boolean, max: number, maxExclusive: boolean): number {
  if (typeof value !== "number") throw MISS;
  return num(Math.fround(value), min, minExclusive, max, maxExclusive);
}

/** `value` as an object whose members may be read, or {@link MISS} (the
 * exact path reads the array form). */
export function record(value: unknown): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw MISS;
  return value as Record<string, unknown>;
}

/** `value` as an array of `min..=max` items. */
export function list(value: unknown, min: number, max: number): unknown[] {
  if (!Array.isArray(value) || value.length < min || value.length > max) throw MISS;
  return value as unknown[];
}

// ---------------------------------------------------------------- encoding

/** A string as the reference encoder writes it: `JSON.stringify` escapes
 * exactly what serde_json escapes once the string is well formed. A lone
 * surrogate comes out as a `\u` escape, so only a text holding one is
 * checked further. */
export function writeStr(value: unknown): string {
  if (typeof value !== "string") throw MISS;
  const text = JSON.stringify(value);
  if (text.indexOf("\\u") >= 0 && !value.isWellFormed()) throw MISS;
  return text;
}

export function writeOneOf(value: unknown, values: ReadonlySet<string>): string {
  if (typeof value !== "string" || !values.has(value)) throw MISS;
  return writeStr(value);
}

export function writeBool(value: unknown): string {
  if (typeof value !== "boolean") throw MISS;
  return value ? "true" : "false";
}

/** An integer in `min..=max` that a `number` holds exactly. */
export function writeInt(value: unknown, min: number, max: number): string {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min || value > max) throw MISS;
  return String(value);
}

/** An integer in `min..=max`, a `bigint` or a `number`. */
export function writeBigInt(value: unknown, min: bigint, max: bigint): string {
  let exact: bigint;
  if (typeof value === "bigint") {
    exact = value;
  } else if (typeof value === "number" && Number.isInteger(value)) {
    exact = BigInt(value);
  } else {
    throw MISS;
  }
  if (exact < min || exact > max) throw MISS;
  return exact.toString();
}

/** A double as serde_json writes an `f64`: between 1e-5 and 1e16 that is
 * JavaScript's own shortest spelling, with `.0` after an integer. */
export function writeNum(value: unknown): string {
  if (typeof value !== "number") throw MISS;
  const magnitude = Math.abs(value);
  if (magnitude >= 1e-5 && magnitude < 1e16) {
    return Number.isInteger(value) ? `${value}.0` : String(value);
  }
  return formatFloat(value, false);
}

/** Six significant digits or fewer, in plain notation. */
const FEW_DIGITS = /^-?(?:0\.0*\d{1,6}|\d{1,6}|(?=[\d.]{1,7}$)\d+\.\d+)$/;

/** A number as serde_json writes an `f32`. When JavaScript's shortest
 * spelling of the `f32` value has six digits or fewer, no shorter decimal
 * rounds to the same `f32` (they lie further apart than its precision), so
 * that spelling is the shortest for an `f32` too. */
export function writeF32(value: unknown): string {
  if (typeof value !== "number") throw MISS;
  const single = Math.fround(value);
  const magnitude = Math.abs(single);
  if (magnitude >= 1e-5 && magnitude < 1e12) {
    const text = String(single);
    if (FEW_DIGITS.test(text)) return Number.isInteger(single) ? `${text}.0` : text;
  }
  return formatFloat(value, true);
}

export function writeList(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw MISS;
  return value as unknown[];
}
