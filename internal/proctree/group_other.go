//go:build !unix

package proctree

import "os/exec"

// SetGroup does nothing where there are no POSIX process groups.
func SetGroup(cmd *exec.Cmd) {}

// KillGroup kills the process itself (no process groups here).
func KillGroup(cmd *exec.Cmd, kill bool) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
