// The package's entry points: a stdio line or an HTTP body in, an envelope
// out, and the canonical line back. This file is copied as-is by
// `cargo xtask codegen`; the types and their decoders and encoders are
// generated beside it.

package cgptypes

import "unicode/utf8"

// Decode reads one stdio line the way the reference host reads it: invalid
// UTF-8 is replaced (one U+FFFD per maximal subpart, as Rust's
// String::from_utf8_lossy does), trailing whitespace (a newline included) is
// trimmed, and the rest must be exactly one envelope. It accepts exactly the
// lines the reference decoder accepts; every other line is a *WireError.
func Decode(line []byte) (Envelope, error) {
	return decodeText(trimEnd(lossy(line)))
}

// DecodeBody reads one HTTP body the way the reference host reads it: the
// body must be valid UTF-8 and exactly one envelope (JSON whitespace around
// it allowed). Every body the reference rejects is a *WireError.
func DecodeBody(body []byte) (Envelope, error) {
	if !utf8.Valid(body) {
		return nil, &WireError{Message: "the body is not valid UTF-8", Offset: -1}
	}
	return decodeText(body)
}

func decodeText(text []byte) (Envelope, error) {
	r := reader{data: text}
	v, err := r.document()
	if err != nil {
		return nil, err
	}
	return decodeEnvelope(&v, nil)
}

// Encode writes the canonical line of e, newline included: byte for byte
// what the reference encoder writes (members in declaration order, optional
// members left out as their emit rule says, serde_json's escapes and number
// layout). An envelope the reference could not hold (a string that is not
// valid UTF-8, a closed vocabulary's unknown value, a nil envelope) is a
// *WireError.
func Encode(e Envelope) ([]byte, error) {
	if e == nil {
		return nil, &WireError{Message: "no envelope", Offset: -1}
	}
	b, err := e.appendEnvelope(make([]byte, 0, 256))
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
