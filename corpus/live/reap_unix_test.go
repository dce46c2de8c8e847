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
			data, rerr := os.ReadFile(pidfile)
			if rerr != nil {
				t.Fatal(rerr)
			}
			pid, _ := strconv.Atoi(string(data))
			// The grandchild is not ours to reap; it is gone once the
			// signal is delivered (or a zombie of init for a moment).
			deadline := time.Now().Add(2 * time.Second)
			for alive(pid) && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			if alive(pid) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Errorf("grandchild %d survived", pid)
			}
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
			data, rerr := os.ReadFile(pidfile)
			if rerr != nil {
				t.Fatal(rerr)
			}
			pid, _ := strconv.Atoi(string(data))
			deadline := time.Now().Add(2 * time.Second)
			for alive(pid) && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			if alive(pid) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Errorf("setsid grandchild %d survived", pid)
			}
		})
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
