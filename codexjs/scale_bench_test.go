package codexjs

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/cputime"
	"github.com/toolfind/toolfind/internal/gencat"
	"github.com/toolfind/toolfind/search"
)

// genCatalog is gencat's 10,000 tools (seed 1), the catalog of the scale
// benchmarks below (the 100,000-tool figure is a whole-process run).
var genCatalog = sync.OnceValues(func() (*corpus.Catalog, error) {
	var buf bytes.Buffer
	if err := gencat.Write(&buf, 10_000, 1); err != nil {
		return nil, err
	}
	return corpus.LoadFS(fstest.MapFS{"gen.json": {Data: buf.Bytes()}}, "gen.json")
})

func genCat(b *testing.B) *corpus.Catalog {
	b.Helper()
	cat, err := genCatalog()
	if err != nil {
		b.Fatal(err)
	}
	return cat
}

// BenchmarkBuildGen10k builds each simulator over 10,000 synthetic tools:
// code mode (ALL_TOOLS, its dump and the filter texts) and tool_search
// (ALL_TOOLS for search and the BM25 index).
func BenchmarkBuildGen10k(b *testing.B) {
	cat := genCat(b)
	b.Run("codex", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			if _, err := NewCodeMode(cat, search.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("codex-search", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			if _, err := NewToolSearch(cat, search.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkSearchGen10k is one query ("create invoice") through each
// simulator over the same tools: for code mode the four built-in
// strategies, the dump's output cached after the first run.
func BenchmarkSearchGen10k(b *testing.B) {
	cat := genCat(b)
	cm, err := NewCodeMode(cat, search.Options{})
	if err != nil {
		b.Fatal(err)
	}
	ts, err := NewToolSearch(cat, search.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range []search.Simulator{cm, ts} {
		b.Run(s.Client().Name, func(b *testing.B) {
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				if _, err := s.Search(context.Background(), search.Query{Text: "create invoice"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// reportCPU adds the process's CPU time per operation ("cpu-ns/op", all
// threads: the builds use every core) when the returned function runs.
func reportCPU(b *testing.B) func() {
	cpu0 := cputime.Used()
	return func() { b.ReportMetric(float64(cputime.Used()-cpu0)/float64(b.N), "cpu-ns/op") }
}
