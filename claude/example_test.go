package claude_test

import (
	"context"
	"fmt"

	"github.com/toolfind/toolfind/claude"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// The seed article's example: what Claude Code 2.1.328 returns for
// "invoice" over the demo catalog.
func Example() {
	sim := claude.New(corpus.Demo(), claude.V2_1_328, claude.DefaultOptions())
	res, _ := sim.Search(context.Background(), search.Query{Text: "invoice"})
	for _, h := range res.Hits {
		fmt.Println(h.Rank, h.Name, h.Score, h.Why)
	}
	// Output:
	// 1 mcp__billing__invoice_lookup 16 [invoice: part "invoice" +12; coarse "invoice_lookup" contains +4]
	// 2 mcp__billing__findInvoice 10 [invoice: part "findinvoice" contains +6; coarse "findinvoice" contains +4]
	// 3 mcp__billing__export 4 [invoice: hint +4]
	// 4 mcp__billing__digest 2 [invoice: description +2]
}

// Through the registry, as the CLI does: the builtins option off.
func Example_registry() {
	p, _ := search.Lookup("claude@2.1.328")
	sim, _ := search.Build(p, corpus.Demo(), search.Options{"builtins": "false"})
	res, _ := sim.Search(context.Background(), search.Query{Text: "notes"})
	for _, h := range res.Hits {
		fmt.Println(h.Name, h.Score)
	}
	// Output:
	// mcp__accounts__add_notes 18
}

// select: loads tools by name; Shown is what the model then reads.
func ExampleSimulator_Search_select() {
	sim := claude.New(corpus.Demo(), claude.V2_1_328, claude.DefaultOptions())
	res, _ := sim.Search(context.Background(), search.Query{Text: "select:ledger"})
	fmt.Println(res.Shown)
	fmt.Println(res.ShownTokens, "tokens")
	// Output:
	// <functions>
	// <function>{"description": "Summarizes invoices.", "name": "mcp__billing__ledger", "parameters": {"type":"object","properties":{}}}</function>
	// </functions>
	// 22 tokens
}

// View shows one tool's loaded definition; Problems lists what Claude Code
// drops, hides or loads up front.
func ExampleSimulator_Problems() {
	sim := claude.New(corpus.Demo(), claude.V2_1_328, claude.DefaultOptions())
	for _, p := range sim.Problems() {
		fmt.Println(p.Code, p.Server+"/"+p.Tool)
	}
	// Output:
	// claude-always-loaded billing/customer_lookup
	// claude-hidden tickets/render_board
}

// A server whose tools/list answer fails validation ("properties": null)
// is connected but contributes no tools; from 2.1.329 an empty result
// names it.
func ExampleSimulator_Search_failedList() {
	servers, diags, _ := corpus.ParseCatalog("failed.json", []byte(`{"servers":[
	  {"name":"good","tools":[{"name":"alpha","inputSchema":{"type":"object"}}]},
	  {"name":"broken","tools":[{"name":"t","inputSchema":{"type":"object","properties":null}}]}]}`))
	cat := &corpus.Catalog{}
	_ = cat.AddParsed(servers, diags)
	for _, p := range []claude.Profile{claude.V2_1_332, claude.V2_1_328} {
		sim := claude.New(cat, p, claude.DefaultOptions())
		res, _ := sim.Search(context.Background(), search.Query{Text: "invoice"})
		fmt.Println(p.Version+":", res.Shown)
	}
	// Output:
	// 2.1.332: No matching deferred tools found. Note: these MCP servers are connected, but listing their tools failed, so their tools are unavailable for now: broken. Treat this as a failure to load their tools — do not conclude the server has no tools.
	// 2.1.328: No matching deferred tools found
}

// A release without a profile of its own is answered by the newest
// profile not newer than it (specs/claude.md §0).
func Example_releases() {
	p, r, _ := search.LookupRelease("claude@2.1.330")
	fmt.Println(p.ID)
	fmt.Println(r.Note)
	fmt.Println(search.Coverage(p))
	// Output:
	// claude@2.1.329
	// claude@2.1.330 uses profile claude@2.1.329, the newest profile not newer than 2.1.330 (it covers 2.1.329 – 2.1.331)
	// 2.1.329 – 2.1.331
}
