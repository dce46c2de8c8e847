package main

import (
	"os"
	"testing"
)

// TestMain lets this test binary act as toolfind's own child processes
// (childEnv set: runChild), as `toolfind mcp-stub`, the stub MCP server
// that verify starts (it runs os.Executable() mcp-stub FILE), and as
// toolfind itself (with asToolfindEnv set).
func TestMain(m *testing.M) {
	if code, ok := runChild(); ok {
		os.Exit(code)
	}
	if os.Getenv(initOnlyEnv) == "1" {
		os.Exit(0) // TestStartupInitAllocations: package initialisation only
	}
	if len(os.Args) > 1 && os.Args[1] == "mcp-stub" {
		os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	if os.Getenv(asToolfindEnv) == "1" {
		os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) // TestLiveServersDieWithToolfind
	}
	os.Exit(m.Run())
}
