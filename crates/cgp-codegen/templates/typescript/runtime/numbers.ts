// Part of the runtime of the generated package, copied as it is by `cargo xtask
// codegen` from crates/cgp-codegen/templates/typescript/runtime/: edit it there.
//
// Numbers the way the reference encoder (serde_json) writes them: integers in
// plain decimal; floats as the shortest digits that read back to the same
// value, laid out as serde_json lays them out (`1.0`, `0.000001`, `1e-7`,
// `1e+13`); a float that is not finite as `null`.

/** Rounds to the nearest `f32`, as the reference decoder stores an `f32` member. */
export const toF32: (value: number) => number = Math.fround;

/** Where plain notation gives way to exponent notation, per precision. */
const F32_PLAIN = { low: -6, high: 12 } as const;
const F64_PLAIN = { low: -5, high: 15 } as const;

/** A decimal `digits × 10^(exponent - digits.length + 1)`: `exponent` is the
 * power of ten of the first digit. */
interface Decimal {
  readonly digits: string;
  readonly exponent: number;
}

function decimalOf(significand: number | string, power: number): Decimal {
  let digits = String(significand);
  let trailing = 0;
  while (digits.length > 1 && digits.endsWith("0")) {
    digits = digits.slice(0, -1);
    trailing += 1;
  }
  return { digits, exponent: power + trailing + digits.length - 1 };
}

/** `value` to `precision` significant digits, correctly rounded (an exact
 * tie goes to the larger): `significand × 10^scale`. */
function rounded(value: number, precision: number): { significand: number; scale: number } {
  const text = value.toExponential(precision - 1);
  const e = text.indexOf("e");
  return {
    significand: Number(text.slice(0, e).replace(".", "")),
    scale: Number(text.slice(e + 1)) - (precision - 1),
  };
}

function readsBack(significand: number, scale: number, value: number): boolean {
  return significand > 0 && Math.fround(Number(`${significand}e${scale}`)) === value;
}

/** Whether `value` lies exactly halfway between two `precision`-digit decimals. */
function isTie(value: number, precision: number): boolean {
  const longer = value.toExponential(precision + 12);
  const e = longer.indexOf("e");
  const digits = longer.slice(0, e).replace(".", "");
  return digits[precision] === "5" && /^0*$/.test(digits.slice(precision + 1));
}

/** The shortest decimal that reads back (through an f64, as the reference
 * decoder reads it) as the `f32` `value`; of two, the closer; of two as close,
 * the one with an even last digit. */
function shortestF32(value: number): Decimal {
  // The fewest digits at which the correctly rounded decimal reads back.
  let low = 1;
  let high = 9;
  while (low < high) {
    const middle = (low + high) >> 1;
    const { significand, scale } = rounded(value, middle);
    if (readsBack(significand, scale, value)) {
      high = middle;
    } else {
      low = middle + 1;
    }
  }
  // One digit fewer may still do, with the other neighbour of the rounded value.
  if (low > 1) {
    const { significand, scale } = rounded(value, low - 1);
    for (const neighbour of [significand - 1, significand + 1]) {
      if (readsBack(neighbour, scale, value)) return decimalOf(neighbour, scale);
    }
  }
  const { significand, scale } = rounded(value, low);
  if (significand % 2 === 1 && isTie(value, low) && readsBack(significand - 1, scale, value)) {
    return decimalOf(significand - 1, scale);
  }
  return decimalOf(significand, scale);
}

/** The shortest decimal that reads back as the `f64` `value`. */
function shortestF64(value: number): Decimal {
  const [mantissa = "0", power = "0"] = value.toExponential().split("e");
  const digits = mantissa.replace(".", "");
  return decimalOf(digits, Number(power) - (digits.length - 1));
}

function layout({ digits, exponent }: Decimal, plain: { low: number; high: number }): string {
  if (exponent >= plain.low && exponent <= plain.high) {
    if (digits.length - 1 <= exponent) {
      return `${digits}${"0".repeat(exponent - (digits.length - 1))}.0`;
    }
    if (exponent >= 0) {
      return `${digits.slice(0, exponent + 1)}.${digits.slice(exponent + 1)}`;
    }
    return `0.${"0".repeat(-exponent - 1)}${digits}`;
  }
  const head = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${head}e${exponent < 0 ? "-" : "+"}${Math.abs(exponent)}`;
}

/** The powers of ten a `number` holds exactly, by exponent. */
const TENS = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/** An `f32`'s bits, to tell a power of two. */
const SINGLE = new Float32Array(1);
const SINGLE_BITS = new Uint32Array(SINGLE.buffer);

/** The positive `f32` `magnitude` as serde_json writes it, when it lies in
 * the plain range and arithmetic finds its shortest decimal; `undefined`
 * sends it to the search below. `magnitude` times a power of ten, rounded to
 * an integer, is the closest decimal of six to nine digits (the product's
 * rounding error is below 1e-7 of a unit, so only a near tie can come out
 * wrong: those are left to the search), and that integer over the exact power
 * of ten is the double nearest the decimal, which JavaScript's `String`
 * spells with the decimal's digits, laid out as serde_json lays out an `f32`
 * in this range. Six digits or fewer need no more: two such decimals lie
 * further apart than an `f32`'s precision, so at most one reads back. From
 * seven on, several may, and the closest failing at one length shows that
 * none of that length reads back only when the `f32`'s neighbours are equally
 * far on both sides, untrue at a power of two (left to the search). About 15
 * times faster than the search on random embedding values. */
function plainF32(magnitude: number): string | undefined {
  if (magnitude < 1e-5 || magnitude >= 1e12) return undefined;
  const sixDigits = 5 - Math.floor(Math.log10(magnitude));
  SINGLE[0] = magnitude;
  const evenGaps = (SINGLE_BITS[0]! & 0x7fffff) !== 0;
  for (let more = 0; more <= 3 && (more === 0 || evenGaps); more += 1) {
    const shift = sixDigits + more;
    const scaled = shift >= 0 ? magnitude * TENS[shift]! : magnitude / TENS[-shift]!;
    const digits = Math.round(scaled);
    if ((more > 0 && Math.abs(scaled - digits) > 0.4999) || digits >= TENS[6 + more]!) return undefined;
    const near = shift >= 0 ? digits / TENS[shift]! : digits * TENS[-shift]!;
    if (Math.fround(near) === magnitude) return Number.isInteger(near) ? `${near}.0` : String(near);
  }
  return undefined;
}

/** `value` as the reference encoder writes an `f32` (`single`) or an `f64`. */
export function formatFloat(value: number, single: boolean): string {
  if (!Number.isFinite(value)) {
    return "null";
  }
  const sign = value < 0 || Object.is(value, -0) ? "-" : "";
  const magnitude = Math.abs(value);
  if (magnitude === 0) {
    return `${sign}0.0`;
  }
  if (single) {
    const rounded = Math.fround(magnitude);
    return sign + (plainF32(rounded) ?? layout(shortestF32(rounded), F32_PLAIN));
  }
  // Between 1e-5 and 1e16 an `f64` is JavaScript's own shortest spelling,
  // with `.0` after an integer.
  if (magnitude >= 1e-5 && magnitude < 1e16) {
    return sign + (Number.isInteger(magnitude) ? `${magnitude}.0` : String(magnitude));
  }
  return sign + layout(shortestF64(magnitude), F64_PLAIN);
}
