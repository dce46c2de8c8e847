package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/toolfind/toolfind/internal/gencat"
)

// generated writes a synthetic catalog of n tools (package gencat) into a
// temporary folder, once per benchmark.
func generated(b *testing.B, n int) string {
	b.Helper()
	p := filepath.Join(b.TempDir(), "gen"+strconv.Itoa(n)+".json")
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	if err := gencat.Write(f, n, 1); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkRankScale is `toolfind rank --query "create invoice"` with
// every client over synthetic catalogs of 1,000 and 10,000 tools. The
// 100,000-tool figure in the README is a whole-process run (gencat -dir,
// then rank --timing): too slow for -count 6.
func BenchmarkRankScale(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			p := generated(b, n)
			benchMain(b, "rank", "--query", "create invoice", "--catalog", p)
		})
	}
}
