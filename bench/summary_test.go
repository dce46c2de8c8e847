package bench_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/bench"
	"github.com/toolfind/toolfind/bench/benchtest"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/golden"
	"github.com/toolfind/toolfind/search"
)

// TestSummaryGoldens: a summary run (aggregates only) writes the same table
// and Markdown as the full run's goldens, with any number of workers, and
// refuses the formats that list every outcome.
func TestSummaryGoldens(t *testing.T) {
	for _, w := range []int{1, 2, 7, 64} {
		rep := goldenReport(t, bench.Options{Workers: w, Summary: true, By: []string{"category", "kind"}, PerTool: true})
		if !rep.Summarized() {
			t.Fatal("Summarized() = false")
		}
		for f, file := range map[bench.Format]string{bench.Table: "report.txt", bench.Markdown: "report.md"} {
			var buf bytes.Buffer
			if err := rep.Write(&buf, f); err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("testdata", file))
			if err != nil {
				t.Fatal(err)
			}
			if buf.String() != string(want) {
				t.Errorf("workers %d, %s:\n%s", w, f, golden.Diff(string(want), buf.String()))
			}
		}
		for _, f := range []bench.Format{bench.JSON, bench.JUnit, bench.HTML} {
			if err := rep.Write(&bytes.Buffer{}, f); err == nil || !strings.Contains(err.Error(), "aggregates only") {
				t.Errorf("%s of a summary report: %v", f, err)
			}
		}
	}
	plain := goldenReport(t, bench.Options{Summary: true})
	var buf bytes.Buffer
	if err := plain.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(filepath.Join("testdata", "report-plain.txt"))
	if buf.String() != string(want) {
		t.Errorf("plain:\n%s", golden.Diff(string(want), buf.String()))
	}
}

// manyQueries is n queries of the golden set's words over the demo
// catalog, cycling through misses and finds, with tags.
func manyQueries(t testing.TB, n int) *corpus.QuerySet {
	t.Helper()
	lines := []string{
		`{"query": "invoice", "expect": ["billing/invoice_lookup"], "category": "billing"}`,
		`{"query": "ticket", "expect": ["tickets/render_board"], "category": "support"}`,
		`{"query": "rename a file", "expect": ["files/move_file"], "category": "files"}`,
		`{"query": "hello there"}`,
		`{"query": "the file %d", "expect": ["files/write_file", "files/read_file"], "category": "c%d"}`,
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		l := lines[i%len(lines)]
		if strings.Contains(l, "%d") {
			l = fmt.Sprintf(l, i, i%7)
		}
		b.WriteString(l + "\n")
	}
	qs, err := corpus.ParseQueries("many.jsonl", strings.NewReader(b.String()), corpus.Demo())
	if err != nil {
		t.Fatal(err)
	}
	return qs
}

// TestSummaryManyMisses: over 500 queries (more misses per row than the
// ten listed, so "… and N more" is printed from the count), the summary
// run's table and Markdown equal the full run's.
func TestSummaryManyMisses(t *testing.T) {
	cat := corpus.Demo()
	qs := manyQueries(t, 500)
	render := func(rep *bench.Report) string {
		var buf bytes.Buffer
		if err := rep.WriteTable(&buf); err != nil {
			t.Fatal(err)
		}
		if err := rep.WriteMarkdown(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	opts := bench.Options{Workers: 3, By: []string{"category"}, PerTool: true}
	full, err := bench.Run(context.Background(), fakes(cat), qs, opts)
	if err != nil {
		t.Fatal(err)
	}
	want := render(full)
	if !strings.Contains(want, "… and ") {
		t.Fatalf("no row with more than ten misses:\n%s", want)
	}
	opts.Summary = true
	sum, err := bench.Run(context.Background(), fakes(cat), qs, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := render(sum); got != want {
		t.Errorf("summary differs:\n%s", golden.Diff(want, got))
	}
	// Kept: at most ten misses per row (4 rows: fake, fake-random,
	// fake-multi, fake-multi [names]).
	if len(sum.Outcomes) > 4*10 {
		t.Errorf("summary kept %d outcomes, want at most 40", len(sum.Outcomes))
	}
}

// TestSummaryMemoryBounded: the heap a summary run holds while it runs
// (measured at its last search, after a GC, above what was live before
// it) does not grow with the number of queries: 20,000 queries hold less
// than 256 KiB more than 2,000 do. A full run holds every outcome (about
// 400 bytes each: 18,000 more are over 7 MB), which the second half
// checks, so the measure is known to see them.
func TestSummaryMemoryBounded(t *testing.T) {
	cat := corpus.Demo()
	sims := []search.Simulator{benchtest.New(cat, benchtest.Ordered)}
	held := func(n int, summary bool) int64 {
		qs := manyQueries(t, n)
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		base := int64(ms.HeapAlloc)
		var at int64
		_, err := bench.Run(context.Background(), sims, qs, bench.Options{Workers: 2, Summary: summary, Progress: func(done, total int) {
			if done == total {
				runtime.GC()
				runtime.ReadMemStats(&ms)
				at = int64(ms.HeapAlloc) - base
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		runtime.KeepAlive(qs)
		return at
	}
	small, large := held(2000, true), held(20000, true)
	if large-small > 256<<10 {
		t.Errorf("summary run: 2,000 queries hold %d bytes, 20,000 hold %d: %d more, want under 256 KiB", small, large, large-small)
	}
	fs, fl := held(2000, false), held(20000, false)
	if fl-fs < 4<<20 {
		t.Errorf("full run: 2,000 queries hold %d bytes, 20,000 hold %d: the measure does not see the outcomes", fs, fl)
	}
	t.Logf("summary: %d → %d bytes; full: %d → %d bytes", small, large, fs, fl)
}

// TestSummaryCancelled: a cancelled summary run ends with ctx's error
// (no worker is left waiting for its turn).
func TestSummaryCancelled(t *testing.T) {
	cat := corpus.Demo()
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	_, err := bench.Run(ctx, fakes(cat), manyQueries(t, 2000), bench.Options{Workers: 4, Summary: true, Progress: func(done, total int) {
		if n++; n == 100 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}
