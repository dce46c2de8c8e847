package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/internal/cputime"
)

// sharedDir returns ../shared/<sub> beside the repository, or skips.
func sharedDir(tb testing.TB, sub ...string) string {
	tb.Helper()
	p := filepath.Join(append([]string{"..", "..", "..", "shared"}, sub...)...)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("shared data %s not found (it sits beside the repository): %v", p, err)
	}
	return p
}

// BenchmarkRankClaudeShared is one `toolfind rank --client claude --query
// invoice` over every shared catalog, in-process (the CLI minus the
// process start).
func BenchmarkRankClaudeShared(b *testing.B) {
	dir := sharedDir(b, "catalogs")
	benchMain(b, "rank", "--client", "claude", "--query", "invoice", "--catalog", dir)
}

// benchMain runs the CLI in-process per iteration and reports CPU time
// per run next to wall time (on a shared machine wall time mostly measures
// waiting for a core).
func benchMain(b *testing.B, args ...string) {
	b.ReportAllocs()
	cpu0 := cputime.Used()
	for b.Loop() {
		if code := Main(args, strings.NewReader(""), io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
	b.ReportMetric(float64(cputime.Used()-cpu0)/float64(b.N), "cpu-ns/op")
}
