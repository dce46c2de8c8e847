//go:build linux

package proctree

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"
)

// KillTagged kills every process whose environment holds tag (the
// VARIABLE=… entry of Tag a command is started with, which its
// descendants inherit), so that a grandchild that left the command's
// process group (setsid, a daemonising double fork) is stopped with it. It
// scans /proc until a scan finds none (at most five rounds), so a process
// forked while the others are killed is caught too. A descendant that
// cleared its environment is not found; nor are other users' processes.
func KillTagged(tag string) {
	self := os.Getpid()
	want := []byte(tag)
	for round := 0; round < 5; round++ {
		entries, err := os.ReadDir("/proc")
		if err != nil {
			return
		}
		found := 0
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil || pid == self {
				continue
			}
			env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
			if err != nil || !hasEnvEntry(env, want) {
				continue
			}
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				found++
			}
		}
		if found == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// hasEnvEntry reports whether the NUL-separated environment env has the
// entry entry.
func hasEnvEntry(env, entry []byte) bool {
	for len(env) > 0 {
		var e []byte
		e, env, _ = bytes.Cut(env, []byte{0})
		if bytes.Equal(e, entry) {
			return true
		}
	}
	return false
}
