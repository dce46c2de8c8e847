package result

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadInputLimit: an input of exactly the limit is read; one byte
// more is an error naming the input and the limit, and an endless input
// (io.Reader of zeros) stops after limit+1 bytes.
func TestReadInputLimit(t *testing.T) {
	defer func(n int) { maxInput = n }(maxInput)
	maxInput = 10
	if data, err := ReadInput("r.json", strings.NewReader(strings.Repeat("x", 10))); err != nil || len(data) != 10 {
		t.Fatalf("10 bytes: %d, %v", len(data), err)
	}
	const want = "r.json: the result is larger than 10 bytes, the limit for one tool result"
	if _, err := ReadInput("r.json", strings.NewReader(strings.Repeat("x", 11))); err == nil || err.Error() != want {
		t.Errorf("11 bytes: %v, want %s", err, want)
	}
	z := &zeros{}
	if _, err := ReadInput("r.json", z); err == nil || err.Error() != want {
		t.Errorf("endless input: %v, want %s", err, want)
	}
	// 10 + 1 bytes asked for, in reads of at most 512 bytes (io.ReadAll).
	if z.n > 11 {
		t.Errorf("endless input: %d bytes read, want at most 11", z.n)
	}
	p := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(p, []byte(strings.Repeat("x", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(p); err == nil || err.Error() != p+": the result is larger than 10 bytes, the limit for one tool result" {
		t.Errorf("file: %v", err)
	}
	if got := sizeText(MaxInputBytes); got != "16777216 bytes (16 MiB)" {
		t.Errorf("sizeText(MaxInputBytes) = %q", got)
	}
}

// zeros is an endless input that counts the bytes read from it.
type zeros struct{ n int }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.n += len(p)
	return len(p), nil
}

var _ io.Reader = (*zeros)(nil)
