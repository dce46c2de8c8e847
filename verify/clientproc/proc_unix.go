//go:build unix

package clientproc

import (
	"os/exec"
	"syscall"
)

// newProcessGroup starts the client in a process group of its own, so
// that it and the stub servers it starts can be killed together.
func newProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the client's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
