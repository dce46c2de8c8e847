package grok

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/gencat"
	"github.com/toolfind/toolfind/search"
)

var (
	benchOnce sync.Once
	benchCats map[string]*corpus.Catalog
)

// benchCatalogs returns the demo catalog, the 15 shared catalogs merged
// (1,111 tools) and gencat's synthetic 10,000 tools, loaded once.
func benchCatalogs(b *testing.B) map[string]*corpus.Catalog {
	merged := sharedCatalog(b, "") // skips when absent
	benchOnce.Do(func() {
		var buf bytes.Buffer
		if err := gencat.Write(&buf, 10_000, 1); err != nil {
			b.Fatal(err)
		}
		gen, err := corpus.LoadFS(fstest.MapFS{"gen.json": {Data: buf.Bytes()}}, "gen.json")
		if err != nil {
			b.Fatal(err)
		}
		benchCats = map[string]*corpus.Catalog{"demo": corpus.Demo(), "shared1111": merged, "gen10k": gen}
	})
	return benchCats
}

// BenchmarkNew builds the simulator (registration, documents, index).
func BenchmarkNew(b *testing.B) {
	for _, name := range []string{"demo", "shared1111", "gen10k"} {
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

// BenchmarkHeuristicCalls is the heuristic writer on the MongoDB server
// (its intent index built before the loop): prompts with and without a
// second call.
func BenchmarkHeuristicCalls(b *testing.B) {
	sim := New(sharedCatalog(b, "mongodb.json"), Options{})
	prompts := []string{
		"Run a vectorSearch query on mflix.movies on path 'plot_embeddings' to find all 'sci-fi' movies.",
		"What is the type of value stored in title field in movies collection in mflix database?",
		"Count number of documents in 'mflix.movies' namespace.",
		"Group all the movies by release year",
		"Create a cluster named \"accuracy-cluster\" in project \"MyProject\" on AWS US_EAST_1",
	}
	sim.HeuristicCalls(prompts[0])
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if len(sim.HeuristicCalls(prompts[i%len(prompts)])) == 0 {
			b.Fatal("no call")
		}
	}
}
