//go:build unix

package proctree

import (
	"os/exec"
	"syscall"
)

// SetGroup puts the command in a process group of its own: a terminal's
// Ctrl-C then reaches toolfind only, and KillGroup can signal the command
// together with everything it started (npx → sh → node).
func SetGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// KillGroup sends SIGKILL (kill) or SIGTERM to the command's process group.
// Errors (the group is already gone) are ignored.
func KillGroup(cmd *exec.Cmd, kill bool) {
	if cmd.Process == nil {
		return
	}
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-cmd.Process.Pid, sig)
}
