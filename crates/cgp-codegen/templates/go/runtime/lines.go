// The bounded reader of lines from a stream (a provider's standard output, a
// socket). This file is copied as-is by `cargo xtask codegen`.

package cgptypes

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// MaxLineBytes is the longest line LineReader returns: 16 MiB before the line
// feed, about where the reference host stops reading a line.
const MaxLineBytes = 16 << 20

// LineTooLongError is LineReader's refusal of a line longer than its limit.
// It is returned before the line is held whole; the stream is then in the
// middle of that line, so a host stops reading it.
type LineTooLongError struct {
	// Limit is the most bytes a line may have before its line feed.
	Limit int
}

func (e *LineTooLongError) Error() string {
	return fmt.Sprintf("a line longer than %d bytes (before its line feed)", e.Limit)
}

// LineReader reads lines of at most MaxLineBytes from a stream.
type LineReader struct {
	in    *bufio.Reader
	limit int
}

// NewLineReader reads lines from r.
func NewLineReader(r io.Reader) *LineReader {
	return &LineReader{in: bufio.NewReaderSize(r, 64<<10), limit: MaxLineBytes}
}

// ReadLine returns the next line without its line feed (a last line without
// one too), io.EOF after the last, or a *LineTooLongError as soon as a line
// exceeds the limit. Pass the line to Decode.
func (l *LineReader) ReadLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := l.in.ReadSlice('\n')
		content := chunk
		if err == nil {
			content = chunk[:len(chunk)-1]
		}
		if len(line)+len(content) > l.limit {
			return nil, &LineTooLongError{Limit: l.limit}
		}
		line = append(line, content...)
		switch {
		case err == nil:
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return line, nil
		default:
			return nil, err
		}
	}
}
