//go:build !unix

package live

import "os/exec"

// setProcessGroup does nothing where there are no POSIX process groups.
func setProcessGroup(cmd *exec.Cmd) {}

// killGroup kills the server process itself (no process groups here).
func killGroup(cmd *exec.Cmd, kill bool) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
