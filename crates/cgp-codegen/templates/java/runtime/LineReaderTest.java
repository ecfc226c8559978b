// The bounded line reader: lines split at line feeds, the last one without
// its feed, and a line over the cap refused before it is held whole. This
// file is copied as-is by `cargo xtask codegen`.

package io.github.cgpschema.cgptypes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LineReaderTest {
    @Test
    void linesAreSplitAtLineFeedsAndTheLastNeedsNone() throws IOException {
        LineReader lines = new LineReader(
                new ByteArrayInputStream("a\n\nbc".getBytes(StandardCharsets.UTF_8)));
        assertArrayEquals("a".getBytes(StandardCharsets.UTF_8), lines.readLine());
        assertArrayEquals(new byte[0], lines.readLine());
        assertArrayEquals("bc".getBytes(StandardCharsets.UTF_8), lines.readLine());
        assertNull(lines.readLine());
    }

    /** A stream of {@code n} bytes of {@code x} then a line feed, never held whole. */
    private static InputStream endless(long n) {
        return new InputStream() {
            private long left = n;

            @Override
            public int read() {
                if (left < 0) {
                    return -1;
                }
                return left-- == 0 ? '\n' : 'x';
            }

            @Override
            public int read(byte[] b, int off, int len) {
                int i = 0;
                while (i < len) {
                    int c = read();
                    if (c < 0) {
                        break;
                    }
                    b[off + i++] = (byte) c;
                }
                return i == 0 ? -1 : i;
            }
        };
    }

    @Test
    void aLineOfExactlyTheCapIsReturned() throws IOException {
        LineReader lines = new LineReader(endless(LineReader.MAX_LINE_BYTES));
        assertEquals(LineReader.MAX_LINE_BYTES, lines.readLine().length);
        assertNull(lines.readLine());
    }

    @Test
    void aLineOverTheCapIsRefusedWithItsOwnException() {
        LineReader lines = new LineReader(endless(LineReader.MAX_LINE_BYTES + 1L));
        LineTooLongException refused = assertThrows(LineTooLongException.class, lines::readLine);
        assertEquals(16 << 20, refused.limit());
    }
}
