package writer_test

import (
	"context"
	"fmt"
	"os"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/writer"
)

// Each client's model writes its own call for a prompt; Rank replays it.
func ExampleRank() {
	cat := corpus.Demo()
	sims, _ := toolfind.Clients(cat, "claude,grok", nil)
	results, _ := writer.Rank(context.Background(), writer.Heuristic{}, sims, "what is the weather forecast for Paris", 0)
	for _, r := range results {
		fmt.Printf("%s %s → %s\n", r.Client, r.Call, r.Hits[0].Tool)
	}
	// Output:
	// claude@2.1.332 {"query":"select:mcp__weather__get_forecast"} → weather/get_forecast
	// grok@1.0.0 {"query":"weather forecast"} → weather/get_forecast
}

// Write turns a query set into a written-queries file.
func ExampleWrite() {
	cat := corpus.Demo()
	sims, _ := toolfind.Clients(cat, "grok", nil)
	qs, _ := corpus.DemoQueries(cat)
	qs.Queries = qs.Queries[:2]
	lines, _ := writer.Write(context.Background(), writer.Heuristic{}, sims, qs)
	_ = writer.WriteLines(os.Stdout, lines)
	// Output:
	// {"id":"1","prompt":"invoice","client":"grok@1.0.0","call":{"query":"billing invoice digest"},"expect":["billing/invoice_lookup"],"writer":"heuristic","category":"billing","kind":"keyword"}
	// {"id":"2","prompt":"find invoice","client":"grok@1.0.0","call":{"query":"billing find invoice"},"expect":["billing/findInvoice"],"writer":"heuristic","category":"billing","kind":"keyword"}
}
