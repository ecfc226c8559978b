// The JSON text of one message, read with the reference decoder's rules:
// members kept in order with their duplicates, numbers classified as the
// reference classifies them (unsigned, negative, float), nesting bounded at
// 127, lone surrogate escapes refused, nothing but JSON whitespace between
// tokens. A port of the Go module's json.go. This file is copied as-is by
// `cargo xtask codegen`.

package io.github.cgpschema.cgptypes;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The JSON reader of one message; {@link #document} reads a whole text. */
final class Json {
    /** The deepest nesting of arrays and objects the reference reads. */
    static final int MAX_DEPTH = 127;

    static final int NULL = 0;
    static final int BOOL = 1;
    static final int STRING = 2;
    static final int UNSIGNED = 3;
    static final int NEGATIVE = 4;
    static final int FLOAT = 5;
    static final int ARRAY = 6;
    static final int OBJECT = 7;

    /**
     * One JSON value as read: a string's text, a number's value as the
     * reference holds it (an unsigned 64-bit integer in {@code u}, a negative
     * one in {@code i}, any other number in {@code f}), an array's items or
     * an object's members in order.
     */
    static final class Value {
        int kind;
        boolean bool;
        String text;
        long u;
        long i;
        double f;
        List<Value> items;
        List<Member> members;
    }

    /** One member of an object, duplicates kept. */
    static final class Member {
        final String key;
        final Value value = new Value();

        Member(String key) {
            this.key = key;
        }
    }

    private final byte[] data;
    private int at;

    /** Reads {@code data}, which holds valid UTF-8. */
    private Json(byte[] data) {
        this.data = data;
    }

    /** Reads the whole text as one value. */
    static Value document(byte[] data) throws WireException {
        Json r = new Json(data);
        Value out = new Value();
        r.value(out, 1);
        r.skipWhitespace();
        if (r.at < data.length) {
            throw r.fail("trailing characters");
        }
        return out;
    }

    /**
     * Reads the number at {@code at} of {@code data} (a minus sign or a digit
     * there) into {@code out}, as {@link #document} reads it; the index past
     * it.
     */
    static int numberAt(byte[] data, int at, Value out) throws WireException {
        Json r = new Json(data);
        r.at = at;
        r.number(out);
        return r.at;
    }

    private WireException fail(String message) {
        return new WireException(message, "", at);
    }

    private void skipWhitespace() {
        while (at < data.length) {
            byte c = data[at];
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                at++;
            } else {
                return;
            }
        }
    }

    private void value(Value out, int depth) throws WireException {
        skipWhitespace();
        if (at >= data.length) {
            throw fail("EOF while parsing a value");
        }
        byte c = data[at];
        switch (c) {
            case '{':
                if (depth > MAX_DEPTH) {
                    throw fail("recursion limit exceeded");
                }
                at++;
                object(out, depth);
                return;
            case '[':
                if (depth > MAX_DEPTH) {
                    throw fail("recursion limit exceeded");
                }
                at++;
                array(out, depth);
                return;
            case '"':
                at++;
                out.kind = STRING;
                out.text = string();
                return;
            case 't':
                out.kind = BOOL;
                out.bool = true;
                literal("true");
                return;
            case 'f':
                out.kind = BOOL;
                literal("false");
                return;
            case 'n':
                out.kind = NULL;
                literal("null");
                return;
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    number(out);
                    return;
                }
                throw fail("expected value");
        }
    }

    private void literal(String word) throws WireException {
        for (int i = 0; i < word.length(); i++) {
            if (at >= data.length) {
                throw fail("EOF while parsing a value");
            }
            if (data[at] != word.charAt(i)) {
                throw fail("expected ident");
            }
            at++;
        }
    }

    private void object(Value out, int depth) throws WireException {
        out.kind = OBJECT;
        skipWhitespace();
        if (at < data.length && data[at] == '}') {
            at++;
            out.members = List.of();
            return;
        }
        List<Member> members = new ArrayList<>(8);
        while (true) {
            skipWhitespace();
            if (at >= data.length) {
                throw fail("EOF while parsing an object");
            }
            if (data[at] != '"') {
                throw fail("key must be a string");
            }
            at++;
            String key = string();
            skipWhitespace();
            if (at >= data.length) {
                throw fail("EOF while parsing an object");
            }
            if (data[at] != ':') {
                throw fail("expected `:`");
            }
            at++;
            Member member = new Member(key);
            members.add(member);
            value(member.value, depth + 1);
            skipWhitespace();
            if (at >= data.length) {
                throw fail("EOF while parsing an object");
            }
            byte next = data[at];
            at++;
            if (next == '}') {
                out.members = members;
                return;
            }
            if (next != ',') {
                at--;
                throw fail("expected `,` or `}`");
            }
            skipWhitespace();
            if (at < data.length && data[at] == '}') {
                throw fail("trailing comma");
            }
        }
    }

    private void array(Value out, int depth) throws WireException {
        out.kind = ARRAY;
        skipWhitespace();
        if (at < data.length && data[at] == ']') {
            at++;
            out.items = List.of();
            return;
        }
        List<Value> items = new ArrayList<>(4);
        while (true) {
            Value item = new Value();
            items.add(item);
            value(item, depth + 1);
            skipWhitespace();
            if (at >= data.length) {
                throw fail("EOF while parsing a list");
            }
            byte next = data[at];
            at++;
            if (next == ']') {
                out.items = items;
                return;
            }
            if (next != ',') {
                at--;
                throw fail("expected `,` or `]`");
            }
            skipWhitespace();
            if (at < data.length && data[at] == ']') {
                throw fail("trailing comma");
            }
        }
    }

    /** Reads the rest of a string whose opening quote has been read. */
    private String string() throws WireException {
        int start = at;
        // The plain run: no escape, no control character.
        while (at < data.length) {
            int c = data[at] & 0xff;
            if (c == '"') {
                String s = new String(data, start, at - start, StandardCharsets.UTF_8);
                at++;
                return s;
            }
            if (c == '\\' || c < 0x20) {
                break;
            }
            at++;
        }
        Bytes buf = new Bytes(at - start + 16);
        buf.append(data, start, at);
        while (true) {
            if (at >= data.length) {
                throw fail("EOF while parsing a string");
            }
            int c = data[at] & 0xff;
            if (c == '"') {
                at++;
                return buf.text();
            } else if (c < 0x20) {
                throw fail("control character (\\u0000-\\u001F) found while parsing a string");
            } else if (c == '\\') {
                at++;
                escape(buf);
            } else {
                // The plain run up to the next quote, escape or control
                // character, appended at once.
                int end = at + 1;
                while (end < data.length) {
                    int d = data[end] & 0xff;
                    if (d == '"' || d == '\\' || d < 0x20) {
                        break;
                    }
                    end++;
                }
                buf.append(data, at, end);
                at = end;
            }
        }
    }

    private void escape(Bytes buf) throws WireException {
        if (at >= data.length) {
            throw fail("EOF while parsing a string");
        }
        byte c = data[at];
        at++;
        switch (c) {
            case '"':
                buf.add('"');
                return;
            case '\\':
                buf.add('\\');
                return;
            case '/':
                buf.add('/');
                return;
            case 'b':
                buf.add('\b');
                return;
            case 'f':
                buf.add('\f');
                return;
            case 'n':
                buf.add('\n');
                return;
            case 'r':
                buf.add('\r');
                return;
            case 't':
                buf.add('\t');
                return;
            case 'u':
                unicodeEscape(buf);
                return;
            default:
                at--;
                throw fail("invalid escape");
        }
    }

    private void unicodeEscape(Bytes buf) throws WireException {
        int first = hex();
        if (first >= 0xdc00 && first <= 0xdfff) {
            throw fail("lone leading surrogate in hex escape");
        }
        if (first < 0xd800 || first > 0xdbff) {
            buf.appendCodePoint(first);
            return;
        }
        if (at + 1 >= data.length || data[at] != '\\' || data[at + 1] != 'u') {
            if (at >= data.length || (data[at] == '\\' && at + 1 >= data.length)) {
                throw fail("EOF while parsing a string");
            }
            throw fail("unexpected end of hex escape");
        }
        at += 2;
        int second = hex();
        if (second < 0xdc00 || second > 0xdfff) {
            throw fail("lone leading surrogate in hex escape");
        }
        buf.appendCodePoint(0x10000 + ((first - 0xd800) << 10) + (second - 0xdc00));
    }

    private int hex() throws WireException {
        int v = 0;
        for (int i = 0; i < 4; i++) {
            if (at >= data.length) {
                throw fail("EOF while parsing a string");
            }
            int d = hexDigit(data[at]);
            if (d < 0) {
                throw fail("invalid escape");
            }
            v = v * 16 + d;
            at++;
        }
        return v;
    }

    /** The value of {@code c} as a hexadecimal digit, or -1. */
    static int hexDigit(int c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    private boolean isDigit(int i) {
        return i < data.length && data[i] >= '0' && data[i] <= '9';
    }

    /** Fails as the reference does where a digit was expected. */
    private void needDigit() throws WireException {
        if (!isDigit(at)) {
            if (at >= data.length) {
                throw fail("EOF while parsing a value");
            }
            throw fail("invalid number");
        }
    }

    /**
     * Reads a number: an integer that fits 64 bits (and is not {@code -0})
     * is kept as one; every other number is a float, correctly rounded, and a
     * float beyond the f64 range is an error, as the reference reads them.
     */
    private void number(Value out) throws WireException {
        int start = at;
        boolean negative = data[at] == '-';
        if (negative) {
            at++;
        }
        needDigit();
        if (data[at] == '0') {
            at++;
            if (isDigit(at)) {
                throw fail("invalid number");
            }
        } else {
            while (isDigit(at)) {
                at++;
            }
        }
        int integerEnd = at;
        boolean isFloat = false;
        if (at < data.length && data[at] == '.') {
            isFloat = true;
            at++;
            needDigit();
            while (isDigit(at)) {
                at++;
            }
        }
        if (at < data.length && (data[at] == 'e' || data[at] == 'E')) {
            isFloat = true;
            at++;
            if (at < data.length && (data[at] == '+' || data[at] == '-')) {
                at++;
            }
            needDigit();
            while (isDigit(at)) {
                at++;
            }
        }
        if (!isFloat && integer(out, negative ? start + 1 : start, integerEnd, negative)) {
            return;
        }
        String text = new String(data, start, at - start, StandardCharsets.US_ASCII);
        double f = Double.parseDouble(text);
        if (Double.isInfinite(f)) {
            // A syntactically valid number fails only by overflowing.
            throw fail("number out of range");
        }
        out.kind = FLOAT;
        out.f = f;
    }

    /** Keeps the digits in [from, to) as an integer when they fit. */
    private boolean integer(Value out, int from, int to, boolean negative) {
        long v = 0;
        for (int i = from; i < to; i++) {
            long d = data[i] - '0';
            // v * 10 + d must not pass 2^64 - 1, read unsigned.
            if (Long.compareUnsigned(v, Long.divideUnsigned(-1L - d, 10)) > 0) {
                return false;
            }
            v = v * 10 + d;
        }
        if (!negative) {
            out.kind = UNSIGNED;
            out.u = v;
            return true;
        }
        if (v != 0 && Long.compareUnsigned(v, Long.MIN_VALUE) <= 0) {
            out.kind = NEGATIVE;
            out.i = -v;
            return true;
        }
        return false;
    }
}
