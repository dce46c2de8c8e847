package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	for b.Loop() {
		if code := Main([]string{"rank", "--client", "claude", "--query", "invoice", "--catalog", dir}, strings.NewReader(""), io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}
