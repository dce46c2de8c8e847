package lint_test

import (
	"context"
	"os"
	"testing"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/internal/cputime"
	"github.com/toolfind/toolfind/lint"
)

// BenchmarkLintSharedCatalogs is `toolfind lint --catalog ../shared/catalogs`
// minus printing: load the 15 catalogs, build every client, lint.
func BenchmarkLintSharedCatalogs(b *testing.B) {
	dir := "../../shared/catalogs"
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("shared catalogs not found at %s: %v", dir, err)
	}
	cpu := cputime.Used()
	for i := 0; i < b.N; i++ {
		cat, err := toolfind.LoadCatalog(dir)
		if err != nil {
			b.Fatal(err)
		}
		sims, err := toolfind.Clients(cat, "all", nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := lint.Run(context.Background(), cat, sims, lint.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	// CPU time per run: on a loaded shared machine wall time measures the
	// neighbours; CPU time bounds the wall time on an idle one.
	b.ReportMetric(float64(cputime.Used()-cpu)/float64(b.N)/1e9, "cpu-s/op")
}

// BenchmarkLintRun is lint.Run alone over the 15 catalogs, clients built.
func BenchmarkLintRun(b *testing.B) {
	dir := "../../shared/catalogs"
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("shared catalogs not found at %s: %v", dir, err)
	}
	cat, err := toolfind.LoadCatalog(dir)
	if err != nil {
		b.Fatal(err)
	}
	sims, err := toolfind.Clients(cat, "all", nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu := cputime.Used()
	for i := 0; i < b.N; i++ {
		if _, err := lint.Run(context.Background(), cat, sims, lint.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cputime.Used()-cpu)/float64(b.N)/1e9, "cpu-s/op")
}
