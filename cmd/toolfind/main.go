// Command toolfind tells whether each AI agent client will find an MCP
// server's tools for a query, and what its model will see of them.
//
// See `toolfind --help` and the README for the commands.
package main

import (
	"os"
	"runtime/debug"
)

func main() {
	tuneGC()
	os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// tuneGC trades memory the CLI does not need for CPU: a run builds one
// catalog that stays live to the end, so collecting at every doubling of
// the heap (GOGC=100) mostly rescans what cannot be freed. Unless the user
// set GOGC or GOMEMLIMIT, the heap may grow to 3× the live data between
// collections, within a soft limit of 768 MiB past which the collector
// works harder instead.
func tuneGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(200)
	debug.SetMemoryLimit(768 << 20)
}
