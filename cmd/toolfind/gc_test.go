package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// gcSettings reads GOGC and the memory limit without setting them.
func gcSettings() (percent int64, limit uint64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64()), s[1].Value.Uint64()
}

// startTuneGC runs tuneGC with GOGC and GOMEMLIMIT unset, and restores
// the settings it found when the test ends.
func startTuneGC(t *testing.T) {
	percent, limit := gcSettings()
	t.Cleanup(func() {
		debug.SetGCPercent(int(percent))
		debug.SetMemoryLimit(int64(limit))
	})
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	tuneGC()
}

// collectUntilSwitched collects until tuneGC's switch after the first
// collection is done (GOGC reads gcPercent, the limit is no longer
// firstGCAt) and returns the limit then; it fails the test after 10 s of
// collections.
func collectUntilSwitched(t *testing.T) (limit uint64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		p, l := gcSettings()
		if p == gcPercent && l != firstGCAt {
			return l
		}
		if time.Now().After(deadline) {
			t.Fatalf("10 s of collections later: GOGC %d, limit %d; want %d and not %d", p, l, gcPercent, firstGCAt)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestTuneGCSwitchesAfterFirstCollection(t *testing.T) {
	startTuneGC(t)
	// Before the first collection: off (GOGC -1 reads as 2^64-1), within
	// 24 MiB; unless this test binary's heap made one happen already.
	p, l := gcSettings()
	if !(p == -1 && l == firstGCAt) && !(p == gcPercent && l == memoryLimit) {
		t.Fatalf("after tuneGC: GOGC %d, limit %d; want -1 and %d (or %d and %d)", p, l, firstGCAt, gcPercent, memoryLimit)
	}
	if l := collectUntilSwitched(t); l != memoryLimit {
		t.Fatalf("after the first collection: limit %d, want %d", l, memoryLimit)
	}
}

func TestTuneGCLeavesUserSettings(t *testing.T) {
	percent, limit := gcSettings()
	t.Setenv("GOGC", "100")
	tuneGC()
	if p, l := gcSettings(); p != percent || l != limit {
		t.Errorf("with GOGC=100 set: GOGC %d, limit %d; want them unchanged (%d, %d)", p, l, percent, limit)
	}
}

// TestTuneGCKeepsALaterLimit: a limit set before the first collection
// (by a command, here 900 MiB) is not replaced by tuneGC's 768 MiB.
func TestTuneGCKeepsALaterLimit(t *testing.T) {
	startTuneGC(t)
	const later = 900 << 20
	debug.SetMemoryLimit(later)
	if l := collectUntilSwitched(t); l != later {
		t.Fatalf("after the first collection: limit %d, want the later %d kept", l, later)
	}
}
