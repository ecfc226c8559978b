// The conformance vectors of this protocol version
// (src/test/resources/vectors/, the project's own copy of
// generated/vectors/<version>/) through Wire.decode, Wire.decodeBody and
// Wire.encode. This file is copied as-is by `cargo xtask codegen`.

package io.github.cgpschema.cgptypes;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class VectorsTest {
    /** One case of a vector file, as read by the package's own JSON reader. */
    private static final class Case {
        String where;
        String transport;
        byte[] input;
        boolean accept;
        String canonical;
    }

    private static Json.Value member(Json.Value object, String name) {
        for (Json.Member m : object.members) {
            if (m.key.equals(name)) {
                return m.value;
            }
        }
        return null;
    }

    private static Case read(String where, String line) throws WireException {
        Json.Value v = Json.document(line.getBytes(StandardCharsets.UTF_8));
        Case c = new Case();
        c.where = where + " " + member(v, "id").text;
        c.transport = member(v, "transport").text;
        Json.Value base64 = member(v, "input_base64");
        c.input = base64 != null
                ? Base64.getDecoder().decode(base64.text)
                : member(v, "input").text.getBytes(StandardCharsets.UTF_8);
        Json.Value decode = member(v, "decode");
        c.accept = member(decode, "accept").bool;
        Json.Value canonical = member(decode, "canonical");
        c.canonical = canonical == null ? null : canonical.text;
        return c;
    }

    /** Every case of this version's vector files; none is a failure saying where it looked. */
    static List<Case> cases() throws IOException, URISyntaxException, WireException {
        URL dir = VectorsTest.class.getResource("/vectors");
        assertTrue(dir != null, "no conformance vectors: expected src/test/resources/vectors/*.ndjson "
                + "(a copy of generated/vectors/<version>, written by `cargo xtask codegen`)");
        List<Path> files;
        try (Stream<Path> listed = Files.list(Path.of(dir.toURI()))) {
            files = listed.filter(p -> p.toString().endsWith(".ndjson")).sorted().collect(Collectors.toList());
        }
        assertFalse(files.isEmpty(), "no *.ndjson under " + dir);
        List<Case> cases = new ArrayList<>();
        for (Path file : files) {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                if (!lines.get(i).isBlank()) {
                    cases.add(read(file.getFileName() + ":" + (i + 1), lines.get(i)));
                }
            }
        }
        return cases;
    }

    /**
     * Every vector gets the reference decoder's verdict, and every accepted
     * one re-encodes to its canonical line byte for byte.
     */
    @Test
    void everyVectorGetsTheReferenceVerdictAndCanonicalLine() throws Exception {
        List<String> wrong = new ArrayList<>();
        List<Case> cases = cases();
        for (Case c : cases) {
            Envelope envelope;
            try {
                envelope = c.transport.equals("http") ? Wire.decodeBody(c.input) : Wire.decode(c.input);
            } catch (WireException refused) {
                if (c.accept) {
                    wrong.add(c.where + ": rejected a message the reference accepts: " + refused.getMessage());
                }
                continue;
            }
            if (!c.accept) {
                wrong.add(c.where + ": accepted a message the reference rejects");
                continue;
            }
            String encoded;
            try {
                encoded = new String(Wire.encode(envelope), StandardCharsets.UTF_8);
            } catch (WireException refused) {
                wrong.add(c.where + ": cannot encode: " + refused.getMessage());
                continue;
            }
            if (c.canonical != null && !encoded.equals(c.canonical + "\n")) {
                wrong.add(c.where + ": encoded\n  " + encoded.strip() + "\nnot\n  " + c.canonical);
            }
        }
        assertTrue(wrong.isEmpty(), wrong.size() + " of " + cases.size() + " vectors disagree:\n"
                + String.join("\n", wrong.subList(0, Math.min(wrong.size(), 20))));
        assertTrue(cases.size() > 100, "only " + cases.size() + " vectors");
    }

    /**
     * The fast path (Fast and the generated fast readers) takes every valid
     * canonical line of the vectors (each accepted case's canonical line that
     * the exact path reads) itself, to the envelope the exact path
     * reads. A reader that stopped taking some shape would still give the
     * exact path's verdicts through Wire.decode, so only this count shows it.
     */
    @Test
    void theFastPathTakesEveryValidCanonicalLineItself() throws Exception {
        List<String> missed = new ArrayList<>();
        int lines = 0;
        for (Case c : cases()) {
            if (!c.accept || c.canonical == null) {
                continue;
            }
            byte[] line = c.canonical.getBytes(StandardCharsets.UTF_8);
            Envelope exact;
            try {
                exact = Wire.exact(line);
            } catch (WireException refused) {
                // A canonical line that is not itself valid: edge.ndjson's
                // f32 overflows, written as null.
                continue;
            }
            lines++;
            Envelope fast = Fast.decode(line);
            if (fast == null) {
                missed.add(c.where + ": missed " + c.canonical);
            } else if (!fast.equals(exact)) {
                missed.add(c.where + ": read otherwise than the exact path " + c.canonical);
            }
        }
        assertTrue(missed.isEmpty(), missed.size() + " of " + lines + " valid canonical lines:\n"
                + String.join("\n", missed.subList(0, Math.min(missed.size(), 20))));
        assertTrue(lines > 150, "only " + lines + " valid canonical lines");
    }
}
