// The pieces the generated decoders and encoders are built from: scalars
// read with the reference decoder's rules (u32, u64 and f32 exact, `null`
// never taken for a value), objects read by member name or in their
// positional array form, tagged unions, and the canonical writer (serde_json's
// string escapes and float layout). This file is copied as-is by
// `cargo xtask codegen`.

package cgptypes

import (
	"math"
	"strconv"
	"unicode/utf8"
)

func describe(v *value) string {
	switch v.kind {
	case kindNull:
		return "null"
	case kindBool:
		if v.boolean {
			return "the boolean true"
		}
		return "the boolean false"
	case kindString:
		return "the string " + strconv.Quote(v.text)
	case kindUnsigned:
		return "the integer " + strconv.FormatUint(v.u, 10)
	case kindNegative:
		return "the integer " + strconv.FormatInt(v.i, 10)
	case kindFloat:
		return "the float " + strconv.FormatFloat(v.f, 'g', -1, 64)
	case kindArray:
		return "an array"
	default:
		return "an object"
	}
}

func expected(what string, v *value, p *path) error {
	return errAt(p, "expected "+what+", found "+describe(v))
}

func decodeString(v *value, p *path) (string, error) {
	if v.kind != kindString {
		return "", expected("a string", v, p)
	}
	return v.text, nil
}

func decodeBool(v *value, p *path) (bool, error) {
	if v.kind != kindBool {
		return false, expected("a boolean", v, p)
	}
	return v.boolean, nil
}

func decodeUint64(v *value, p *path) (uint64, error) {
	switch v.kind {
	case kindUnsigned:
		return v.u, nil
	case kindNegative:
		return 0, errAt(p, "the integer "+strconv.FormatInt(v.i, 10)+" is out of range")
	}
	return 0, expected("an integer", v, p)
}

func decodeUint32(v *value, p *path) (uint32, error) {
	u, err := decodeUint64(v, p)
	if err != nil {
		return 0, err
	}
	if u > math.MaxUint32 {
		return 0, errAt(p, "the integer "+strconv.FormatUint(u, 10)+" is out of range")
	}
	return uint32(u), nil
}

// decodeFloat32 rounds as the reference does: an integer straight to the
// nearest f32, a float through its nearest f64.
func decodeFloat32(v *value, p *path) (float32, error) {
	switch v.kind {
	case kindUnsigned:
		return float32(v.u), nil
	case kindNegative:
		return float32(v.i), nil
	case kindFloat:
		return float32(v.f), nil
	}
	return 0, expected("a number", v, p)
}

func decodeFloat64(v *value, p *path) (float64, error) {
	switch v.kind {
	case kindUnsigned:
		return float64(v.u), nil
	case kindNegative:
		return float64(v.i), nil
	case kindFloat:
		return v.f, nil
	}
	return 0, expected("a number", v, p)
}

func decodeArray[T any](v *value, p *path, item func(*value, *path) (T, error)) ([]T, error) {
	if v.kind != kindArray {
		return nil, expected("an array", v, p)
	}
	out := make([]T, len(v.items))
	for i := range v.items {
		decoded, err := item(&v.items[i], &path{parent: p, index: i})
		if err != nil {
			return nil, err
		}
		out[i] = decoded
	}
	return out, nil
}

// unitName is the string of a closed vocabulary's value: the string itself,
// or the one key of `{"<value>": null}` (or `{"<value>": {}}`), which the
// reference reads the same way.
func unitName(v *value) (string, bool) {
	switch v.kind {
	case kindString:
		return v.text, true
	case kindObject:
		if len(v.members) == 1 {
			inner := &v.members[0].value
			if inner.kind == kindNull || (inner.kind == kindObject && len(inner.members) == 0) {
				return v.members[0].key, true
			}
		}
	}
	return "", false
}

// objectShape is how the generated decoder of one object (or union branch)
// finds its members.
type objectShape struct {
	names []string
	index map[string]int
	// tag is the union's tag member, read by the caller; "" for a plain object.
	tag string
}

func newObjectShape(tag string, names ...string) *objectShape {
	index := make(map[string]int, len(names))
	for i, name := range names {
		index[name] = i
	}
	return &objectShape{names: names, index: index, tag: tag}
}

// slots finds the value of each member of shape in v, nil where absent: by
// name in an object (a duplicate is an error, an unknown member is ignored),
// or by position in the array form the reference also reads.
func (shape *objectShape) slots(v *value, p *path, out []*value) error {
	switch v.kind {
	case kindObject:
		for i := range v.members {
			m := &v.members[i]
			if shape.tag != "" && m.key == shape.tag {
				continue
			}
			at, ok := shape.index[m.key]
			if !ok {
				continue
			}
			if out[at] != nil {
				return errAt(p, "duplicate member `"+m.key+"`")
			}
			out[at] = &m.value
		}
		return nil
	case kindArray:
		next := 0
		for at, name := range shape.names {
			if shape.tag != "" && name == shape.tag {
				continue
			}
			if next < len(v.items) {
				out[at] = &v.items[next]
			}
			next++
		}
		if len(v.items) > next {
			return errAt(p, "invalid length "+strconv.Itoa(len(v.items))+", expected "+strconv.Itoa(next)+" elements")
		}
		return nil
	}
	return expected("an object", v, p)
}

func missing(p *path, name string) error {
	return errAt(p, "missing member `"+name+"`")
}

// unionBranch finds which branch of a tagged union v is, and the value
// holding its other members. positional allows the array form whose first
// item is the tag; byIndex allows the branch's index in place of its tag.
func unionBranch(v *value, p *path, tag string, tags []string, positional, byIndex bool) (int, *value, error) {
	var found *value
	body := v
	switch {
	case v.kind == kindObject:
		for i := range v.members {
			if v.members[i].key != tag {
				continue
			}
			if found != nil {
				return 0, nil, errAt(p, "duplicate member `"+tag+"`")
			}
			found = &v.members[i].value
		}
		if found == nil {
			return 0, nil, missing(p, tag)
		}
	case v.kind == kindArray && positional:
		if len(v.items) == 0 {
			return 0, nil, missing(p, tag)
		}
		found = &v.items[0]
		body = &value{kind: kindArray, items: v.items[1:]}
	default:
		return 0, nil, expected("an object", v, p)
	}
	switch {
	case found.kind == kindString:
		for i, candidate := range tags {
			if candidate == found.text {
				return i, body, nil
			}
		}
	case found.kind == kindUnsigned && byIndex:
		if found.u < uint64(len(tags)) {
			return int(found.u), body, nil
		}
	}
	what := "one of"
	for i, candidate := range tags {
		if i > 0 {
			what += ","
		}
		what += " " + strconv.Quote(candidate)
	}
	return 0, nil, expected(what, found, &path{parent: p, key: tag, index: -1})
}

// ---------------------------------------------------------------- encoding

// appendString writes s as serde_json writes a string; s must be valid UTF-8.
func appendString(b []byte, s string, p *path) ([]byte, error) {
	if !utf8.ValidString(s) {
		return b, errAt(p, "the string is not valid UTF-8")
	}
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			const hex = "0123456789abcdef"
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"'), nil
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

// appendFloat writes f as serde_json writes an f32 (bits 32) or an f64: the
// shortest digits that read back, plain between 1e-6 (f32) or 1e-5 (f64)
// and below 1e13 (f32) or 1e16 (f64), otherwise as `d.ddde±x`; `null` for a
// value that is not finite.
func appendFloat(b []byte, f float64, bits int) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	if math.Signbit(f) {
		b = append(b, '-')
		f = -f
	}
	if f == 0 {
		return append(b, "0.0"...)
	}
	var scratch [32]byte
	text := strconv.AppendFloat(scratch[:0], f, 'e', -1, bits)
	// text is d[.ddd]e±xx
	e := 0
	for e < len(text) && text[e] != 'e' {
		e++
	}
	digits := make([]byte, 0, 20)
	for _, c := range text[:e] {
		if c != '.' {
			digits = append(digits, c)
		}
	}
	exponent, _ := strconv.Atoi(string(text[e+1:]))
	low, high := -5, 15
	if bits == 32 {
		low, high = -6, 12
	}
	n := len(digits)
	if exponent >= low && exponent <= high {
		switch {
		case n-1 <= exponent:
			b = append(b, digits...)
			for i := 0; i < exponent-(n-1); i++ {
				b = append(b, '0')
			}
			return append(b, '.', '0')
		case exponent >= 0:
			b = append(b, digits[:exponent+1]...)
			b = append(b, '.')
			return append(b, digits[exponent+1:]...)
		default:
			b = append(b, '0', '.')
			for i := 0; i < -exponent-1; i++ {
				b = append(b, '0')
			}
			return append(b, digits...)
		}
	}
	b = append(b, digits[0])
	if n > 1 {
		b = append(b, '.')
		b = append(b, digits[1:]...)
	}
	b = append(b, 'e')
	if exponent < 0 {
		b = append(b, '-')
		exponent = -exponent
	} else {
		b = append(b, '+')
	}
	return strconv.AppendInt(b, int64(exponent), 10)
}

func appendFloat32(b []byte, f float32) []byte { return appendFloat(b, float64(f), 32) }

func appendFloat64(b []byte, f float64) []byte { return appendFloat(b, f, 64) }

func appendUint32(b []byte, v uint32) []byte { return strconv.AppendUint(b, uint64(v), 10) }

func appendUint64(b []byte, v uint64) []byte { return strconv.AppendUint(b, v, 10) }

// appendKey writes `"name":`, with a comma before it unless it is first.
func appendKey(b []byte, name string, first *bool) []byte {
	if !*first {
		b = append(b, ',')
	}
	*first = false
	b = append(b, '"')
	b = append(b, name...)
	return append(b, '"', ':')
}

func encodeBool(b []byte, v bool, _ *path) ([]byte, error) { return appendBool(b, v), nil }

func encodeUint32(b []byte, v uint32, _ *path) ([]byte, error) { return appendUint32(b, v), nil }

func encodeUint64(b []byte, v uint64, _ *path) ([]byte, error) { return appendUint64(b, v), nil }

func encodeFloat32(b []byte, v float32, _ *path) ([]byte, error) { return appendFloat32(b, v), nil }

func encodeFloat64(b []byte, v float64, _ *path) ([]byte, error) { return appendFloat64(b, v), nil }

func encodeArray[T any](b []byte, items []T, p *path, item func([]byte, T, *path) ([]byte, error)) ([]byte, error) {
	b = append(b, '[')
	for i := range items {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = item(b, items[i], &path{parent: p, index: i}); err != nil {
			return b, err
		}
	}
	return append(b, ']'), nil
}

func quoted(s string) string { return strconv.Quote(s) }
