//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFIFOInputsRefused: every reader of a file the user names refuses a
// named pipe (FIFO) nobody writes to, with exit 2 and an error naming it,
// instead of blocking in open(2) forever. Without the check each command
// would hang: after a grace the test writes to the pipe itself (which ends
// the read) and fails.
func TestFIFOInputsRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := func(name string) string {
		p := filepath.Join(dir, name)
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Skip("mkfifo:", err)
		}
		return p
	}
	q := fifo("q.jsonl")
	cat := fifo("cat.json")
	w := fifo("w.jsonl")
	res := fifo("r.json")
	folder := filepath.Join(dir, "logs")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	inFolder := filepath.Join(folder, "s.jsonl")
	if err := syscall.Mkfifo(inFolder, 0o600); err != nil {
		t.Fatal(err)
	}
	catFolder := filepath.Join(dir, "cats")
	if err := os.Mkdir(catFolder, 0o755); err != nil {
		t.Fatal(err)
	}
	catInFolder := filepath.Join(catFolder, "x.json")
	if err := syscall.Mkfifo(catInFolder, 0o600); err != nil {
		t.Fatal(err)
	}
	const notRegular = ": is a named pipe (FIFO), not a regular file; toolfind reads only regular files"
	for _, c := range []struct {
		args []string
		pipe string // the FIFO the command reads
		want string // stderr
	}{
		{[]string{"queries", "import", q}, q, "toolfind: open " + q + notRegular + "\n"},
		{[]string{"queries", "import", folder}, inFolder, "toolfind: open " + inFolder + notRegular + "\n"},
		{[]string{"show", "--catalog", cat}, cat, "toolfind: " + cat + ": open" + notRegular + "\n"},
		{[]string{"show", "--catalog", catFolder}, catInFolder, "toolfind: " + catInFolder + notRegular + "\n"},
		{[]string{"bench", "--queries", q}, q, "toolfind: " + q + ": open " + q + notRegular + "\n"},
		{[]string{"bench", "--written", w}, w, "open " + w + notRegular},
		{[]string{"result", "--file", res}, res, "toolfind: --file: open " + res + notRegular + "\n"},
	} {
		type outcome struct {
			errOut string
			code   int
		}
		done := make(chan outcome, 1)
		go func() {
			var o outcome
			_, o.errOut, o.code = run(t, c.args...)
			done <- o
		}()
		var o outcome
		select {
		case o = <-done:
		case <-time.After(20 * time.Second):
			for range 3 { // unblock the reader (and a reopen) so the test ends
				if f, err := os.OpenFile(c.pipe, os.O_WRONLY, 0); err == nil {
					f.Close()
				}
			}
			<-done
			t.Errorf("%v: blocked on the FIFO", c.args)
			continue
		}
		if o.code != 2 || !strings.Contains(o.errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q\nwant exit 2 and %q", c.args, o.code, o.errOut, c.want)
		}
	}
}
