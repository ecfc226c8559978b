// The fast path of Wire.decode: the generated readers (Decode.fast…) read a
// line's members straight from its bytes into the records, with no tree of
// values in between, and decode each string in one pass (UTF-8 checked and
// chars built together). Whatever they do not expect (invalid UTF-8, an
// unknown or duplicate member, a missing one, an escaped key, a value of
// the wrong kind, the positional form, trailing whitespace other than JSON's)
// is a miss: Wire.decode then reads the line on the exact path, which gives
// the reference's verdict. A line the fast path reads is one the exact path
// reads to the same envelope: every byte of it is consumed by a reader that
// accepts only what the exact path accepts. This file is copied as-is by
// `cargo xtask codegen`.

package io.github.cgpschema.cgptypes;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The cursor the generated fast readers read a line with. */
final class Fast {
    /** The fast path does not take this line; the exact path reads it. */
    static final class Miss extends Exception {
        private static final long serialVersionUID = 1L;

        private Miss() {
            super(null, null, false, false);
        }
    }

    /** The one miss, thrown without a stack trace. */
    static final Miss MISS = new Miss();

    /** A reader of one value, as the generated code passes them around. */
    @FunctionalInterface
    interface Reader<T> {
        T read(Fast f) throws Miss;
    }

    /**
     * The chars a decoded string is built in, kept per thread from line to
     * line (up to {@link #KEPT_CHARS}), as a long line's strings would
     * otherwise allocate (and zero) a buffer as long as the line each time.
     */
    private static final ThreadLocal<char[]> KEPT = new ThreadLocal<>();

    private static final int KEPT_CHARS = 1 << 20;

    private final byte[] d;
    private int at;
    private int depth;
    private char[] chars;
    private final Json.Value number = new Json.Value();

    private Fast(byte[] line) {
        this.d = line;
    }

    /** A member name's bytes, as {@link #key} and {@link #tag} compare them. */
    static byte[] key(String name) {
        return name.getBytes(StandardCharsets.UTF_8);
    }

    /** The member names of one object, by index. */
    static byte[][] keys(String... names) {
        byte[][] out = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            out[i] = key(names[i]);
        }
        return out;
    }

    /**
     * The envelope of {@code line} read on the fast path, or null where it
     * misses.
     */
    static Envelope decode(byte[] line) {
        Fast f = new Fast(line);
        try {
            Envelope e = Decode.fastEnvelope(f);
            f.skipWhitespace();
            return f.at == line.length ? e : null;
        } catch (Miss | ArrayIndexOutOfBoundsException missed) {
            return null;
        }
    }

    private void skipWhitespace() {
        while (at < d.length && isWhitespace(d[at])) {
            at++;
        }
    }

    /** The next byte after whitespace, not consumed. */
    private byte peek() throws Miss {
        skipWhitespace();
        if (at >= d.length) {
            throw MISS;
        }
        return d[at];
    }

    private void expect(char c) throws Miss {
        if (peek() != c) {
            throw MISS;
        }
        at++;
    }

    /**
     * Opens an object; false when it is empty (its closing brace read too).
     * The nesting is bounded as the exact path bounds it.
     */
    boolean open() throws Miss {
        expect('{');
        if (++depth > Json.MAX_DEPTH) {
            throw MISS;
        }
        if (peek() == '}') {
            at++;
            depth--;
            return false;
        }
        return true;
    }

    /** After a member: true at a comma (another member follows), false at the closing brace. */
    boolean next() throws Miss {
        byte c = peek();
        at++;
        if (c == ',') {
            return true;
        }
        if (c == '}') {
            depth--;
            return false;
        }
        throw MISS;
    }

    /**
     * Reads a member's key and its colon: its index in {@code keys} (ASCII
     * names); a miss for a key not there or one with an escape or non-ASCII
     * byte.
     */
    int key(byte[][] keys) throws Miss {
        expect('"');
        int start = at;
        while (true) {
            byte c = d[at];
            if (c == '"') {
                break;
            }
            if (c == '\\' || c < 0x20) {
                throw MISS;
            }
            at++;
        }
        int length = at - start;
        at++;
        expect(':');
        for (int i = 0; i < keys.length; i++) {
            byte[] k = keys[i];
            if (k.length == length && k[0] == d[start]
                    && java.util.Arrays.equals(k, 0, length, d, start, start + length)) {
                return i;
            }
        }
        throw MISS;
    }

    /**
     * The value of the tag member {@code tag} of the object at the cursor,
     * found without moving the cursor: the first member (as the canonical
     * encoder writes it), else the line's last member (as an SDK writing its
     * members in order of name does), else found by skipping the members
     * before it. None of that is checked: it only chooses the branch, whose
     * reader then reads every member, the tag's value among them.
     */
    String tag(byte[] tag) throws Miss {
        int mark = at;
        int markDepth = depth;
        try {
            expect('{');
            boolean first = true;
            while (true) {
                expect('"');
                int start = at;
                while (d[at] != '"') {
                    if (d[at] == '\\') {
                        throw MISS;
                    }
                    at++;
                }
                int end = at;
                at++;
                expect(':');
                if (java.util.Arrays.equals(tag, 0, tag.length, d, start, end)) {
                    return string();
                }
                if (first) {
                    first = false;
                    String last = lastMember(tag);
                    if (last != null) {
                        return last;
                    }
                }
                skipValue();
                if (peek() != ',') {
                    throw MISS;
                }
                at++;
            }
        } finally {
            at = mark;
            depth = markDepth;
        }
    }

    private static boolean isWhitespace(byte c) {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t';
    }

    /**
     * The value of the line's last member when the line ends with
     * {@code "<tag>": "<value>"}, its closing brace and whitespace; null
     * otherwise.
     */
    private String lastMember(byte[] tag) throws Miss {
        int i = d.length - 1;
        while (i > 0 && isWhitespace(d[i])) {
            i--;
        }
        if (i <= 0 || d[i] != '}') {
            return null;
        }
        i--;
        while (i > 0 && isWhitespace(d[i])) {
            i--;
        }
        if (i <= 0 || d[i] != '"') {
            return null;
        }
        i--;
        while (i > 0 && d[i] != '"') {
            if (d[i] == '\\') {
                return null;
            }
            i--;
        }
        int value = i;
        i--;
        while (i > 0 && isWhitespace(d[i])) {
            i--;
        }
        if (i <= 0 || d[i] != ':') {
            return null;
        }
        i--;
        while (i > 0 && isWhitespace(d[i])) {
            i--;
        }
        int keyStart = i - tag.length - 1;
        if (keyStart <= 0 || d[i] != '"' || d[keyStart] != '"'
                || !java.util.Arrays.equals(tag, 0, tag.length, d, keyStart + 1, i)) {
            return null;
        }
        i = keyStart - 1;
        while (i > 0 && isWhitespace(d[i])) {
            i--;
        }
        if (d[i] != ',') {
            return null;
        }
        at = value;
        return string();
    }

    /** Moves past one value, checking only enough to find its end. */
    private void skipValue() throws Miss {
        byte c = peek();
        if (c == '"') {
            at++;
            while (true) {
                byte b = d[at++];
                if (b == '"') {
                    return;
                }
                if (b == '\\') {
                    at++;
                }
            }
        }
        if (c == '{' || c == '[') {
            int nested = 0;
            while (true) {
                byte b = d[at++];
                if (b == '"') {
                    at--;
                    skipValue();
                } else if (b == '{' || b == '[') {
                    nested++;
                } else if (b == '}' || b == ']') {
                    if (--nested == 0) {
                        return;
                    }
                }
            }
        }
        while (at < d.length) {
            byte b = d[at];
            if (b == ',' || b == '}' || b == ']' || isWhitespace(b)) {
                return;
            }
            at++;
        }
    }

    /** Whether the next value is {@code null} (read if so). */
    boolean isNull() throws Miss {
        if (peek() != 'n') {
            return false;
        }
        if (d[at + 1] != 'u' || d[at + 2] != 'l' || d[at + 3] != 'l') {
            throw MISS;
        }
        at += 4;
        return true;
    }

    boolean bool() throws Miss {
        byte c = peek();
        if (c == 't' && d[at + 1] == 'r' && d[at + 2] == 'u' && d[at + 3] == 'e') {
            at += 4;
            return true;
        }
        if (c == 'f' && d[at + 1] == 'a' && d[at + 2] == 'l' && d[at + 3] == 's' && d[at + 4] == 'e') {
            at += 5;
            return false;
        }
        throw MISS;
    }

    /** Reads a number as the exact path reads it, into {@link #number}. */
    private Json.Value number() throws Miss {
        byte c = peek();
        if (c != '-' && (c < '0' || c > '9')) {
            throw MISS;
        }
        try {
            at = Json.numberAt(d, at, number);
        } catch (WireException refused) {
            throw MISS;
        }
        return number;
    }

    long u32() throws Miss {
        try {
            return Values.decodeUint32(number(), null);
        } catch (WireException refused) {
            throw MISS;
        }
    }

    long u64() throws Miss {
        try {
            return Values.decodeUint64(number(), null);
        } catch (WireException refused) {
            throw MISS;
        }
    }

    float f32() throws Miss {
        try {
            return Values.decodeFloat32(number(), null);
        } catch (WireException refused) {
            throw MISS;
        }
    }

    double f64() throws Miss {
        try {
            return Values.decodeFloat64(number(), null);
        } catch (WireException refused) {
            throw MISS;
        }
    }

    /** An array of items each read by {@code item}. */
    <T> List<T> list(Reader<T> item) throws Miss {
        expect('[');
        if (++depth > Json.MAX_DEPTH) {
            throw MISS;
        }
        if (peek() == ']') {
            at++;
            depth--;
            return Collections.unmodifiableList(new ArrayList<>(0));
        }
        List<T> out = new ArrayList<>();
        while (true) {
            out.add(item.read(this));
            byte c = peek();
            at++;
            if (c == ']') {
                depth--;
                return Collections.unmodifiableList(out);
            }
            if (c != ',') {
                throw MISS;
            }
        }
    }

    /**
     * A string: a run of plain ASCII is copied as it is; anything else is
     * decoded in one pass, each UTF-8 sequence checked as {@link Text} checks
     * it (an ill-formed one, a control character or a lone surrogate escape
     * is a miss).
     */
    String string() throws Miss {
        expect('"');
        int start = at;
        while (true) {
            byte c = d[at];
            if (c == '"') {
                String s = new String(d, start, at - start, StandardCharsets.ISO_8859_1);
                at++;
                return s;
            }
            if (c == '\\' || c < 0x20) {
                break;
            }
            at++;
        }
        return decodeString(start);
    }

    /** The rest of a string, past its plain ASCII run [start, at). */
    private String decodeString(int start) throws Miss {
        int run = at - start;
        // A string has at most as many chars as bytes.
        int most = run + (d.length - at);
        char[] out = chars;
        if (out == null) {
            out = KEPT.get();
        }
        if (out == null || out.length < most) {
            out = new char[Math.max(most, 256)];
            if (out.length <= KEPT_CHARS) {
                KEPT.set(out);
            }
        }
        chars = out;
        for (int i = 0; i < run; i++) {
            out[i] = (char) d[start + i];
        }
        int n = run;
        while (true) {
            int c = d[at];
            if (c >= 0x20 && c != '"' && c != '\\') {
                out[n++] = (char) c;
                at++;
                continue;
            }
            if (c == '"') {
                at++;
                return new String(out, 0, n);
            }
            if (c == '\\') {
                n = escape(out, n);
                continue;
            }
            if (c >= 0) {
                throw MISS;
            }
            n = multibyte(out, n, c & 0xff);
        }
    }

    /** Decodes the well-formed UTF-8 sequence at the cursor whose lead byte is {@code c}. */
    private int multibyte(char[] out, int n, int c) throws Miss {
        if (c >= 0xc2 && c <= 0xdf) {
            int b1 = d[at + 1];
            if ((b1 & 0xc0) != 0x80) {
                throw MISS;
            }
            out[n] = (char) (((c & 0x1f) << 6) | (b1 & 0x3f));
            at += 2;
            return n + 1;
        }
        if (c >= 0xe0 && c <= 0xef) {
            int b1 = d[at + 1] & 0xff;
            int b2 = d[at + 2] & 0xff;
            int low = c == 0xe0 ? 0xa0 : 0x80;
            int high = c == 0xed ? 0x9f : 0xbf;
            if (b1 < low || b1 > high || (b2 & 0xc0) != 0x80) {
                throw MISS;
            }
            out[n] = (char) (((c & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f));
            at += 3;
            return n + 1;
        }
        if (c >= 0xf0 && c <= 0xf4) {
            int b1 = d[at + 1] & 0xff;
            int b2 = d[at + 2] & 0xff;
            int b3 = d[at + 3] & 0xff;
            int low = c == 0xf0 ? 0x90 : 0x80;
            int high = c == 0xf4 ? 0x8f : 0xbf;
            if (b1 < low || b1 > high || (b2 & 0xc0) != 0x80 || (b3 & 0xc0) != 0x80) {
                throw MISS;
            }
            int r = ((c & 0x07) << 18) | ((b1 & 0x3f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f);
            out[n] = Character.highSurrogate(r);
            out[n + 1] = Character.lowSurrogate(r);
            at += 4;
            return n + 2;
        }
        throw MISS;
    }

    /** Decodes the escape at the cursor (its backslash) as the exact path does. */
    private int escape(char[] out, int n) throws Miss {
        byte c = d[at + 1];
        at += 2;
        switch (c) {
            case '"':
            case '\\':
            case '/':
                out[n] = (char) c;
                return n + 1;
            case 'b':
                out[n] = '\b';
                return n + 1;
            case 'f':
                out[n] = '\f';
                return n + 1;
            case 'n':
                out[n] = '\n';
                return n + 1;
            case 'r':
                out[n] = '\r';
                return n + 1;
            case 't':
                out[n] = '\t';
                return n + 1;
            case 'u':
                int first = hex();
                if (first < 0xd800 || first > 0xdfff) {
                    out[n] = (char) first;
                    return n + 1;
                }
                if (first > 0xdbff || d[at] != '\\' || d[at + 1] != 'u') {
                    throw MISS;
                }
                at += 2;
                int second = hex();
                if (second < 0xdc00 || second > 0xdfff) {
                    throw MISS;
                }
                out[n] = (char) first;
                out[n + 1] = (char) second;
                return n + 2;
            default:
                throw MISS;
        }
    }

    private int hex() throws Miss {
        int v = 0;
        for (int i = 0; i < 4; i++) {
            int h = Json.hexDigit(d[at++]);
            if (h < 0) {
                throw MISS;
            }
            v = v * 16 + h;
        }
        return v;
    }
}
