// Command toolfind tells whether each AI agent client will find an MCP
// server's tools for a query, and what its model will see of them.
//
// See `toolfind --help` and the README for the commands.
package main

import (
	"os"
	"runtime"
	"runtime/debug"
)

func main() {
	if code, ok := runChild(); ok {
		os.Exit(code)
	}
	tuneGC()
	os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// tuneGC trades memory the CLI does not need for CPU: a run builds one
// catalog that stays live to the end, so collecting at every doubling of
// the heap (GOGC=100) mostly rescans what cannot be freed. Unless the user
// set GOGC or GOMEMLIMIT, the heap may grow to 3× the live data between
// collections, within a soft limit of 768 MiB past which the collector
// works harder instead.
//
// The first collection waits until the runtime holds firstGCAt: with
// GOGC=200 alone it came at an 8 MB heap, in the middle of loading, when
// nearly everything is still live (rank --client claude over the shared
// catalogs: 7 → 6 MB, about 10 ms of CPU for nothing, and no later
// collection). So the collector starts off, with firstGCAt as the memory
// limit; the first collection (a small run never has one) switches to
// GOGC=200 within 768 MiB (unless a larger limit was set meanwhile), as a
// cleanup of an object that only that collection frees. A catalog large
// enough for rank to stream (streamTools) passes firstGCAt while loading.
func tuneGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(firstGCAt)
	runtime.AddCleanup(new(gcSentinel), func(struct{}) {
		debug.SetGCPercent(gcPercent)
		// A limit a command set since stays.
		if debug.SetMemoryLimit(-1) == firstGCAt {
			debug.SetMemoryLimit(memoryLimit)
		}
	}, struct{}{})
}

// The collector's settings (tuneGC).
const (
	firstGCAt   = 24 << 20
	gcPercent   = 200
	memoryLimit = 768 << 20
)

// gcSentinel is garbage from the start; 32 bytes, so that the runtime's
// tiny allocator (under 16 bytes) does not share its memory with others.
type gcSentinel struct{ _ [32]byte }
