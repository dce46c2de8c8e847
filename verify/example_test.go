package verify_test

import (
	"fmt"
	"strings"

	"github.com/toolfind/toolfind/verify"
)

// Compare names the first difference between the real client's answer and
// the simulation's.
func ExampleCompare() {
	real := verify.Answer{Tools: []string{"mcp__billing__invoice_lookup", "mcp__billing__digest"}}
	sim := verify.Answer{Tools: []string{"mcp__billing__invoice_lookup", "mcp__billing__export"}}
	fmt.Println(verify.Compare(real, sim))
	fmt.Println(verify.Compare(verify.Answer{Text: "No matching deferred tools found"}, verify.Answer{Text: "No matching deferred tools found"}))
	// Output:
	// false position 2: real mcp__billing__digest, simulated mcp__billing__export
	// true
}

// Query files are JSON Lines; max_results is optional and other keys are
// ignored.
func ExampleParseQueries() {
	qs, _ := verify.ParseQueries("q.jsonl", strings.NewReader(`{"query":"invoice"}
{"query":"billing","max_results":10,"expect":["billing/ledger"]}`))
	for _, q := range qs {
		fmt.Printf("line %d: %q max_results %d\n", q.Line, q.Text, q.Limit)
	}
	// Output:
	// line 1: "invoice" max_results 0
	// line 2: "billing" max_results 10
}
