// The conformance harness: decodes conformance cases with this package and
// answers each with its verdict. One JSON case per line on stdin,
//
//     {"id": …, "transport": "stdio"|"http", "input": "…"}   (or "input_base64")
//
// one answer per line on stdout, in order,
//
//     {"id": …, "accept": true, "canonical": "…"}   or   {"id": …, "accept": false}
//
// where canonical is the re-encoded envelope without its newline. A case it
// cannot read is an error on stderr and exit status 2. The cases are read
// with the package's own JSON reader. A port of the Go module's
// cmd/cgp-harness. This file is copied as-is by `cargo xtask codegen`.

package io.github.cgpschema.cgptypes;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** The harness {@code cgp vectors run -- java -cp <jar> …Harness} drives. */
public final class Harness {
    private Harness() {}

    /** Reads cases from stdin and answers them on stdout until the input ends. */
    public static void main(String[] args) throws IOException {
        LineReader lines = new LineReader(System.in, Integer.MAX_VALUE - 64);
        OutputStream out = new BufferedOutputStream(System.out, 64 << 10);
        for (int number = 1; ; number++) {
            byte[] line = lines.readLine();
            if (line == null) {
                break;
            }
            out.write(answer(line, number));
            // Answers go out before the harness waits for more input: a
            // runner that sends one case at a time (cgp vectors run) gets each
            // answer, and a batch is still written in large blocks.
            if (!lines.buffered()) {
                out.flush();
            }
        }
        out.flush();
    }

    /** The answer line to one case line. */
    private static byte[] answer(byte[] line, int number) {
        Json.Value c;
        try {
            c = Json.document(Text.trimEnd(Text.lossy(line)));
        } catch (WireException e) {
            throw fail("case " + number + ": " + e.getMessage());
        }
        if (c.kind != Json.OBJECT) {
            throw fail("case " + number + ": not an object");
        }
        Json.Value id = member(c, "id");
        Json.Value transport = member(c, "transport");
        byte[] input = input(c, number);
        Envelope envelope = null;
        try {
            if (transport != null && transport.kind == Json.STRING && transport.text.equals("stdio")) {
                envelope = Wire.decode(input);
            } else if (transport != null && transport.kind == Json.STRING && transport.text.equals("http")) {
                envelope = Wire.decodeBody(input);
            } else {
                throw fail("case " + number + ": transport is neither stdio nor http");
            }
        } catch (WireException refused) {
            envelope = null;
        }
        Bytes b = new Bytes(256);
        b.ascii("{\"id\":");
        writeValue(b, id);
        byte[] canonical = null;
        if (envelope != null) {
            try {
                canonical = Wire.encode(envelope);
            } catch (WireException refused) {
                canonical = null;
            }
        }
        if (canonical == null) {
            b.ascii(",\"accept\":false}\n");
        } else {
            b.ascii(",\"accept\":true,\"canonical\":");
            writeValue(b, text(new String(canonical, 0, canonical.length - 1, StandardCharsets.UTF_8)));
            b.ascii("}\n");
        }
        return b.toArray();
    }

    private static byte[] input(Json.Value c, int number) {
        Json.Value base64 = member(c, "input_base64");
        Json.Value input = member(c, "input");
        if (base64 != null && base64.kind != Json.NULL) {
            if (base64.kind != Json.STRING) {
                throw fail("case " + number + ": input_base64 is not a string");
            }
            try {
                return Base64.getDecoder().decode(base64.text);
            } catch (IllegalArgumentException e) {
                throw fail("case " + number + ": input_base64: " + e.getMessage());
            }
        }
        if (input != null && input.kind == Json.STRING) {
            return input.text.getBytes(StandardCharsets.UTF_8);
        }
        throw fail("case " + number + ": neither input nor input_base64");
    }

    /** The last member named {@code name}, or null. */
    private static Json.Value member(Json.Value object, String name) {
        Json.Value found = null;
        for (Json.Member m : object.members) {
            if (m.key.equals(name)) {
                found = m.value;
            }
        }
        return found;
    }

    private static Json.Value text(String s) {
        Json.Value v = new Json.Value();
        v.kind = Json.STRING;
        v.text = s;
        return v;
    }

    /** Writes a value read by {@link Json} back as JSON (the case's id). */
    private static void writeValue(Bytes b, Json.Value v) {
        if (v == null) {
            b.ascii("null");
            return;
        }
        switch (v.kind) {
            case Json.NULL:
                b.ascii("null");
                break;
            case Json.BOOL:
                b.ascii(v.bool ? "true" : "false");
                break;
            case Json.STRING:
                b.utf8(Canonical.quoted(v.text));
                break;
            case Json.UNSIGNED:
                b.ascii(Long.toUnsignedString(v.u));
                break;
            case Json.NEGATIVE:
                b.ascii(Long.toString(v.i));
                break;
            case Json.FLOAT:
                Canonical.appendFloat(b, v.f, false);
                break;
            case Json.ARRAY:
                b.add('[');
                for (int i = 0; i < v.items.size(); i++) {
                    if (i > 0) {
                        b.add(',');
                    }
                    writeValue(b, v.items.get(i));
                }
                b.add(']');
                break;
            default:
                b.add('{');
                for (int i = 0; i < v.members.size(); i++) {
                    Json.Member m = v.members.get(i);
                    Canonical.key(b, m.key, i == 0);
                    writeValue(b, m.value);
                }
                b.add('}');
        }
    }

    private static RuntimeException fail(String message) {
        System.err.println("cgp-harness: " + message);
        System.err.flush();
        System.exit(2);
        return new IllegalStateException(message);
    }
}
