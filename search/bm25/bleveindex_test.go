//go:build bleveindex

// The bleve index comparison is behind a build tag so that ordinary test
// runs do not compile bleve's index and its segment formats:
//
//	go test -tags bleveindex -run '^$' -bench BleveIndex ./search/bm25

package bm25

import (
	"strconv"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/registry"
	"github.com/blevesearch/bleve/v2/search/query"
)

func init() {
	_ = registry.RegisterAnalyzer("bm25crate", func(map[string]any, *registry.Cache) (analysis.Analyzer, error) {
		return analyzer, nil
	})
}

func newBleve(b *testing.B, docs []string) bleve.Index {
	m := bleve.NewIndexMapping()
	m.DefaultAnalyzer = "bm25crate"
	idx, err := bleve.NewMemOnly(m)
	if err != nil {
		b.Fatal(err)
	}
	batch := idx.NewBatch()
	for i, d := range docs {
		if err := batch.Index(strconv.Itoa(i), map[string]string{"text": d}); err != nil {
			b.Fatal(err)
		}
	}
	if err := idx.Batch(batch); err != nil {
		b.Fatal(err)
	}
	return idx
}

// BenchmarkBleveIndex is what a bleve index would cost instead of the
// plain postings: building a bleve in-memory index of the same documents
// with the same analyzer, and retrieving a query's candidates from it (a
// disjunction of term queries; the crate's score would still have to be
// computed afterwards, since bleve's own differs).
func BenchmarkBleveIndex(b *testing.B) {
	docs := catalogDocs(b)
	b.Run("build", func(b *testing.B) {
		b.ReportAllocs()
		cpu0 := cpuTime()
		for b.Loop() {
			idx := newBleve(b, docs)
			idx.Close()
		}
		b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
	})
	b.Run("candidates", func(b *testing.B) {
		idx := newBleve(b, docs)
		defer idx.Close()
		b.ReportAllocs()
		cpu0 := cpuTime()
		for i := 0; b.Loop(); i++ {
			var qs []query.Query
			for _, t := range Tokenize(benchQueries[i%len(benchQueries)]) {
				tq := bleve.NewTermQuery(t)
				tq.SetField("text")
				qs = append(qs, tq)
			}
			req := bleve.NewSearchRequestOptions(bleve.NewDisjunctionQuery(qs...), len(docs), 0, false)
			if _, err := idx.Search(req); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
	})
}
