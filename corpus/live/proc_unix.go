//go:build unix

package live

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the server in a process group of its own: a
// terminal's Ctrl-C then reaches toolfind only, and stop can signal the
// server together with everything it started (npx → sh → node).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup sends SIGKILL (kill) or SIGTERM to the server's process group.
// Errors (the group is already gone) are ignored.
func killGroup(cmd *exec.Cmd, kill bool) {
	if cmd.Process == nil {
		return
	}
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-cmd.Process.Pid, sig)
}
