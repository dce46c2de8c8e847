package result

import (
	"reflect"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/ojson"
)

func TestParse(t *testing.T) {
	r, err := Parse("r.json", []byte(`{
  "content": [
    {"type": "text", "text": "hello", "annotations": {"audience": ["user"]}},
    {"type": "image", "data": "iVBOR", "mimeType": "image/png"},
    {"type": "resource", "resource": {"uri": "file:///a.txt", "text": "A"}},
    {"type": "resource", "resource": {"uri": "file:///b.bin", "blob": "AAEC", "mimeType": "application/octet-stream"}},
    {"type": "resource_link", "uri": "file:///c", "name": "c", "description": "see c"},
    {"type": "video", "url": "x"}
  ],
  "structuredContent": {"n": 1},
  "isError": false,
  "_meta": {"m": 1},
  "extra": "ignored"
}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Content) != 6 {
		t.Fatalf("%d blocks", len(r.Content))
	}
	want := []Block{
		{Type: "text", Text: "hello", Annotated: true},
		{Type: "image", Data: "iVBOR", MimeType: "image/png"},
		{Type: "resource", URI: "file:///a.txt", Text: "A"},
		{Type: "resource", URI: "file:///b.bin", Data: "AAEC", Blob: true, MimeType: "application/octet-stream"},
		{Type: "resource_link", URI: "file:///c", Name: "c", Description: "see c"},
		{Type: "video"},
	}
	for i, w := range want {
		got := r.Content[i]
		got.Value = ojson.Value{}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("block %d = %+v, want %+v", i, got, w)
		}
	}
	if r.IsError || r.Structured.JS("") != `{"n":1}` || r.Meta.JS("") != `{"m":1}` {
		t.Errorf("isError %v structured %s meta %s", r.IsError, r.Structured.JS(""), r.Meta.JS(""))
	}
}

// A JSON-RPC response (captured traffic) is unwrapped; structuredContent
// null counts as present; isError absent is false.
func TestParseEnvelope(t *testing.T) {
	r, err := Parse("rpc.json", []byte(`{"jsonrpc":"2.0","id":3,"result":{"content":[],"structuredContent":null}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Structured.Exists() || r.Structured.Kind != ojson.Null || r.IsError || len(r.Content) != 0 {
		t.Errorf("%+v", r)
	}
}

// Every error names the file, line and column (of the member's key, or of
// the value for array elements), and the field.
func TestParseErrors(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{``, `r.json:1:1: not JSON: unexpected end of input`},
		{`{"content": [}`, `r.json:1:14: not JSON: `},
		{`[1]`, `r.json:1:1: a CallToolResult is a JSON object, not an array`},
		{`{}`, `r.json:1:1: missing "content" (a CallToolResult needs a content array)`},
		{`{"content": {}}`, `r.json:1:2: content: want an array of content blocks, got an object`},
		{"{\"content\": [\n  1]}", `r.json:2:3: content[0]: a content block is an object, not a number`},
		{`{"content": [{}]}`, `r.json:1:14: content[0]: a content block needs a string "type"`},
		{`{"content": [{"type": 7}]}`, `r.json:1:15: content[0].type: want a string, got a number`},
		{`{"content": [{"type": "text"}]}`, `r.json:1:14: content[0]: a "text" block needs a string "text"`},
		{`{"content": [{"type": "text", "text": null}]}`, `r.json:1:31: content[0].text: want a string, got null`},
		{`{"content": [{"type": "image", "data": "x"}]}`, `r.json:1:14: content[0]: a "image" block needs a string "mimeType"`},
		{`{"content": [{"type": "resource"}]}`, `r.json:1:14: content[0]: a "resource" block needs a "resource" object`},
		{`{"content": [{"type": "resource", "resource": {"uri": "u"}}]}`, `r.json:1:35: content[0].resource: an embedded resource needs a string "text" or "blob"`},
		{`{"content": [{"type": "resource", "resource": {"text": "t"}}]}`, `r.json:1:35: content[0].resource: needs a string "uri"`},
		{`{"content": [{"type": "resource_link", "uri": "u"}]}`, `r.json:1:14: content[0]: a "resource_link" block needs a string "name"`},
		{`{"content": [], "isError": "yes"}`, `r.json:1:17: isError: want a boolean, got a string`},
		{`{"content": [], "_meta": []}`, `r.json:1:17: _meta: want an object, got an array`},
		{`{"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "bad"}}`, `r.json:1:29: error: the file holds a JSON-RPC error, not a result: {"code":-32602,"message":"bad"}`},
		{`{"jsonrpc": "2.0", "id": 1}`, `r.json:1:1: a JSON-RPC response without "result"`},
		{`{"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": 1}]}}`, `r.json:1:53: result.content[0].type: want a string, got a number`},
	}
	for _, tt := range tests {
		_, err := Parse("r.json", []byte(tt.in))
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s:\n got %v\nwant %s", tt.in, err, tt.want)
		}
	}
}

func TestFieldPath(t *testing.T) {
	for ptr, want := range map[string]string{
		"":                         "",
		"/content/2/text":          "content[2].text",
		"/result/content/0/type":   "result.content[0].type",
		"/_meta/a~1b":              "_meta.a/b",
		"/content/10/resource/uri": "content[10].resource.uri",
	} {
		if got := fieldPath(ptr); got != want {
			t.Errorf("fieldPath(%q) = %q, want %q", ptr, got, want)
		}
	}
}

// FuzzParse: any input either fails with a *ParseError or parses into a
// result every client can deliver, with sizes that match the text.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"content":[{"type":"text","text":"hi"}]}`,
		`{"content":[{"type":"image","data":"AA","mimeType":"image/png"},{"type":"text","text":""}],"structuredContent":{"a":[1,{"b":null}]}}`,
		`{"content":[{"type":"resource","resource":{"uri":"u","blob":"AA","mimeType":"image/png"}}],"isError":true}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"resource_link","uri":"u","name":"n"}],"_meta":{}}}`,
		`{"content":[{"type":"text","text":"` + strings.Repeat("a\n", 30) + `"}]}`,
		`{"content":[]}`,
		`[`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Parse("fuzz.json", data)
		if err != nil {
			if _, ok := err.(*ParseError); !ok {
				t.Fatalf("error %T: %v", err, err)
			}
			return
		}
		ds, err := Deliver(Input{Result: r}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(ds) != len(Clients) {
			t.Fatalf("%d deliveries", len(ds))
		}
		for _, d := range ds {
			if d.ShownBytes != len(d.Shown) || d.ShownChars < 0 || d.Verdict == "" || d.Advice == nil {
				t.Fatalf("%s: %+v", d.Client, d)
			}
		}
	})
}

// TestParseErrorCROnlyLines: "\r" alone ends a line in an error's position,
// as "\n" and "\r\n" do (before, a CR-only file's errors were all on line 1).
func TestParseErrorCROnlyLines(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		_, err := Parse("r.json", []byte(`{"content": [`+eol+`{"type": "text", "text": 5}]}`))
		if want := "r.json:2:18: content[0].text: want a string, got a number"; err == nil || err.Error() != want {
			t.Errorf("line end %q: %v, want %s", eol, err, want)
		}
		_, err = Parse("r.json", []byte(`{"content": [`+eol+`{"type": "text",, "text": 5}]}`))
		if want := "r.json:2:17"; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("line end %q: syntax error %v, want it at %s", eol, err, want)
		}
	}
}
