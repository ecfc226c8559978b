// Part of the runtime of the generated package, copied as it is by `cargo xtask
// codegen` from crates/cgp-codegen/templates/typescript/runtime/: edit it there.
//
// The helpers of the fast path (codec.ts). The fast path reads the line's text
// itself, with functions generated per type that know which members, and of
// what type, each object may hold; it accepts a line only when it can prove
// the exact path (exact.ts) would accept it and decode the same value, and
// otherwise throws `MISS`, after which the exact path decides. It reads:
//
// - members in any order, each at most once (a duplicate or a member the
//   types do not name is a miss), whitespace where JSON allows it;
// - strings by finding their closing quote, and taking the text between as it
//   is where no backslash lies before it; a string with escapes is built of
//   the runs between them and what each escape stands for, or, where they
//   come densely, read by `JSON.parse`; one holding an escaped lone surrogate
//   is a miss;
// - numbers as spelled: an integer member takes an integer spelling of at most
//   15 digits (which a double holds exactly) and nothing else; a float member
//   takes any JSON number, read by `Number` as the exact path reads it;
// - control characters and lone surrogates: one scan of the line looks for
//   both before it is read, or, in a line whose first escapes come densely,
//   of all but the strings `JSON.parse` reads (which checks them itself) as
//   it is read. A lone surrogate is a miss; a line holding a control
//   character (JSON whitespace outside strings, say) is read again, each
//   string checked for one;
// - nesting only as deep as the types nest, which codegen checks is within
//   the reference's limit.

import { formatFloat } from "./numbers.js";

/** Thrown where the fast path cannot vouch for a line or a value. */
export class Miss {}

/** The one instance thrown. */
export const MISS = new Miss();

/** Throws {@link MISS}; for use in expressions. */
export function miss(): never {
  throw MISS;
}

/**
 * How many lines `decodeLine` and values `encodeLine` left to the exact path
 * since the module loaded (wire.ts counts them where it catches the miss).
 * Diagnostic only: the tests hold the fast path to no miss on valid canonical
 * lines, so a shape the generated functions stopped reading cannot pass unseen.
 */
export const MISSES = { decode: 0, encode: 0 };

/** What the fast path has missed so far: diagnostic only (see {@link MISSES}). */
export interface FastPathStats {
  readonly decodeMisses: number;
  readonly encodeMisses: number;
}

/** A snapshot of the fast path's miss counts: diagnostic only. */
export function fastPathStats(): FastPathStats {
  return { decodeMisses: MISSES.decode, encodeMisses: MISSES.encode };
}

/** The line being read. */
let text = "";
/** Where the reading is. */
let at = 0;
/** The first backslash at or after `at`, or the line's length: a string
 * that closes before it holds no escape. */
let escapeAt = 0;
/** Whether the line holds a control character, which a string may not:
 * known when the line is read again (see `readLine`). */
let controls = false;
/** Where the text not yet scanned for control characters and lone
 * surrogates starts: what lies before it is scanned or was read by
 * `JSON.parse` (see `parsed`). */
let unscanned = 0;

/** Thrown where a line read without checking its strings one by one for
 * control characters turns out to hold one: the line is read again, checking
 * them. */
const AGAIN = new Miss();

/** A control character, which JSON allows only escaped in a string. */
const CONTROL = /[\u0000-\u001f]/;

/** A surrogate code unit. */
const SURROGATE = /[\uD800-\uDFFF]/;

/** A text whose surrogates all come in pairs (`isWellFormed`, faster here).
 * Written as runs between pairs (`a*(pb*)*`), never as a repeated choice of a
 * run or a pair (`(a+|p)*`), which backtracks exponentially when it fails. A
 * line with millions of pairs may overflow the expression's stack: the
 * `RangeError` is a miss like any other. */
const WELL_FORMED = /^[^\uD800-\uDFFF]*(?:[\uD800-\uDBFF][\uDC00-\uDFFF][^\uD800-\uDFFF]*)*$/;

/** A text without control characters whose surrogates all come in pairs:
 * both checks in one scan, for the lines that pass both (see `WELL_FORMED`). */
const CLEAN =
  /^[^\u0000-\u001f\uD800-\uDFFF]*(?:[\uD800-\uDBFF][\uDC00-\uDFFF][^\u0000-\u001f\uD800-\uDFFF]*)*$/;

/** The value a member holds before it is read. */
export const ABSENT: unique symbol = Symbol("absent");

/** The value `read` reads from `line`, which nothing but whitespace may
 * follow. The line is first read with its text scanned for control
 * characters and lone surrogates: as a whole before it is read, or, where its
 * first escapes come densely (see `dense`), piece by piece as it is read (see
 * `unscanned`), all but the strings `JSON.parse` reads. (Scanning a line of
 * canonical prose before reading it is some 2 % faster than after.) Where the
 * text holds one, the line is read again as a whole was scanned before: a
 * lone surrogate is a miss, and where the line holds a control character each
 * string is checked for one. The line is let go of, read or missed, so that
 * it is not kept alive. */
export function readLine(line: string, read: () => unknown): unknown {
  try {
    try {
      begin(line);
      controls = false;
      if (escapeAt < line.length && dense(escapeAt)) {
        unscanned = 0;
      } else {
        unscanned = line.length;
        if (!CLEAN.test(line)) throw AGAIN;
      }
      return finish(read());
    } catch (error) {
      if (error !== AGAIN) throw error;
    }
    begin(line);
    unscanned = line.length;
    if (SURROGATE.test(line) && !WELL_FORMED.test(line)) throw MISS;
    controls = CONTROL.test(line);
    return finish(read());
  } finally {
    text = "";
  }
}

function begin(line: string): void {
  text = line;
  at = 0;
  escapeAt = line.indexOf("\\");
  if (escapeAt < 0) escapeAt = line.length;
}

/** Ends the line, which held `value`: nothing but whitespace may follow the
 * envelope. */
function finish(value: unknown): unknown {
  skipSpace();
  if (at !== text.length) throw MISS;
  scanTo(at);
  return value;
}

/** Scans the text from `unscanned` to `end` (unless it was); where it holds
 * a control character or a lone surrogate, the line is read again. */
function scanTo(end: number): void {
  if (end <= unscanned) return;
  const piece = unscanned === 0 && end === text.length ? text : text.slice(unscanned, end);
  if (!CLEAN.test(piece)) throw AGAIN;
}

function skipSpace(): void {
  let code = text.charCodeAt(at);
  while (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) {
    at += 1;
    code = text.charCodeAt(at);
  }
}

/** The code of the next character that is not whitespace (`NaN` at the end). */
function next(): number {
  const code = text.charCodeAt(at);
  if (code > 0x20) return code;
  skipSpace();
  return text.charCodeAt(at);
}

/** Reads the character `code` (`{` or `[`) that opens an object or an array. */
export function open(code: number): void {
  if (next() !== code) throw MISS;
  at += 1;
}

/** Reads the `close` character (`}` or `]`) when it comes next. */
export function closes(close: number): boolean {
  if (next() !== close) return false;
  at += 1;
  return true;
}

/** Reads the `,` before another member or item (true), or the `close` that
 * ends the object or array (false). */
export function more(close: number): boolean {
  const code = next();
  at += 1;
  if (code === 0x2c) return true;
  if (code === close) return false;
  throw MISS;
}

/** Reads the colon after a member name that closes at `close`. */
function colonAfter(close: number): void {
  at = close + 1;
  if (text.charCodeAt(at) !== 0x3a && next() !== 0x3a) throw MISS;
  at += 1;
}

/** Reads a member's name, which must be one of `names`, and the colon
 * after it; gives the name's index. The name at `from`, the one after the
 * last member read, is tried first (canonical text writes members in their
 * declared order, some left out): only where the text holds a quote just
 * after a name of its length, and then the text before that quote is sliced
 * and compared with it. Equal, it is the member's whole name, and unescaped
 * (no name of the types holds a quote or a backslash). That is faster than
 * finding the closing quote first (the dense transcript's decoding 12.4 →
 * 12.1 ms), and than `startsWith` or comparing character by character. Where
 * it is not that name (SDKs write members in other orders), the closing quote
 * is found and the names of the length it gives are compared, from the next
 * one on (SDK-style decoding some 5 % faster than trying each name's length
 * at the text). */
export function member(names: readonly string[], from: number): number {
  if (text.charCodeAt(at) !== 0x22 && next() !== 0x22) throw MISS;
  const start = at + 1;
  const count = names.length;
  if (count === 0) throw MISS;
  let i = from === count ? 0 : from;
  let name = names[i]!;
  if (text.charCodeAt(start + name.length) === 0x22 && text.slice(start, start + name.length) === name) {
    colonAfter(start + name.length);
    return i;
  }
  const close = text.indexOf('"', start);
  const length = close - start;
  for (let tried = 1; tried < count; tried += 1) {
    i = i + 1 === count ? 0 : i + 1;
    name = names[i]!;
    if (name.length === length && text.slice(start, close) === name) {
      colonAfter(close);
      return i;
    }
  }
  throw MISS;
}

/** Reads `null` when it comes next. */
export function isNull(): boolean {
  if (text.charCodeAt(at) !== 0x6e && next() !== 0x6e) return false;
  if (text.charCodeAt(at + 1) !== 0x75 || text.charCodeAt(at + 2) !== 0x6c || text.charCodeAt(at + 3) !== 0x6c) {
    throw MISS;
  }
  at += 4;
  return true;
}

/** A string. */
export function str(): string {
  if (text.charCodeAt(at) !== 0x22 && next() !== 0x22) throw MISS;
  const start = at + 1;
  const close = text.indexOf('"', start);
  if (close < 0) throw MISS;
  if (close > escapeAt) return dense(start) ? parsed(start, close) : escaped(start, close);
  at = close + 1;
  const value = text.slice(start, close);
  if (controls && CONTROL.test(value)) throw MISS;
  return value;
}

/** What an escape's letter stands for (`u` aside), by the letter's code
 * (under 128); "" where no escape has that letter. A table of every code,
 * not an object of the eight: V8 keeps an object with such sparse integer
 * keys as a dictionary, a hash lookup for every escape (SDK-style and mixed
 * decoding some 3 % faster with the table). */
const ESCAPED: readonly string[] = (() => {
  const table = new Array<string>(128).fill("");
  const pairs: [string, string][] = [
    ['"', '"'],
    ["\\", "\\"],
    ["/", "/"],
    ["b", "\b"],
    ["f", "\f"],
    ["n", "\n"],
    ["r", "\r"],
    ["t", "\t"],
  ];
  for (const [letter, stands] of pairs) table[letter.charCodeAt(0)] = stands;
  return table;
})();

/** The four hexadecimal digits at `from` as a number, or -1. */
function hex4(from: number): number {
  let value = 0;
  for (let i = from; i < from + 4; i += 1) {
    const code = text.charCodeAt(i);
    let digit: number;
    if (code >= 0x30 && code <= 0x39) digit = code - 0x30;
    else if (code >= 0x61 && code <= 0x66) digit = code - 0x57;
    else if (code >= 0x41 && code <= 0x46) digit = code - 0x37;
    else return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** How many escapes a string's first {@link DENSE_SPAN} characters hold
 * where they are dense. */
const DENSE_AFTER = 8;

/** The most characters a string may take for its first {@link DENSE_AFTER}
 * escapes to be dense: about where `JSON.parse` of the whole string (some
 * 2 ns a character) gets cheaper than the runs (some 70 ns an escape). */
const DENSE_SPAN = 256;

/** Whether the string from `start`, whose first escape is at `escapeAt`,
 * holds its escapes densely: {@link DENSE_AFTER} backslashes in its first
 * {@link DENSE_SPAN} characters (an escaped backslash counted once; those of
 * the text after a short string too, which only makes `JSON.parse` read it).
 * Weighed before the string is read, not while it is (which slowed every
 * escape of canonical prose). */
function dense(start: number): boolean {
  const end = start + DENSE_SPAN;
  let slash = escapeAt;
  for (let count = 1; count < DENSE_AFTER; count += 1) {
    slash = text.indexOf("\\", slash + 2);
    if (slash < 0 || slash >= end) return false;
  }
  return true;
}

/** A string holding an escape (the first at `escapeAt`), from `start`
 * (after its opening quote), `quote` the first quote after it: its plain runs
 * as they are, each escape as what it stands for; an escaped lone surrogate
 * is a miss. (A string whose escapes come densely, as Python's `\uXXXX` for
 * every non-ASCII character, is read by {@link parsed} instead.) */
function escaped(start: number, quote: number): string {
  let value = "";
  let from = start;
  let slash = escapeAt;
  for (;;) {
    if (quote < from) quote = text.indexOf('"', from);
    if (quote < 0) throw MISS;
    const end = quote < slash ? quote : slash;
    if (controls && CONTROL.test(text.slice(from, end))) throw MISS;
    value += text.slice(from, end);
    if (end === quote) break;
    const code = text.charCodeAt(slash + 1);
    if (code === 0x75) {
      const unit = hex4(slash + 2);
      if (unit < 0) throw MISS;
      from = slash + 6;
      if (unit >= 0xd800 && unit <= 0xdfff) {
        // Only a leading surrogate escaped right before a trailing one.
        const low = text.charCodeAt(from) === 0x5c && text.charCodeAt(from + 1) === 0x75 ? hex4(from + 2) : -1;
        if (unit > 0xdbff || low < 0xdc00 || low > 0xdfff) throw MISS;
        value += String.fromCharCode(unit, low);
        from += 6;
      } else {
        value += String.fromCharCode(unit);
      }
    } else {
      const stands = code < 128 ? ESCAPED[code]! : "";
      if (stands === "") throw MISS;
      value += stands;
      from = slash + 2;
    }
    slash = text.indexOf("\\", from);
    if (slash < 0) slash = text.length;
  }
  at = quote + 1;
  escapeAt = slash;
  return value;
}

/** The string that opens before `start` and holds escapes, read by
 * `JSON.parse` of its text; `first` is the first quote after `start`.
 * `JSON.parse` decodes
 * escapes as the exact path does and refuses a control character or a bad
 * escape (a miss here); a lone surrogate, raw or escaped, which it takes, is
 * a miss. */
function parsed(start: number, first: number): string {
  const quote = closingQuote(start, first);
  let value: string;
  try {
    value = JSON.parse(text.slice(start - 1, quote + 1)) as string;
  } catch {
    throw MISS;
  }
  if (!value.isWellFormed()) throw MISS;
  if (unscanned < text.length) {
    // The string's text is checked: scan what lies before it, from there on.
    scanTo(start - 1);
    unscanned = quote + 1;
  }
  at = quote + 1;
  escapeAt = text.indexOf("\\", at);
  if (escapeAt < 0) escapeAt = text.length;
  return value;
}

/** The index of the quote that closes the string read at `from` (where no
 * escape is under way), `first` the first quote at or after `from`: the first
 * quote not escaped, that is, after an even run of backslashes. */
function closingQuote(from: number, first: number): number {
  let quote = first;
  for (;;) {
    if (quote < 0) throw MISS;
    let run = quote;
    while (run > from && text.charCodeAt(run - 1) === 0x5c) run -= 1;
    if ((quote - run) % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
}

/** A string of `min..=max` characters (code points). */
export function strLength(min: number, max: number): string {
  const value = str();
  // Code points lie between half the UTF-16 units and all of them.
  if (value.length <= max && value.length >= 2 * min) return value;
  const length = [...value].length;
  if (length < min || length > max) throw MISS;
  return value;
}

/** One of the strings of `values`. */
export function oneOf(values: readonly string[]): string {
  const value = str();
  const found = values.indexOf(value);
  if (found < 0) throw MISS;
  return values[found]!;
}

/** Exactly the string `constant`. */
export function exactly(constant: string): string {
  if (str() !== constant) throw MISS;
  return constant;
}

export function bool(): boolean {
  const code = next();
  if (code === 0x74 && text.charCodeAt(at + 1) === 0x72 && text.charCodeAt(at + 2) === 0x75 && text.charCodeAt(at + 3) === 0x65) {
    at += 4;
    return true;
  }
  if (
    code === 0x66 &&
    text.charCodeAt(at + 1) === 0x61 &&
    text.charCodeAt(at + 2) === 0x6c &&
    text.charCodeAt(at + 3) === 0x73 &&
    text.charCodeAt(at + 4) === 0x65
  ) {
    at += 5;
    return false;
  }
  throw MISS;
}

export function nul(): null {
  if (!isNull()) throw MISS;
  return null;
}

/** An integer in `min..=max`, spelled as one, of 15 digits at most: a double
 * holds it exactly. `-0` and any other spelling are left to the exact path. */
export function int(min: number, max: number): number {
  let code = next();
  let from = at;
  const negative = code === 0x2d;
  if (negative) {
    from += 1;
    code = text.charCodeAt(from);
  }
  let value = code - 0x30;
  let end = from + 1;
  if (value >= 1 && value <= 9) {
    code = text.charCodeAt(end);
    while (code >= 0x30 && code <= 0x39) {
      value = value * 10 + (code - 0x30);
      end += 1;
      code = text.charCodeAt(end);
    }
    if (end - from > 15) throw MISS;
  } else if (value !== 0 || negative) {
    throw MISS;
  } else {
    code = text.charCodeAt(end);
  }
  if (code === 0x2e || code === 0x65 || code === 0x45 || (code >= 0x30 && code <= 0x39)) throw MISS;
  at = end;
  if (negative) value = -value;
  if (value < min || value > max) throw MISS;
  return value;
}

/** An integer that may need 64 bits, as a `bigint` (15 digits at most here). */
export function bigInt(min: number, max: number): bigint {
  return BigInt(int(min, max));
}

/** Where the JSON number at `at` ends; a miss where it breaks JSON's grammar. */
function numberEnd(): number {
  let end = at;
  let code = text.charCodeAt(end);
  if (code === 0x2d) code = text.charCodeAt(++end);
  if (code === 0x30) {
    code = text.charCodeAt(++end);
  } else if (code >= 0x31 && code <= 0x39) {
    do code = text.charCodeAt(++end);
    while (code >= 0x30 && code <= 0x39);
  } else {
    throw MISS;
  }
  if (code === 0x2e) {
    code = text.charCodeAt(++end);
    if (!(code >= 0x30 && code <= 0x39)) throw MISS;
    do code = text.charCodeAt(++end);
    while (code >= 0x30 && code <= 0x39);
  }
  if (code === 0x65 || code === 0x45) {
    code = text.charCodeAt(++end);
    if (code === 0x2b || code === 0x2d) code = text.charCodeAt(++end);
    if (!(code >= 0x30 && code <= 0x39)) throw MISS;
    do code = text.charCodeAt(++end);
    while (code >= 0x30 && code <= 0x39);
  }
  return end;
}

/** A JSON number read as a double, as the exact path reads it. */
function double(): number {
  next();
  const end = numberEnd();
  const value = Number(text.slice(at, end));
  if (!Number.isFinite(value)) throw MISS;
  at = end;
  return value;
}

function within(value: number, min: number, minExclusive: boolean, max: number, maxExclusive: boolean): number {
  if (minExclusive ? value <= min : value < min) throw MISS;
  if (maxExclusive ? value >= max : value > max) throw MISS;
  return value;
}

/** A double within the limits (an exclusive one given as such). */
export function num(min: number, minExclusive: boolean, max: number, maxExclusive: boolean): number {
  return within(double(), min, minExclusive, max, maxExclusive);
}

/** A number read as the reference reads an `f32`, within the limits. */
export function f32(min: number, minExclusive: boolean, max: number, maxExclusive: boolean): number {
  return within(Math.fround(double()), min, minExclusive, max, maxExclusive);
}

/** The value of the member `tag` of the object that comes next, a string,
 * read without moving on: which branch of a union to read, a guess that the
 * branch's reader checks (it reads the tag again). A miss where the object
 * has no such member, or holds it other than as a plain string. Where the tag
 * is not the first member (SDKs write members in any order), it is looked
 * for as the line's last member (Python's and Go's SDKs sort members by
 * name), then, in the line's object, where the text names it with one of
 * the branches' tags `tags` (see `foundTag`), and last after the members
 * before it, skipped over without decoding their strings. */
export function peekTag(tag: string, tags: readonly string[]): string {
  const from = at;
  const escapeFrom = escapeAt;
  open(0x7b);
  let found: string | undefined;
  if (!closes(0x7d)) {
    let first = true;
    do {
      if (next() !== 0x22) throw MISS;
      const start = at + 1;
      if (skipName() - start === tag.length && text.startsWith(tag, start)) {
        if (escapeAt < at) {
          escapeAt = text.indexOf("\\", at);
          if (escapeAt < 0) escapeAt = text.length;
        }
        found = str();
        break;
      }
      // The top level's object (at the line's start) ends where the line
      // does: the tag is looked for before the first member is skipped.
      if (first && from === 0) {
        found = lastTag(tag) ?? foundTag(tag, tags);
        if (found !== undefined) break;
      }
      first = false;
      skipValue(1);
    } while (more(0x7d));
  }
  at = from;
  escapeAt = escapeFrom;
  if (found === undefined) throw MISS;
  return found;
}

/** The value of the last member of the line's object where that member is
 * `tag` and its value a string without escapes, read back from the line's
 * end; `undefined` otherwise. In a line of JSON the quote before the closing
 * brace closes the last member's value, the quote before it opens it where a
 * colon precedes it (a quote in a string is escaped), and the name before the
 * colon is `tag` where a comma or the opening brace precedes it. */
function lastTag(tag: string): string | undefined {
  const brace = spaceBefore(text.length);
  const close = spaceBefore(brace);
  if (text.charCodeAt(brace) !== 0x7d || text.charCodeAt(close) !== 0x22) return undefined;
  const open = text.lastIndexOf('"', close - 1);
  const colon = spaceBefore(open);
  if (open < 0 || text.charCodeAt(colon) !== 0x3a) return undefined;
  const name = spaceBefore(colon) - tag.length - 1;
  const before = text.charCodeAt(spaceBefore(name));
  if (text.charCodeAt(name) !== 0x22 || text.charCodeAt(name + tag.length + 1) !== 0x22) return undefined;
  if ((before !== 0x2c && before !== 0x7b) || !text.startsWith(tag, name + 1)) return undefined;
  const value = text.slice(open + 1, close);
  return value.indexOf("\\") < 0 ? value : undefined;
}

/** The first of `tags` that the line's text gives as the value of a member
 * `tag`, spelled plainly (`"tag"`, a colon and a quoted tag, whitespace
 * between), or `undefined`. A quote in a string is escaped, so the text
 * names a member there; it may be one nested deeper, which the branch's
 * reader finds out (a miss). Finding the name costs one search of the text
 * where skipping the members before it reads their structure (a shuffled
 * line holding frames: SDK-style decoding some 3 % faster). */
function foundTag(tag: string, tags: readonly string[]): string | undefined {
  const name = `"${tag}"`;
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + name.length)) {
    let colon = at + name.length;
    while (text.charCodeAt(colon) === 0x20) colon += 1;
    if (text.charCodeAt(colon) !== 0x3a) continue;
    let open = colon + 1;
    while (text.charCodeAt(open) === 0x20) open += 1;
    if (text.charCodeAt(open) !== 0x22) continue;
    const close = text.indexOf('"', open + 1);
    const value = text.slice(open + 1, close);
    if (tags.indexOf(value) >= 0) return value;
  }
  return undefined;
}

/** The index of the last character before `end` that is not whitespace
 * (-1 where there is none). */
function spaceBefore(end: number): number {
  let i = end - 1;
  let code = text.charCodeAt(i);
  while (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) code = text.charCodeAt(--i);
  return i;
}

/** Skips a member's name, any spelling, and the colon after it; gives the
 * index of the name's closing quote. */
function skipName(): number {
  if (next() !== 0x22) throw MISS;
  const close = closingQuote(at + 1, text.indexOf('"', at + 1));
  at = close + 1;
  if (next() !== 0x3a) throw MISS;
  at += 1;
  return close;
}

/** Skips the string at `at` (its opening quote), escapes and all, without
 * decoding it: what it holds is read when the value is. */
function skipString(): void {
  at = closingQuote(at + 1, text.indexOf('"', at + 1)) + 1;
}

/** Skips one value of any kind, at most 127 levels deep. */
function skipValue(depth: number): void {
  const code = next();
  if (code === 0x22) {
    skipString();
  } else if (code === 0x7b || code === 0x5b) {
    if (depth > 127) throw MISS;
    const close = code + 2;
    at += 1;
    if (closes(close)) return;
    do {
      if (close === 0x7d) skipName();
      skipValue(depth + 1);
    } while (more(close));
  } else if (code === 0x74 || code === 0x66) {
    bool();
  } else if (code === 0x6e) {
    nul();
  } else {
    at = numberEnd();
  }
}

// ---------------------------------------------------------------- encoding

/** A character a string's JSON spelling escapes, or a surrogate. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\uD800-\uDFFF]/;

/** A control character other than the line feed. */
const RARE_CONTROL = /[\u0000-\u0009\u000b-\u001f]/;

/** A string as the reference encoder writes it: between quotes, `"` and `\`
 * escaped with a backslash, control characters escaped as serde_json escapes
 * them (`\n`, `\t`, …, `\u001f`); a lone surrogate has no spelling (the exact
 * path says so). Without a character to escape the string is written as it
 * is. With only quotes, backslashes and line feeds to escape (prose), quotes
 * and backslashes are replaced, and the text between line feeds is joined by
 * `\n` without a copy (replacing the line feeds too copied the whole string
 * once more: 13 % slower on the bench's prose); either is several times
 * faster than `JSON.stringify` of the string here. Anything else is written
 * by `JSON.stringify`, which escapes what serde_json escapes in a well-formed
 * string. */
export function writeStr(value: unknown): string {
  if (typeof value !== "string") throw MISS;
  if (!NEEDS_ESCAPE.test(value)) return `"${value}"`;
  if (!value.isWellFormed()) throw MISS;
  if (RARE_CONTROL.test(value)) return JSON.stringify(value);
  let text = value;
  if (text.indexOf("\\") >= 0) text = text.replaceAll("\\", "\\\\");
  if (text.indexOf('"') >= 0) text = text.replaceAll('"', '\\"');
  let out = '"';
  let from = 0;
  for (let feed = text.indexOf("\n"); feed >= 0; feed = text.indexOf("\n", from)) {
    out += text.slice(from, feed);
    out += "\\n";
    from = feed + 1;
  }
  return from === 0 ? `"${text}"` : `${out}${text.slice(from)}"`;
}

export function writeOneOf(value: unknown, values: readonly string[]): string {
  if (typeof value !== "string" || !values.includes(value)) throw MISS;
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

/** A number as serde_json writes an `f64` (numbers.ts). */
export function writeNum(value: unknown): string {
  if (typeof value !== "number") throw MISS;
  return formatFloat(value, false);
}

/** A number as serde_json writes an `f32` (numbers.ts). */
export function writeF32(value: unknown): string {
  if (typeof value !== "number") throw MISS;
  return formatFloat(value, true);
}

/** `value` as an object whose members may be read, or {@link MISS} (the
 * exact path writes what else it may be). */
export function record(value: unknown): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw MISS;
  return value as Record<string, unknown>;
}

export function writeList(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw MISS;
  return value as unknown[];
}
