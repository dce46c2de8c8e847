package bench_test

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/toolfind/toolfind/bench"
	"github.com/toolfind/toolfind/claude"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// The benchmarks measure bench's own cost (scheduling, scoring outcomes,
// metrics, rendering) with the fake clients, whose searches are cheap; the
// root package benchmarks the real clients end to end.

func loadShared(b *testing.B, catalog, queries string) (*corpus.Catalog, *corpus.QuerySet) {
	b.Helper()
	if _, err := os.Stat(catalog); err != nil {
		b.Skipf("shared material %s is absent (%v): skipping", catalog, err)
	}
	cat, err := corpus.Load(catalog)
	if err != nil {
		b.Fatal(err)
	}
	qs, err := corpus.LoadQueries(queries, cat)
	if err != nil {
		b.Fatal(err)
	}
	return cat, qs
}

func BenchmarkRun(b *testing.B) {
	demo := corpus.Demo()
	demoQs, _ := corpus.DemoQueries(demo)
	cases := []struct {
		name   string
		load   func(b *testing.B) (*corpus.Catalog, *corpus.QuerySet)
		claude bool // the Claude simulator instead of the fakes
	}{
		{"demo", func(*testing.B) (*corpus.Catalog, *corpus.QuerySet) { return demo, demoQs }, false},
		// The 15 shared catalogs merged (1,111 tools), GitHub queries.
		{"shared15", func(b *testing.B) (*corpus.Catalog, *corpus.QuerySet) {
			return loadShared(b, "../../shared/catalogs", "testdata/github-queries.jsonl")
		}, false},
		// 2,487 queries over 199 tools.
		{"metatool", func(b *testing.B) (*corpus.Catalog, *corpus.QuerySet) {
			return loadShared(b, "../../shared/corpora/metatool/metatool.json", "../../shared/corpora/metatool/queries.jsonl")
		}, false},
		// `toolfind bench --client claude` over azure-e2e: 739 prompts,
		// 235 tools, the real simulator (its index built by the first op).
		{"azure-claude", func(b *testing.B) (*corpus.Catalog, *corpus.QuerySet) {
			return loadShared(b, "../../shared/catalogs/azure.json", "../../shared/corpora/azure-e2e/queries.jsonl")
		}, true},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			cat, qs := c.load(b)
			sims := fakes(cat)
			if c.claude {
				sims = []search.Simulator{claude.New(cat, claude.V2_1_328, claude.DefaultOptions())}
			}
			opts := bench.Options{By: []string{"kind", "category", "subset"}, PerTool: true}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := bench.Run(context.Background(), sims, qs, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkWrite(b *testing.B) {
	cat, qs := loadShared(b, "../../shared/corpora/metatool/metatool.json", "../../shared/corpora/metatool/queries.jsonl")
	rep, err := bench.Run(context.Background(), fakes(cat), qs, bench.Options{PerTool: true})
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range bench.Formats {
		b.Run(string(f), func(b *testing.B) {
			b.ReportAllocs()
			var buf bytes.Buffer
			for i := 0; i < b.N; i++ {
				buf.Reset()
				if err := rep.Write(&buf, f); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(int64(buf.Len()))
		})
	}
}
