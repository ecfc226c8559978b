// Command cgp-throughput times cgptypes.Decode against encoding/json's
// Unmarshal of the same lines into the same structs (the variant struct
// picked by a first Unmarshal of the tag, as a Go program without this
// package would), best of ROUNDS passes each, taking turns.
//
//	cgp-throughput NDJSON ROUNDS
//
// prints {"lines","rejected","seconds","seconds_encoding_json",
// "rejected_encoding_json"}. encoding/json cannot fill a sealed interface
// (FrameVerdict), so it reports those lines as errors after reading them
// whole. This file is copied as-is by `cargo xtask codegen`.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"time"

	cgptypes "github.com/cgp-schema/cgp-schema/generated/go"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: cgp-throughput NDJSON ROUNDS")
		os.Exit(2)
	}
	text, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	rounds, err := strconv.Atoi(os.Args[2])
	if err != nil || rounds < 1 {
		rounds = 1
	}
	var lines [][]byte
	for _, line := range bytes.Split(text, []byte("\n")) {
		if len(line) > 0 {
			lines = append(lines, line)
		}
	}
	best, bestJSON := time.Duration(1<<62), time.Duration(1<<62)
	rejected, rejectedJSON := 0, 0
	sink := 0
	for round := 0; round < rounds; round++ {
		rejectedJSON = 0
		start := time.Now()
		for _, line := range lines {
			var tag struct {
				Type string `json:"type"`
			}
			if json.Unmarshal(line, &tag) != nil {
				rejectedJSON++
				continue
			}
			envelope := cgptypes.NewEnvelope(tag.Type)
			if envelope == nil || json.Unmarshal(line, envelope) != nil {
				rejectedJSON++
				continue
			}
			sink++
		}
		bestJSON = min(bestJSON, time.Since(start))
		rejected = 0
		start = time.Now()
		for _, line := range lines {
			if _, err := cgptypes.Decode(line); err != nil {
				rejected++
				continue
			}
			sink++
		}
		best = min(best, time.Since(start))
	}
	fmt.Printf("{\"lines\":%d,\"rejected\":%d,\"seconds\":%g,\"seconds_encoding_json\":%g,\"rejected_encoding_json\":%d,\"sink\":%d}\n",
		len(lines), rejected, best.Seconds(), bestJSON.Seconds(), rejectedJSON, sink)
}
