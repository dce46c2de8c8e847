package jsonl

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestScanner(t *testing.T) {
	// The BOM goes from line 1 only; "\r\n" endings are dropped.
	s := NewScanner(strings.NewReader("\xef\xbb\xbf{\"a\":1}\r\n\n\xef\xbb\xbfx\n"), 1024)
	var got []string
	for s.Scan() {
		got = append(got, string(s.Bytes()))
		if s.Line() != len(got) {
			t.Errorf("Line() = %d, want %d", s.Line(), len(got))
		}
	}
	want := []string{`{"a":1}`, "", "\xef\xbb\xbfx"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("lines %q, want %q", got, want)
	}
	if s.Err() != nil || s.Line() != 3 {
		t.Errorf("Err %v, Line %d; want nil, 3", s.Err(), s.Line())
	}
}

func TestScannerTooLong(t *testing.T) {
	// max 100 KiB = 102,400 bytes: line 1 (102,399 bytes and "\n") fits,
	// line 2 (102,400 bytes and "\n") does not.
	const max = 100 << 10
	in := strings.Repeat("a", max-1) + "\n" + strings.Repeat("b", max) + "\n"
	s := NewScanner(strings.NewReader(in), max)
	if !s.Scan() || len(s.Bytes()) != max-1 {
		t.Fatalf("line 1: %d bytes", len(s.Bytes()))
	}
	if s.Scan() {
		t.Fatalf("line 2 read: %d bytes", len(s.Bytes()))
	}
	if !errors.Is(s.Err(), bufio.ErrTooLong) || s.Line() != 1 {
		t.Errorf("Err %v, Line %d; want ErrTooLong, 1", s.Err(), s.Line())
	}
}

// TestScannerLineEnds: "\n", "\r\n" and a lone "\r" each end one line, a
// "\r\n" split across reads too (iotest.OneByteReader hands one byte per
// Read), and a last "\r" ends the last line.
func TestScannerLineEnds(t *testing.T) {
	in := "a\rb\r\nc\nd\r\re\r"
	for _, r := range []io.Reader{strings.NewReader(in), iotest.OneByteReader(strings.NewReader(in))} {
		s := NewScanner(r, 1024)
		var got []string
		for s.Scan() {
			got = append(got, string(s.Bytes()))
		}
		// a, b (CRLF once), c, d, "" (the second CR), e
		if want := "a|b|c|d||e"; strings.Join(got, "|") != want || s.Line() != 6 {
			t.Errorf("lines %q (%d), want %q", got, s.Line(), want)
		}
	}
}
