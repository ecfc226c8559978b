// The bounded reader of lines from a stream (a provider's standard output, a
// socket). A port of the Go module's lines.go. This file is copied as-is by
// `cargo xtask codegen`.

package io.github.cgpschema.cgptypes;

import java.io.IOException;
import java.io.InputStream;

/** Reads lines of at most {@link #MAX_LINE_BYTES} from a stream. */
public final class LineReader {
    /**
     * The longest line LineReader returns: 16 MiB before the line feed, about
     * where the reference host stops reading a line.
     */
    public static final int MAX_LINE_BYTES = 16 << 20;

    private final InputStream in;
    private final int limit;
    private final byte[] buffer = new byte[64 << 10];
    private int start;
    private int end;

    /** Reads lines from {@code in}. */
    public LineReader(InputStream in) {
        this(in, MAX_LINE_BYTES);
    }

    /** Reads lines of at most {@code limit} bytes from {@code in}. */
    LineReader(InputStream in, int limit) {
        this.in = in;
        this.limit = limit;
    }

    /** Whether bytes are buffered that no line returned yet holds. */
    boolean buffered() {
        return start < end;
    }

    /**
     * The next line without its line feed (a last line without one too), or
     * null after the last.
     *
     * @throws LineTooLongException as soon as a line exceeds the limit, before
     *     it is held whole; pass the lines to {@link Wire#decode}
     */
    public byte[] readLine() throws IOException {
        Bytes line = null;
        while (true) {
            if (start == end) {
                int read = in.read(buffer, 0, buffer.length);
                if (read < 0) {
                    return line == null || line.length() == 0 ? null : line.toArray();
                }
                start = 0;
                end = read;
            }
            int feed = start;
            while (feed < end && buffer[feed] != '\n') {
                feed++;
            }
            int held = line == null ? 0 : line.length();
            if (held + (feed - start) > limit) {
                throw new LineTooLongException(limit);
            }
            if (line == null) {
                line = new Bytes(feed - start);
            }
            line.append(buffer, start, feed);
            if (feed < end) {
                start = feed + 1;
                return line.toArray();
            }
            start = end;
        }
    }
}
