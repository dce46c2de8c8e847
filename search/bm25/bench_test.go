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

// BenchmarkTransliterateCJK transliterates a short tool description in
// Chinese with ASCII identifiers and a newline.
func BenchmarkTransliterateCJK(b *testing.B) {
	const text = "列出仓库中的所有文件，并按名称搜索（支持通配符）。Search files by name; 返回文件路径和大小。\n例如：`src/main.go`、`*.md`。"
	b.ReportAllocs()
	for b.Loop() {
		Transliterate(text)
	}
}

// BenchmarkDecodeDeunicode is the one-time cost of decoding the embedded
// transliteration table, paid by the first text with a byte ≥ 0x7F.
func BenchmarkDecodeDeunicode(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeDeunicode(deunicodeData); err != nil {
			b.Fatal(err)
		}
	}
}
