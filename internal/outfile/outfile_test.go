package outfile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, path, content string) error {
	t.Helper()
	f, err := Open(path)
	if err != nil {
		return err
	}
	if _, err := f.Write([]byte(content)); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

func read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestNewAndExistingFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "report.json")
	if err := write(t, p, "one"); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(p); read(t, p) != "one" || st.Mode().Perm() != 0o644 {
		t.Errorf("new file: %q, mode %v", read(t, p), st.Mode())
	}
	os.Chmod(p, 0o600)
	if err := write(t, p, "two"); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(p); read(t, p) != "two" || st.Mode().Perm() != 0o600 {
		t.Errorf("replaced file: %q, mode %v (want the old 0600)", read(t, p), st.Mode())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

// TestSymlinkStaysALink: the file a link points to is written; the link
// is kept.
func TestSymlinkStaysALink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.json")
	os.WriteFile(real, []byte("old"), 0o644)
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("real.json", link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := write(t, link, "new"); err != nil {
		t.Fatal(err)
	}
	if l, _ := os.Lstat(link); l.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link became a %v", l.Mode())
	}
	if read(t, real) != "new" {
		t.Errorf("target holds %q", read(t, real))
	}
	dangling := filepath.Join(dir, "dangling.json")
	os.Symlink("nowhere/x.json", dangling)
	if err := write(t, dangling, "x"); err == nil || err.Error() != dangling+": is a symbolic link to nothing (a dangling link)" {
		t.Errorf("dangling link: %v", err)
	}
}

func TestRefused(t *testing.T) {
	dir := t.TempDir()
	const special = ", not a regular file (toolfind writes output files whole; redirect standard output to write elsewhere)"
	tests := []struct{ path, want string }{
		{dir, dir + ": is a folder" + special},
		{filepath.Join(dir, "no", "such", "r.json"), filepath.Join(dir, "no", "such", "r.json") + ": its folder " + filepath.Join(dir, "no", "such") + " does not exist"},
		{"", ": empty file name"},
	}
	if _, err := os.Stat("/dev/null"); err == nil {
		tests = append(tests, struct{ path, want string }{"/dev/null", "/dev/null: is a character device" + special})
	}
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	tests = append(tests, struct{ path, want string }{filepath.Join(file, "r.json"), filepath.Join(file, "r.json") + ": " + file + " is not a folder"})
	for _, tt := range tests {
		f, err := Open(tt.path)
		if err == nil {
			f.Abort()
			t.Errorf("%q: no error", tt.path)
			continue
		}
		var oe *Error
		if err.Error() != tt.want || !errors.As(err, &oe) || oe.Path != tt.path {
			t.Errorf("%q: error %q\nwant %q", tt.path, err, tt.want)
		}
	}
}

func TestUnwritableFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ro")
	os.Mkdir(dir, 0o555)
	if os.Geteuid() == 0 {
		// Root writes to read-only folders; sysfs refuses new files even
		// to root.
		if st, err := os.Stat("/sys"); err != nil || !st.IsDir() {
			t.Skip("root, and no /sys")
		}
		dir = "/sys"
	}
	p := filepath.Join(dir, "r.json")
	_, err := Open(p)
	// The message names the path as given and the folder, never the
	// temporary file.
	if want := p + ": cannot create a file in its folder " + dir + ": permission denied"; err == nil || err.Error() != want {
		t.Errorf("error %v\nwant %s", err, want)
	}
}

// TestAbortKeepsTarget: a failed run leaves the old file alone.
func TestAbortKeepsTarget(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "r.json")
	os.WriteFile(p, []byte("old"), 0o644)
	f, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("half"))
	f.Abort()
	if read(t, p) != "old" {
		t.Errorf("target holds %q", read(t, p))
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
	if err := f.Commit(); err != nil {
		t.Errorf("Commit after Abort: %v", err)
	}
	if read(t, p) != "old" {
		t.Errorf("Commit after Abort wrote: %q", read(t, p))
	}
}

func TestWriteErrorNamesPath(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.json")
	f, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	f.tmp.Close() // the next write fails
	_, werr := f.Write([]byte("x"))
	cerr := f.Commit()
	if werr == nil || cerr == nil || !strings.HasPrefix(cerr.Error(), p+": ") || strings.Contains(cerr.Error(), ".toolfind-") {
		t.Errorf("write error %v, commit error %v", werr, cerr)
	}
	if _, err := os.Stat(p); err == nil {
		t.Error("a failed write created the target")
	}
	if left := tempFiles(t, filepath.Dir(p)); len(left) != 0 {
		t.Errorf("a failed write left %v", left)
	}
}

// TestFailureMidWriteLeavesNothing: a write that fails part way (the
// file's descriptor gone after some output), then Abort as a command's
// deferred cleanup does, leaves the folder as it was, the old file too.
func TestFailureMidWriteLeavesNothing(t *testing.T) {
	for _, ctx := range []bool{false, true} {
		dir := t.TempDir()
		p := filepath.Join(dir, "r.json")
		os.WriteFile(p, []byte("old"), 0o644)
		var f *File
		var err error
		if ctx {
			f, err = OpenContext(context.Background(), p)
		} else {
			f, err = Open(p)
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte("first half")); err != nil {
			t.Fatal(err)
		}
		f.tmp.Close()
		if _, err := f.Write([]byte("second half")); err == nil {
			t.Fatal("write on a closed file: no error")
		}
		f.Abort()
		if left := tempFiles(t, dir, "r.json"); len(left) != 0 || read(t, p) != "old" {
			t.Errorf("context %v: left %v, target %q", ctx, left, read(t, p))
		}
	}
}

// tempFiles lists the files in dir other than keep.
func tempFiles(t *testing.T, dir string, keep ...string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, e := range entries {
		if !slices.Contains(keep, e.Name()) {
			left = append(left, e.Name())
		}
	}
	return left
}

// TestContextEndRemovesTemporaryFile: Ctrl-C (the context's end) removes
// the temporary file by itself, before anyone calls Abort; a later write
// and Commit fail naming the path, and the old file stays.
func TestContextEndRemovesTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "r.json")
	os.WriteFile(p, []byte("old"), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	f, err := OpenContext(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("half")); err != nil {
		t.Fatal(err)
	}
	if left := tempFiles(t, dir, "r.json"); len(left) != 1 {
		t.Fatalf("want one temporary file while writing, have %v", left)
	}
	cancel()
	// The removal runs on the context's goroutine: wait for it (a bound,
	// not a timing assertion).
	for deadline := time.Now().Add(10 * time.Second); len(tempFiles(t, dir, "r.json")) > 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("temporary file left after the context ended: %v", tempFiles(t, dir, "r.json"))
		}
	}
	want := p + ": not written: context canceled"
	if _, err := f.Write([]byte("more")); err == nil || err.Error() != want {
		t.Errorf("write after the end: %v, want %s", err, want)
	}
	if err := f.Commit(); err == nil || err.Error() != want {
		t.Errorf("commit after the end: %v, want %s", err, want)
	}
	f.Abort() // a no-op now
	if read(t, p) != "old" {
		t.Errorf("target holds %q", read(t, p))
	}
}

// TestCommitAfterContextEnd: a Commit that comes after the end, before
// the context's goroutine ran, fails too and leaves no temporary file.
func TestCommitAfterContextEnd(t *testing.T) {
	for i := 0; i < 20; i++ { // both orders of the race
		dir := t.TempDir()
		p := filepath.Join(dir, "r.json")
		ctx, cancel := context.WithCancel(context.Background())
		f, err := OpenContext(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte("x"))
		cancel()
		if err := f.Commit(); err == nil || !errors.Is(err, context.Canceled) {
			t.Fatalf("commit after the end: %v", err)
		}
		if left := tempFiles(t, dir); len(left) != 0 {
			t.Fatalf("files left: %v", left)
		}
	}
	// A context already ended creates nothing.
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := OpenContext(ctx, filepath.Join(dir, "r.json")); err == nil || err.Error() != filepath.Join(dir, "r.json")+": not written: context canceled" {
		t.Errorf("ended context: %v", err)
	}
	if left := tempFiles(t, dir); len(left) != 0 {
		t.Errorf("files left: %v", left)
	}
}

// TestCommitStopsTheContext: after Commit, the context's end removes
// nothing.
func TestCommitStopsTheContext(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "r.json")
	ctx, cancel := context.WithCancel(context.Background())
	f, err := OpenContext(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("done"))
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	cancel()
	if read(t, p) != "done" {
		t.Errorf("target holds %q", read(t, p))
	}
}
