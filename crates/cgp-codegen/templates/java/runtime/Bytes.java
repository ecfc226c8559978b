// A growable byte buffer: the text of an escaped string as it is read, and
// the canonical line as it is written. This file is copied as-is by
// `cargo xtask codegen`.

package io.github.cgpschema.cgptypes;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable byte buffer. */
final class Bytes {
    private byte[] data;
    private int length;

    Bytes(int capacity) {
        data = new byte[Math.max(capacity, 16)];
    }

    private void reserve(int more) {
        if (length + more > data.length) {
            data = Arrays.copyOf(data, Math.max(data.length * 2, length + more));
        }
    }

    void add(int b) {
        reserve(1);
        data[length++] = (byte) b;
    }

    void append(byte[] from, int start, int end) {
        reserve(end - start);
        System.arraycopy(from, start, data, length, end - start);
        length += end - start;
    }

    /** Appends ASCII text (a literal the writer spells itself). */
    void ascii(String text) {
        reserve(text.length());
        for (int i = 0; i < text.length(); i++) {
            data[length++] = (byte) text.charAt(i);
        }
    }

    /** Appends text as UTF-8; the text holds no lone surrogate. */
    void utf8(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        append(bytes, 0, bytes.length);
    }

    /** Appends one Unicode scalar value as UTF-8. */
    void appendCodePoint(int c) {
        if (c < 0x80) {
            add(c);
        } else if (c < 0x800) {
            add(0xc0 | (c >> 6));
            add(0x80 | (c & 0x3f));
        } else if (c < 0x10000) {
            add(0xe0 | (c >> 12));
            add(0x80 | ((c >> 6) & 0x3f));
            add(0x80 | (c & 0x3f));
        } else {
            add(0xf0 | (c >> 18));
            add(0x80 | ((c >> 12) & 0x3f));
            add(0x80 | ((c >> 6) & 0x3f));
            add(0x80 | (c & 0x3f));
        }
    }

    int length() {
        return length;
    }

    /** The bytes, which hold valid UTF-8, as text. */
    String text() {
        return new String(data, 0, length, StandardCharsets.UTF_8);
    }

    byte[] toArray() {
        return Arrays.copyOf(data, length);
    }
}
