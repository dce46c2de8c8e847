package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"testing"

	"github.com/toolfind/toolfind/corpus/live"
)

// TestMain lets this test binary serve as `toolfind mcp-stub`, the stub
// MCP server that verify starts (it runs os.Executable() mcp-stub FILE),
// as toolfind itself (with asToolfindEnv set),
// and as `toolfind-live serve` (cmd/toolfind-live's work, corpus/live's
// Serve), which TOOLFIND_LIVE_PROGRAM points the tests at unless it is
// set already.
func TestMain(m *testing.M) {
	if os.Getenv(initOnlyEnv) == "1" {
		os.Exit(0) // TestStartupInitAllocations: package initialisation only
	}
	if len(os.Args) > 1 && os.Args[1] == "mcp-stub" {
		os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
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
	os.Exit(m.Run())
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
