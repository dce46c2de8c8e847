package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/toolfind/toolfind/corpus/live"
	"github.com/toolfind/toolfind/jsbox/gojabox"
	"github.com/toolfind/toolfind/jsbox/remote"
	"github.com/toolfind/toolfind/verify/claudecode/messagesapi"
)

// TestMain lets this test binary serve as `toolfind mcp-stub`, the stub
// MCP server that verify starts (it runs os.Executable() mcp-stub FILE),
// as toolfind itself (with asToolfindEnv set),
// as `toolfind-model emulate-api`, the emulated model API verify starts
// (fakeClaude points TOOLFIND_MODEL_PROGRAM here),
// as `toolfind-live serve` (cmd/toolfind-live's work, corpus/live's
// Serve), which TOOLFIND_LIVE_PROGRAM points the tests at unless it is
// set already, and as `toolfind-js serve` (cmd/toolfind-js's work: the
// goja engine served by jsbox/remote) when run under that name: a link
// to it named toolfind-js, which TOOLFIND_JS_PROGRAM points the tests at
// unless it is set already.
func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == jsProgramName {
		os.Exit(serveJS())
	}
	if os.Getenv(initOnlyEnv) == "1" {
		os.Exit(0) // TestStartupInitAllocations: package initialisation only
	}
	if len(os.Args) > 1 && os.Args[1] == "mcp-stub" {
		os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	if len(os.Args) == 2 && os.Args[1] == "emulate-api" {
		if err := messagesapi.Serve(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "emulate-api:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if len(os.Args) == 2 && os.Args[1] == "serve" {
		os.Exit(serveLive())
	}
	if os.Getenv(asToolfindEnv) == "1" {
		os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) // TestLiveServersDieWithToolfind
	}
	if os.Getenv(liveHelper.env) == "" {
		exe, err := os.Executable()
		if err != nil {
			fmt.Fprintln(os.Stderr, "no test executable to serve as toolfind-live:", err)
			os.Exit(1)
		}
		os.Setenv(liveHelper.env, exe)
	}
	if os.Getenv(jsHelper.env) == "" {
		dir, err := linkAs(jsProgramName)
		if err != nil {
			fmt.Fprintln(os.Stderr, "no test executable to serve as toolfind-js:", err)
			os.Exit(1)
		}
		os.Setenv(jsHelper.env, filepath.Join(dir, jsProgramName))
		code := m.Run()
		os.RemoveAll(dir)
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// linkAs makes a temporary folder holding a link to this executable named
// name.
func linkAs(name string) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "toolfind-test-")
	if err != nil {
		return "", err
	}
	return dir, os.Symlink(exe, filepath.Join(dir, name))
}

// serveJS is cmd/toolfind-js's serve.
func serveJS() int {
	if len(os.Args) != 2 || os.Args[1] != "serve" {
		fmt.Fprintf(os.Stderr, "toolfind-js (test): want serve, not %q\n", os.Args[1:])
		return 2
	}
	signal.Ignore(os.Interrupt)
	if err := remote.Serve(context.Background(), os.Stdin, os.Stdout, gojabox.New()); err != nil {
		fmt.Fprintf(os.Stderr, "toolfind-js: %v\n", err)
		return 1
	}
	return 0
}

// serveLive is cmd/toolfind-live's serve.
func serveLive() int {
	signal.Ignore(os.Interrupt)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	if err := live.Serve(ctx, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "toolfind-live: %v\n", err)
		return 1
	}
	return 0
}
