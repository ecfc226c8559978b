// Why a message does not decode, or why an envelope cannot be encoded. This
// file is copied as-is by `cargo xtask codegen`.

package io.github.cgpschema.cgptypes;

/**
 * Why a message does not decode, or why an envelope cannot be encoded: what
 * is wrong and where. It is checked: every caller of {@link Wire} decides
 * what a refused message means to it.
 */
public final class WireException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String reason;
    private final String pointer;
    private final int offset;

    WireException(String reason, String pointer, int offset) {
        super(offset >= 0 ? reason + " at byte " + offset
                : pointer.isEmpty() ? reason : reason + " at " + pointer);
        this.reason = reason;
        this.pointer = pointer;
        this.offset = offset;
    }

    /** What is wrong, without where. */
    public String reason() {
        return reason;
    }

    /**
     * The JSON pointer (RFC 6901) of the value at fault; empty for the text
     * as a whole or for a syntax error.
     */
    public String pointer() {
        return pointer;
    }

    /**
     * The byte offset of a syntax error in the text read (after invalid UTF-8
     * was replaced); -1 when the error is about a value.
     */
    public int offset() {
        return offset;
    }
}
