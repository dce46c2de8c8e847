package cputime

import "testing"

func TestUsedGrows(t *testing.T) {
	before := Used()
	x := 0
	for i := 0; i < 50_000_000; i++ {
		x += i % 7
	}
	if x == 0 || Used() < before {
		t.Errorf("CPU time went backwards: %v then %v", before, Used())
	}
}

func TestMaxRSS(t *testing.T) {
	// A running Go program holds at least a megabyte.
	if rss := MaxRSS(); rss != 0 && rss < 1<<20 {
		t.Errorf("MaxRSS = %d bytes", rss)
	}
}
