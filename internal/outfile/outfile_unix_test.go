//go:build unix

package outfile

import (
	"path/filepath"
	"syscall"
	"testing"
)

func TestFIFORefused(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip(err)
	}
	_, err := Open(p)
	want := p + ": is a named pipe, not a regular file (toolfind writes output files whole; redirect standard output to write elsewhere)"
	if err == nil || err.Error() != want {
		t.Errorf("error %v\nwant %s", err, want)
	}
}
