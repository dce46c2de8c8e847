package writer

import (
	"bytes"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
)

func TestParseRoundTrip(t *testing.T) {
	in := `# comment
{"id": 7, "prompt": "find invoice", "client": "claude@2.1.328", "call": {"query": "select:mcp__billing__invoice_lookup"}, "expect": ["billing/invoice_lookup"], "writer": "model", "category": "billing"}

// another comment
{"id": "q2", "prompt": "weather", "client": "grok", "call": null, "expect": []}
`
	lines, err := Parse("w.jsonl", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 2 {
		t.Fatalf("got %d lines, want 2", len(lines))
	}
	if l := lines[0]; l.ID != "7" || !l.idNumber || l.Num != 2 || string(l.Call) != `{"query": "select:mcp__billing__invoice_lookup"}` || string(l.Tags["category"]) != `"billing"` {
		t.Errorf("line 1 = %+v", l)
	}
	if l := lines[1]; l.ID != "q2" || l.Call != nil || l.Num != 5 {
		t.Errorf("line 2 = %+v", l)
	}
	var b bytes.Buffer
	if err := WriteLines(&b, lines); err != nil {
		t.Fatal(err)
	}
	want := `{"id":7,"prompt":"find invoice","client":"claude@2.1.328","call":{"query":"select:mcp__billing__invoice_lookup"},"expect":["billing/invoice_lookup"],"writer":"model","category":"billing"}
{"id":"q2","prompt":"weather","client":"grok","call":null,"expect":[]}
`
	if b.String() != want {
		t.Errorf("WriteLines:\n%s\nwant\n%s", b.String(), want)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ line, want string }{
		{`[1,2]`, "w.jsonl:1: not a JSON object"},
		{`{"prompt": "p", "client": "c", "call": {}}`, `w.jsonl:1: field "id": missing`},
		{`{"id": true, "prompt": "p", "client": "c", "call": {}}`, `w.jsonl:1: field "id": must be a string or a number, got true`},
		{`{"id": "", "prompt": "p", "client": "c", "call": {}}`, `w.jsonl:1: field "id": empty`},
		{`{"id": 1, "client": "c", "call": {}}`, `w.jsonl:1: field "prompt": missing`},
		{`{"id": 1, "prompt": 3, "client": "c", "call": {}}`, `w.jsonl:1: field "prompt": must be a string, got 3`},
		{`{"id": 1, "prompt": "p", "call": {}}`, `w.jsonl:1: field "client": missing`},
		{`{"id": 1, "prompt": "p", "client": "@2", "call": {}}`, `w.jsonl:1: field "client": empty`},
		{`{"id": 1, "prompt": "p", "client": "c"}`, `w.jsonl:1: field "call": missing (write null for a prompt with no call)`},
		{`{"id": 1, "prompt": "p", "client": "c", "call": "select:x"}`, `w.jsonl:1: field "call": must be a JSON object (the search tool's input) or null, got "select:x"`},
		{`{"id": 1, "prompt": "p", "client": "c", "call": {}, "expect": "a"}`, `w.jsonl:1: field "expect": must be an array of strings, got "a"`},
		{`{"id": 1, "prompt": "p", "client": "c", "call": {}} {}`, `w.jsonl:1: more than one JSON value on the line`},
		{`{"id": 1,`, `w.jsonl:1: invalid JSON: unexpected EOF`},
	}
	for _, tt := range tests {
		_, err := Parse("w.jsonl", strings.NewReader(tt.line))
		if err == nil || err.Error() != tt.want {
			t.Errorf("Parse(%s) error = %v, want %q", tt.line, err, tt.want)
		}
	}
}

func TestParseBOM(t *testing.T) {
	lines, err := Parse("w.jsonl", strings.NewReader("\xef\xbb\xbf"+`{"id": 1, "prompt": "p", "client": "claude", "call": null}`))
	if err != nil || len(lines) != 1 {
		t.Fatalf("BOM: %v, %d lines", err, len(lines))
	}
}

func TestQuerySet(t *testing.T) {
	cat := corpus.Demo()
	lines, err := Parse("w.jsonl", strings.NewReader(`{"id": "a", "prompt": "p1", "client": "claude", "call": {"query": "x"}, "expect": ["billing/invoice_lookup"]}
{"id": "a", "prompt": "p1", "client": "grok", "call": {"query": "y"}, "expect": ["billing__invoice_lookup", "weather/get_forecast"]}
{"id": "b", "prompt": "p2", "client": "grok", "call": null, "expect": []}`))
	if err != nil {
		t.Fatal(err)
	}
	qs, err := QuerySet("w.jsonl", lines, cat)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs.Queries) != 2 {
		t.Fatalf("%d prompts, want 2", len(qs.Queries))
	}
	q := qs.Queries[0]
	// Two spellings of one tool count once; expect lists merge by id.
	if len(q.Expect) != 2 || q.Expect[0] != "billing/invoice_lookup" || q.Expect[1] != "weather/get_forecast" || q.Tags["id"] != "a" {
		t.Errorf("prompt a = %+v", q)
	}
	bad, _ := Parse("w.jsonl", strings.NewReader(`{"id": "a", "prompt": "p1", "client": "claude", "call": null}
{"id": "a", "prompt": "other", "client": "grok", "call": null}`))
	if _, err := QuerySet("w.jsonl", bad, cat); err == nil || err.Error() != `w.jsonl:2: field "prompt": id "a" has another prompt on line 1` {
		t.Errorf("conflicting prompts: %v", err)
	}
	unknown, _ := Parse("w.jsonl", strings.NewReader(`{"id": "a", "prompt": "p1", "client": "claude", "call": null, "expect": ["nope/none"]}`))
	if _, err := QuerySet("w.jsonl", unknown, cat); err == nil || !strings.HasPrefix(err.Error(), `w.jsonl:1: field "expect[0]": `) {
		t.Errorf("unknown expect: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(`{"id": 1, "prompt": "p", "client": "claude", "call": {"query": "x"}, "expect": ["a"]}`)
	f.Add(`{"id": "x", "prompt": "", "client": "grok@1", "call": null, "k": [1]}`)
	f.Add("[]\n{}")
	f.Fuzz(func(t *testing.T, in string) {
		lines, err := Parse("f", strings.NewReader(in))
		if err != nil {
			return
		}
		// What parses writes back and parses to the same lines.
		var b bytes.Buffer
		if err := WriteLines(&b, lines); err != nil {
			t.Fatal(err)
		}
		again, err := Parse("f", &b)
		if err != nil {
			t.Fatalf("re-parse of %q: %v", b.String(), err)
		}
		if len(again) != len(lines) {
			t.Fatalf("%d lines became %d", len(lines), len(again))
		}
		for i := range lines {
			if again[i].ID != lines[i].ID || again[i].Prompt != lines[i].Prompt || again[i].Client != lines[i].Client || (again[i].Call == nil) != (lines[i].Call == nil) {
				t.Fatalf("line %d changed: %+v → %+v", i, lines[i], again[i])
			}
		}
	})
}
