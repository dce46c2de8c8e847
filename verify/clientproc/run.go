package clientproc

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"time"

	"github.com/toolfind/toolfind/internal/proctree"
)

// DefaultGrace is how long a client may take to exit by itself once the
// answer is in, when Cmd.Grace is 0.
const DefaultGrace = 10 * time.Second

// Cmd is one client process to run.
type Cmd struct {
	Binary string
	Args   []string
	// Dir is its working folder; Env its whole environment.
	Dir string
	Env []string
	// Done, when not nil, is closed once the answer is in; the client then
	// has Grace (default DefaultGrace) to exit by itself before it is
	// ended.
	Done  <-chan struct{}
	Grace time.Duration
}

// Exit is how a client process ended.
type Exit struct {
	// Err is the error of its exit (nil for status 0) when it exited by
	// itself; nil when it was ended (Ended).
	Err error
	// Ended: it was ended because the grace period was over or ctx ended.
	Ended bool
	// Stdout and Stderr are what it wrote.
	Stdout, Stderr string
}

// Output is the tails of both outputs for an error message:
// "; stdout: …; stderr: …" (each left out when blank).
func (x Exit) Output() string { return Tail("; stdout: ", x.Stdout) + Tail("; stderr: ", x.Stderr) }

// TagVariable is set in each client's environment to a value unique to
// the run (internal/proctree), so that everything it starts can be found
// and ended with it.
const TagVariable = "TOOLFIND_VERIFY_CLIENT"

// Run starts the client in a process group of its own and waits until it
// exits, until Done is closed and Grace is over, or until ctx ends; then
// its whole process tree (the stub servers it started, and on Linux any
// descendant that left the group) is killed, and Run returns without
// waiting for output still held by a descendant that escaped. The error
// is only for a client that could not be started.
func Run(ctx context.Context, c Cmd) (Exit, error) {
	cmd := exec.Command(c.Binary, c.Args...)
	cmd.Dir = c.Dir
	cmd.Env = c.Env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	p, err := proctree.Start(cmd, TagVariable)
	if err != nil {
		return Exit{}, fmt.Errorf("starting %s: %w", c.Binary, err)
	}
	grace := c.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	var x Exit
	select {
	case <-p.Exited():
	case <-c.Done:
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-p.Exited():
		case <-t.C:
			x.Ended = true
		case <-ctx.Done():
			x.Ended = true
		}
	case <-ctx.Done():
		x.Ended = true
	}
	p.Stop()
	if !x.Ended {
		x.Err = p.Err()
	}
	x.Stdout, x.Stderr = stdout.String(), stderr.String()
	return x, nil
}
