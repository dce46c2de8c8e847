package grok

import (
	"context"
	"sync"
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

var (
	benchOnce sync.Once
	benchCats map[string]*corpus.Catalog
)

// benchCatalogs returns the demo catalog and the 15 shared catalogs merged
// (1,111 tools), loaded once.
func benchCatalogs(b *testing.B) map[string]*corpus.Catalog {
	merged := sharedCatalog(b, "") // skips when absent
	benchOnce.Do(func() {
		benchCats = map[string]*corpus.Catalog{"demo": corpus.Demo(), "shared1111": merged}
	})
	return benchCats
}

// BenchmarkNew builds the simulator (registration, documents, index).
func BenchmarkNew(b *testing.B) {
	for _, name := range []string{"demo", "shared1111"} {
		cat := benchCatalogs(b)[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				New(cat, Options{})
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkSearch is one search_tool call including the rendered JSON.
func BenchmarkSearch(b *testing.B) {
	qs := []string{"create pull request", "list issues", "invoice", "weather forecast", "search code"}
	for _, name := range []string{"demo", "shared1111"} {
		sim := New(benchCatalogs(b)[name], Options{})
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := cpuTime()
			for i := 0; b.Loop(); i++ {
				if _, err := sim.Search(context.Background(), search.Query{Text: qs[i%len(qs)]}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}
