package writer

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/toolfind/toolfind/internal/proctree/proctreetest"
)

// `sleep 1003 & echo null`: the answer (no call) is read as the shell
// exits, and the backgrounded sleep, which holds the output, is ended.
// (The run waited for the sleep's pipe, then failed, and the sleep ran
// on.)
func TestCommandEndsBackgroundedChild(t *testing.T) {
	sim := claudeSim(t)
	bg := filepath.Join(t.TempDir(), "bg")
	c := &Command{Argv: []string{"sh", "-c", "sleep 1003 & echo $! > " + bg + ".tmp && mv " + bg + ".tmp " + bg + "; echo null"}}
	calls, err := c.Calls(context.Background(), sim, Prompt{ID: "q1", Text: "invoice"})
	if err != nil || calls != nil {
		t.Errorf("calls %s, err %v; want none", calls, err)
	}
	proctreetest.AssertGone(t, bg, "backgrounded sleep")
}

// Ctrl-C (ctx cancelled) mid-run ends the command with its setsid
// grandchild, and the cancellation is returned.
func TestCommandCancelEndsTree(t *testing.T) {
	sim := claudeSim(t)
	pidfile := filepath.Join(t.TempDir(), "pid")
	c := &Command{Argv: []string{"sh", "-c", proctreetest.Setsid(t, pidfile) + "; exec sleep 1000"}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		proctreetest.WaitFile(pidfile, nil)
		cancel()
	}()
	_, err := c.Calls(ctx, sim, Prompt{ID: "q1", Text: "invoice"})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want the cancellation", err)
	}
	proctreetest.AssertGone(t, pidfile, "setsid grandchild")
}
