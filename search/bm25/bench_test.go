package bm25

import "testing"

var benchQueries = []string{"create pull request", "list issues", "search code in repository", "get file contents", "delete branch"}

func BenchmarkTokenize(b *testing.B) {
	docs := catalogDocs(b)
	b.ReportAllocs()
	cpu0 := cpuTime()
	for i := 0; b.Loop(); i++ {
		Tokenize(docs[i%len(docs)])
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkAnalyzeBleve is the same tokenization through bleve's
// DefaultAnalyzer with the same components (Analyzer), token structs and
// all; Tokenize fuses the steps.
func BenchmarkAnalyzeBleve(b *testing.B) {
	docs := catalogDocs(b)
	b.ReportAllocs()
	cpu0 := cpuTime()
	for i := 0; b.Loop(); i++ {
		analyze(docs[i%len(docs)])
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkNew builds the index over the 1,111 tools of the 15 shared
// catalogs, tokenization included.
func BenchmarkNew(b *testing.B) {
	docs := catalogDocs(b)
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		New(docs)
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkSearch is one query (tokenized and scored) over the same index.
func BenchmarkSearch(b *testing.B) {
	ix := New(catalogDocs(b))
	b.ReportAllocs()
	cpu0 := cpuTime()
	for i := 0; b.Loop(); i++ {
		ix.Search(benchQueries[i%len(benchQueries)])
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}
