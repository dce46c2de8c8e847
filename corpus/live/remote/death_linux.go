//go:build linux

package remote

import (
	"os/exec"
	"syscall"
)

// setDeathSignal has the kernel send the program SIGTERM when toolfind
// dies (Pdeathsig), on which it stops and reaps its servers (Serve's
// context ends) and exits. Its standard input closing does the same
// where there is no Pdeathsig; this is the second line, for a toolfind
// killed while another process still holds the pipe.
func setDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
