package stderrtail

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLast(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"nothing", "", ""},
		{"last line", "starting\nwarning: x\n\n", "warning: x"},
		{"panic first", "log\npanic: boom\n\ngoroutine 1 [running]:\nmain.main()\n", "panic: boom"},
		{"fatal error", "fatal error: out of memory\nruntime stack:\n", "fatal error: out of memory"},
		// 400 'x' clipped to 300 and "…"
		{"clipped", strings.Repeat("x", 400), strings.Repeat("x", 300) + "…"},
	} {
		var passed bytes.Buffer
		w := &Writer{W: &passed}
		n, err := w.Write([]byte(tt.in))
		assert.NoError(t, err)
		assert.Equal(t, len(tt.in), n)
		assert.Equal(t, tt.in, passed.String(), tt.name)
		assert.Equal(t, tt.want, w.Last(), tt.name)
	}
}

// Only the end is kept: past 16 KiB, the last 8 KiB.
func TestKeepsTheEnd(t *testing.T) {
	w := &Writer{}
	w.Write([]byte("panic: early\n"))
	for range 3000 {
		w.Write([]byte("line of ten\n")) // 12 bytes: 36,000 in all
	}
	w.Write([]byte("the end\n"))
	assert.Equal(t, "the end", w.Last())
	assert.LessOrEqual(t, len(w.buf), 16<<10)
}
