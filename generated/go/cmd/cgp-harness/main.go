// Command cgp-harness decodes conformance cases with the cgptypes package and
// answers each with its verdict: one JSON case per line on stdin,
//
//	{"id": …, "transport": "stdio"|"http", "input": "…"}   (or "input_base64")
//
// one answer per line on stdout, in order,
//
//	{"id": …, "accept": true, "canonical": "…"}   or   {"id": …, "accept": false}
//
// where canonical is the re-encoded envelope without its newline. A case it
// cannot read is an error on stderr and exit status 2. This file is copied
// as-is by `cargo xtask codegen`.
package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"

	cgptypes "github.com/cgp-schema/cgp-schema/generated/go"
)

type testCase struct {
	ID          json.RawMessage `json:"id"`
	Transport   string          `json:"transport"`
	Input       *string         `json:"input"`
	InputBase64 *string         `json:"input_base64"`
}

type answer struct {
	ID        json.RawMessage `json:"id"`
	Accept    bool            `json:"accept"`
	Canonical *string         `json:"canonical,omitempty"`
}

func main() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	encoder := json.NewEncoder(out)
	encoder.SetEscapeHTML(false)
	for number := 1; ; number++ {
		line, err := in.ReadBytes('\n')
		if len(line) == 0 && err != nil {
			return
		}
		var c testCase
		if err := json.Unmarshal(line, &c); err != nil {
			fail("case %d: %v", number, err)
		}
		var input []byte
		switch {
		case c.InputBase64 != nil:
			if input, err = base64.StdEncoding.DecodeString(*c.InputBase64); err != nil {
				fail("case %d: input_base64: %v", number, err)
			}
		case c.Input != nil:
			input = []byte(*c.Input)
		default:
			fail("case %d: neither input nor input_base64", number)
		}
		var envelope cgptypes.Envelope
		switch c.Transport {
		case "stdio":
			envelope, err = cgptypes.Decode(input)
		case "http":
			envelope, err = cgptypes.DecodeBody(input)
		default:
			fail("case %d: transport %q is neither stdio nor http", number, c.Transport)
		}
		result := answer{ID: c.ID}
		if err == nil {
			var encoded []byte
			if encoded, err = cgptypes.Encode(envelope); err == nil {
				canonical := string(encoded[:len(encoded)-1])
				result.Accept, result.Canonical = true, &canonical
			}
		}
		if err := encoder.Encode(result); err != nil {
			fail("write: %v", err)
		}
		// Answers go out before the harness waits for more input: a runner
		// that sends one case at a time (cgp vectors run) gets each answer,
		// and a batch is still written in large blocks.
		if in.Buffered() == 0 {
			if err := out.Flush(); err != nil {
				fail("write: %v", err)
			}
		}
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "cgp-harness: "+format+"\n", args...)
	os.Exit(2)
}
