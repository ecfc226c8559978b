// The package's entry points: a stdio line or an HTTP body in, an envelope
// out, and the canonical line back. A port of the Go module's wire.go. This
// file is copied as-is by `cargo xtask codegen`; the types and their decoders
// and encoders are generated beside it.

package io.github.cgpschema.cgptypes;

/** Decode a message, encode an envelope: the reference host's rules exactly. */
public final class Wire {
    private Wire() {}

    /**
     * Reads one stdio line the way the reference host reads it: invalid
     * UTF-8 is replaced (one U+FFFD per maximal subpart, as Rust's
     * String::from_utf8_lossy does), trailing whitespace (a newline included)
     * is trimmed, and the rest must be exactly one envelope. It accepts
     * exactly the lines the reference decoder accepts.
     *
     * @throws WireException for every other line
     */
    public static Envelope decode(byte[] line) throws WireException {
        Envelope fast = Fast.decode(line);
        if (fast != null) {
            return fast;
        }
        return exact(line);
    }

    /** A stdio line read on the exact path alone (the port of the Go reader). */
    static Envelope exact(byte[] line) throws WireException {
        return decodeText(Text.trimEnd(Text.lossy(line)));
    }

    /**
     * Reads one HTTP body the way the reference host reads it: the body must
     * be valid UTF-8 and exactly one envelope (JSON whitespace around it
     * allowed).
     *
     * @throws WireException for every body the reference rejects
     */
    public static Envelope decodeBody(byte[] body) throws WireException {
        // The fast path takes only valid UTF-8 with JSON whitespace around
        // the envelope, so it decides a body as a line.
        Envelope fast = Fast.decode(body);
        if (fast != null) {
            return fast;
        }
        if (!Text.valid(body)) {
            throw new WireException("the body is not valid UTF-8", "", -1);
        }
        return decodeText(body);
    }

    private static Envelope decodeText(byte[] text) throws WireException {
        return Decode.decodeEnvelope(Json.document(text), null);
    }

    /**
     * The canonical line of {@code e}, newline included: byte for byte what
     * the reference encoder writes (members in declaration order, optional
     * members left out as their emit rule says, serde_json's escapes and
     * number layout).
     *
     * @throws WireException for an envelope the reference could not hold (a
     *     string with a lone surrogate, a null where a value must be, a u32
     *     out of range, a null envelope)
     */
    public static byte[] encode(Envelope e) throws WireException {
        if (e == null) {
            throw new WireException("no envelope", "", -1);
        }
        Bytes b = new Bytes(256);
        Encode.encodeEnvelope(b, e, null);
        b.add('\n');
        return b.toArray();
    }
}
