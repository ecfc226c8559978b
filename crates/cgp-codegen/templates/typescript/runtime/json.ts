// Part of the runtime of the generated package, copied as it is by `cargo xtask
// codegen` from crates/cgp-codegen/templates/typescript/runtime/: edit it there.

// The JSON text of one line, read with the rules of the reference decoder:
// duplicate members kept, numbers kept as written (so a float-spelled integer,
// a 64-bit integer or `-0` is seen), nesting bounded, lone surrogate escapes
// refused. exact.ts decodes what this reads.

/** A line the reference decoder rejects, or a value the encoder cannot write. */
export class WireError extends Error {
  /** The JSON pointer of the value at fault; `""` for the line as a whole. */
  readonly pointer: string;

  constructor(message: string, pointer = "") {
    super(pointer === "" ? message : `${message} at ${pointer}`);
    this.name = "WireError";
    this.pointer = pointer;
  }
}

// ---------------------------------------------------------------- JSON text

/** A number as written: its text, and how the reference reads it. */
export class JsonNumber {
  constructor(
    readonly text: string,
    /** `unsigned` and `negative` fit 64 bits; every other number is a float. */
    readonly kind: "unsigned" | "negative" | "float",
  ) {}
}

/** An object with its members in order, duplicates kept. */
export class JsonObject {
  constructor(readonly entries: Array<[string, Json]>) {}
}

export type Json = null | boolean | string | JsonNumber | Json[] | JsonObject;

/** What ends the plain run of a string: a quote, a backslash, a control character. */
const STRING_STOP = /["\\\u0000-\u001f]/g;

/** The deepest nesting the reference decoder reads. */
const MAX_DEPTH = 127;
const U64_MAX = (1n << 64n) - 1n;
const I64_MIN = -(1n << 63n);

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x66) return code - 0x57;
  if (code >= 0x41 && code <= 0x46) return code - 0x37;
  return -1;
}

/** Reads one JSON text with the reference decoder's rules. */
export class Reader {
  private at = 0;

  constructor(private readonly text: string) {}

  private fail(message: string): never {
    throw new WireError(`${message} at column ${this.at + 1}`);
  }

  private skipWhitespace(): void {
    const text = this.text;
    while (this.at < text.length) {
      const code = text.charCodeAt(this.at);
      if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return;
      this.at += 1;
    }
  }

  document(): Json {
    const value = this.value(1);
    this.skipWhitespace();
    if (this.at < this.text.length) this.fail("trailing characters");
    return value;
  }

  private value(depth: number): Json {
    this.skipWhitespace();
    if (this.at >= this.text.length) this.fail("EOF while parsing a value");
    const code = this.text.charCodeAt(this.at);
    switch (code) {
      case 0x7b /* { */:
        if (depth > MAX_DEPTH) this.fail("recursion limit exceeded");
        this.at += 1;
        return this.object(depth);
      case 0x5b /* [ */:
        if (depth > MAX_DEPTH) this.fail("recursion limit exceeded");
        this.at += 1;
        return this.array(depth);
      case 0x22 /* " */:
        this.at += 1;
        return this.string();
      case 0x74 /* t */:
        return this.literal("true", true);
      case 0x66 /* f */:
        return this.literal("false", false);
      case 0x6e /* n */:
        return this.literal("null", null);
      default:
        if (code === 0x2d || isDigit(code)) return this.number();
        return this.fail("expected value");
    }
  }

  private literal<T extends Json>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.at)) this.fail("expected ident");
    this.at += word.length;
    return value;
  }

  private object(depth: number): JsonObject {
    const entries: Array<[string, Json]> = [];
    this.skipWhitespace();
    if (this.text.charCodeAt(this.at) === 0x7d /* } */) {
      this.at += 1;
      return new JsonObject(entries);
    }
    for (;;) {
      this.skipWhitespace();
      if (this.at >= this.text.length) this.fail("EOF while parsing an object");
      if (this.text.charCodeAt(this.at) !== 0x22) this.fail("key must be a string");
      this.at += 1;
      const key = this.string();
      this.skipWhitespace();
      if (this.text.charCodeAt(this.at) !== 0x3a /* : */) this.fail("expected `:`");
      this.at += 1;
      entries.push([key, this.value(depth + 1)]);
      this.skipWhitespace();
      const next = this.text.charCodeAt(this.at);
      this.at += 1;
      if (next === 0x7d) return new JsonObject(entries);
      if (next !== 0x2c /* , */) {
        this.at -= 1;
        this.fail(this.at >= this.text.length ? "EOF while parsing an object" : "expected `,` or `}`");
      }
      this.skipWhitespace();
      if (this.text.charCodeAt(this.at) === 0x7d) this.fail("trailing comma");
    }
  }

  private array(depth: number): Json[] {
    const items: Json[] = [];
    this.skipWhitespace();
    if (this.text.charCodeAt(this.at) === 0x5d /* ] */) {
      this.at += 1;
      return items;
    }
    for (;;) {
      items.push(this.value(depth + 1));
      this.skipWhitespace();
      const next = this.text.charCodeAt(this.at);
      this.at += 1;
      if (next === 0x5d) return items;
      if (next !== 0x2c) {
        this.at -= 1;
        this.fail(this.at >= this.text.length ? "EOF while parsing a list" : "expected `,` or `]`");
      }
      this.skipWhitespace();
      if (this.text.charCodeAt(this.at) === 0x5d) this.fail("trailing comma");
    }
  }

  /** The rest of a string whose opening quote has been read. */
  private string(): string {
    const text = this.text;
    let out = "";
    for (;;) {
      // The next quote, backslash or control character, found by the regex engine.
      STRING_STOP.lastIndex = this.at;
      const stop = STRING_STOP.exec(text);
      if (stop === null) {
        this.at = text.length;
        this.fail("EOF while parsing a string");
      }
      out += text.slice(this.at, stop.index);
      this.at = stop.index;
      const code = text.charCodeAt(this.at);
      if (code === 0x22) {
        this.at += 1;
        return out;
      }
      if (code !== 0x5c /* \ */) this.fail("control character (\\u0000-\\u001F) found while parsing a string");
      this.at += 1;
      out += this.escape();
    }
  }

  private escape(): string {
    if (this.at >= this.text.length) this.fail("EOF while parsing a string");
    const code = this.text.charCodeAt(this.at);
    this.at += 1;
    switch (code) {
      case 0x22: return "\"";
      case 0x5c: return "\\";
      case 0x2f: return "/";
      case 0x62: return "\b";
      case 0x66: return "\f";
      case 0x6e: return "\n";
      case 0x72: return "\r";
      case 0x74: return "\t";
      case 0x75 /* u */: {
        const first = this.hex();
        if (first >= 0xdc00 && first <= 0xdfff) this.fail("lone leading surrogate in hex escape");
        if (first < 0xd800 || first > 0xdbff) return String.fromCharCode(first);
        if (this.text.charCodeAt(this.at) !== 0x5c || this.text.charCodeAt(this.at + 1) !== 0x75) {
          this.fail("unexpected end of hex escape");
        }
        this.at += 2;
        const second = this.hex();
        if (second < 0xdc00 || second > 0xdfff) this.fail("lone leading surrogate in hex escape");
        return String.fromCharCode(first, second);
      }
      default:
        return this.fail("invalid escape");
    }
  }

  private hex(): number {
    let value = 0;
    for (let index = 0; index < 4; index += 1) {
      if (this.at >= this.text.length) this.fail("EOF while parsing a string");
      const digit = hexValue(this.text.charCodeAt(this.at));
      if (digit < 0) this.fail("invalid escape");
      value = value * 16 + digit;
      this.at += 1;
    }
    return value;
  }

  private number(): JsonNumber {
    const text = this.text;
    const start = this.at;
    const negative = text.charCodeAt(this.at) === 0x2d;
    if (negative) this.at += 1;
    const first = text.charCodeAt(this.at);
    if (first === 0x30) {
      this.at += 1;
      if (isDigit(text.charCodeAt(this.at))) this.fail("invalid number");
    } else if (isDigit(first)) {
      while (isDigit(text.charCodeAt(this.at))) this.at += 1;
    } else {
      this.fail("invalid number");
    }
    const integerEnd = this.at;
    let float = false;
    if (text.charCodeAt(this.at) === 0x2e /* . */) {
      float = true;
      this.at += 1;
      if (!isDigit(text.charCodeAt(this.at))) this.fail("invalid number");
      while (isDigit(text.charCodeAt(this.at))) this.at += 1;
    }
    const exponent = text.charCodeAt(this.at);
    if (exponent === 0x65 || exponent === 0x45) {
      float = true;
      this.at += 1;
      const sign = text.charCodeAt(this.at);
      if (sign === 0x2b || sign === 0x2d) this.at += 1;
      if (!isDigit(text.charCodeAt(this.at))) this.fail("invalid number");
      while (isDigit(text.charCodeAt(this.at))) this.at += 1;
    }
    const spelled = text.slice(start, this.at);
    if (!float) {
      // "-0" and integers beyond 64 bits are floats, as the reference reads them.
      if (integerEnd - start <= 15) {
        if (!negative) return new JsonNumber(spelled, "unsigned");
        if (spelled !== "-0") return new JsonNumber(spelled, "negative");
      } else {
        const value = BigInt(spelled);
        if (!negative && value <= U64_MAX) return new JsonNumber(spelled, "unsigned");
        if (negative && value < 0n && value >= I64_MIN) return new JsonNumber(spelled, "negative");
      }
    }
    if (!Number.isFinite(Number(spelled))) this.fail("number out of range");
    return new JsonNumber(spelled, "float");
  }
}

/** Whether `code` is whitespace to Rust's `str::trim_end`. */
function isRustWhitespace(code: number): boolean {
  return (
    (code >= 0x09 && code <= 0x0d) ||
    code === 0x20 ||
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

export function trimEnd(line: string): string {
  let end = line.length;
  while (end > 0 && isRustWhitespace(line.charCodeAt(end - 1))) end -= 1;
  return end === line.length ? line : line.slice(0, end);
}
