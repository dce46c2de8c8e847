// Package jsonl reads JSON Lines input a line at a time: lines are
// numbered from 1, a UTF-8 byte-order mark at the start of the first line
// is removed (editors on Windows write one), and a line may hold at most a
// given number of bytes. What a line means (comments, blank lines, the
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
	return &Scanner{sc: sc}
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
