package safetext

import (
	"io"
	"unicode/utf8"
)

// Writer applies the [Block] rule to everything written through it: "\n"
// and "\t" pass, every other unsafe rune and invalid byte is escaped. A rune
// split across two writes is decoded whole; bytes still pending at the end of
// the stream (an incomplete rune) are written escaped by [Writer.Flush].
//
// A Writer is a backstop for renderers that print multi-line text; it
// cannot tell a layout newline from one inside a value, so single-line
// fields (table cells) must still go through [Escape] first.
type Writer struct {
	w       io.Writer
	pending []byte // an incomplete UTF-8 sequence from the last Write, at most 3 bytes
	buf     []byte
	err     error // the first error from w; every later Write returns it
}

// NewWriter returns a Writer that writes escaped text to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write escapes p and writes it. It returns len(p) when the underlying
// write succeeds (the escaped text is longer than p) and 0 with the
// underlying error otherwise; after an error every Write fails with it.
func (w *Writer) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	data := p
	if len(w.pending) > 0 {
		data = append(w.pending, p...)
		w.pending = nil
	}
	cut := len(data) - incompleteTail(data)
	if cut < len(data) {
		w.pending = append([]byte(nil), data[cut:]...)
	}
	w.buf = appendBlock(w.buf[:0], data[:cut])
	if len(w.buf) > 0 {
		if _, err := w.w.Write(w.buf); err != nil {
			w.err = err
			return 0, err
		}
	}
	return len(p), nil
}

// WriteString is Write for a string.
func (w *Writer) WriteString(s string) (int, error) { return w.Write([]byte(s)) }

// Flush writes any pending incomplete rune as `\xHH` escapes. Call it when
// the stream ends; it returns the first error the Writer met.
func (w *Writer) Flush() error {
	if w.err != nil || len(w.pending) == 0 {
		return w.err
	}
	w.buf = w.buf[:0]
	for _, c := range w.pending {
		w.buf = append(w.buf, '\\', 'x', hexDigits[c>>4], hexDigits[c&0xf])
	}
	w.pending = nil
	if _, err := w.w.Write(w.buf); err != nil {
		w.err = err
	}
	return w.err
}

// incompleteTail returns how many bytes at the end of p start a UTF-8
// sequence that the next write may complete (0 to 3).
func incompleteTail(p []byte) int {
	for n := 1; n <= utf8.UTFMax-1 && n <= len(p); n++ {
		c := p[len(p)-n]
		if c < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(p[len(p)-n:]) {
				return 0
			}
			return n
		}
	}
	return 0
}

func appendBlock(dst, p []byte) []byte {
	// Block works on strings; the conversion copies, which is cheap next to
	// the write itself.
	return append(dst, Block(string(p))...)
}
