package bm25

import (
	"time"

	"github.com/toolfind/toolfind/internal/cputime"
)

// cpuTime is the process's CPU time, reported per operation by benchmarks.
func cpuTime() time.Duration { return cputime.Used() }
