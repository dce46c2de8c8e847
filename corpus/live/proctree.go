package live

import (
	"os/exec"

	"github.com/toolfind/toolfind/internal/proctree"
)

// The server's process tree is handled by internal/proctree, which
// verify's clients and the command writer share: its own process group,
// ended with SIGTERM or SIGKILL, and on Linux every process carrying the
// server's tag (TagVariable).
func setProcessGroup(cmd *exec.Cmd)      { proctree.SetGroup(cmd) }
func killGroup(cmd *exec.Cmd, kill bool) { proctree.KillGroup(cmd, kill) }
func killTagged(tag string)              { proctree.KillTagged(tag) }
