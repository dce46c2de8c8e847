package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// devFull opens /dev/full, where every write fails with ENOSPC.
func devFull(t *testing.T) *os.File {
	t.Helper()
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here:", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestWriteFailureExits2: every command, in every format, exits 2 and
// says so when its standard output cannot be written.
func TestWriteFailureExits2(t *testing.T) {
	full := devFull(t)
	commands := [][]string{
		{"version"},
		{"clients"},
		{"rank", "-q", "invoice"},
		{"rank", "-q", "invoice", "--format", "json"},
		{"rank", "-q", "invoice", "--shown", "--explain"},
		{"show", "--tool", "billing/export"},
		{"show", "--format", "json"},
		{"lint"},
		{"lint", "--format", "json"},
		{"lint", "--format", "sarif"},
		{"bench", "--client", "claude"},
		{"bench", "--client", "claude", "--format", "json"},
		{"bench", "--client", "claude", "--format", "markdown"},
		{"bench", "--client", "claude", "--format", "html"},
		{"bench", "--client", "claude", "--format", "junit"},
		{"check", "--client", "claude", "--min-mrr", "0"},
		// A failed check (exit 1) whose report could not be written is 2.
		{"check", "--client", "claude", "--min-mrr", "1"},
		{"--help"},
	}
	for _, args := range commands {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var errOut strings.Builder
			code := Main(args, strings.NewReader(""), full, &errOut)
			if code != exitBadInput || !strings.Contains(errOut.String(), "no space left on device") {
				t.Errorf("exit %d, stderr %q; want 2 and the write error", code, errOut.String())
			}
		})
	}
}

// TestOutFileRule: one rule for every output file flag, checked before the
// work: a regular file (through a symbolic link) or nothing yet; a folder,
// a FIFO, a device refused; errors name the path as given.
func TestOutFileRule(t *testing.T) {
	dir := t.TempDir()
	const special = ", not a regular file (toolfind writes output files whole; redirect standard output to write elsewhere)"
	fifo := filepath.Join(dir, "fifo")
	if runtime.GOOS != "windows" {
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	missing := filepath.Join(dir, "no-such-queries.jsonl")
	tests := []struct {
		name string
		args []string
		want string
	}{
		// --queries names a missing file: the --out error comes first, so
		// the output is checked before anything is loaded.
		{"bench --out folder", []string{"bench", "--queries", missing, "--out", dir}, "toolfind: --out " + dir + ": is a folder" + special + "\n"},
		{"bench --out fifo", []string{"bench", "--queries", missing, "--out", fifo}, "toolfind: --out " + fifo + ": is a named pipe" + special + "\n"},
		{"bench --out /dev/full", []string{"bench", "--queries", missing, "--out", "/dev/full"}, "toolfind: --out /dev/full: is a character device" + special + "\n"},
		{"check --out", []string{"check", "--min-mrr", "0", "--queries", missing, "--out", filepath.Join(dir, "nope", "r.txt")},
			"toolfind: --out " + filepath.Join(dir, "nope", "r.txt") + ": its folder " + filepath.Join(dir, "nope") + " does not exist\n"},
		{"check --save-baseline", []string{"check", "--min-mrr", "0", "--queries", missing, "--save-baseline", "/dev/full"},
			"toolfind: --save-baseline /dev/full: is a character device" + special + "\n"},
		{"snapshot --out", []string{"snapshot", "--server", "toolfind-no-such-server", "--out", fifo},
			"toolfind: --out " + fifo + ": is a named pipe" + special + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, tt.args...)
			if code != exitBadInput || errOut != tt.want {
				t.Errorf("exit %d, stderr %q\nwant 2, %q", code, errOut, tt.want)
			}
		})
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left in %s: %v", dir, entries)
	}
}

// TestOutThroughSymlink: bench --out and check --save-baseline write the
// file a symbolic link points to and keep the link.
func TestOutThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.txt")
	os.WriteFile(real, []byte("old"), 0o600)
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink("real.txt", link); err != nil {
		t.Skip(err)
	}
	if _, errOut, code := run(t, "bench", "--client", "claude", "--out", link); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	st, _ := os.Lstat(link)
	data, _ := os.ReadFile(real)
	if st.Mode()&os.ModeSymlink == 0 || !strings.HasPrefix(string(data), "16 queries") {
		t.Errorf("link mode %v, target %q", st.Mode(), data)
	}
	if rs, _ := os.Stat(real); rs.Mode().Perm() != 0o600 {
		t.Errorf("target mode %v, want the old 0600", rs.Mode())
	}
}

// TestBaselineOverlap: a baseline sharing no (query, client) with the run
// is refused; a partial one is used with a warning that counts.
func TestBaselineOverlap(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "base.json")
	// The demo query set (16 queries) for claude and grok.
	if _, errOut, code := run(t, "check", "--client", "claude,grok", "--min-mrr", "0", "--save-baseline", saved, "--format", "json"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	other := writeFile(t, "other.jsonl", `{"query": "something else entirely", "expect": ["billing/export"]}`+"\n")
	_, errOut, code := run(t, "check", "--client", "claude", "--queries", other, "--baseline", saved, "--format", "json")
	want := "toolfind: --baseline " + saved + " shares no (query, client) pair with this run (1 outcome here, 32 outcomes there): was it made from another query set or client list?\n"
	if code != exitBadInput || errOut != want {
		t.Errorf("disjoint baseline: exit %d, stderr %q\nwant %q", code, errOut, want)
	}
	_, errOut, code = run(t, "check", "--client", "codex-search", "--baseline", saved, "--format", "json")
	if code != exitBadInput || !strings.Contains(errOut, "shares no (query, client) pair with this run (16 outcomes here, 32 outcomes there)") {
		t.Errorf("baseline of other clients: exit %d, stderr %q", code, errOut)
	}
	// claude matches its 16; grok's 16 are only in the baseline.
	_, errOut, code = run(t, "check", "--client", "claude", "--baseline", saved, "--format", "json")
	want = "warning: --baseline " + saved + ": compared 16 (query, client) pairs; 0 only in this run, 16 only in the baseline\ncheck passed: 1 client\n"
	if code != 0 || errOut != want {
		t.Errorf("partial baseline: exit %d, stderr %q\nwant %q", code, errOut, want)
	}
}
