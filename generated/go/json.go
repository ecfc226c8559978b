// The JSON text of one message, read with the reference decoder's rules:
// members kept in order with their duplicates, numbers classified as the
// reference classifies them (unsigned, negative, float), nesting bounded at
// 127, lone surrogate escapes refused, nothing but JSON whitespace between
// tokens. This file is copied as-is by `cargo xtask codegen`.

package cgptypes

import (
	"strconv"
	"unicode/utf8"
)

// maxDepth is the deepest nesting of arrays and objects the reference reads.
const maxDepth = 127

type kind uint8

const (
	kindNull kind = iota
	kindBool
	kindString
	kindUnsigned
	kindNegative
	kindFloat
	kindArray
	kindObject
)

// value is one JSON value as read: a string's text, a number's value as the
// reference holds it, an array's items or an object's members in order.
type value struct {
	kind    kind
	boolean bool
	text    string
	u       uint64
	i       int64
	f       float64
	items   []value
	members []member
}

type member struct {
	key   string
	value value
}

// reader reads one JSON text from a byte slice holding valid UTF-8.
type reader struct {
	data []byte
	at   int
}

func (r *reader) fail(message string) error {
	return &WireError{Message: message, Offset: r.at}
}

func (r *reader) skipWhitespace() {
	for r.at < len(r.data) {
		switch r.data[r.at] {
		case ' ', '\t', '\n', '\r':
			r.at++
		default:
			return
		}
	}
}

// document reads the whole text as one value.
func (r *reader) document() (value, error) {
	var out value
	if err := r.value(&out, 1); err != nil {
		return value{}, err
	}
	r.skipWhitespace()
	if r.at < len(r.data) {
		return value{}, r.fail("trailing characters")
	}
	return out, nil
}

func (r *reader) value(out *value, depth int) error {
	r.skipWhitespace()
	if r.at >= len(r.data) {
		return r.fail("EOF while parsing a value")
	}
	switch c := r.data[r.at]; c {
	case '{':
		if depth > maxDepth {
			return r.fail("recursion limit exceeded")
		}
		r.at++
		return r.object(out, depth)
	case '[':
		if depth > maxDepth {
			return r.fail("recursion limit exceeded")
		}
		r.at++
		return r.array(out, depth)
	case '"':
		r.at++
		s, err := r.string()
		if err != nil {
			return err
		}
		out.kind = kindString
		out.text = s
		return nil
	case 't':
		out.kind, out.boolean = kindBool, true
		return r.literal("true")
	case 'f':
		out.kind = kindBool
		return r.literal("false")
	case 'n':
		out.kind = kindNull
		return r.literal("null")
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			return r.number(out)
		}
		return r.fail("expected value")
	}
}

func (r *reader) literal(word string) error {
	for i := 0; i < len(word); i++ {
		if r.at >= len(r.data) {
			return r.fail("EOF while parsing a value")
		}
		if r.data[r.at] != word[i] {
			return r.fail("expected ident")
		}
		r.at++
	}
	return nil
}

func (r *reader) object(out *value, depth int) error {
	out.kind = kindObject
	r.skipWhitespace()
	if r.at < len(r.data) && r.data[r.at] == '}' {
		r.at++
		return nil
	}
	members := make([]member, 0, 8)
	for {
		r.skipWhitespace()
		if r.at >= len(r.data) {
			return r.fail("EOF while parsing an object")
		}
		if r.data[r.at] != '"' {
			return r.fail("key must be a string")
		}
		r.at++
		key, err := r.string()
		if err != nil {
			return err
		}
		r.skipWhitespace()
		if r.at >= len(r.data) {
			return r.fail("EOF while parsing an object")
		}
		if r.data[r.at] != ':' {
			return r.fail("expected `:`")
		}
		r.at++
		members = append(members, member{key: key})
		if err := r.value(&members[len(members)-1].value, depth+1); err != nil {
			return err
		}
		r.skipWhitespace()
		if r.at >= len(r.data) {
			return r.fail("EOF while parsing an object")
		}
		next := r.data[r.at]
		r.at++
		if next == '}' {
			out.members = members
			return nil
		}
		if next != ',' {
			r.at--
			return r.fail("expected `,` or `}`")
		}
		r.skipWhitespace()
		if r.at < len(r.data) && r.data[r.at] == '}' {
			return r.fail("trailing comma")
		}
	}
}

func (r *reader) array(out *value, depth int) error {
	out.kind = kindArray
	r.skipWhitespace()
	if r.at < len(r.data) && r.data[r.at] == ']' {
		r.at++
		out.items = []value{}
		return nil
	}
	items := make([]value, 0, 4)
	for {
		items = append(items, value{})
		if err := r.value(&items[len(items)-1], depth+1); err != nil {
			return err
		}
		r.skipWhitespace()
		if r.at >= len(r.data) {
			return r.fail("EOF while parsing a list")
		}
		next := r.data[r.at]
		r.at++
		if next == ']' {
			out.items = items
			return nil
		}
		if next != ',' {
			r.at--
			return r.fail("expected `,` or `]`")
		}
		r.skipWhitespace()
		if r.at < len(r.data) && r.data[r.at] == ']' {
			return r.fail("trailing comma")
		}
	}
}

// string reads the rest of a string whose opening quote has been read.
func (r *reader) string() (string, error) {
	start := r.at
	data := r.data
	// The plain run: no escape, no control character.
	for r.at < len(data) {
		c := data[r.at]
		if c == '"' {
			s := string(data[start:r.at])
			r.at++
			return s, nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		r.at++
	}
	buf := make([]byte, 0, r.at-start+16)
	buf = append(buf, data[start:r.at]...)
	for {
		if r.at >= len(data) {
			return "", r.fail("EOF while parsing a string")
		}
		c := data[r.at]
		switch {
		case c == '"':
			r.at++
			return string(buf), nil
		case c < 0x20:
			return "", r.fail("control character (\\u0000-\\u001F) found while parsing a string")
		case c == '\\':
			r.at++
			var err error
			if buf, err = r.escape(buf); err != nil {
				return "", err
			}
		default:
			// The plain run up to the next quote, escape or control
			// character, appended at once.
			end := r.at + 1
			for end < len(data) {
				c := data[end]
				if c == '"' || c == '\\' || c < 0x20 {
					break
				}
				end++
			}
			buf = append(buf, data[r.at:end]...)
			r.at = end
		}
	}
}

func (r *reader) escape(buf []byte) ([]byte, error) {
	if r.at >= len(r.data) {
		return nil, r.fail("EOF while parsing a string")
	}
	c := r.data[r.at]
	r.at++
	switch c {
	case '"':
		return append(buf, '"'), nil
	case '\\':
		return append(buf, '\\'), nil
	case '/':
		return append(buf, '/'), nil
	case 'b':
		return append(buf, '\b'), nil
	case 'f':
		return append(buf, '\f'), nil
	case 'n':
		return append(buf, '\n'), nil
	case 'r':
		return append(buf, '\r'), nil
	case 't':
		return append(buf, '\t'), nil
	case 'u':
		first, err := r.hex()
		if err != nil {
			return nil, err
		}
		if first >= 0xdc00 && first <= 0xdfff {
			return nil, r.fail("lone leading surrogate in hex escape")
		}
		if first < 0xd800 || first > 0xdbff {
			return utf8.AppendRune(buf, rune(first)), nil
		}
		if r.at+1 >= len(r.data) || r.data[r.at] != '\\' || r.data[r.at+1] != 'u' {
			if r.at >= len(r.data) || (r.data[r.at] == '\\' && r.at+1 >= len(r.data)) {
				return nil, r.fail("EOF while parsing a string")
			}
			return nil, r.fail("unexpected end of hex escape")
		}
		r.at += 2
		second, err := r.hex()
		if err != nil {
			return nil, err
		}
		if second < 0xdc00 || second > 0xdfff {
			return nil, r.fail("lone leading surrogate in hex escape")
		}
		return utf8.AppendRune(buf, rune(0x10000+((first-0xd800)<<10)+(second-0xdc00))), nil
	default:
		r.at--
		return nil, r.fail("invalid escape")
	}
}

func (r *reader) hex() (uint32, error) {
	var v uint32
	for i := 0; i < 4; i++ {
		if r.at >= len(r.data) {
			return 0, r.fail("EOF while parsing a string")
		}
		c := r.data[r.at]
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, r.fail("invalid escape")
		}
		v = v*16 + uint32(d)
		r.at++
	}
	return v, nil
}

func isDigit(data []byte, at int) bool {
	return at < len(data) && data[at] >= '0' && data[at] <= '9'
}

// number reads a number: an integer that fits 64 bits (and is not `-0`) is
// kept as one; every other number is a float, correctly rounded, and a float
// beyond the f64 range is an error, as the reference reads them.
func (r *reader) number(out *value) error {
	data := r.data
	start := r.at
	negative := data[r.at] == '-'
	if negative {
		r.at++
	}
	if !isDigit(data, r.at) {
		if r.at >= len(data) {
			return r.fail("EOF while parsing a value")
		}
		return r.fail("invalid number")
	}
	if data[r.at] == '0' {
		r.at++
		if isDigit(data, r.at) {
			return r.fail("invalid number")
		}
	} else {
		for isDigit(data, r.at) {
			r.at++
		}
	}
	integerEnd := r.at
	float := false
	if r.at < len(data) && data[r.at] == '.' {
		float = true
		r.at++
		if !isDigit(data, r.at) {
			if r.at >= len(data) {
				return r.fail("EOF while parsing a value")
			}
			return r.fail("invalid number")
		}
		for isDigit(data, r.at) {
			r.at++
		}
	}
	if r.at < len(data) && (data[r.at] == 'e' || data[r.at] == 'E') {
		float = true
		r.at++
		if r.at < len(data) && (data[r.at] == '+' || data[r.at] == '-') {
			r.at++
		}
		if !isDigit(data, r.at) {
			if r.at >= len(data) {
				return r.fail("EOF while parsing a value")
			}
			return r.fail("invalid number")
		}
		for isDigit(data, r.at) {
			r.at++
		}
	}
	text := data[start:r.at]
	if !float {
		digits := data[start:integerEnd]
		if negative {
			digits = digits[1:]
		}
		if u, ok := parseUint64(digits); ok {
			if !negative {
				out.kind, out.u = kindUnsigned, u
				return nil
			}
			if u != 0 && u <= 1<<63 {
				out.kind, out.i = kindNegative, -int64(u-1)-1
				return nil
			}
		}
	}
	f, err := strconv.ParseFloat(string(text), 64)
	if err != nil {
		// A syntactically valid number fails only by overflowing.
		return r.fail("number out of range")
	}
	out.kind, out.f = kindFloat, f
	return nil
}

// parseUint64 reads decimal digits as a uint64, reporting overflow.
func parseUint64(digits []byte) (uint64, bool) {
	var v uint64
	for _, c := range digits {
		d := uint64(c - '0')
		if v > (1<<64-1-d)/10 {
			return 0, false
		}
		v = v*10 + d
	}
	return v, true
}
