package claude

import (
	"context"
	"testing"

	"github.com/toolfind/toolfind/internal/cputime"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// benchQueries are keyword queries of the kinds models write.
var benchQueries = []string{"invoice", "create pull request", "list files in directory", "+github issue comment", "sql"}

// benchSearch also reports cpu-ns/op, the process CPU time per query
// (getrusage): on a shared, oversubscribed machine ns/op counts time spent
// waiting for a core, cpu-ns/op only the work.
func benchSearch(b *testing.B, s *Simulator, q string) {
	ctx := context.Background()
	query := search.Query{Text: q}
	b.ReportAllocs()
	start := cpuTime()
	n := 0
	for b.Loop() {
		if _, err := s.Search(ctx, query); err != nil {
			b.Fatal(err)
		}
		n++
	}
	if n > 0 {
		b.ReportMetric(float64(cpuTime()-start)/float64(n), "cpu-ns/op")
	}
}

func cpuTime() int64 { return int64(cputime.Used()) }

// BenchmarkSearchDemo: the embedded demo catalog (15 MCP tools + 11 built-ins).
func BenchmarkSearchDemo(b *testing.B) {
	s := New(corpus.Demo(), V2_1_328, DefaultOptions())
	for _, q := range benchQueries {
		b.Run(slug(q), func(b *testing.B) { benchSearch(b, s, q) })
	}
}

// BenchmarkSearchShared: all 15 shared catalogs merged (1,111 tools).
func BenchmarkSearchShared(b *testing.B) {
	s := New(sharedCatalog(b), V2_1_328, DefaultOptions())
	for _, q := range benchQueries {
		b.Run(slug(q), func(b *testing.B) { benchSearch(b, s, q) })
	}
	b.Run("select", func(b *testing.B) { benchSearch(b, s, "select:list_issues,browser_click,read_file") })
	b.Run("punctuation", func(b *testing.B) { benchSearch(b, s, "read-only x-ms-version") })
}

// BenchmarkNewShared: building the simulator (pool, sort) once, as the
// build phase of `toolfind rank --client claude` does; "first-query" adds
// the first keyword search (a scan, the index is not built).
func BenchmarkNewShared(b *testing.B) {
	cat := sharedCatalog(b)
	for _, first := range []bool{false, true} {
		name := "build"
		if first {
			name = "first-query"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			start := cpuTime()
			n := 0
			for b.Loop() {
				s := New(cat, V2_1_328, DefaultOptions())
				if first {
					if _, err := s.Search(context.Background(), search.Query{Text: "invoice"}); err != nil {
						b.Fatal(err)
					}
				}
				n++
			}
			if n > 0 {
				b.ReportMetric(float64(cpuTime()-start)/float64(n), "cpu-ns/op")
			}
		})
	}
}

// BenchmarkSearchAzureE2E: the 739 prompts of the azure-e2e corpus over the
// Azure catalog (235 tools), as bench asks them (search.Query.Brief, and
// its buffer for the hits, search.Query.Hits); one op is every prompt
// once, the index already built. The variants: brief without the buffer,
// a fresh simulator per op (index and term cache built inside the op, as
// in one `toolfind bench` run), and the full results `rank` asks for.
func BenchmarkSearchAzureE2E(b *testing.B) {
	cat := sharedCatalog(b, "azure")
	qs, err := corpus.LoadQueries("../../shared/corpora/azure-e2e/queries.jsonl", cat)
	if err != nil {
		b.Skipf("azure-e2e queries: %v", err)
	}
	ctx := context.Background()
	hits := make([]search.Hit, 0, DefaultMaxResults)
	run := func(b *testing.B, s *Simulator, brief, buffer bool) {
		for _, q := range qs.Queries {
			query := search.Query{Text: q.Text, Brief: brief}
			if buffer {
				query.Hits = hits
			}
			if _, err := s.Search(ctx, query); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, c := range []struct {
		name                 string
		fresh, brief, buffer bool
	}{{"bench", false, true, true}, {"brief", false, true, false}, {"fresh-bench", true, true, true}, {"full", false, false, false}} {
		b.Run(c.name, func(b *testing.B) {
			s := New(cat, V2_1_328, DefaultOptions())
			run(b, s, c.brief, c.buffer)
			b.ReportAllocs()
			start := cpuTime()
			n := 0
			for b.Loop() {
				if c.fresh {
					s = New(cat, V2_1_328, DefaultOptions())
				}
				run(b, s, c.brief, c.buffer)
				n++
			}
			if n > 0 {
				b.ReportMetric(float64(cpuTime()-start)/float64(n), "cpu-ns/op")
			}
		})
	}
}
