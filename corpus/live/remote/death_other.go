//go:build !linux

package remote

import "os/exec"

// setDeathSignal does nothing without Linux's Pdeathsig: the program
// ends when its standard input closes, which it does when toolfind dies.
func setDeathSignal(cmd *exec.Cmd) {}
