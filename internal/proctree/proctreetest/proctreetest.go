//go:build unix

// Package proctreetest helps tests check that a process tree was ended:
// a shell snippet that leaves a grandchild in a session of its own
// (setsid) holding the output, and checks that a process is gone.
package proctreetest

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Setsid is a sh snippet that starts a sleeping grandchild in a new
// session (out of the caller's process group), inheriting the caller's
// standard output, and waits until it has written its pid to pidfile.
// It skips the test without setsid.
func Setsid(t testing.TB, pidfile string) string {
	t.Helper()
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skipf("no setsid: %v", err)
	}
	return fmt.Sprintf(`setsid sh -c 'echo $$ > %[1]s.tmp && mv %[1]s.tmp %[1]s; exec sleep 1000' & while [ ! -s %[1]s ]; do sleep 0.01; done`, shellQuote(pidfile))
}

func shellQuote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// WaitFile waits until path exists or done is closed, and reports
// whether the file appeared.
func WaitFile(path string, done <-chan struct{}) bool {
	for {
		if _, err := os.Stat(path); err == nil {
			return true
		}
		select {
		case <-done:
			_, err := os.Stat(path)
			return err == nil
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// PID reads the pid a process wrote to pidfile.
func PID(t testing.TB, pidfile string) int {
	t.Helper()
	data, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatalf("%s: %v", pidfile, err)
	}
	return pid
}

// AssertGone fails (and kills it) when the process whose pid is in
// pidfile still runs. A killed grandchild is not ours to reap: it is gone
// once the signal is delivered (or a zombie of init for a moment), which
// is waited for.
func AssertGone(t testing.TB, pidfile, what string) {
	t.Helper()
	pid := PID(t, pidfile)
	deadline := time.Now().Add(5 * time.Second)
	for Alive(pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if Alive(pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("%s %d survived", what, pid)
	}
}

// Alive reports whether pid runs (a zombie counts as dead).
func Alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(stat) // the state follows the parenthesised command name
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}
