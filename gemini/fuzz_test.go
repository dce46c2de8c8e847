package gemini

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
)

// FuzzDeclaration: any tool of a catalog file gives, without panicking, a
// declaration that is JSON with the three members in order, a name of at
// most 63 characters of [A-Za-z0-9_.:-] (the CLI's rule), and — for a tool
// the MCP SDK accepts — a wait_for_previous property last.
func FuzzDeclaration(f *testing.F) {
	for _, s := range []string{
		`{"name":"echo","description":"d","inputSchema":{"type":"object","properties":{"a":{"type":["string","null"]}}}}`,
		`{"name":"x y/ü😀","inputSchema":{"type":"object"}}`,
		`{"name":"` + strings.Repeat("n", 80) + `","inputSchema":{"type":"object","properties":{"wait_for_previous":{}}}}`,
		`{"name":"d","inputSchema":{"type":"object","properties":{"b":1,"b":{"type":["null",{"x":1}]}},"10":2}}`,
		`{"name":"s","inputSchema":{"type":"string"}}`,
		`{"name":"n","inputSchema":null}`,
	} {
		f.Add("srv", s)
	}
	f.Fuzz(func(t *testing.T, server, raw string) {
		if !utf8.ValidString(server) {
			return
		}
		sb, _ := json.Marshal(server)
		srv, _, err := corpus.ParseCatalog("f.json", []byte(`{"server":`+string(sb)+`,"tools":[`+raw+`]}`))
		if err != nil || len(srv) != 1 || len(srv[0].Tools) != 1 {
			return
		}
		tl := srv[0].Tools[0]
		name, _ := ToolName(tl.Server, tl.Name)
		if n := search.UTF16Len(name); n > MaxNameLength || !strings.HasPrefix(name, "mcp_") && !strings.HasPrefix(name, "mcp") {
			t.Fatalf("name %q: %d characters", name, n)
		}
		for i := 0; i < len(name); i++ {
			if !validNameByte(name[i]) && name[i] != '.' {
				t.Fatalf("name %q has %q", name, name[i])
			}
		}
		d := Declaration(tl)
		v, err := ojson.Parse([]byte(d))
		if err != nil {
			t.Fatalf("declaration is not JSON: %v\n%s", err, d)
		}
		if ks := v.Keys(); len(ks) != 3 || ks[0] != "name" || ks[1] != "description" || ks[2] != "parametersJsonSchema" {
			t.Fatalf("members %v", ks)
		}
		if _, why := Listable(tl); why == "" {
			props := v.Lookup("parametersJsonSchema", "properties")
			ks := props.Keys()
			if len(ks) == 0 || !strings.Contains(props.JS(""), `"wait_for_previous":{"type":"boolean"`) {
				t.Fatalf("no wait_for_previous: %s", d)
			}
		}
		New(&corpus.Catalog{Servers: srv}, Config{AllTrusted: true}).Problems()
	})
}

// FuzzDeliver: any JSON result gives, without panicking, a response that
// is a JSON object, and a cut text only when there was one text part over
// the threshold.
func FuzzDeliver(f *testing.F) {
	for _, s := range []string{
		`{"content":[{"type":"text","text":"hi"}]}`,
		`{"content":[{"type":"image","data":"AA","mimeType":"image/png"},{"type":"audio","data":"AA","mimeType":"audio/wav"}]}`,
		`{"content":[{"type":"resource","resource":{"uri":"u","blob":"AA"}},{"type":"resource_link","uri":"u","name":"n"}]}`,
		`{"isError":true,"content":[{"type":"text","text":"x"}],"structuredContent":{"a":1},"_meta":{}}`,
		`{"content":"no"}`, `[]`, `null`, `{"content":[null,1,{"type":7}]}`,
	} {
		f.Add(s, 20)
	}
	f.Fuzz(func(t *testing.T, raw string, threshold int) {
		v, err := ojson.Parse([]byte(raw))
		if err != nil {
			return
		}
		d := Deliver("tool", "mcp_s_tool", v, DeliverOptions{Threshold: threshold})
		r, err := ojson.Parse([]byte(d.Response))
		if err != nil || r.Kind != ojson.Object {
			t.Fatalf("response %q: %v", d.Response, err)
		}
		if d.Truncated && (d.Threshold <= 0 || d.OriginalChars <= d.Threshold) {
			t.Fatalf("cut at %d with %d characters", d.Threshold, d.OriginalChars)
		}
	})
}
