package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// filesIn lists the names in dir, hidden ones included, sorted.
func filesIn(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	return names
}

// TestFailedRunLeavesNoTemporaryFile: every command with an output flag
// opens its file (a hidden temporary file beside it) before the work; a
// run that fails after that leaves the folder as it was. bench and check
// used to leave `.r.md.toolfind-*` behind on every failure (their deferred
// Abort ran on the file as it was before evaluate opened it: none).
func TestFailedRunLeavesNoTemporaryFile(t *testing.T) {
	// A query set whose tool is in no catalog fails after --out is open.
	const badQueries = `{"query": "x", "expect": ["nowhere/nothing"]}` + "\n"
	tests := []struct {
		name string
		args func(dir, q string) []string
	}{
		{"bench --out", func(dir, q string) []string {
			return []string{"bench", "--queries", q, "--out", filepath.Join(dir, "r.md")}
		}},
		{"check --out --save-baseline", func(dir, q string) []string {
			return []string{"check", "--queries", q, "--min-mrr", "0.5", "--out", filepath.Join(dir, "r.md"), "--save-baseline", filepath.Join(dir, "b.json")}
		}},
		{"write --out", func(dir, q string) []string {
			return []string{"write", "--queries", q, "--out", filepath.Join(dir, "w.jsonl")}
		}},
		{"suggest --out --write-catalog", func(dir, q string) []string {
			return []string{"suggest", "--queries", q, "--out", filepath.Join(dir, "s.md"), "--write-catalog", filepath.Join(dir, "c.json")}
		}},
		{"queries import --out", func(dir, q string) []string {
			return []string{"queries", "import", filepath.Join(dir, "no-such-folder"), "--out", filepath.Join(dir, "i.jsonl")}
		}},
		{"snapshot --out", func(dir, q string) []string {
			return []string{"snapshot", "--server", "false", "--out", filepath.Join(dir, "cat.json")}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			q := filepath.Join(dir, "q.jsonl")
			require.NoError(t, os.WriteFile(q, []byte(badQueries), 0o644))
			_, errOut, code := cli(t, tt.args(dir, q)...)
			require.NotEqual(t, 0, code, errOut)
			assert.Equal(t, []string{"q.jsonl"}, filesIn(t, dir), "stderr: %s", errOut)
		})
	}
}

// TestInterruptLeavesNoTemporaryFile: Ctrl-C (SIGINT) or SIGTERM during a
// bench or check with --out removes the temporary file and writes no
// report.
func TestInterruptLeavesNoTemporaryFile(t *testing.T) {
	exe, err := os.Executable()
	require.NoError(t, err)
	for _, tt := range []struct {
		cmd string
		sig syscall.Signal
	}{{"bench", syscall.SIGINT}, {"check", syscall.SIGTERM}} {
		t.Run(tt.cmd+" "+tt.sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			q := filepath.Join(dir, "q.jsonl")
			require.NoError(t, os.WriteFile(q, []byte(twoPrompts), 0o644))
			args := []string{tt.cmd, "--queries", q, "--client", "claude", "--writer", "command",
				"--writer-command", "sleep 60", "--command-timeout", "2m", "--out", filepath.Join(dir, "r.md")}
			if tt.cmd == "check" {
				args = append(args, "--min-mrr", "0.5", "--save-baseline", filepath.Join(dir, "b.json"))
			}
			cmd := exec.Command(exe, args...)
			cmd.Env = append(os.Environ(), asToolfindEnv+"=1")
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			require.NoError(t, cmd.Start())
			defer syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			// The temporary files exist once the run has started its work.
			want := 1
			if tt.cmd == "check" {
				want = 2
			}
			require.Eventually(t, func() bool {
				n := 0
				for _, name := range filesIn(t, dir) {
					if strings.Contains(name, ".toolfind-") {
						n++
					}
				}
				return n == want
			}, 20*time.Second, 10*time.Millisecond, "files: %v; stderr: %s", filesIn(t, dir), &stderr)
			require.NoError(t, cmd.Process.Signal(tt.sig))
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err = <-done:
			case <-time.After(30 * time.Second):
				t.Fatalf("toolfind did not end after %v; stderr: %s", tt.sig, &stderr)
			}
			require.Error(t, err, stderr.String())
			assert.Equal(t, []string{"q.jsonl"}, filesIn(t, dir), "stderr: %s", &stderr)
			// The signal is named, not "context canceled"; the exit code is
			// the cancelled run's, as before (2).
			assert.Equal(t, 2, cmd.ProcessState.ExitCode(), stderr.String())
			assert.NotContains(t, stderr.String(), "context canceled")
			assert.Contains(t, stderr.String(), map[syscall.Signal]string{syscall.SIGINT: "interrupted", syscall.SIGTERM: "interrupted (terminated)"}[tt.sig])
		})
	}
}
