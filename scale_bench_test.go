package toolfind_test

import (
	"bytes"
	"context"
	"strconv"
	"testing"
	"testing/fstest"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/cputime"
	"github.com/toolfind/toolfind/internal/gencat"
	"github.com/toolfind/toolfind/search"
)

// scaleSizes are the synthetic catalog sizes of the scale benchmarks; the
// 100,000-tool figure is a whole-process run (see cmd/toolfind's
// BenchmarkRankScale).
var scaleSizes = []int{10_000}

// scaleClients are the default clients, each built and searched alone.
var scaleClients = []string{"claude", "grok", "codex", "codex-search", "opencode", "opencode-codemode"}

// scaleCatalog loads gencat's n tools (seed 1) from memory. (gencat
// cannot load them itself: corpus's own tests import gencat.)
func scaleCatalog(b *testing.B, n int) *corpus.Catalog {
	b.Helper()
	var buf bytes.Buffer
	if err := gencat.Write(&buf, n, 1); err != nil {
		b.Fatal(err)
	}
	cat, err := corpus.LoadFS(fstest.MapFS{"gen.json": {Data: buf.Bytes()}}, "gen.json")
	if err != nil {
		b.Fatal(err)
	}
	return cat
}

// scaleProfile is the default profile of a client.
func scaleProfile(b *testing.B, client string) search.Profile {
	ps, err := search.Resolve(client)
	if err != nil {
		b.Fatal(err)
	}
	return ps[0]
}

// BenchmarkBuildScale builds one client's simulator over a synthetic
// catalog (package gencat): what `rank --client NAME` pays after loading.
func BenchmarkBuildScale(b *testing.B) {
	for _, n := range scaleSizes {
		cat := scaleCatalog(b, n)
		for _, c := range scaleClients {
			p := scaleProfile(b, c)
			b.Run(c+"/"+strconv.Itoa(n), func(b *testing.B) {
				b.ReportAllocs()
				cpu0 := cputime.Used()
				for b.Loop() {
					if _, err := search.Build(p, cat, nil); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(cputime.Used()-cpu0)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// BenchmarkSearchScale is one query through each client over the same
// synthetic catalogs.
func BenchmarkSearchScale(b *testing.B) {
	for _, n := range scaleSizes {
		cat := scaleCatalog(b, n)
		for _, c := range scaleClients {
			sim, err := search.Build(scaleProfile(b, c), cat, nil)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(c+"/"+strconv.Itoa(n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := sim.Search(context.Background(), search.Query{Text: "create invoice"}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
