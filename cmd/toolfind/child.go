package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/toolfind/toolfind/corpus/live"
	"github.com/toolfind/toolfind/jsbox/gojabox"
	jsremote "github.com/toolfind/toolfind/jsbox/remote"
)

// toolfind runs itself as a child process where a process of its own
// earns its keep:
//
//   - the live servers of --server and --url run under a child
//     (childLive: corpus/live.Serve, the protocol of corpus/live/remote),
//     which the kernel signals when toolfind dies (Pdeathsig), even of a
//     SIGKILL, so that it stops and reaps every server's whole process
//     tree, a grandchild that left the server's process group included;
//   - model-written JavaScript (Codex's exec, OpenCode's execute, and
//     --codex-engine goja) runs in goja in a child (childJS:
//     jsbox/remote.Serve): a script that exhausts the memory or hangs in
//     one native step takes down the child, not toolfind, which reports
//     it.
//
// The child is os.Executable() with childEnv set to its role in its
// environment; it is no subcommand, so it never shows in help. The child
// removes the variable from its own environment first, so that what it
// starts (a live server that is itself toolfind) is no child of ours.
// Tests make their test binary act as the child (TestMain calls
// runChild).
const childEnv = "TOOLFIND_CHILD"

// The roles of a toolfind child (childEnv's values).
const (
	childLive = "live"
	childJS   = "js"
)

// runChild runs this process as toolfind's child when childEnv says so,
// and returns its exit code; ok is false in any other process.
func runChild() (code int, ok bool) {
	role, ok := os.LookupEnv(childEnv)
	if !ok {
		return 0, false
	}
	os.Unsetenv(childEnv)
	var err error
	switch role {
	case childLive:
		// Ctrl-C reaches the whole process group: toolfind cancels its
		// requests, so SIGINT is ignored here. SIGTERM (Pdeathsig: toolfind
		// died) stops and reaps the servers, as the input's end does.
		signal.Ignore(os.Interrupt)
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
		defer stop()
		err = live.Serve(ctx, os.Stdin, os.Stdout)
	case childJS:
		// toolfind cancels its runs on Ctrl-C and closes our input, which
		// ends Serve.
		signal.Ignore(os.Interrupt)
		err = jsremote.Serve(context.Background(), os.Stdin, os.Stdout, gojabox.New())
	default:
		fmt.Fprintf(os.Stderr, "toolfind: %s=%q: not a role of toolfind's own child processes (%s, %s); unset it\n", childEnv, role, childLive, childJS)
		return exitBadInput, true
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "toolfind (%s child): %v\n", role, err)
		return 1, true
	}
	return 0, true
}

// childProgram is how to start toolfind's child of role: this executable
// and this process's environment with childEnv set.
func childProgram(role string) (path string, env []string, err error) {
	exe, err := os.Executable()
	if err != nil {
		return "", nil, fmt.Errorf("finding toolfind's own executable to run as its %s child: %w", role, err)
	}
	return exe, append(os.Environ(), childEnv+"="+role), nil
}
