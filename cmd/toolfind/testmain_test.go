package main

import (
	"os"
	"testing"
)

// TestMain lets this test binary serve as `toolfind mcp-stub`, the stub
// MCP server that verify starts (it runs os.Executable() mcp-stub FILE).
func TestMain(m *testing.M) {
	if os.Getenv(initOnlyEnv) == "1" {
		os.Exit(0) // TestStartupInitAllocations: package initialisation only
	}
	if len(os.Args) > 1 && os.Args[1] == "mcp-stub" {
		os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}
