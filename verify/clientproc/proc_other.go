//go:build !unix

package clientproc

import "os/exec"

func newProcessGroup(cmd *exec.Cmd) {}

// killGroup kills the client; on systems without process groups its stub
// servers end when their standard input closes.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
