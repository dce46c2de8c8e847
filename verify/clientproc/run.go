package clientproc

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"time"
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

// Run starts the client in a process group of its own and waits until it
// exits, until Done is closed and Grace is over, or until ctx ends; then
// the whole group (the client and the stub servers it started) is
// killed. The error is only for a client that could not be started.
func Run(ctx context.Context, c Cmd) (Exit, error) {
	cmd := exec.Command(c.Binary, c.Args...)
	cmd.Dir = c.Dir
	cmd.Env = c.Env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	newProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		return Exit{}, fmt.Errorf("starting %s: %w", c.Binary, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	grace := c.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	var x Exit
	end := func() {
		killGroup(cmd)
		<-exited
		x.Ended = true
	}
	select {
	case x.Err = <-exited:
	case <-c.Done:
		select {
		case x.Err = <-exited:
		case <-time.After(grace):
			end()
		case <-ctx.Done():
			end()
		}
	case <-ctx.Done():
		end()
	}
	killGroup(cmd) // whatever the client left running (its stub servers)
	x.Stdout, x.Stderr = stdout.String(), stderr.String()
	return x, nil
}
