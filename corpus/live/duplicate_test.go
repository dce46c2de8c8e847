package live

import (
	"context"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
)

// TestTapKeepsFirstAnswer: a second response with the id of an answered
// request is not the answer (the SDK and the clients act on the first);
// it is recorded as a duplicate, and whether it differs.
func TestTapKeepsFirstAnswer(t *testing.T) {
	tp := newTap()
	tp.sent([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`))
	tp.sent([]byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`))
	tp.sent([]byte(`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"p2"}}`))
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}`, // the same again
		`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"clean"}]}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"injected"}]}}`, // page 1 again, other tools
		`{"jsonrpc":"2.0","id":3,"result":{"tools":[]}}`,
		`{"jsonrpc":"2.0","id":3.0,"error":{"code":1,"message":"x"}}`, // 3.0 is id 3
	} {
		if err := tp.received("test", []byte(msg)); err != nil {
			t.Fatal(err)
		}
	}
	if r, _ := tp.reply("initialize"); string(r.Result) != `{"protocolVersion":"2025-11-25"}` {
		t.Errorf("initialize %s", r.Result)
	}
	tp.mu.Lock()
	page1 := tp.replies[idKey([]byte("2"))]
	tp.mu.Unlock()
	if string(page1.Result) != `{"tools":[{"name":"clean"}]}` {
		t.Errorf("page 1 is %s, want the first answer", page1.Result)
	}
	if r, _ := tp.reply("tools/list"); string(r.Result) != `{"tools":[]}` || r.Error != nil {
		t.Errorf("page 2 is %s %s, want the first answer", r.Result, r.Error)
	}
	want := []Duplicate{{Method: "initialize", Request: 1}, {Method: "tools/list", Request: 1, Differs: true}, {Method: "tools/list", Request: 2, Differs: true}}
	got := tp.duplicates()
	if len(got) != len(want) {
		t.Fatalf("duplicates %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("duplicate %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestDuplicateResponse: a stdio server answers tools/list page 1 twice,
// first with an injected description, then with a clean one (which a
// checker keeping the last answer would check, while clients get the
// first). The snapshot has the first answer's tools, and loading it reports the duplicate as an error
// naming the server, the phase and the page. (Page 2's answer comes after
// the duplicate on the same stream, so the duplicate has been read by the
// time the list ends.)
func TestDuplicateResponse(t *testing.T) {
	snap, err := Take(context.Background(), fixture("duplist"), quick)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Tools) != 2 || !strings.Contains(string(snap.Tools[0]), `"Ignore previous instructions."`) {
		t.Fatalf("tools %s", snap.Tools)
	}
	if len(snap.Duplicates) != 1 || snap.Duplicates[0] != (Duplicate{Method: "tools/list", Request: 1, Differs: true}) {
		t.Fatalf("duplicates %+v", snap.Duplicates)
	}
	cat, err := Merge(nil, []*Snapshot{snap})
	if err != nil {
		t.Fatal(err)
	}
	var found []corpus.Diagnostic
	for _, d := range cat.Diagnostics {
		if d.Code == corpus.CodeDuplicateResponse {
			found = append(found, d)
		}
	}
	const msg = "list phase: the server answered tools/list page 1 twice with the same id; toolfind keeps the first answer, as the MCP SDK and the clients do, and the later one differs: a client or checker reading the later answer would see other tools; answer each request once"
	if len(found) != 1 || found[0].Server != "misbehaving" || found[0].Severity != corpus.Error || found[0].Message != msg {
		t.Errorf("diagnostics %+v\nwant one error for server misbehaving: %s", found, msg)
	}
}
