package result

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/ojson"
)

// mustParse builds a CallResult from a Go value through its JSON.
func mustParse(t testing.TB, v any) *CallResult {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Parse("test.json", data)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// textResult is a result of text blocks.
func textResult(t testing.TB, texts ...string) *CallResult {
	t.Helper()
	var content []map[string]any
	for _, s := range texts {
		content = append(content, map[string]any{"type": "text", "text": s})
	}
	return mustParse(t, map[string]any{"content": content})
}

// seedRows is the seed's size-check text ("Notes on MCP Design", rows
// A–D): 53-character lines "Row C line 00001: synthetic output for a size
// check.\n", cut to n characters.
func seedRows(n int) string {
	var b strings.Builder
	for i := 1; b.Len() < n; i++ {
		fmt.Fprintf(&b, "Row C line %05d: synthetic output for a size check.\n", i)
	}
	return b.String()[:n]
}

// deliver runs one client.
func deliver(t testing.TB, in Input, client string, o Options) Delivery {
	t.Helper()
	o.Clients = []string{client}
	ds, err := Deliver(in, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 {
		t.Fatalf("%d deliveries", len(ds))
	}
	return ds[0]
}

// blocksJSONOf is JSON.stringify([{type:"text",text:s}], null, 2) computed
// with encoding/json (no HTML characters in the tests' texts).
func blocksJSONOf(t testing.TB, s string) string {
	t.Helper()
	b, err := json.MarshalIndent([]map[string]string{{"type": "text", "text": s}}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	// encoding/json sorts map keys: "text" before "type"; Claude Code writes
	// type first.
	return strings.Replace(string(b), "{\n    \"text\": "+mustJSON(s)+",\n    \"type\": \"text\"\n  }", "{\n    \"type\": \"text\",\n    \"text\": "+mustJSON(s)+"\n  }", 1)
}

func mustJSON(s string) string { b, _ := json.Marshal(s); return string(b) }

func parseValue(t testing.TB, s string) ojson.Value {
	t.Helper()
	v, err := ojson.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}
