package bench_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/toolfind/toolfind/bench"
	"github.com/toolfind/toolfind/bench/benchtest"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// Run evaluates simulators over a query set. The fakes of package
// benchtest stand in for real clients here: "fake" orders ties, and
// "fake-random" breaks them at random, so "ticket" (four tools tie for
// three places) is shown with probability 3/4.
func ExampleRun() {
	cat := corpus.Demo()
	qs, _ := corpus.ParseQueries("example", strings.NewReader(`
{"query": "ticket", "expect": ["tickets/addComment"]}
{"query": "weather forecast", "expect": ["weather/get_forecast"]}
`), cat)
	sims := []search.Simulator{benchtest.New(cat, benchtest.Ordered), benchtest.New(cat, benchtest.Random)}
	rep, err := bench.Run(context.Background(), sims, qs, bench.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range rep.Outcomes {
		fmt.Printf("%-14s %-17s rank %-4s p %.2f rr %.3f\n", o.Client, o.Query, bench.RankText(o.Rank, o.RankWorst), o.PWithinLimit, o.RR)
	}
	for _, c := range rep.Clients {
		fmt.Printf("%-14s found@limit %s (band %s–%s) MRR %.3f\n", c.Client, bench.Percent(c.FoundAtLimit),
			bench.Percent(c.FoundAtLimitWorst), bench.Percent(c.FoundAtLimitBest), c.MRR)
	}
	// Output:
	// fake@1         ticket            rank 3    p 1.00 rr 0.333
	// fake-random@1  ticket            rank 1-4  p 0.75 rr 0.458
	// fake@1         weather forecast  rank 1    p 1.00 rr 1.000
	// fake-random@1  weather forecast  rank 1    p 1.00 rr 1.000
	// fake@1         found@limit 100.0% (band 100.0%–100.0%) MRR 0.667
	// fake-random@1  found@limit 87.5% (band 50.0%–100.0%) MRR 0.729
}

// A report renders as an aligned table (or JSON, Markdown, JUnit, HTML).
func ExampleReport_Write() {
	cat := corpus.Demo()
	qs, _ := corpus.ParseQueries("example.jsonl", strings.NewReader(`{"query": "read file", "expect": ["files/read_file"]}`), cat)
	rep, _ := bench.Run(context.Background(), []search.Simulator{benchtest.New(cat, benchtest.Ordered)}, qs, bench.Options{})
	rep.Write(os.Stdout, bench.Table)
	// Output:
	// 1 query (example.jsonl) × 1 client
	//
	//                 FOUND   FOUND         MEAN   P95    NOT
	// CLIENT  LIMIT      @1  @LIMIT    MRR  RANK  RANK  FOUND  TOKENS
	// fake@1      3  100.0%  100.0%  1.000  1.00   1.0      0      13
}

// Thresholds per client: a default and named overrides.
func ExampleParseThreshold() {
	th, _ := bench.ParseThreshold("0.8", "claude=90%,grok=0.7")
	for _, label := range []string{"claude@2.1.328", "grok@1.0.0", "codex@0.171.0", "codex@0.171.0 [regex]"} {
		x, ok := th.For(label)
		fmt.Println(label, x, ok)
	}
	// Output:
	// claude@2.1.328 0.9 true
	// grok@1.0.0 0.7 true
	// codex@0.171.0 0.8 true
	// codex@0.171.0 [regex] 0 false
}

// Check turns a report into a CI gate.
func ExampleReport_Check() {
	cat := corpus.Demo()
	qs, _ := corpus.DemoQueries(cat)
	rep, _ := bench.Run(context.Background(), []search.Simulator{benchtest.New(cat, benchtest.Ordered)}, qs, bench.Options{})
	min, _ := bench.ParseThreshold("0.9")
	fails, _ := rep.Check(bench.Thresholds{MinFoundAtLimit: min})
	for _, f := range fails {
		fmt.Println(f)
	}
	// Output:
	// fake@1: found@limit 87.5% < 90.0%
}

// Compare lists the queries that got worse since a baseline.
func ExampleCompare() {
	cat := corpus.Demo()
	qs, _ := corpus.DemoQueries(cat)
	sims := []search.Simulator{benchtest.New(cat, benchtest.Ordered)}
	base, _ := bench.Run(context.Background(), sims, qs, bench.Options{})
	// The catalog changes: the alerts tool now also speaks of forecasts,
	// and the forecast tool's description loses its words.
	cat.Tool("weather/get_forecast").Description = "Returns data."
	cat.Tool("weather/get_alerts").Description = "Weather alerts and forecast."
	sims = []search.Simulator{benchtest.New(cat, benchtest.Ordered)}
	cur, _ := bench.Run(context.Background(), sims, qs, bench.Options{})
	for _, f := range bench.Compare(base, cur) {
		fmt.Println(f)
	}
	// The edit hurts the alerts query too: the alerts tool's new text lost
	// the word "CA", so another tool now ties with it and comes first.

	// Output:
	// fake@1: "weather forecast": rank 1 → rank 2
	// fake@1: "Are there any storm alerts in CA today?": rank 1 → rank 2
}
