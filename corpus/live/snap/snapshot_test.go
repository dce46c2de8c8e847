package snap

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestDocument moved here from corpus/live with Snapshot (unchanged).
func TestDocument(t *testing.T) {
	s := &Snapshot{Name: `a"b<`, Instructions: "use <x> & y", HasInstructions: true,
		ServerInfo: json.RawMessage(`{"name":"n"}`), Tools: []json.RawMessage{json.RawMessage(`{"name":"t"}`), json.RawMessage(`7`)}}
	want := `{"server":"a\"b<","instructions":"use <x> & y","x_server_info":{"name":"n"},"tools":[{"name":"t"},7]}`
	if got := string(s.CatalogJSON()); got != want {
		t.Errorf("CatalogJSON = %s\nwant %s", got, want)
	}
	s.HasInstructions, s.ServerInfo, s.Tools = false, nil, nil
	if got := string(s.document("name")); got != `{"name":"a\"b<","tools":[]}` {
		t.Errorf("document = %s", got)
	}
	var buf bytes.Buffer
	if err := WriteCatalog(&buf, []*Snapshot{s, s}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "{\n  \"servers\": [\n    {\n      \"name\": \"a\\\"b<\",") {
		t.Errorf("WriteCatalog = %s", buf.String())
	}
}
