// Package cputime reads the process's CPU time, which benchmarks report per
// operation ("cpu-ns/op") next to wall time: on a busy shared machine wall
// time mostly measures waiting for a core.
package cputime

import "time"

// Used returns the process's user+system CPU time so far (0 where the
// platform does not tell).
func Used() time.Duration { return used() }

// MaxRSS returns the process's peak resident set size in bytes (0 where
// the platform does not tell).
func MaxRSS() uint64 { return maxRSS() }
