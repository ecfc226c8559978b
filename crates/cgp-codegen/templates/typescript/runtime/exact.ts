// Part of the runtime of the generated package, copied as it is by `cargo xtask
// codegen` from crates/cgp-codegen/templates/typescript/runtime/: edit it there.
//
// The exact path: one NDJSON line in, one value out, and back, by walking the
// shapes of shapes.ts. `decodeExact` reads a line the way the reference
// decoder does: its own JSON reader (json.ts, not `JSON.parse`), so duplicate
// members, integers spelled as floats, 64-bit integers and nesting depth are
// seen, and the reference decoder's leniencies, so it accepts exactly the lines
// the reference accepts. `encodeExact` writes the canonical line, byte for byte
// what the reference encoder writes. codec.ts tries its generated functions
// first and comes here for every line or value they cannot vouch for, so every
// verdict, error and byte is this module's.

import { SHAPES } from "./shapes.js";
import type { BranchShape, MemberShape, Shape } from "./shape.js";
import { formatFloat, toF32 } from "./numbers.js";
import { JsonNumber, JsonObject, Reader, WireError, trimEnd, type Json } from "./json.js";

// ---------------------------------------------------------------- decoding

function pointerTo(pointer: string, token: string | number): string {
  return `${pointer}/${String(token).replaceAll("~", "~0").replaceAll("/", "~1")}`;
}

function describe(value: Json): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (value instanceof JsonObject) return "an object";
  if (value instanceof JsonNumber) return `the number ${value.text}`;
  return typeof value === "string" ? `the string ${JSON.stringify(value)}` : `the boolean ${String(value)}`;
}

function expected(what: string, value: Json, pointer: string): never {
  throw new WireError(`expected ${what}, found ${describe(value)}`, pointer);
}

function named(name: string): Shape {
  const shape = SHAPES[name];
  if (shape === undefined) throw new WireError(`no type called ${name}`);
  return shape;
}

const ENVELOPE = named("Envelope");

/** Members by name, per member list. */
const memberIndex = new WeakMap<readonly MemberShape[], Map<string, number>>();

function indexOf(members: readonly MemberShape[]): Map<string, number> {
  let index = memberIndex.get(members);
  if (index === undefined) {
    index = new Map(members.map((member, at) => [member.name, at]));
    memberIndex.set(members, index);
  }
  return index;
}

function copyDefault(value: unknown): unknown {
  return typeof value === "object" && value !== null ? JSON.parse(JSON.stringify(value)) : value;
}

function plain(value: Json): unknown {
  if (value instanceof JsonNumber) return Number(value.text);
  if (value instanceof JsonObject) {
    return Object.fromEntries(value.entries.map(([key, item]) => [key, plain(item)]));
  }
  if (Array.isArray(value)) return value.map(plain);
  return value;
}

function decode(shape: Shape, value: Json, pointer: string): unknown {
  switch (shape.kind) {
    case "any":
      return plain(value);
    case "ref":
      return decode(named(shape.name), value, pointer);
    case "null":
      if (value !== null) expected("null", value, pointer);
      return null;
    case "boolean":
      if (typeof value !== "boolean") expected("a boolean", value, pointer);
      return value;
    case "integer": {
      if (!(value instanceof JsonNumber) || value.kind === "float") {
        return expected("an integer", value, pointer);
      }
      const exact = BigInt(value.text);
      if ((shape.min !== null && exact < BigInt(shape.min)) || (shape.max !== null && exact > BigInt(shape.max))) {
        throw new WireError(`the integer ${value.text} is out of range`, pointer);
      }
      return shape.big ? exact : Number(exact);
    }
    case "number": {
      if (!(value instanceof JsonNumber)) return expected("a number", value, pointer);
      const number = shape.f32 ? toF32(Number(value.text)) : Number(value.text);
      if (!withinLimits(shape, number)) throw new WireError(`the number ${value.text} is out of range`, pointer);
      return number;
    }
    case "string":
      if (typeof value !== "string") return expected("a string", value, pointer);
      checkLength(shape, value, pointer);
      return value;
    case "vocabulary":
      if (typeof value !== "string") return expected("a string", value, pointer);
      return value;
    case "const":
      if (!sameValue(plain(value), shape.value)) {
        throw new WireError(`expected ${JSON.stringify(shape.value)}, found ${describe(value)}`, pointer);
      }
      return shape.value;
    case "enum":
      return decodeEnum(shape.values, value, pointer);
    case "array": {
      if (!Array.isArray(value)) return expected("an array", value, pointer);
      if ((shape.minItems !== null && value.length < shape.minItems) || (shape.maxItems !== null && value.length > shape.maxItems)) {
        throw new WireError(`an array of ${value.length} items is out of range`, pointer);
      }
      return value.map((item, at) => decode(shape.items, item, pointerTo(pointer, at)));
    }
    case "object":
      return decodeMembers(shape.members, value, pointer, null);
    case "union":
      return decodeUnion(shape, value, pointer);
    case "nullable":
      return value === null ? null : decode(shape.inner, value, pointer);
    case "excluding": {
      const decoded = decode(shape.inner, value, pointer);
      if (shape.values.some((excluded) => sameValue(decoded, excluded))) {
        throw new WireError(`the value ${JSON.stringify(decoded)} is excluded here`, pointer);
      }
      return decoded;
    }
    default:
      return unknownKind(shape);
  }
}

/** The end of a `switch` on a shape's kind: tsc refuses one that misses a kind. */
function unknownKind(shape: never): never {
  throw new Error(`a shape of no known kind: ${JSON.stringify(shape)}`);
}

function withinLimits(shape: Extract<Shape, { kind: "number" }>, value: number): boolean {
  const { min, max } = shape;
  if (min !== null && (min.exclusive ? value <= min.value : value < min.value)) return false;
  if (max !== null && (max.exclusive ? value >= max.value : value > max.value)) return false;
  return true;
}

function checkLength(shape: Extract<Shape, { kind: "string" }>, value: string, pointer: string): void {
  if (shape.minLength === null && shape.maxLength === null) return;
  const length = [...value].length;
  if ((shape.minLength !== null && length < shape.minLength) || (shape.maxLength !== null && length > shape.maxLength)) {
    throw new WireError(`a string of ${length} characters is out of range`, pointer);
  }
}

export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return (
    keysA.length === keysB.length &&
    keysA.every((key) => sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
  );
}

/** A closed set of strings. The reference also reads the one-member object
 * `{"<value>": null}` (or `{"<value>": {}}`) as `<value>`. */
function decodeEnum(values: readonly string[], value: Json, pointer: string): string {
  let chosen: Json = value;
  if (value instanceof JsonObject && value.entries.length === 1) {
    const [key, inner] = value.entries[0] ?? ["", null];
    if (inner === null || (inner instanceof JsonObject && inner.entries.length === 0)) chosen = key;
  }
  if (typeof chosen !== "string" || !values.includes(chosen)) {
    return expected(`one of ${values.map((v) => JSON.stringify(v)).join(", ")}`, value, pointer);
  }
  return chosen;
}

/** The members of an object or a union branch. `tag` is the union's tag
 * member, already read; the result carries it first. The reference also reads
 * an object written as an array of its members' values, in order. */
function decodeMembers(
  members: readonly MemberShape[],
  value: Json,
  pointer: string,
  tag: { name: string; value: string } | null,
): Record<string, unknown> {
  const found: Array<Json | undefined> = new Array<Json | undefined>(members.length);
  if (Array.isArray(value)) {
    let next = 0;
    for (let at = 0; at < members.length; at += 1) {
      if (members[at]?.name === tag?.name) continue;
      if (next < value.length) found[at] = value[next];
      next += 1;
    }
    if (value.length > next) {
      throw new WireError(`invalid length ${value.length}, expected ${next} elements`, pointer);
    }
  } else if (value instanceof JsonObject) {
    const index = indexOf(members);
    for (const [key, item] of value.entries) {
      if (tag !== null && key === tag.name) continue;
      const at = index.get(key);
      if (at === undefined) continue;
      if (found[at] !== undefined) throw new WireError(`duplicate member \`${key}\``, pointer);
      found[at] = item;
    }
  } else {
    return expected("an object", value, pointer);
  }
  const out: Record<string, unknown> = {};
  for (let at = 0; at < members.length; at += 1) {
    const member = members[at];
    if (member === undefined) continue;
    if (tag !== null && member.name === tag.name) {
      out[member.name] = tag.value;
      continue;
    }
    const item = found[at];
    if (item === undefined) {
      if (member.required) throw new WireError(`missing member \`${member.name}\``, pointer);
      if (member.default !== undefined && member.default !== null) out[member.name] = copyDefault(member.default);
      continue;
    }
    const decoded = decode(member.shape, item, pointerTo(pointer, member.name));
    if (decoded === null && !member.required) continue;
    out[member.name] = decoded;
  }
  return out;
}

/** A flat object whose tag member picks the branch. A nested union's tag may
 * also be the branch's index, as the reference reads it. */
function decodeUnion(shape: Extract<Shape, { kind: "union" }>, value: Json, pointer: string): Record<string, unknown> {
  let tagValue: Json | undefined;
  let body: Json = value;
  if (Array.isArray(value) && shape.positional) {
    if (value.length === 0) throw new WireError(`missing member \`${shape.tag}\``, pointer);
    tagValue = value[0];
    body = value.slice(1);
  } else if (value instanceof JsonObject) {
    for (const [key, item] of value.entries) {
      if (key !== shape.tag) continue;
      if (tagValue !== undefined) throw new WireError(`duplicate member \`${shape.tag}\``, pointer);
      tagValue = item;
    }
    if (tagValue === undefined) throw new WireError(`missing member \`${shape.tag}\``, pointer);
  } else {
    return expected("an object", value, pointer);
  }
  const at = pointerTo(pointer, shape.tag);
  let branch: BranchShape | undefined;
  if (typeof tagValue === "string") {
    branch = shape.branches.find((candidate) => candidate.tag === tagValue);
  } else if (shape.index && tagValue instanceof JsonNumber && tagValue.kind === "unsigned") {
    branch = shape.branches[Number(tagValue.text)];
  }
  if (branch === undefined) {
    return expected(`one of ${shape.branches.map((b) => JSON.stringify(b.tag)).join(", ")}`, tagValue ?? null, at);
  }
  return decodeMembers(branch.members, body, pointer, { name: shape.tag, value: branch.tag });
}

/**
 * Decodes one NDJSON line (trailing whitespace and a newline allowed) into an
 * envelope, exactly where the reference decoder accepts it; throws
 * {@link WireError} on every line the reference decoder rejects.
 */
export function decodeExact(line: string): unknown {
  if (typeof line !== "string") throw new WireError("a line is a string");
  if (!line.isWellFormed()) throw new WireError("the line holds a lone UTF-16 surrogate");
  const json = new Reader(trimEnd(line)).document();
  return decode(ENVELOPE, json, "");
}

// ---------------------------------------------------------------- encoding

const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;
const SHORT_ESCAPES: Record<string, string> = {
  "\"": "\\\"",
  "\\": "\\\\",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};

/** A string as the reference encoder writes it. */
function quote(value: string, pointer: string): string {
  if (!value.isWellFormed()) throw new WireError("a string holds a lone UTF-16 surrogate", pointer);
  if (!NEEDS_ESCAPE.test(value)) return `"${value}"`;
  let out = "\"";
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code >= 0x20 && char !== "\"" && char !== "\\") {
      out += char;
    } else {
      out += SHORT_ESCAPES[char] ?? `\\u${code.toString(16).padStart(4, "0")}`;
    }
  }
  return `${out}"`;
}

function mismatch(what: string, value: unknown, pointer: string): never {
  throw new WireError(`expected ${what}, found ${typeof value}`, pointer);
}

function encode(shape: Shape, value: unknown, pointer: string): string {
  switch (shape.kind) {
    case "any":
      return encodeAny(value, pointer);
    case "ref":
      return encode(named(shape.name), value, pointer);
    case "null":
      if (value !== null) mismatch("null", value, pointer);
      return "null";
    case "boolean":
      if (typeof value !== "boolean") return mismatch("a boolean", value, pointer);
      return value ? "true" : "false";
    case "integer": {
      if (!(typeof value === "bigint" || (typeof value === "number" && Number.isInteger(value)))) {
        return mismatch("an integer", value, pointer);
      }
      const exact = BigInt(value);
      if ((shape.min !== null && exact < BigInt(shape.min)) || (shape.max !== null && exact > BigInt(shape.max))) {
        throw new WireError(`the integer ${exact} is out of range`, pointer);
      }
      return exact.toString();
    }
    case "number":
      if (typeof value !== "number") return mismatch("a number", value, pointer);
      return formatFloat(value, shape.f32);
    case "string":
    case "vocabulary":
      if (typeof value !== "string") return mismatch("a string", value, pointer);
      return quote(value, pointer);
    case "enum":
      if (typeof value !== "string" || !shape.values.includes(value)) {
        throw new WireError(`expected one of ${shape.values.join(", ")}`, pointer);
      }
      return quote(value, pointer);
    case "const":
      if (!sameValue(value, shape.value)) throw new WireError(`expected ${JSON.stringify(shape.value)}`, pointer);
      return encodeAny(value, pointer);
    case "array":
      if (!Array.isArray(value)) return mismatch("an array", value, pointer);
      return `[${value.map((item, at) => encode(shape.items, item, pointerTo(pointer, at))).join(",")}]`;
    case "object":
      return encodeMembers(shape.members, value, pointer, null);
    case "union": {
      if (typeof value !== "object" || value === null) return mismatch("an object", value, pointer);
      const tag = (value as Record<string, unknown>)[shape.tag];
      const branch = shape.branches.find((candidate) => candidate.tag === tag);
      if (branch === undefined) throw new WireError(`unknown \`${shape.tag}\` ${String(tag)}`, pointer);
      return encodeMembers(branch.members, value, pointer, { name: shape.tag, value: branch.tag });
    }
    case "nullable":
      return value === null ? "null" : encode(shape.inner, value, pointer);
    case "excluding":
      if (shape.values.some((excluded) => sameValue(value, excluded))) {
        throw new WireError(`the value ${JSON.stringify(value)} is excluded here`, pointer);
      }
      return encode(shape.inner, value, pointer);
    default:
      return unknownKind(shape);
  }
}

/** A value of no particular shape, canonically. */
export function encodeAny(value: unknown, pointer: string): string {
  if (value === null) return "null";
  if (typeof value === "string") return quote(value, pointer);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") return Number.isInteger(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER ? String(value) : formatFloat(value, false);
  if (Array.isArray(value)) return `[${value.map((item, at) => encodeAny(item, pointerTo(pointer, at))).join(",")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value)
      .map(([key, item]) => `${quote(key, pointer)}:${encodeAny(item, pointerTo(pointer, key))}`)
      .join(",")}}`;
  }
  return mismatch("a JSON value", value, pointer);
}

function encodeMembers(
  members: readonly MemberShape[],
  value: unknown,
  pointer: string,
  tag: { name: string; value: string } | null,
): string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return mismatch("an object", value, pointer);
  const record = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const member of members) {
    if (tag !== null && member.name === tag.name) {
      parts.push(`${quote(tag.name, pointer)}:${quote(tag.value, pointer)}`);
      continue;
    }
    let item = record[member.name];
    const absent = item === undefined || item === null;
    switch (member.emit) {
      case "always":
        if (absent) {
          if (member.required || member.default === undefined) {
            throw new WireError(`missing member \`${member.name}\``, pointer);
          }
          item = member.default;
        }
        break;
      case "absent":
        if (absent) continue;
        break;
      case "empty":
        if (absent || (Array.isArray(item) && item.length === 0)) continue;
        break;
      case "default":
        if (absent || sameValue(item, member.default)) continue;
        break;
      default: {
        const unreachable: never = member.emit;
        throw new Error(`an emit rule of no known kind: ${String(unreachable)}`);
      }
    }
    parts.push(`${quote(member.name, pointer)}:${encode(member.shape, item, pointerTo(pointer, member.name))}`);
  }
  return `{${parts.join(",")}}`;
}

/**
 * The canonical line of `envelope`, newline included: byte for byte what the
 * reference encoder writes. Members are written in their declared order; an
 * optional member is left out as its emit rule says. Throws
 * {@link WireError} on a value its type does not allow.
 */
export function encodeExact(envelope: unknown): string {
  return `${encode(ENVELOPE, envelope, "")}\n`;
}
