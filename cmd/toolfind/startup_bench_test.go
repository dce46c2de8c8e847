package main

import (
	"io"
	"testing"
)

// BenchmarkNewRootCmd is the command tree every toolfind process builds
// before it parses its arguments.
func BenchmarkNewRootCmd(b *testing.B) {
	ios := &IOStreams{Out: io.Discard, ErrOut: io.Discard}
	b.ReportAllocs()
	for b.Loop() {
		newRootCmd(ios, nil)
	}
}

// BenchmarkMainVersion is `toolfind version` without the process start.
func BenchmarkMainVersion(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if code := Main([]string{"version"}, nil, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}
