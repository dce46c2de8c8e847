package toolfind_test

import (
	"context"
	"fmt"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/bench"
	"github.com/toolfind/toolfind/search"
)

// printT stands in for *testing.T in the examples: it prints failures.
type printT struct{}

func (printT) Helper() {}
func (printT) Errorf(format string, args ...any) {
	fmt.Printf(format+"\n", args...)
}

// A server author's Go test asserts that a phrase reaches a tool in the
// clients that matter, in one line: in a real test, pass t.
func ExampleAssertFound() {
	cat, _ := toolfind.LoadCatalog() // no path: the embedded demo catalog
	ok := toolfind.AssertFound(printT{}, cat, "invoice", "billing/invoice_lookup", "claude", "grok")
	fmt.Println("invoice:", ok)
	ok = toolfind.AssertFound(printT{}, cat, "billing notes", "accounts/add_notes", "claude", "grok")
	fmt.Println("billing notes:", ok)
	// Output:
	// invoice: true
	// toolfind: "billing notes" → accounts/add_notes: claude@2.1.332: not among the hits; shown instead: billing/digest, billing/export, billing/findInvoice, billing/invoice_lookup, billing/ledger
	// billing notes: false
}

// Findable tells where a tool lands per client, ties included.
func ExampleFindable() {
	cat, _ := toolfind.LoadCatalog()
	findings, err := toolfind.Findable(context.Background(), cat, "invoice", "invoice_lookup", "claude", "grok")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range findings {
		fmt.Println(f)
	}
	// Output:
	// claude@2.1.332: rank 1 of limit 5
	// grok@1.0.0: rank 3-4 of limit 5; outranked by billing/ledger, billing/digest
}

// Evaluate runs a query set through clients; the report renders as a
// table, JSON, Markdown, JUnit XML or HTML.
func ExampleEvaluate() {
	ctx := context.Background()
	cat, _ := toolfind.LoadCatalog()
	qs, _ := toolfind.DemoQueries(cat)
	sims, _ := toolfind.Clients(cat, "claude", nil)
	report, err := toolfind.Evaluate(ctx, sims, qs, bench.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range report.Clients {
		fmt.Printf("%s: found@limit %s, MRR %.3f, %d not found\n", c.Client, bench.Percent(c.FoundAtLimit), c.MRR, c.NotFound)
	}
	// Output:
	// claude@2.1.332: found@limit 81.2%, MRR 0.750, 3 not found
}

// Rank shows one query's result per client.
func ExampleRank() {
	cat, _ := toolfind.LoadCatalog()
	sims, _ := toolfind.Clients(cat, "claude", nil)
	results, _ := toolfind.Rank(context.Background(), sims, search.Query{Text: "weather forecast"})
	for _, r := range results {
		for _, h := range r.Hits {
			fmt.Println(r.Client, h.Rank, h.Name)
		}
	}
	// Output:
	// claude@2.1.332 1 mcp__weather__get_forecast
	// claude@2.1.332 2 mcp__weather__get_alerts
}
