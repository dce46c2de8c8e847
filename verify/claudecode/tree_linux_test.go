package claudecode

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolfind/toolfind/claude"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/proctree/proctreetest"
	"github.com/toolfind/toolfind/verify"
)

// setsidClient is a client that writes its HOME to homefile, leaves a
// sleeping grandchild in a session of its own holding its output (pid in
// pidfile) and hangs.
func setsidClient(t *testing.T) (bin, homefile, pidfile string) {
	t.Helper()
	dir := t.TempDir()
	bin, homefile, pidfile = filepath.Join(dir, "claude"), filepath.Join(dir, "home"), filepath.Join(dir, "pid")
	script := "#!/bin/sh\necho \"$HOME\" > " + homefile + "\n" + proctreetest.Setsid(t, pidfile) + "\nexec sleep 1000\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, homefile, pidfile
}

// assertRemoved fails when the run's throwaway HOME is still there.
func assertRemoved(t *testing.T, homefile string) {
	t.Helper()
	data, err := os.ReadFile(homefile)
	if err != nil {
		t.Fatal(err)
	}
	home := strings.TrimSpace(string(data))
	if !strings.HasPrefix(home, os.TempDir()) {
		t.Fatalf("HOME %q", home)
	}
	if _, err := os.Stat(filepath.Dir(home)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("throwaway folder %s left behind (%v)", filepath.Dir(home), err)
	}
}

// The query times out: the outcome says so, and the client's tree and
// its throwaway folder are gone. (The run waited for the grandchild's
// own end: a query took as long as its sleep, whatever the timeout.)
func TestQueryTimeoutEndsTree(t *testing.T) {
	bin, homefile, pidfile := setsidClient(t)
	cat := corpus.Demo()
	r := runner(t, bin, cat)
	rep, err := verify.Run(context.Background(), r, claude.New(cat, claude.V2_1_332, claude.DefaultOptions()),
		[]verify.Query{{Text: "invoice"}}, verify.Options{Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if o := rep.Outcomes[0]; !strings.HasPrefix(o.Error, "timed out after 2s: context deadline exceeded") {
		t.Errorf("error %q", o.Error)
	}
	if _, err := os.Stat(pidfile); err != nil {
		t.Skip("the client had not started its grandchild within the timeout (a loaded machine)")
	}
	proctreetest.AssertGone(t, pidfile, "setsid grandchild")
	assertRemoved(t, homefile)
}

// Ctrl-C (the command's context cancelled) mid-run: verify.Run returns
// the cancellation with the query "interrupted", and the client's tree
// and throwaway folder are gone.
func TestCancelEndsTree(t *testing.T) {
	bin, homefile, pidfile := setsidClient(t)
	cat := corpus.Demo()
	r := runner(t, bin, cat)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		proctreetest.WaitFile(pidfile, nil)
		cancel()
	}()
	rep, err := verify.Run(ctx, r, claude.New(cat, claude.V2_1_332, claude.DefaultOptions()),
		[]verify.Query{{Text: "invoice"}}, verify.Options{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want the cancellation", err)
	}
	if o := rep.Outcomes[0]; o.Error != "interrupted" {
		t.Errorf("error %q", o.Error)
	}
	proctreetest.AssertGone(t, pidfile, "setsid grandchild")
	assertRemoved(t, homefile)
}
