// The conformance vectors of this protocol version (testdata/vectors/, the
// module's own copy of generated/vectors/<version>/) through Decode,
// DecodeBody and Encode, and a native fuzz target seeded from them. This file
// is copied as-is by `cargo xtask codegen`.

package cgptypes

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

type vectorCase struct {
	ID          string  `json:"id"`
	Transport   string  `json:"transport"`
	Input       *string `json:"input"`
	InputBase64 *string `json:"input_base64"`
	Decode      struct {
		Accept    bool    `json:"accept"`
		Canonical *string `json:"canonical"`
	} `json:"decode"`
	file string
}

func (c *vectorCase) bytes(t testing.TB) []byte {
	switch {
	case c.InputBase64 != nil:
		data, err := base64.StdEncoding.DecodeString(*c.InputBase64)
		if err != nil {
			t.Fatalf("%s %s: input_base64: %v", c.file, c.ID, err)
		}
		return data
	case c.Input != nil:
		return []byte(*c.Input)
	}
	t.Fatalf("%s %s: neither input nor input_base64", c.file, c.ID)
	return nil
}

func vectorDir() string {
	return filepath.Join("testdata", "vectors")
}

// loadVectors reads every case of this version's vector files; a missing
// directory fails the test, saying where it looked.
func loadVectors(t testing.TB) []vectorCase {
	dir := vectorDir()
	files, err := filepath.Glob(filepath.Join(dir, "*.ndjson"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no conformance vectors: expected %s/*.ndjson (a copy of generated/vectors/%s, written by `cargo xtask codegen`)", dir, versionSlug)
	}
	sort.Strings(files)
	var cases []vectorCase
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		scanner := bufio.NewScanner(f)
		scanner.Buffer(make([]byte, 1<<20), 64<<20)
		for number := 1; scanner.Scan(); number++ {
			if len(bytes.TrimSpace(scanner.Bytes())) == 0 {
				continue
			}
			var c vectorCase
			if err := json.Unmarshal(scanner.Bytes(), &c); err != nil {
				t.Fatalf("%s:%d: %v", file, number, err)
			}
			c.file = filepath.Base(file)
			cases = append(cases, c)
		}
		if err := scanner.Err(); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		f.Close()
	}
	return cases
}

func decodeFor(transport string, data []byte) (Envelope, error) {
	if transport == "http" {
		return DecodeBody(data)
	}
	return Decode(data)
}

// TestVectors: every vector gets the reference decoder's verdict, and every
// accepted one re-encodes to its canonical line byte for byte.
func TestVectors(t *testing.T) {
	cases := loadVectors(t)
	for i := range cases {
		c := &cases[i]
		envelope, err := decodeFor(c.Transport, c.bytes(t))
		if !c.Decode.Accept {
			var wire *WireError
			if err == nil {
				t.Errorf("%s %s: accepted a message the reference rejects", c.file, c.ID)
			} else if !errors.As(err, &wire) {
				t.Errorf("%s %s: the error is not a *WireError: %v", c.file, c.ID, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %s: rejected a message the reference accepts: %v", c.file, c.ID, err)
			continue
		}
		encoded, err := Encode(envelope)
		if err != nil {
			t.Errorf("%s %s: cannot encode: %v", c.file, c.ID, err)
			continue
		}
		// The canonical line, with or without its newline as the vector writes it.
		if c.Decode.Canonical != nil && string(encoded) != strings.TrimSuffix(*c.Decode.Canonical, "\n")+"\n" {
			t.Errorf("%s %s:\n  canonical %s\n  encoded   %s", c.file, c.ID, *c.Decode.Canonical, encoded)
		}
	}
	t.Logf("%d vectors", len(cases))
}

// FuzzDecode: decoding never panics and returns a *WireError or an envelope
// whose canonical line decodes to itself and re-encodes to the same bytes.
func FuzzDecode(f *testing.F) {
	for _, c := range loadVectors(f) {
		f.Add(c.bytes(f), c.Transport == "http")
	}
	f.Fuzz(func(t *testing.T, data []byte, body bool) {
		transport := "stdio"
		if body {
			transport = "http"
		}
		envelope, err := decodeFor(transport, data)
		if err != nil {
			var wire *WireError
			if !errors.As(err, &wire) {
				t.Fatalf("not a *WireError: %v", err)
			}
			return
		}
		first, err := Encode(envelope)
		if err != nil {
			t.Fatalf("a decoded envelope does not encode: %v", err)
		}
		again, err := Decode(first)
		if err != nil && nonFinite(first) {
			// A number beyond the f32 range is written as null, as the
			// reference writes it, and null is not a number when read back.
			return
		}
		if err != nil {
			t.Fatalf("the canonical line %q does not decode: %v", first, err)
		}
		second, err := Encode(again)
		if err != nil || !bytes.Equal(first, second) {
			t.Fatalf("encode∘decode is not stable:\n  %q\n  %q (%v)", first, second, err)
		}
	})
}

// nonFinite says whether a canonical line holds a null, which the encoder
// writes only for a number that is not finite.
func nonFinite(line []byte) bool {
	for _, spelled := range []string{":null", ",null", "[null"} {
		if bytes.Contains(line, []byte(spelled)) {
			return true
		}
	}
	return false
}

// TestLineReaderBoundary: a line of exactly MaxLineBytes is read, one byte
// more is refused with a *LineTooLongError, and a last line needs no line
// feed.
func TestLineReaderBoundary(t *testing.T) {
	fits := bytes.Repeat([]byte("a"), MaxLineBytes)
	input := append(append(append([]byte(nil), fits...), '\n'), `{"type":"shutdown"}`...)
	reader := NewLineReader(bytes.NewReader(input))
	line, err := reader.ReadLine()
	if err != nil || len(line) != MaxLineBytes {
		t.Fatalf("a line of exactly %d bytes: %d bytes, %v", MaxLineBytes, len(line), err)
	}
	line, err = reader.ReadLine()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(line); err != nil {
		t.Fatalf("the last line decodes: %v", err)
	}
	if _, err := reader.ReadLine(); !errors.Is(err, io.EOF) {
		t.Fatalf("after the last line: %v", err)
	}
	tooLong := append(bytes.Repeat([]byte("b"), MaxLineBytes+1), '\n')
	_, err = NewLineReader(bytes.NewReader(tooLong)).ReadLine()
	var refused *LineTooLongError
	if !errors.As(err, &refused) || refused.Limit != MaxLineBytes {
		t.Fatalf("a line of %d bytes: %v", MaxLineBytes+1, err)
	}
}
