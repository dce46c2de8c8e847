package grok_test

import (
	"context"
	"fmt"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/grok"
	"github.com/toolfind/toolfind/search"
)

func Example() {
	sim := grok.New(corpus.Demo(), grok.Options{})
	res, err := sim.Search(context.Background(), search.Query{Text: "invoice", Limit: 3})
	if err != nil {
		panic(err)
	}
	for _, h := range res.Hits {
		fmt.Printf("%d-%d %.4f %.2f %s\n", h.Rank, h.RankWorst, h.Score, h.PWithinLimit, h.Name)
	}
	// Output:
	// 1-1 1.8604 1.00 billing__ledger
	// 2-2 1.7243 1.00 billing__digest
	// 3-4 1.5538 0.50 billing__findInvoice
	// 3-4 1.5538 0.50 billing__invoice_lookup
}

func ExampleNormalizeQuery() {
	fmt.Println(grok.NormalizeQuery("create_issue in linear"))
	fmt.Println(grok.NormalizeQuery("create issue"))
	// Output:
	// create_issue in linear create issue in linear
	// create issue
}

func ExampleSplitIdentifier() {
	fmt.Println(grok.SplitIdentifier("SearchDashboards"), grok.SplitIdentifier("grafana-ai"), grok.SplitIdentifier("HTTPServer"))
	// Output: [Search Dashboards] [grafana ai] [HTTPServer]
}
