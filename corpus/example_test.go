package corpus_test

import (
	"fmt"
	"strings"

	"github.com/toolfind/toolfind/corpus"
)

func ExampleParseCatalog() {
	servers, diags, err := corpus.ParseCatalog("evil.json", []byte(`{"server": "evil", "tools": [
	  {"name": "a", "description": "Works.", "inputSchema": {"type": "object", "properties": null}},
	  {"name": "a", "description": "Shadowed.", "inputSchema": {"type": "object"}}]}`))
	if err != nil {
		panic(err)
	}
	cat := &corpus.Catalog{Servers: servers}
	diags = append(diags, corpus.Validate(cat)...)
	fmt.Println(len(cat.Tools()), "tools")
	for _, d := range diags {
		fmt.Println(d)
	}
	// Output:
	// 2 tools
	// evil.json: error: evil/a: inputSchema.properties: properties is a null, not an object; Claude Code drops every tool of this server [properties-type]
	// evil.json: warning: evil/a: name: tool name repeated in this server; clients keep the first definition (OpenCode keeps the last) [duplicate-tool]
}

func ExampleResolver_Resolve() {
	r := corpus.NewResolver(corpus.Demo())
	for _, entry := range []string{"billing/invoice_lookup", "mcp__tickets__close_ticket", "addComment"} {
		id, err := r.Resolve(entry)
		fmt.Println(id, err)
	}
	// Output:
	// billing/invoice_lookup <nil>
	// tickets/close-ticket <nil>
	// tickets/addComment <nil>
}

func ExampleParseQueries() {
	cat := corpus.Demo()
	qs, err := corpus.ParseQueries("q.jsonl", strings.NewReader(`{"query": "weather forecast", "expect": ["get_forecast"], "kind": "keyword"}`), cat)
	if err != nil {
		panic(err)
	}
	q := qs.Queries[0]
	fmt.Println(q.Text, q.Expect, q.Tags["kind"])
	// Output: weather forecast [weather/get_forecast] keyword
}
