package opencode

import (
	"bytes"
	"context"
	"testing"
	"testing/fstest"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/gencat"
	"github.com/toolfind/toolfind/search"
)

// Benchmarks on the demo catalog (19 tools), the 15 shared catalogs
// merged (1,111 tools) and gencat's synthetic 10,000 tools: building a
// simulator (signatures, catalog plan, search index) and answering one
// query.

var benchQueries = []string{"create issues", "list pull requests", "read file", "memory search", "navigate to a page and take a screenshot"}

func benchCatalog(b *testing.B, name string) *corpus.Catalog {
	switch name {
	case "demo":
		return corpus.Demo()
	case "gen10k":
		var buf bytes.Buffer
		if err := gencat.Write(&buf, 10_000, 1); err != nil {
			b.Fatal(err)
		}
		cat, err := corpus.LoadFS(fstest.MapFS{"gen.json": {Data: buf.Bytes()}}, "gen.json")
		if err != nil {
			b.Fatal(err)
		}
		return cat
	}
	return loadShared(b, "*")
}

func BenchmarkNewCodeMode(b *testing.B) {
	for _, name := range []string{"demo", "all", "gen10k"} {
		cat := benchCatalog(b, name)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				newCodeMode(cat, profile118())
			}
		})
	}
}

func BenchmarkCodeModeSearch(b *testing.B) {
	for _, name := range []string{"demo", "all"} {
		sim := search.Simulator(newCodeMode(benchCatalog(b, name), profile118()))
		b.Run(name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				if _, err := sim.Search(context.Background(), search.Query{Text: benchQueries[i%len(benchQueries)]}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

func BenchmarkNewEager(b *testing.B) {
	for _, name := range []string{"demo", "all", "gen10k"} {
		cat := benchCatalog(b, name)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				NewEager(cat)
			}
		})
	}
}

func BenchmarkEagerSearch(b *testing.B) {
	for _, name := range []string{"demo", "all"} {
		sim := NewEager(benchCatalog(b, name))
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := sim.Search(context.Background(), search.Query{Text: "create issues"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
