package mcpstub

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
)

// hostileCatalog keeps things a re-encoding would change: a duplicate key,
// a \u escape, key order, an invalid schema, a repeated tool, and an entry
// that is not a tool at all.
const hostileCatalog = `{"servers":[
 {"name":"odd","instructions":"Use me.","tools":[
   {"name":"a", "name":"b", "description":"caf\u00e9 <x>", "inputSchema":{"type":"object","properties":null}},
   {"inputSchema":{"type":"object"},"name":"a"},
   {"inputSchema":{"type":"object"},"name":"a"},
   42]},
 {"name":"plain","tools":[]}]}`

func loadCatalog(t *testing.T, js string) *corpus.Catalog {
	t.Helper()
	p := filepath.Join(t.TempDir(), "cat.json")
	if err := os.WriteFile(p, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	cat, err := corpus.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

func converse(t *testing.T, s Server, lines ...string) []string {
	t.Helper()
	var out bytes.Buffer
	if err := Serve(s, strings.NewReader(strings.Join(lines, "\n")+"\n"), &out); err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if out.Len() == 0 {
		return nil
	}
	return got
}

func TestFromCatalogKeepsBytes(t *testing.T) {
	srvs, err := FromCatalog(loadCatalog(t, hostileCatalog))
	if err != nil {
		t.Fatal(err)
	}
	if len(srvs) != 2 || srvs[0].Name != "odd" || srvs[0].Instructions != "Use me." || srvs[1].Name != "plain" {
		t.Fatalf("servers %+v", srvs)
	}
	var got []string
	for _, r := range srvs[0].Tools {
		got = append(got, string(r))
	}
	want := []string{
		`{"name":"a","name":"b","description":"caf\u00e9 <x>","inputSchema":{"type":"object","properties":null}}`,
		`{"inputSchema":{"type":"object"},"name":"a"}`,
		`{"inputSchema":{"type":"object"},"name":"a"}`,
		`null`, // 42 could not be read as a tool; null fails validation alike
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tools\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(srvs[1].Tools) != 0 {
		t.Errorf("plain: %q", srvs[1].Tools)
	}
}

func TestServe(t *testing.T) {
	srvs, err := FromCatalog(loadCatalog(t, hostileCatalog))
	if err != nil {
		t.Fatal(err)
	}
	got := converse(t, srvs[0],
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"x","method":"tools/list","params":{}}`,
		``,
		`{"jsonrpc":"2.0","id":2,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":3,"method":"server/discover"}`,
		`[{"jsonrpc":"2.0","id":4,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/cancelled"}]`,
		`{"jsonrpc":"2.0","id":5,"result":{}}`,
		`not json`,
	)
	want := []string{
		`{"jsonrpc":"2.0","id":0,"result":{"capabilities":{"tools":{}},"instructions":"Use me.","protocolVersion":"2025-11-25","serverInfo":{"name":"odd","version":"0.0.0-toolfind-stub"}}}`,
		`{"jsonrpc":"2.0","id":"x","result":{"tools":[{"name":"a","name":"b","description":"caf\u00e9 <x>","inputSchema":{"type":"object","properties":null}},{"inputSchema":{"type":"object"},"name":"a"},{"inputSchema":{"type":"object"},"name":"a"},null]}}`,
		`{"jsonrpc":"2.0","id":2,"result":{}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"method not found: server/discover"}}`,
		`[{"jsonrpc":"2.0","id":4,"result":{}}]`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// No instructions, no protocol version: the key is left out and the
	// stub offers 2025-06-18.
	got = converse(t, srvs[1], `{"jsonrpc":"2.0","id":1,"method":"initialize"}`, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if len(got) != 2 || got[0] != `{"jsonrpc":"2.0","id":1,"result":{"capabilities":{"tools":{}},"protocolVersion":"2025-06-18","serverInfo":{"name":"plain","version":"0.0.0-toolfind-stub"}}}` ||
		got[1] != `{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}` {
		t.Errorf("plain: %q", got)
	}
}

func TestFileRoundTripAndMain(t *testing.T) {
	s := Server{Name: "x", Tools: []json.RawMessage{json.RawMessage(`{"name":"t","a":1,"a":2}`)}}
	data, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "x.json")
	os.WriteFile(p, data, 0o644)
	var out, errOut bytes.Buffer
	code := Main([]string{p}, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`+"\n"), &out, &errOut)
	if code != 0 || out.String() != `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"t","a":1,"a":2}]}}`+"\n" {
		t.Errorf("exit %d, out %q, err %q", code, out.String(), errOut.String())
	}
	for _, tt := range []struct {
		args []string
		code int
		msg  string
	}{
		{nil, 2, "usage: mcp-stub SERVER.json"},
		{[]string{filepath.Join(t.TempDir(), "missing.json")}, 1, "no such file"},
		{[]string{writeTemp(t, `{"name":"x"}`)}, 1, `no "tools" array`},
		{[]string{writeTemp(t, `{"name":`)}, 1, "unexpected end of JSON input"},
	} {
		errOut.Reset()
		if code := Main(tt.args, strings.NewReader(""), &out, &errOut); code != tt.code || !strings.Contains(errOut.String(), tt.msg) {
			t.Errorf("%v: exit %d, %q; want %d, %q", tt.args, code, errOut.String(), tt.code, tt.msg)
		}
	}
}

func writeTemp(t *testing.T, s string) string {
	p := filepath.Join(t.TempDir(), "f.json")
	os.WriteFile(p, []byte(s), 0o644)
	return p
}

// FuzzServe: whatever arrives on stdin, every line the stub writes is one
// JSON value, and a request with an id gets exactly one answer.
func FuzzServe(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`[{"id":1,"method":"ping"},{"method":"x"}]`,
		`{"id":{"a":1},"method":"initialize","params":{"protocolVersion":7}}`,
		`[`, `{"id":"\u2028","method":"ping"}`, "\x00\n\n",
	} {
		f.Add(s)
	}
	srv := Server{Name: "f", Instructions: "i", Tools: []json.RawMessage{json.RawMessage(`{"name":"a"}`)}}
	f.Fuzz(func(t *testing.T, in string) {
		var out bytes.Buffer
		if err := Serve(srv, strings.NewReader(in), &out); err != nil {
			return // only an oversized line can fail
		}
		for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			if line != "" && !json.Valid([]byte(line)) {
				t.Fatalf("input %q: invalid output line %q", in, line)
			}
		}
	})
}

// TestMainMarker: with a second argument the stub creates that file when
// it answers tools/list, not before.
func TestMainMarker(t *testing.T) {
	p := writeTemp(t, `{"name":"x","tools":[]}`)
	marker := filepath.Join(t.TempDir(), "listed")
	var out, errOut bytes.Buffer
	Main([]string{p, marker}, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize"}`+"\n"), &out, &errOut)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("marker created before tools/list")
	}
	code := Main([]string{p, marker}, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`+"\n"), &out, &errOut)
	if _, err := os.Stat(marker); err != nil || code != 0 {
		t.Fatalf("exit %d, marker: %v (%s)", code, err, errOut.String())
	}
	if code := Main([]string{p, marker, "extra"}, strings.NewReader(""), &out, &errOut); code != 2 {
		t.Errorf("three arguments: exit %d", code)
	}
}

// markerCheck is the client's side of the stub's output: at each answer
// it records whether the marker exists. A client may search the moment it
// reads the tools/list answer, so the marker must exist by then.
type markerCheck struct {
	marker string
	seen   []bool // per answer written: did the marker exist?
}

func (m *markerCheck) Write(p []byte) (int, error) {
	_, err := os.Stat(m.marker)
	m.seen = append(m.seen, err == nil)
	return len(p), nil
}

// TestMainMarkerBeforeAnswer: the marker exists before the tools/list
// answer is written (initialize's answer comes before it; the marker
// after it would let a fast client be reported as having searched
// without this server).
func TestMainMarkerBeforeAnswer(t *testing.T) {
	p := writeTemp(t, `{"name":"x","tools":[]}`)
	w := &markerCheck{marker: filepath.Join(t.TempDir(), "listed")}
	var errOut bytes.Buffer
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize"}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n"
	if code := Main([]string{p, w.marker}, strings.NewReader(in), w, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if want := []bool{false, true}; !reflect.DeepEqual(w.seen, want) {
		t.Errorf("marker present at each answer: %v, want %v", w.seen, want)
	}
}

// With Results the stub answers tools/call with each tool's result byte
// for byte (compacted), -32602 for a tool without one, and logs each
// call's params to CallLog; without Results tools/call is unknown.
func TestServeToolsCall(t *testing.T) {
	log := filepath.Join(t.TempDir(), "calls.jsonl")
	s := Server{Name: "s", Tools: []json.RawMessage{json.RawMessage(`{"name":"a","inputSchema":{"type":"object"}}`)},
		Results: map[string]json.RawMessage{"a": json.RawMessage(`{ "content": [ {"type":"text","text":"x","text":"y"} ] }`)}, CallLog: log}
	got := converse(t, s,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{"k":1}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"b"}}`)
	want := []string{
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"x","text":"y"}]}}`,
		`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"unknown tool: b"}}`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != `{"name":"a","arguments":{"k":1}}`+"\n"+`{"name":"b"}`+"\n" {
		t.Errorf("call log %q", data)
	}
	s.Results = nil
	got = converse(t, s, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"a"}}`)
	if len(got) != 1 || got[0] != `{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"method not found: tools/call"}}` {
		t.Errorf("without results: %q", got)
	}
}

// FirstPage splits tools/list in two pages: the first with nextCursor
// "2", the rest for that cursor; out of range, one page.
func TestServePages(t *testing.T) {
	tools := []json.RawMessage{json.RawMessage(`{"name":"p0"}`), json.RawMessage(`{"name":"p1"}`), json.RawMessage(`{"name":"p2"}`)}
	s := Server{Name: "paged", Tools: tools, FirstPage: 2}
	got := converse(t, s,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"2"}}`)
	want := []string{
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"p0"},{"name":"p1"}],"nextCursor":"2"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"p2"}]}}`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	s.FirstPage = 3
	got = converse(t, s, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if len(got) != 1 || got[0] != `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"p0"},{"name":"p1"},{"name":"p2"}]}}` {
		t.Errorf("one page: %q", got)
	}
}
