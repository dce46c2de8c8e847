package corpus

import (
	"strings"
	"testing"
)

func resolverCatalog(t *testing.T) *Catalog {
	t.Helper()
	servers, _, err := ParseCatalog("r.json", []byte(`{"servers":[
	  {"name":"billing","tools":[{"name":"invoice_lookup"},{"name":"findInvoice"},{"name":"search"}]},
	  {"name":"my-server.v2","tools":[{"name":"get.item"},{"name":"search"}]},
	  {"name":"a","tools":[{"name":"b__c"}]},
	  {"name":"a__b","tools":[{"name":"c"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return &Catalog{Servers: servers}
}

func TestResolve(t *testing.T) {
	r := NewResolver(resolverCatalog(t))
	tests := []struct {
		entry, want, err string
	}{
		{"billing/invoice_lookup", "billing/invoice_lookup", ""},
		{"billing__invoice_lookup", "billing/invoice_lookup", ""},
		{"mcp__billing__invoice_lookup", "billing/invoice_lookup", ""},
		{"findInvoice", "billing/findInvoice", ""},                   // bare, unique
		{"my-server.v2/get.item", "my-server.v2/get.item", ""},       // exact id
		{"my-server.v2__get.item", "my-server.v2/get.item", ""},      // exact join
		{"mcp__my-server_v2__get_item", "my-server.v2/get.item", ""}, // Claude Code keeps '-'
		{"mcp__my_server_v2__get_item", "my-server.v2/get.item", ""}, // Codex turns '-' and '.' into '_'
		{"get_item", "my-server.v2/get.item", ""},                    // bare, sanitised
		{"search", "", `"search" is ambiguous: it may be billing/search, my-server.v2/search`},
		{"a__b__c", "", `"a__b__c" is ambiguous: it may be a/b__c, a__b/c`}, // the split is ambiguous
		{"a/b__c", "a/b__c", ""},
		{"billing/nope", "", `"billing/nope": server "billing" has no tool "nope"`},
		{"nothing", "", `"nothing" matches no tool in the catalog`},
		{"", "", "empty tool name"},
		{"Billing__invoice_lookup", "", "matches no tool"}, // names are case-sensitive
	}
	for _, tt := range tests {
		t.Run(tt.entry, func(t *testing.T) {
			got, err := r.Resolve(tt.entry)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Resolve(%q) = %q, %v; want error containing %q", tt.entry, got, err, tt.err)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Fatalf("Resolve(%q) = %q, %v; want %q", tt.entry, got, err, tt.want)
			}
		})
	}
}

func TestParseQueries(t *testing.T) {
	cat := resolverCatalog(t)
	in := `# comment
{"query": "invoice", "expect": ["billing/invoice_lookup", "mcp__billing__invoice_lookup"], "category": "billing", "n": 3}

{"query": "nothing expected"}
// another comment
{"query": "two", "expect": ["findInvoice", "billing__search"], "tags": ["a", "b"]}
`
	qs, err := ParseQueries("q.jsonl", strings.NewReader(in), cat)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs.Queries) != 3 {
		t.Fatalf("%d queries, want 3", len(qs.Queries))
	}
	q := qs.Queries[0]
	if q.Text != "invoice" || q.Line != 2 || q.File != "q.jsonl" {
		t.Errorf("query 0: %+v", q)
	}
	if len(q.Expect) != 1 || q.Expect[0] != "billing/invoice_lookup" || len(q.ExpectRaw) != 2 {
		t.Errorf("duplicates should collapse: %v (raw %v)", q.Expect, q.ExpectRaw)
	}
	if q.Tags["category"] != "billing" || q.Tags["n"] != "3" {
		t.Errorf("tags %v", q.Tags)
	}
	if q := qs.Queries[1]; q.Line != 4 || len(q.Expect) != 0 || q.Tags != nil {
		t.Errorf("query 1: %+v", q)
	}
	if q := qs.Queries[2]; q.Line != 6 || strings.Join([]string{string(q.Expect[0]), string(q.Expect[1])}, ",") != "billing/findInvoice,billing/search" || q.Tags["tags"] != `["a","b"]` {
		t.Errorf("query 2: %+v", q)
	}
}

// TestParseQueriesPrompt: a line may hold its text as "prompt" (a
// prompts.jsonl file) instead of "query"; both with the same text is one
// text, and "prompt" is never a tag.
func TestParseQueriesPrompt(t *testing.T) {
	cat := resolverCatalog(t)
	in := `{"prompt": "find an invoice", "expect": ["findInvoice"], "category": "billing"}
{"query": "same", "prompt": "same"}
{"prompt": "caf\u00e9", "n": 1}
`
	qs, err := ParseQueries("p.jsonl", strings.NewReader(in), cat)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs.Queries) != 3 {
		t.Fatalf("%d queries, want 3", len(qs.Queries))
	}
	q := qs.Queries[0]
	if q.Text != "find an invoice" || len(q.Expect) != 1 || q.Expect[0] != "billing/findInvoice" || len(q.Tags) != 1 || q.Tags["category"] != "billing" {
		t.Errorf("query 0: %+v", q)
	}
	if q := qs.Queries[1]; q.Text != "same" || q.Tags != nil {
		t.Errorf("query 1: %+v", q)
	}
	// The general path (a number tag): the escape decoded, "prompt" no tag.
	if q := qs.Queries[2]; q.Text != "café" || len(q.Tags) != 1 || q.Tags["n"] != "1" {
		t.Errorf("query 2: %+v", q)
	}
}

func TestParseQueriesErrors(t *testing.T) {
	cat := resolverCatalog(t)
	tests := []struct{ in, want string }{
		{`{"query": "x", "expect": ["search"]}`, `q.jsonl:1: expect[0]: "search" is ambiguous`},
		{"\n\n{\"query\": \"x\", \"expect\": [\"findInvoice\", \"zzz\"]}", `q.jsonl:3: expect[1]: "zzz" matches no tool`},
		{`{"expect": []}`, `q.jsonl:1: query: missing (each line needs "query" or "prompt", the text)`},
		{`{"prompt": 5}`, "q.jsonl:1: prompt: must be a string"},
		{`{"prompt": "  "}`, "q.jsonl:1: prompt: is empty"},
		{`{"query": "a", "prompt": "b"}`, `q.jsonl:1: prompt: differs from "query" on the same line: give one of them`},
		{`{"id": "q1", "prompt": "a", "client": "claude@2.1.328", "call": null}`, `q.jsonl:1: call: this line is a written call ("prompt" and "call"): give the file with --written`},
		{`{"query": 5}`, "q.jsonl:1: query: must be a string"},
		{`{"query": "  "}`, "q.jsonl:1: query: is empty"},
		{`{"query": "x", "expect": "findInvoice"}`, "q.jsonl:1: expect: must be an array of strings"},
		{`["query"]`, "q.jsonl:1: the line is a JSON array, not a JSON object"},
		{`{"query": "x"`, "q.jsonl:1:13: invalid JSON"},
	}
	for _, tt := range tests {
		_, err := ParseQueries("q.jsonl", strings.NewReader(tt.in), cat)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("input %q: error %v\nwant prefix %q", tt.in, err, tt.want)
		}
	}
}

func TestSharedCorpora(t *testing.T) {
	requireShared(t)
	tests := []struct {
		queries, catalog string
		n                int
	}{
		{"../../shared/corpora/mongodb-accuracy/queries.jsonl", "../../shared/catalogs/mongodb.json", 234},
		{"../../shared/corpora/azure-e2e/queries.jsonl", "../../shared/catalogs/azure.json", 739},
		{"../../shared/corpora/metatool/queries.jsonl", "../../shared/corpora/metatool/metatool.json", 2487},
		{"../../shared/corpora/livemcpbench/queries.jsonl", "../../shared/corpora/livemcpbench/catalogs", 95},
	}
	for _, tt := range tests {
		cat, err := Load(tt.catalog)
		if err != nil {
			t.Fatal(err)
		}
		qs, err := LoadQueries(tt.queries, cat)
		if err != nil {
			t.Fatal(err)
		}
		if len(qs.Queries) != tt.n {
			t.Errorf("%s: %d queries, want %d", tt.queries, len(qs.Queries), tt.n)
		}
	}
}

// TestResolveServerNameWithSlash: a server named "acme/tools" (any name a
// client config allows) is found by "acme/tools/add": each '/' is tried as
// the separator.
func TestResolveServerNameWithSlash(t *testing.T) {
	servers, _, err := ParseCatalog("c.json", []byte(`{"servers":[{"name":"acme/tools","tools":[{"name":"add","inputSchema":{"type":"object"}}]},{"name":"Second Server","tools":[{"name":"x/y","inputSchema":{"type":"object"}}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	cat := &Catalog{Servers: servers}
	r := NewResolver(cat)
	for entry, want := range map[string]ToolID{"acme/tools/add": "acme/tools/add", "Second Server/x/y": "Second Server/x/y", "add": "acme/tools/add"} {
		if id, err := r.Resolve(entry); err != nil || id != want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", entry, id, err, want)
		}
	}
	if _, err := r.Resolve("acme/tools/nope"); err == nil || !strings.Contains(err.Error(), `server "acme/tools" has no tool "nope"`) {
		t.Errorf("acme/tools/nope: %v", err)
	}
}

// TestResolveDidYouMean: an entry that matches no tool names the nearest
// one when it looks like a typo of it.
func TestResolveDidYouMean(t *testing.T) {
	r := NewResolver(Demo())
	for entry, want := range map[string]string{
		"invoice_lookp":         `"invoice_lookp" matches no tool in the catalog (did you mean "invoice_lookup"?)`,
		"billing/invoice_lookp": `"billing/invoice_lookp": server "billing" has no tool "invoice_lookp" (did you mean "invoice_lookup"?)`,
		"weather/get_forcast":   `"weather/get_forcast": server "weather" has no tool "get_forcast" (did you mean "get_forecast"?)`,
		"zzz":                   `"zzz" matches no tool in the catalog (write`,
	} {
		_, err := r.Resolve(entry)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Resolve(%q): %v, want prefix %q", entry, err, want)
		}
	}
}

// TestParseQueriesLineEnds: "\r" alone ends a line as "\n" and "\r\n" do
// (old Mac files), so the error of the third line is at line 3, column 13
// (`{"query": "x"` ends after 13 characters), whatever the line ends;
// "\r\n" counts once. A lone "\r" used to make the file one line: every
// error at line 1.
func TestParseQueriesLineEnds(t *testing.T) {
	cat := resolverCatalog(t)
	for _, end := range []string{"\n", "\r\n", "\r"} {
		in := `{"query": "a"}` + end + `# note` + end + `{"query": "x"` + end
		_, err := ParseQueries("q.jsonl", strings.NewReader(in), cat)
		if err == nil || !strings.HasPrefix(err.Error(), "q.jsonl:3:13: invalid JSON") {
			t.Errorf("%q: %v", end, err)
		}
		qs, err := ParseQueries("q.jsonl", strings.NewReader(`{"query": "a"}`+end+end+`{"query": "b"}`+end), cat)
		if err != nil || len(qs.Queries) != 2 || qs.Queries[1].Line != 3 || qs.Queries[1].Text != "b" {
			t.Errorf("%q: %+v %v", end, qs, err)
		}
	}
}
