// The canonical writer the generated encoders are built from: serde_json's
// string escapes and float layout (the shortest digits that read back, as
// the reference's ryu writes them, f32 where the schema says f32), unsigned
// integers, member keys and arrays. A port of the encoding half of the Go
// module's runtime.go. This file is copied as-is by `cargo xtask codegen`.

package io.github.cgpschema.cgptypes;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;

/** The scalar, key and array writers of the generated encoders. */
final class Canonical {
    private Canonical() {}

    /** An encoder of one shape, as the generated code passes it around. */
    @FunctionalInterface
    interface Encoder<T> {
        void encode(Bytes b, T v, Path p) throws WireException;
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** Writes {@code s} as serde_json writes a string; a lone surrogate is an error. */
    static void encodeString(Bytes b, String s, Path p) throws WireException {
        if (s == null) {
            throw Path.errAt(p, "a null string");
        }
        if (!appendString(b, s)) {
            throw Path.errAt(p, "the string is not valid UTF-8");
        }
    }

    /** Writes {@code s} quoted and escaped; false when it holds a lone surrogate. */
    private static boolean appendString(Bytes b, String s) {
        b.add('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
                b.add(c);
            } else if (c < 0x80) {
                escape(b, c);
            } else if (Character.isHighSurrogate(c)) {
                if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return false;
                }
                b.appendCodePoint(Character.toCodePoint(c, s.charAt(i + 1)));
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return false;
            } else {
                b.appendCodePoint(c);
            }
        }
        b.add('"');
        return true;
    }

    private static void escape(Bytes b, char c) {
        switch (c) {
            case '"':
                b.ascii("\\\"");
                break;
            case '\\':
                b.ascii("\\\\");
                break;
            case '\b':
                b.ascii("\\b");
                break;
            case '\f':
                b.ascii("\\f");
                break;
            case '\n':
                b.ascii("\\n");
                break;
            case '\r':
                b.ascii("\\r");
                break;
            case '\t':
                b.ascii("\\t");
                break;
            default:
                b.ascii("\\u00");
                b.add(HEX[c >> 4]);
                b.add(HEX[c & 0xf]);
        }
    }

    /** {@code s} as a JSON string literal, for messages. */
    static String quoted(String s) {
        Bytes b = new Bytes(s.length() + 2);
        if (!appendString(b, s)) {
            return "\"" + s + "\"";
        }
        return b.text();
    }

    /**
     * Writes {@code f} as serde_json writes an f32 ({@code single}) or an
     * f64: the shortest digits that read back, plain between 1e-6 (f32) or
     * 1e-5 (f64) and below 1e13 (f32) or 1e16 (f64), otherwise as
     * {@code d.ddde±x}; {@code null} for a value that is not finite.
     */
    static void appendFloat(Bytes b, double f, boolean single) {
        if (Double.isNaN(f) || Double.isInfinite(f)) {
            b.ascii("null");
            return;
        }
        if (Double.doubleToRawLongBits(f) < 0) {
            b.add('-');
            f = -f;
        }
        if (f == 0) {
            b.ascii("0.0");
            return;
        }
        BigDecimal shortest = shortest(f, single);
        String digits = shortest.unscaledValue().toString();
        int exponent = digits.length() - 1 - shortest.scale();
        layout(b, digits, exponent, single ? -6 : -5, single ? 12 : 15);
    }

    /** Lays out the digits d.ddd × 10^exponent as serde_json (ryu) does. */
    private static void layout(Bytes b, String digits, int exponent, int low, int high) {
        int n = digits.length();
        if (exponent >= low && exponent <= high) {
            if (n - 1 <= exponent) {
                b.ascii(digits);
                for (int i = 0; i < exponent - (n - 1); i++) {
                    b.add('0');
                }
                b.ascii(".0");
            } else if (exponent >= 0) {
                b.ascii(digits.substring(0, exponent + 1));
                b.add('.');
                b.ascii(digits.substring(exponent + 1));
            } else {
                b.ascii("0.");
                for (int i = 0; i < -exponent - 1; i++) {
                    b.add('0');
                }
                b.ascii(digits);
            }
            return;
        }
        b.add(digits.charAt(0));
        if (n > 1) {
            b.add('.');
            b.ascii(digits.substring(1));
        }
        b.add('e');
        if (exponent < 0) {
            b.add('-');
            exponent = -exponent;
        } else {
            b.add('+');
        }
        b.ascii(Integer.toString(exponent));
    }

    /**
     * The shortest decimal that reads back as {@code f} (positive, finite),
     * the nearest to it among those, without trailing zeros: the digits
     * Go's strconv and ryu choose. (Double.toString is not always shortest
     * before JDK 19, so the search is done here, exactly, with BigDecimal.)
     */
    private static BigDecimal shortest(double f, boolean single) {
        BigDecimal exact = new BigDecimal(f);
        for (int precision = 1; ; precision++) {
            BigDecimal down = exact.round(new MathContext(precision, RoundingMode.FLOOR));
            BigDecimal up = exact.round(new MathContext(precision, RoundingMode.CEILING));
            boolean downOk = readsBack(down, f, single);
            boolean upOk = readsBack(up, f, single);
            BigDecimal pick = null;
            if (downOk && upOk) {
                int closer = exact.subtract(down).compareTo(up.subtract(exact));
                if (closer == 0) {
                    pick = down.unscaledValue().testBit(0) ? up : down;
                } else {
                    pick = closer < 0 ? down : up;
                }
            } else if (downOk) {
                pick = down;
            } else if (upOk) {
                pick = up;
            }
            if (pick != null) {
                BigDecimal stripped = pick.stripTrailingZeros();
                return stripped;
            }
        }
    }

    private static boolean readsBack(BigDecimal candidate, double f, boolean single) {
        String text = candidate.toString();
        return single ? Float.parseFloat(text) == (float) f : Double.parseDouble(text) == f;
    }

    /** Writes {@code "name":}, with a comma before it unless it is first. */
    static void key(Bytes b, String name, boolean first) {
        if (!first) {
            b.add(',');
        }
        b.add('"');
        b.utf8(name);
        b.add('"');
        b.add(':');
    }

    static void encodeBool(Bytes b, boolean v, Path p) {
        b.ascii(v ? "true" : "false");
    }

    /** A u32 held in a long: one outside 0..2^32-1 is an error. */
    static void encodeUint32(Bytes b, long v, Path p) throws WireException {
        if (v < 0 || v > 0xffff_ffffL) {
            throw Path.errAt(p, "the integer " + v + " is out of range for a u32");
        }
        b.ascii(Long.toString(v));
    }

    /** A u64 held in a long read as unsigned. */
    static void encodeUint64(Bytes b, long v, Path p) {
        b.ascii(Long.toUnsignedString(v));
    }

    static void encodeFloat32(Bytes b, float v, Path p) {
        appendFloat(b, v, true);
    }

    static void encodeFloat64(Bytes b, double v, Path p) {
        appendFloat(b, v, false);
    }

    /** Writes the items; a null list is written as empty, a null item is an error. */
    static <T> void encodeArray(Bytes b, List<T> items, Path p, Encoder<T> item) throws WireException {
        b.add('[');
        if (items != null) {
            for (int i = 0; i < items.size(); i++) {
                if (i > 0) {
                    b.add(',');
                }
                T value = items.get(i);
                Path at = new Path(p, i);
                if (value == null) {
                    throw Path.errAt(at, "a null item");
                }
                item.encode(b, value, at);
            }
        }
        b.add(']');
    }
}
