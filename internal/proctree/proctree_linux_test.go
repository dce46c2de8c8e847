package proctree_test

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/toolfind/toolfind/internal/proctree"
	"github.com/toolfind/toolfind/internal/proctree/proctreetest"
)

// A child that exits at once but leaves a grandchild in a session of its
// own holding its standard output: Exited is closed as the child exits
// (os/exec's Wait would wait for the grandchild), Stop ends the
// grandchild, and what the child wrote is kept.
func TestGrandchildHoldingStdout(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pid")
	cmd := exec.Command("sh", "-c", proctreetest.Setsid(t, pidfile)+"; echo hello")
	var out bytes.Buffer
	cmd.Stdout = &out
	p, err := proctree.Start(cmd, "TOOLFIND_TEST_TREE")
	if err != nil {
		t.Fatal(err)
	}
	<-p.Exited()
	if err := p.Err(); err != nil {
		t.Errorf("exit: %v", err)
	}
	p.Stop()
	proctreetest.AssertGone(t, pidfile, "setsid grandchild")
	if out.String() != "hello\n" {
		t.Errorf("stdout %q, want %q", out.String(), "hello\n")
	}
}

// Wait with a closed stop channel ends a child that would run for ever,
// with its whole tree; a backgrounded child of the same group goes too.
func TestWaitStop(t *testing.T) {
	dir := t.TempDir()
	pidfile, bgfile := filepath.Join(dir, "pid"), filepath.Join(dir, "bg")
	cmd := exec.Command("sh", "-c", proctreetest.Setsid(t, pidfile)+"; sleep 1000 & echo $! > "+bgfile+".tmp && mv "+bgfile+".tmp "+bgfile+"; exec sleep 1000")
	cmd.Stdout, cmd.Stdin = &bytes.Buffer{}, bytes.NewReader(make([]byte, 1<<20)) // input it never reads
	p, err := proctree.Start(cmd, "TOOLFIND_TEST_TREE")
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	go func() {
		proctreetest.WaitFile(bgfile, p.Exited())
		close(stop)
	}()
	if ended := p.Wait(stop); !ended {
		t.Fatalf("the child exited by itself: %v", p.Err())
	}
	proctreetest.AssertGone(t, pidfile, "setsid grandchild")
	proctreetest.AssertGone(t, bgfile, "backgrounded child")
}
