// The text around the JSON: a stdio line's bytes made valid UTF-8 the way
// Rust's `String::from_utf8_lossy` does (one U+FFFD per maximal subpart of an
// ill-formed sequence), its trailing whitespace trimmed as Rust's
// `str::trim_end` trims it, and the errors every decoder returns. This file is
// copied as-is by `cargo xtask codegen`.

package cgptypes

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// WireError is why a message does not decode, or why an envelope cannot be
// encoded: what is wrong and where. Use errors.As to get it from an error.
type WireError struct {
	// Message says what is wrong.
	Message string
	// Pointer is the JSON pointer of the value at fault; empty for the text
	// as a whole or for a syntax error.
	Pointer string
	// Offset is the byte offset of a syntax error in the text read (after
	// invalid UTF-8 was replaced); -1 when the error is about a value.
	Offset int
}

func (e *WireError) Error() string {
	switch {
	case e.Offset >= 0:
		return e.Message + " at byte " + strconv.Itoa(e.Offset)
	case e.Pointer != "":
		return e.Message + " at " + e.Pointer
	default:
		return e.Message
	}
}

// path is where a value sits, built as the walk descends and spelled as a
// JSON pointer only when an error needs it.
type path struct {
	parent *path
	key    string
	index  int
}

func (p *path) pointer() string {
	if p == nil {
		return ""
	}
	var token string
	if p.index >= 0 {
		token = strconv.Itoa(p.index)
	} else {
		token = strings.ReplaceAll(strings.ReplaceAll(p.key, "~", "~0"), "/", "~1")
	}
	return p.parent.pointer() + "/" + token
}

func errAt(p *path, message string) error {
	return &WireError{Message: message, Pointer: p.pointer(), Offset: -1}
}

// lossy returns data with every maximal subpart of an ill-formed UTF-8
// sequence replaced by U+FFFD, exactly as Rust's from_utf8_lossy does.
func lossy(data []byte) []byte {
	if utf8.Valid(data) {
		return data
	}
	out := make([]byte, 0, len(data)+16)
	for at := 0; at < len(data); {
		c := data[at]
		if c < 0x80 {
			out = append(out, c)
			at++
			continue
		}
		size := validPrefix(data[at:])
		if size > 0 {
			out = append(out, data[at:at+size]...)
			at += size
			continue
		}
		out = append(out, "\uFFFD"...)
		at += -size
	}
	return out
}

// validPrefix returns the length of the well-formed sequence starting data
// (whose first byte is not ASCII), or minus the length of the maximal subpart
// to replace when it is ill-formed (at least one byte).
func validPrefix(data []byte) int {
	c := data[0]
	var need int
	low, high := byte(0x80), byte(0xBF)
	switch {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, low = 2, 0xA0
	case (c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF:
		need = 2
	case c == 0xED:
		need, high = 2, 0x9F
	case c == 0xF0:
		need, low = 3, 0x90
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	case c == 0xF4:
		need, high = 3, 0x8F
	default:
		return -1
	}
	for i := 1; i <= need; i++ {
		if i >= len(data) {
			return -i
		}
		b := data[i]
		if i == 1 {
			if b < low || b > high {
				return -1
			}
		} else if b < 0x80 || b > 0xBF {
			return -i
		}
	}
	return need + 1
}

// trimEnd drops the trailing characters Rust's char::is_whitespace names.
func trimEnd(data []byte) []byte {
	for len(data) > 0 {
		c := data[len(data)-1]
		if c < 0x80 {
			if c == ' ' || (c >= 0x09 && c <= 0x0d) {
				data = data[:len(data)-1]
				continue
			}
			return data
		}
		r, size := utf8.DecodeLastRune(data)
		if !isRustWhitespace(r) {
			return data
		}
		data = data[:len(data)-size]
	}
	return data
}

func isRustWhitespace(r rune) bool {
	switch {
	case r >= 0x09 && r <= 0x0d, r == 0x20, r == 0x85, r == 0xa0, r == 0x1680,
		r >= 0x2000 && r <= 0x200a, r == 0x2028, r == 0x2029, r == 0x202f,
		r == 0x205f, r == 0x3000:
		return true
	}
	return false
}
