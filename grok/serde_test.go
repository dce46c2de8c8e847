package grok

import (
	"context"
	"reflect"
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// TestSerdeRefusal: what serde_json refuses that encoding/json reads
// (serde.go), with the path from the tool object.
func TestSerdeRefusal(t *testing.T) {
	tests := []struct{ raw, path, why string }{
		{`{"a":1e999}`, "a", "number out of range: 1e999"},
		{`{"a":{"b":[0,-1e999]}}`, "a.b[1]", "number out of range: -1e999"},
		{`{"a":1.8e308}`, "a", "number out of range: 1.8e308"},            // f64 max is 1.7976931348623157e308
		{`{"a":1.7976931348623157e308,"b":1e-999,"c":0e999}`, "", ""},     // max, underflow to 0, zero
		{`{"a":18446744073709551616,"b":-9223372036854775809}`, "", ""},   // 2^64 and -2^63-1: read as f64, finite
		{`{"a":"\ud800"}`, "a", `unexpected end of hex escape: \ud800`},   // leading surrogate, then the quote
		{`{"a":"\ud800\n"}`, "a", `unexpected end of hex escape: \ud800`}, // then another escape, not \u
		{`{"a":"\ud800\u0041"}`, "a", `lone leading surrogate in hex escape: \ud800\u0041`},
		{`{"a":"\udc00"}`, "a", `lone leading surrogate in hex escape: \udc00`}, // a trailing surrogate first
		{`{"\udfff":1}`, "", `lone leading surrogate in hex escape: \udfff`},    // in a key: refused before the key is a path
		{`{"a":"\ud83d\ude00 \u00e9 \n \" \\"}`, "", ""},                        // a pair and ordinary escapes
		{"{\"a\":[\"x\",\"\xff\"]}", "a[1]", `invalid unicode code point: byte \xff`},
		{`{"k.\u0041":{"x":1e400}}`, "k.A.x", "number out of range: 1e400"},      // the key's escape undone
		{`[true,false,null,{"n":1e999}]`, "[3].n", "number out of range: 1e999"}, // top-level index
	}
	for _, tt := range tests {
		path, why, ok := serdeRefusal([]byte(tt.raw))
		if path != tt.path || why != tt.why || ok != (tt.why != "") {
			t.Errorf("serdeRefusal(%s) = %q, %q, %v; want %q, %q", tt.raw, path, why, ok, tt.path, tt.why)
		}
	}
}

// TestSerdeRefusedServer: a tool with 1e999 in its schema makes Grok
// unable to read its server's tools/list answer: none of the server's tools
// is indexed or listed, each has an error, and the other server is kept.
func TestSerdeRefusedServer(t *testing.T) {
	data := []byte(`{"servers":[
	{"name":"bad","tools":[
		{"name":"ok_tool","description":"count widgets","inputSchema":{"type":"object"}},
		{"name":"big","description":"count widgets","inputSchema":{"type":"object","properties":{"n":{"type":"number","maximum":1e999}}}}]},
	{"name":"good","tools":[{"name":"count","description":"count widgets","inputSchema":{"type":"object"}}]}]}`)
	servers, diags, err := corpus.ParseCatalog("cat.json", data)
	if err != nil || len(diags) != 0 {
		t.Fatalf("ParseCatalog: %v %v", err, diags)
	}
	sim := New(&corpus.Catalog{Servers: servers}, Options{})
	var got []string
	for _, d := range sim.Problems() {
		got = append(got, d.File+"|"+d.Server+"|"+d.Tool+"|"+d.Field+"|"+d.Code+"|"+d.Severity.String()+"|"+d.Message)
	}
	want := []string{
		`cat.json|bad|big|inputSchema.properties.n.maximum|grok-json-refused|error|serde_json refuses the tool at inputSchema.properties.n.maximum (number out of range: 1e999): Grok cannot read server "bad"'s tools/list answer, so none of its 2 tools is searchable`,
		`cat.json|bad|ok_tool||grok-json-refused|error|not searchable: serde_json refuses tool "big" at inputSchema.properties.n.maximum (number out of range: 1e999), so Grok cannot read server "bad"'s tools/list answer`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems\n%q\nwant\n%q", got, want)
	}
	if sim.Len() != 1 || len(sim.servers) != 1 || sim.servers[0].name != "good" {
		t.Errorf("Len %d, servers %+v; want only good's tool", sim.Len(), sim.servers)
	}
	res, err := sim.Search(context.Background(), search.Query{Text: "count widgets"})
	if err != nil || len(res.Hits) != 1 || res.Hits[0].Tool != corpus.NewToolID("good", "count") {
		t.Errorf("hits %+v, %v; want good/count alone", res.Hits, err)
	}
}
