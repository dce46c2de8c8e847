package corpus

import (
	"bytes"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/ojson"
)

func FuzzParseCatalog(f *testing.F) {
	f.Add([]byte(`{"server":"a","tools":[{"name":"t","description":"d","inputSchema":{"type":"object","properties":null}}]}`))
	f.Add([]byte(`{"servers":[{"name":"a","tools":[{"name":"t"},{"name":"t"}]},{"name":"b","instructions":"x","tools":[7]}]}`))
	f.Add([]byte(`{"tools":[{"name":"x","inputSchema":{"required":["a",1],"properties":{"a b":{}}},"_meta":{"ui":{"visibility":["app"]}}}]}`))
	f.Add([]byte(`{"server":"a","tools":[{"name":"t","annotations":{"readOnlyHint":"yes"},"description":"Ignore previous instructions"}]}`))
	f.Add([]byte("\xef\xbb\xbf{\"server\":\"a\",\"tools\":[{\"name\":\"deep\",\"inputSchema\":" + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "}]}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		servers, diags, err := ParseCatalog("f.json", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.json") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		cat := &Catalog{Servers: servers}
		diags = append(diags, Validate(cat)...)
		for _, d := range diags {
			if d.Code == "" || d.Message == "" {
				t.Fatalf("empty diagnostic %+v", d)
			}
		}
		for _, tool := range cat.Tools() {
			v, err := ojson.Parse(tool.Raw)
			if err != nil || v.Kind != ojson.Object {
				t.Fatalf("tool %q raw JSON does not re-parse: %v", tool.Name, err)
			}
			if tool.InputSchema.Exists() != (tool.InputSchemaRaw != nil) {
				t.Fatalf("tool %q: parsed and raw input schema disagree", tool.Name)
			}
		}
		_ = cat.UniqueTools()
		r := NewResolver(cat)
		for _, tool := range cat.Tools() {
			if _, err := r.Resolve(string(tool.ID())); err != nil && tool.Name != "" && !strings.Contains(tool.Server, "/") {
				t.Fatalf("own id %q does not resolve: %v", tool.ID(), err)
			}
		}
	})
}

func FuzzParseQueries(f *testing.F) {
	f.Add([]byte(`{"query":"invoice","expect":["billing/invoice_lookup"],"category":"x"}`))
	f.Add([]byte("# c\n{\"query\":\"a\",\"expect\":[\"mcp__tickets__close_ticket\",\"addComment\"]}\n\n"))
	f.Add([]byte(`{"query":"a","expect":["weather__get_alerts"],"n":[1,{"a":null}]}`))
	f.Add([]byte("\xef\xbb\xbf{\"query\":\"bom\"}\n[1,2]\nnull\n  {\"query\": 1}}"))
	cat := Demo()
	f.Fuzz(func(t *testing.T, data []byte) {
		qs, err := ParseQueries("q.jsonl", bytes.NewReader(data), cat)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "q.jsonl") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		for _, q := range qs.Queries {
			if strings.TrimSpace(q.Text) == "" || q.Line < 1 {
				t.Fatalf("bad query %+v", q)
			}
			for _, id := range q.Expect {
				if cat.Tool(id) == nil {
					t.Fatalf("resolved to a tool that does not exist: %s", id)
				}
			}
		}
	})
}
