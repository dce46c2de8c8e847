package bench_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolfind/toolfind/bench"
	"github.com/toolfind/toolfind/bench/benchtest"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/golden"
	"github.com/toolfind/toolfind/search"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// fakes returns the three fake simulators over cat.
func fakes(cat *corpus.Catalog) []search.Simulator {
	return []search.Simulator{
		benchtest.New(cat, benchtest.Ordered),
		benchtest.New(cat, benchtest.Random),
		benchtest.New(cat, benchtest.Multi),
	}
}

// goldenReport runs the fakes over testdata/golden-queries.jsonl on the
// demo catalog.
func goldenReport(t testing.TB, opts bench.Options) *bench.Report {
	t.Helper()
	cat := corpus.Demo()
	qs, err := corpus.LoadQueries("testdata/golden-queries.jsonl", cat)
	if err != nil {
		t.Fatal(err)
	}
	qs.Source = "golden-queries.jsonl"
	opts.Catalog, opts.CatalogTools = "demo", cat.Len()
	rep, err := bench.Run(context.Background(), fakes(cat), qs, opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestGoldenFormats(t *testing.T) {
	rep := goldenReport(t, bench.Options{By: []string{"category", "kind"}, PerTool: true})
	for _, f := range bench.Formats {
		t.Run(string(f), func(t *testing.T) {
			var buf bytes.Buffer
			if err := rep.Write(&buf, f); err != nil {
				t.Fatal(err)
			}
			ext := map[bench.Format]string{bench.Table: "txt", bench.JSON: "json", bench.Markdown: "md", bench.JUnit: "xml", bench.HTML: "html"}[f]
			golden.Compare(t, filepath.Join("testdata", "report."+ext), buf.Bytes(), *update)
		})
	}
}

// TestGoldenPlain pins the table without breakdowns or per-tool view.
func TestGoldenPlain(t *testing.T) {
	rep := goldenReport(t, bench.Options{})
	var buf bytes.Buffer
	if err := rep.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	golden.Compare(t, filepath.Join("testdata", "report-plain.txt"), buf.Bytes(), *update)
}

// TestRunDeterministic: one worker or many, the JSON is identical.
func TestRunDeterministic(t *testing.T) {
	var outs []string
	for _, w := range []int{1, 2, 7, 64} {
		rep := goldenReport(t, bench.Options{Workers: w, By: []string{"category"}, PerTool: true})
		var buf bytes.Buffer
		if err := rep.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		outs = append(outs, buf.String())
	}
	for i := 1; i < len(outs); i++ {
		if outs[i] != outs[0] {
			t.Fatalf("run %d differs from run 0:\n%s", i, golden.Diff(outs[0], outs[i]))
		}
	}
}

func TestRunRows(t *testing.T) {
	rep := goldenReport(t, bench.Options{})
	var labels []string
	for _, c := range rep.Clients {
		labels = append(labels, c.Client)
	}
	// The variant row follows its client's row.
	want := "fake@1,fake-random@1,fake-multi@1,fake-multi@1 [names]"
	if got := strings.Join(labels, ","); got != want {
		t.Errorf("rows = %s, want %s", got, want)
	}
	// 10 queries × 4 rows, minus the variant row of the failing query.
	if got, want := len(rep.Outcomes), 10*4-1; got != want {
		t.Errorf("%d outcomes, want %d", got, want)
	}
	// Query-major: the first four outcomes are query 1's.
	for i, l := range labels {
		if o := rep.Outcomes[i]; o.Query != "invoice" || o.Client != l {
			t.Errorf("outcome %d = %q/%s, want invoice/%s", i, o.Query, o.Client, l)
		}
	}
	for _, c := range rep.Clients[:3] {
		if c.Errors != 1 {
			t.Errorf("%s: %d errors, want 1 (the ERROR query)", c.Client, c.Errors)
		}
		// 9 of the 10 queries expect a tool ("hello there" does not).
		if c.Queries != 9 {
			t.Errorf("%s: %d queries, want 9", c.Client, c.Queries)
		}
	}
}

// TestRunMetrics pins the metrics of the ordered and random fakes on the
// golden queries, with the arithmetic.
func TestRunMetrics(t *testing.T) {
	rep := goldenReport(t, bench.Options{})
	byClient := map[string]bench.ClientMetrics{}
	for _, c := range rep.Clients {
		byClient[c.Client] = c
	}
	// Ordered (limit 3), per query: invoice 2 (billing/digest "Summarizes
	// each invoice" comes first in catalog order; rr 1/2); ticket→addComment
	// 3 (1/3); ticket→render_board cut (0); support ticket 1 (1); weather
	// forecast 1 (1); rename a file: move_file 1 (1); quantum 0; ERROR 0;
	// pipe query: read_file first (1).
	// found@limit 6/9, found@1 4/9, MRR (1/2 + 1/3 + 4)/9 = 0.537037.
	o := byClient["fake@1"]
	if o.FoundAtLimit != 0.666667 || o.FoundAt1 != 0.444444 || o.MRR != 0.537037 || o.NotFound != 3 {
		t.Errorf("fake@1: %+v", o)
	}
	// Random: "ticket" ties 4 tools at 1-4 with 3 slots: addComment and
	// render_board each p 3/4, rr (1/4)(1 + 1/2 + 1/3) = 0.458333 each.
	// The band brackets the expected value strictly.
	r := byClient["fake-random@1"]
	if r.FoundAtLimitWorst >= r.FoundAtLimit || r.FoundAtLimit >= r.FoundAtLimitBest {
		t.Errorf("fake-random@1: band %v < %v < %v expected strictly", r.FoundAtLimitWorst, r.FoundAtLimit, r.FoundAtLimitBest)
	}
	for _, out := range rep.Outcomes {
		if out.Client == "fake-random@1" && out.Query == "ticket" {
			if out.PWithinLimit != 0.75 || out.RR != 0.458333 || out.Rank != 1 || out.RankWorst != 4 {
				t.Errorf("random ticket outcome: %+v", out)
			}
		}
	}
}

func TestRunProgress(t *testing.T) {
	var calls, last atomic.Int64
	goldenReport(t, bench.Options{Workers: 4, Progress: func(done, total int) {
		calls.Add(1)
		if int64(done) != last.Load()+1 {
			t.Errorf("progress %d after %d", done, last.Load())
		}
		last.Store(int64(done))
		if total != 30 {
			t.Errorf("total %d, want 10 queries × 3 simulators", total)
		}
	}})
	if calls.Load() != 30 {
		t.Errorf("%d progress calls, want 30", calls.Load())
	}
}

func TestRunCancelled(t *testing.T) {
	cat := corpus.Demo()
	qs, err := corpus.DemoQueries(cat)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := bench.Run(ctx, fakes(cat), qs, bench.Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestRunBadInput(t *testing.T) {
	cat := corpus.Demo()
	qs, _ := corpus.DemoQueries(cat)
	for _, c := range []struct {
		name string
		sims []search.Simulator
		qs   *corpus.QuerySet
		opts bench.Options
		want string
	}{
		{"no query set", fakes(cat), nil, bench.Options{}, "no query set"},
		{"no client", nil, qs, bench.Options{}, "no client"},
		{"negative limit", fakes(cat), qs, bench.Options{Limit: -1}, "limit -1"},
	} {
		_, err := bench.Run(context.Background(), c.sims, c.qs, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to mention %q", c.name, err, c.want)
		}
	}
}

func TestEmptyQuerySet(t *testing.T) {
	cat := corpus.Demo()
	rep, err := bench.Run(context.Background(), fakes(cat), &corpus.QuerySet{}, bench.Options{By: []string{"x"}, PerTool: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range bench.Formats {
		if err := rep.Write(&bytes.Buffer{}, f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if len(rep.Clients) != 3 || len(rep.Outcomes) != 0 {
		t.Errorf("clients %d outcomes %d", len(rep.Clients), len(rep.Outcomes))
	}
}

func TestParseFormat(t *testing.T) {
	for in, want := range map[string]bench.Format{"table": bench.Table, "JSON": bench.JSON, "md": bench.Markdown,
		"markdown": bench.Markdown, "junit": bench.JUnit, "xml": bench.JUnit, " html ": bench.HTML} {
		if got, err := bench.ParseFormat(in); err != nil || got != want {
			t.Errorf("ParseFormat(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := bench.ParseFormat("pdf"); err == nil || !strings.Contains(err.Error(), "pdf") {
		t.Errorf("ParseFormat(pdf) err = %v", err)
	}
}

// panicky is a simulator that panics on one query.
type panicky struct{ search.Simulator }

func (p panicky) Search(ctx context.Context, q search.Query) (search.Result, error) {
	if q.Text == "invoice" {
		panic("boom")
	}
	return p.Simulator.Search(ctx, q)
}

// TestRunSimulatorPanic: a panic is an error outcome naming the query, the
// rest of the run goes on.
func TestRunSimulatorPanic(t *testing.T) {
	cat := corpus.Demo()
	qs, _ := corpus.DemoQueries(cat)
	rep, err := bench.Run(context.Background(), []search.Simulator{panicky{benchtest.New(cat, benchtest.Ordered)}}, qs, bench.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Outcomes[0].Error; got != `fake@1 panicked on query "invoice": boom` {
		t.Errorf("error %q", got)
	}
	if rep.Clients[0].Errors != 1 || len(rep.Outcomes) != len(qs.Queries) {
		t.Errorf("errors %d, outcomes %d", rep.Clients[0].Errors, len(rep.Outcomes))
	}
}
