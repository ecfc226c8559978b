// The text around the JSON: a stdio line's bytes made valid UTF-8 the way
// Rust's `String::from_utf8_lossy` does (one U+FFFD per maximal subpart of an
// ill-formed sequence), and its trailing whitespace trimmed as Rust's
// `str::trim_end` trims it. A port of the Go module's text.go. This file is
// copied as-is by `cargo xtask codegen`.

package io.github.cgpschema.cgptypes;

import java.util.Arrays;

/** Lossy UTF-8 and Rust's trailing-whitespace trim, on bytes. */
final class Text {
    private Text() {}

    /** Whether {@code data} is well-formed UTF-8. */
    static boolean valid(byte[] data) {
        for (int at = 0; at < data.length; ) {
            if (data[at] >= 0) {
                at++;
                continue;
            }
            int size = validPrefix(data, at);
            if (size < 0) {
                return false;
            }
            at += size;
        }
        return true;
    }

    /**
     * {@code data} with every maximal subpart of an ill-formed UTF-8 sequence
     * replaced by U+FFFD, exactly as Rust's from_utf8_lossy does.
     */
    static byte[] lossy(byte[] data) {
        if (valid(data)) {
            return data;
        }
        Bytes out = new Bytes(data.length + 16);
        for (int at = 0; at < data.length; ) {
            if (data[at] >= 0) {
                out.add(data[at]);
                at++;
                continue;
            }
            int size = validPrefix(data, at);
            if (size > 0) {
                out.append(data, at, at + size);
                at += size;
                continue;
            }
            out.appendCodePoint(0xfffd);
            at += -size;
        }
        return out.toArray();
    }

    /**
     * The length of the well-formed sequence at {@code at} (whose first byte
     * is not ASCII), or minus the length of the maximal subpart to replace
     * when it is ill-formed (at least one byte).
     */
    private static int validPrefix(byte[] data, int at) {
        int c = data[at] & 0xff;
        int need;
        int low = 0x80;
        int high = 0xbf;
        if (c >= 0xc2 && c <= 0xdf) {
            need = 1;
        } else if (c == 0xe0) {
            need = 2;
            low = 0xa0;
        } else if ((c >= 0xe1 && c <= 0xec) || c == 0xee || c == 0xef) {
            need = 2;
        } else if (c == 0xed) {
            need = 2;
            high = 0x9f;
        } else if (c == 0xf0) {
            need = 3;
            low = 0x90;
        } else if (c >= 0xf1 && c <= 0xf3) {
            need = 3;
        } else if (c == 0xf4) {
            need = 3;
            high = 0x8f;
        } else {
            return -1;
        }
        for (int i = 1; i <= need; i++) {
            if (at + i >= data.length) {
                return -i;
            }
            int b = data[at + i] & 0xff;
            if (i == 1) {
                if (b < low || b > high) {
                    return -1;
                }
            } else if (b < 0x80 || b > 0xbf) {
                return -i;
            }
        }
        return need + 1;
    }

    /**
     * {@code data} (valid UTF-8) without the trailing characters Rust's
     * char::is_whitespace names.
     */
    static byte[] trimEnd(byte[] data) {
        int end = data.length;
        while (end > 0) {
            int c = data[end - 1] & 0xff;
            if (c < 0x80) {
                if (c == ' ' || (c >= 0x09 && c <= 0x0d)) {
                    end--;
                    continue;
                }
                break;
            }
            // The last scalar value: its lead byte, then its continuations.
            int start = end - 1;
            while (start > 0 && (data[start] & 0xc0) == 0x80 && end - start < 4) {
                start--;
            }
            int lead = data[start] & 0xff;
            int r = lead >= 0xf0 ? lead & 0x07 : lead >= 0xe0 ? lead & 0x0f : lead & 0x1f;
            for (int i = start + 1; i < end; i++) {
                r = (r << 6) | (data[i] & 0x3f);
            }
            if (!isRustWhitespace(r)) {
                break;
            }
            end = start;
        }
        return end == data.length ? data : Arrays.copyOf(data, end);
    }

    private static boolean isRustWhitespace(int r) {
        return (r >= 0x09 && r <= 0x0d) || r == 0x20 || r == 0x85 || r == 0xa0 || r == 0x1680
                || (r >= 0x2000 && r <= 0x200a) || r == 0x2028 || r == 0x2029 || r == 0x202f
                || r == 0x205f || r == 0x3000;
    }
}
