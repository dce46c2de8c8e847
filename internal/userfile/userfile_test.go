//go:build unix

package userfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// withFIFO runs read on a named pipe nobody writes to. Without the check
// read would block in open(2) forever: after a grace the test opens the
// pipe for writing itself (which unblocks it) and fails.
func withFIFO(t *testing.T, name string, read func(path string) error) error {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	done := make(chan error, 1)
	go func() { done <- read(path) }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		if w, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		<-done
		t.Fatalf("reading %s blocked on the FIFO", path)
		return nil
	}
}

func TestOpenRefusesFIFO(t *testing.T) {
	err := withFIFO(t, "q.jsonl", func(p string) error { _, err := ReadFile(p); return err })
	var nr *NotRegularError
	if !errors.As(err, &nr) || nr.Mode&fs.ModeNamedPipe == 0 {
		t.Fatalf("err %v, want a NotRegularError for a FIFO", err)
	}
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Err.Error() != "is a named pipe (FIFO), not a regular file; toolfind reads only regular files" {
		t.Errorf("err %q", err)
	}
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.json")
	if err := os.WriteFile(file, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "l.json")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "d.json")
	if err := os.Symlink("missing.json", dangling); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{file, ""},
		{link, ""}, // a link to a regular file is the file
		{dir, "open " + dir + ": is a folder, not a regular file; toolfind reads only regular files"},
		{dangling, "open " + dangling + `: a symbolic link to "missing.json", which does not exist`},
	} {
		b, err := ReadFile(c.path)
		switch {
		case c.want == "" && (err != nil || string(b) != "{}"):
			t.Errorf("%s: %q %v", c.path, b, err)
		case c.want != "" && (err == nil || err.Error() != c.want):
			t.Errorf("%s: %v\nwant %s", c.path, err, c.want)
		}
	}
	if _, err := ReadFile(dangling); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a dangling link: %v is not fs.ErrNotExist", err)
	}
}
