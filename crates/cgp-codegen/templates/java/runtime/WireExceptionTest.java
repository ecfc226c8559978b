// Where a refusal points: the JSON pointer of the value at fault (decoding
// and encoding), the byte offset of a syntax error; and an open vocabulary's
// unknown value kept. This file is copied as-is by
// `cargo xtask codegen`.

package io.github.cgpschema.cgptypes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class WireExceptionTest {
    private static WireException refusal(String line) {
        return assertThrows(WireException.class, () -> Wire.decode(line.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aValueOfTheWrongTypeIsNamedByItsPointer() {
        WireException refused = refusal("{\"type\":\"handshake\",\"protocol_version\":7}");
        assertEquals("/protocol_version", refused.pointer());
        assertEquals(-1, refused.offset());
    }

    @Test
    void aPointerEscapesTildeAndSlash() {
        assertEquals("/a~1b/c~0d/3", Path.pointer(new Path(new Path(new Path(null, "a/b"), "c~d"), 3)));
    }

    @Test
    void anEnvelopeTheReferenceCannotHoldIsRefusedWhereItIsWrong() {
        WireException surrogate = assertThrows(WireException.class,
                () -> Wire.encode(new HandshakeEnvelope("contextgraph/\ud800")));
        assertEquals("/protocol_version", surrogate.pointer());
        WireException absent = assertThrows(WireException.class,
                () -> Wire.encode(new HandshakeEnvelope(null)));
        assertEquals("/protocol_version", absent.pointer());
        assertThrows(WireException.class, () -> Wire.encode(null));
    }

    @Test
    void anOpenVocabularyKeepsAnUnknownValueAndNamesAKnownOne() throws WireException {
        Envelope decoded = Wire.decode("{\"type\":\"error\",\"code\":\"new_code\",\"message\":\"m\"}"
                .getBytes(StandardCharsets.UTF_8));
        ErrorEnvelope error = (ErrorEnvelope) decoded;
        assertEquals("new_code", error.code().raw());
        assertEquals(null, error.code().known());
        assertEquals(ErrorCode.Known.INTERNAL, ErrorCode.INTERNAL.known());
    }

    @Test
    void aSyntaxErrorHasAnOffsetAndNoPointer() {
        WireException refused = refusal("{\"type\":");
        assertEquals("", refused.pointer());
        assertEquals(8, refused.offset());
    }
}
