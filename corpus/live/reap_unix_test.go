//go:build unix

package live

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReaped: a server that starts a grandchild and ignores its stdin is
// killed with its whole process group when the handshake times out, and
// when the caller cancels (Ctrl-C).
func TestReaped(t *testing.T) {
	for _, cancelIt := range []bool{false, true} {
		t.Run(fmt.Sprintf("cancel=%v", cancelIt), func(t *testing.T) {
			pidfile := filepath.Join(t.TempDir(), "pid")
			src := fixture("child")
			src.Env = []string{"FIXTURE_PIDFILE=" + pidfile}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			opts := Options{Timeout: time.Second, ShutdownGrace: 200 * time.Millisecond}
			if cancelIt {
				opts.Timeout = time.Minute
				go func() {
					time.Sleep(500 * time.Millisecond)
					cancel()
				}()
			}
			_, err := Take(ctx, src, opts)
			want := ErrTimeout
			if cancelIt {
				want = ErrInterrupted
			}
			if !errors.Is(err, want) {
				t.Fatalf("err %v, want %v", err, want)
			}
			assertGone(t, pidfile, "grandchild")
		})
	}
}

// TestReapedDaemon: a grandchild that left the server's process group
// (setsid) is killed too, after a successful snapshot and after a failed
// one.
func TestReapedDaemon(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("finding a setsid grandchild needs /proc (Linux)")
	}
	for _, then := range []string{"ok", "silent"} {
		t.Run(then, func(t *testing.T) {
			pidfile := filepath.Join(t.TempDir(), "pid")
			src := fixture("daemon")
			src.Env = []string{"FIXTURE_PIDFILE=" + pidfile, "FIXTURE_THEN=" + then}
			_, err := Take(context.Background(), src, Options{Timeout: time.Second, ShutdownGrace: 200 * time.Millisecond})
			if then == "ok" && err != nil || then == "silent" && !errors.Is(err, ErrTimeout) {
				t.Fatalf("err %v", err)
			}
			assertGone(t, pidfile, "setsid grandchild")
		})
	}
}

// assertGone fails (and kills it) when the process whose pid the fixture
// wrote to pidfile still runs. The grandchild is not ours to reap; it is
// gone once the signal is delivered (or a zombie of init for a moment).
func assertGone(t *testing.T, pidfile, what string) {
	t.Helper()
	data, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(data))
	deadline := time.Now().Add(2 * time.Second)
	for alive(pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("%s %d survived", what, pid)
	}
}

// alive reports whether pid runs (a zombie counts as dead).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	// The state follows the parenthesised command name.
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}
