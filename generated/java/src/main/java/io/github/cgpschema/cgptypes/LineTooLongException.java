// LineReader's refusal of a line longer than its limit. This file is copied
// as-is by `cargo xtask codegen`.

package io.github.cgpschema.cgptypes;

import java.io.IOException;

/**
 * LineReader's refusal of a line longer than its limit. It is thrown before
 * the line is held whole; the stream is then in the middle of that line, so
 * a host stops reading it.
 */
public final class LineTooLongException extends IOException {
    private static final long serialVersionUID = 1L;

    private final int limit;

    LineTooLongException(int limit) {
        super("a line longer than " + limit + " bytes (before its line feed)");
        this.limit = limit;
    }

    /** The most bytes a line may have before its line feed. */
    public int limit() {
        return limit;
    }
}
