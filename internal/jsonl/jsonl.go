// Package jsonl reads JSON Lines input a line at a time: lines are
// numbered from 1, a UTF-8 byte-order mark at the start of the first line
// is removed (editors on Windows write one), a line ends with "\n", "\r\n"
// or a lone "\r" (old Mac files; a raw CR cannot be inside a JSON string),
// as package jsonpos counts lines, and a line may hold at most a given
// number of bytes. What a line means (comments, blank lines, the
// object's fields) is left to the caller.
package jsonl

import (
	"bufio"
	"bytes"
	"io"
)

// bom is the UTF-8 encoding of U+FEFF.
var bom = []byte("\xef\xbb\xbf")

// Scanner reads the lines of r; use it as a bufio.Scanner.
type Scanner struct {
	sc   *bufio.Scanner
	line []byte
	n    int
}

// NewScanner reads r, with lines of at most max bytes (the newline and a
// "\r" before it counted; max below 64 KiB counts as 64 KiB); a longer line
// stops the scan and Err returns bufio.ErrTooLong.
func NewScanner(r io.Reader, max int) *Scanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), max)
	sc.Split(scanLines)
	return &Scanner{sc: sc}
}

// scanLines is bufio.ScanLines with a lone '\r' ending a line too; a '\r'
// at the end of the data read so far waits for the next byte (unless at
// EOF) to tell "\r\n" from a lone "\r".
func scanLines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if atEOF && len(data) == 0 {
		return 0, nil, nil
	}
	if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
		if data[i] == '\n' {
			return i + 1, data[:i], nil
		}
		if i+1 < len(data) {
			if data[i+1] == '\n' {
				return i + 2, data[:i], nil
			}
			return i + 1, data[:i], nil
		}
		if atEOF {
			return i + 1, data[:i], nil
		}
		return 0, nil, nil // a '\r' last: "\r\n" or not is not known yet
	}
	if atEOF {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// Scan advances to the next line, reporting whether there is one.
func (s *Scanner) Scan() bool {
	if !s.sc.Scan() {
		return false
	}
	s.n++
	s.line = s.sc.Bytes()
	if s.n == 1 {
		s.line = bytes.TrimPrefix(s.line, bom)
	}
	return true
}

// Bytes is the current line without its line ending; valid until the
// next Scan.
func (s *Scanner) Bytes() []byte { return s.line }

// Line is the current line's number, from 1: after Scan returned false,
// the number of lines read.
func (s *Scanner) Line() int { return s.n }

// Err is the first error other than io.EOF.
func (s *Scanner) Err() error { return s.sc.Err() }
