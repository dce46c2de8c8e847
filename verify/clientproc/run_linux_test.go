package clientproc

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolfind/toolfind/internal/proctree/proctreetest"
)

// fakeClient writes a client script: it leaves a sleeping grandchild in
// a session of its own holding its standard output (its pid in pidfile),
// prints "started", then runs then.
func fakeClient(t *testing.T, pidfile, then string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "client")
	script := "#!/bin/sh\n" + proctreetest.Setsid(t, pidfile) + "\necho started\n" + then + "\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// A client that hangs with a setsid grandchild holding its output: when
// ctx ends (a query's timeout, Ctrl-C), Run returns, the client having been ended, and
// the grandchild is gone. (It was waited for until the grandchild's own
// end: each query took as long as its sleep.)
func TestRunEndsTreeWhenCtxEnds(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pid")
	bin := fakeClient(t, pidfile, "exec sleep 1000")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		proctreetest.WaitFile(pidfile, nil)
		cancel()
	}()
	x, err := Run(ctx, Cmd{Binary: bin, Env: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	if !x.Ended || x.Err != nil || !errors.Is(ctx.Err(), context.Canceled) {
		t.Errorf("exit %+v", x)
	}
	proctreetest.AssertGone(t, pidfile, "setsid grandchild")
}

// A client that answers and exits, leaving the grandchild: Run returns
// as the client exits, with its exit status, and ends the grandchild.
func TestRunClientExitsLeavingGrandchild(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pid")
	bin := fakeClient(t, pidfile, "exit 3")
	x, err := Run(context.Background(), Cmd{Binary: bin, Env: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	if x.Ended || x.Err == nil || x.Err.Error() != "exit status 3" {
		t.Errorf("exit %+v", x)
	}
	proctreetest.AssertGone(t, pidfile, "setsid grandchild")
}

// The answer is in (Done closed) and the grace period over: the client
// and its grandchild are ended.
func TestRunEndsTreeAfterGrace(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pid")
	bin := fakeClient(t, pidfile, "exec sleep 1000")
	done := make(chan struct{})
	go func() {
		proctreetest.WaitFile(pidfile, nil)
		close(done)
	}()
	x, err := Run(context.Background(), Cmd{Binary: bin, Env: os.Environ(), Done: done, Grace: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !x.Ended {
		t.Errorf("exit %+v", x)
	}
	proctreetest.AssertGone(t, pidfile, "setsid grandchild")
}

// --version of a client that leaves a grandchild holding its output ends
// at its timeout, with the timeout named, and the grandchild gone.
func TestVersionOutputBounded(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pid")
	bin := fakeClient(t, pidfile, "exec sleep 1000")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		proctreetest.WaitFile(pidfile, nil)
		cancel()
	}()
	_, err := VersionOutput(ctx, bin, DefaultGrace, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want the cancellation", err)
	}
	proctreetest.AssertGone(t, pidfile, "setsid grandchild")
}
