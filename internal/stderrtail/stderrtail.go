// Package stderrtail keeps the end of a child program's standard error,
// to say why it ended: the clients of toolfind's child processes
// (jsbox/remote, corpus/live/remote) pass a child's standard error on and
// name, in the error of an unexpected exit, the line that explains it.
//
// Writer keeps the last 8 to 16 KiB written. Last is a Go panic's or fatal
// error's first line when there is one in that end (the goroutine dump
// that follows it says less), else the last non-empty line, clipped to
// 300 bytes.
package stderrtail

import (
	"bytes"
	"io"
	"sync"
)

// Writer passes what it is given on to W (when not nil) and keeps its
// end. It is safe for concurrent use.
type Writer struct {
	W   io.Writer
	mu  sync.Mutex
	buf []byte
}

// Write implements io.Writer; it never fails (W's errors are ignored, so
// that a child never blocks on a broken standard error).
func (t *Writer) Write(p []byte) (int, error) {
	t.mu.Lock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 16<<10 {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-8<<10:]...)
	}
	t.mu.Unlock()
	if t.W != nil {
		t.W.Write(p)
	}
	return len(p), nil
}

// Last is the line that says why the program ended: a panic's or fatal
// error's first line, else the last non-empty line ("" when none).
func (t *Writer) Last() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := bytes.Split(bytes.TrimSpace(t.buf), []byte("\n"))
	for _, l := range lines {
		if bytes.HasPrefix(l, []byte("panic: ")) || bytes.HasPrefix(l, []byte("fatal error: ")) {
			return string(Clip(l, 300))
		}
	}
	return string(Clip(lines[len(lines)-1], 300))
}

// Clip is b without surrounding white space, cut to n bytes with "…"
// after the cut.
func Clip(b []byte, n int) []byte {
	b = bytes.TrimSpace(b)
	if len(b) > n {
		return append(b[:n:n], "…"...)
	}
	return b
}
