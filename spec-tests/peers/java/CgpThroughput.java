// `cargo xtask bench`'s Java figures: the generated package's `Wire.decode`
// against Jackson databind reading the same lines into the plain classes of
// BenchTypes.java, in one JVM, the two taking turns in every round after one
// unmeasured pass each (the JIT's warm-up).
//
//     java -cp <package jar>:<databind jars>:<classes> cgpbench.CgpThroughput <transcript> <rounds>
//
// prints one JSON object: the line count, how many lines each rejected, and
// each one's best pass in seconds.

package cgpbench;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.github.cgpschema.cgptypes.Envelope;
import io.github.cgpschema.cgptypes.Wire;
import io.github.cgpschema.cgptypes.WireException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The throughput of `Wire.decode` and of databind on one transcript. */
public final class CgpThroughput {
    private CgpThroughput() {}

    /** Envelopes decoded in all; printed, so no pass can be optimised away. */
    private static int sink;

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: CgpThroughput <transcript.ndjson> <rounds>");
            System.exit(2);
        }
        List<byte[]> lines = lines(Files.readAllBytes(Paths.get(args[0])));
        int rounds = Integer.parseInt(args[1]);
        // The reference ignores unknown members, and so does this reader.
        ObjectReader databind = new ObjectMapper()
                .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
                .readerFor(BenchTypes.Envelope.class);
        int rejected = decodePass(lines);
        int rejectedDatabind = databindPass(databind, lines);
        double best = Double.MAX_VALUE;
        double bestDatabind = Double.MAX_VALUE;
        for (int round = 0; round < rounds; round++) {
            long start = System.nanoTime();
            decodePass(lines);
            best = Math.min(best, (System.nanoTime() - start) / 1e9);
            start = System.nanoTime();
            databindPass(databind, lines);
            bestDatabind = Math.min(bestDatabind, (System.nanoTime() - start) / 1e9);
        }
        System.out.printf(
                "{\"lines\":%d,\"rejected\":%d,\"seconds\":%.9f,\"rejected_databind\":%d,\"seconds_databind\":%.9f,\"sink\":%d}%n",
                lines.size(), rejected, best, rejectedDatabind, bestDatabind, sink);
    }

    /** Every line through `Wire.decode`; how many it rejected. */
    private static int decodePass(List<byte[]> lines) {
        int rejected = 0;
        for (byte[] line : lines) {
            try {
                Envelope envelope = Wire.decode(line);
                if (envelope != null) {
                    sink++;
                }
            } catch (WireException refused) {
                rejected++;
            }
        }
        return rejected;
    }

    /** Every line through databind; how many it could not read. */
    private static int databindPass(ObjectReader databind, List<byte[]> lines) {
        int rejected = 0;
        for (byte[] line : lines) {
            try {
                Object envelope = databind.readValue(line);
                if (envelope != null) {
                    sink++;
                }
            } catch (IOException refused) {
                rejected++;
            }
        }
        return rejected;
    }

    /** The transcript's lines, without their line feeds. */
    private static List<byte[]> lines(byte[] text) {
        List<byte[]> lines = new ArrayList<>();
        int start = 0;
        for (int at = 0; at < text.length; at++) {
            if (text[at] == '\n') {
                lines.add(Arrays.copyOfRange(text, start, at));
                start = at + 1;
            }
        }
        if (start < text.length) {
            lines.add(Arrays.copyOfRange(text, start, text.length));
        }
        return lines;
    }
}
