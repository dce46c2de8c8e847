package codexjs_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/toolfind/toolfind/codexjs"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// ALL_TOOLS of the demo catalog: Codex's own 11 entries and the MCP tools,
// sorted by name.
func ExampleBuildAllTools() {
	at := codexjs.BuildAllTools(corpus.Demo(), false)
	e, _ := at.Entry("weather/get_forecast")
	fmt.Println(len(at.Entries), e.Name)
	fmt.Println(strings.Contains(e.Description, "\n\nexec tool declaration:\n```ts\ndeclare const tools: { mcp__weather__get_forecast(args: "))
	// Output:
	// 29 mcp__weather__get_forecast
	// true
}

// A model-written script, as Codex returns its output.
func ExampleCodeMode_RunScript() {
	m, _ := codexjs.NewCodeMode(corpus.Demo(), search.Options{})
	res := m.RunScript(`text(ALL_TOOLS.filter(t => t.name.includes("invoice")).map(t => t.name).join("\n"))`, "")
	fmt.Print(res.Shown)
	// Output:
	// Script completed
	// Wall time 0.0 seconds
	// Output:
	// mcp__billing__invoice_lookup
}

// Code mode answers with one result per strategy.
func ExampleCodeMode_Search() {
	m, _ := codexjs.NewCodeMode(corpus.Demo(), search.Options{"strategies": "name,dump"})
	res, _ := m.Search(context.Background(), search.Query{Text: "invoice lookup"})
	for _, r := range res.All() {
		fmt.Println(r.Strategy, len(r.Hits), r.Extra["truncated"])
	}
	// Output:
	// name 1 false
	// dump 18 false
}

// tool_search: BM25, limit 8, ties as rank ranges.
func ExampleToolSearch_Search() {
	ts, _ := codexjs.NewToolSearch(corpus.Demo(), search.Options{})
	res, _ := ts.Search(context.Background(), search.Query{Text: "weather forecast"})
	h := res.Hits[0]
	fmt.Println(h.Rank, h.RankWorst, h.Name)
	// Output:
	// 1 1 mcp__weather__get_forecast
}
