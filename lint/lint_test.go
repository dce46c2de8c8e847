package lint

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
)

func catalogOf(t *testing.T, server string, names ...string) *corpus.Catalog {
	t.Helper()
	var tools []string
	for _, n := range names {
		tools = append(tools, fmt.Sprintf(`{"name":%q,"description":"d","inputSchema":{}}`, n))
	}
	servers, _, err := corpus.ParseCatalog("l.json", []byte(`{"server":"`+server+`","tools":[`+strings.Join(tools, ",")+`]}`))
	if err != nil {
		t.Fatal(err)
	}
	return &corpus.Catalog{Servers: servers}
}

func codes(ds []corpus.Diagnostic) string {
	var s []string
	for _, d := range ds {
		s = append(s, d.Code+"@"+d.Tool)
	}
	return strings.Join(s, " ")
}

func TestNameLengths(t *testing.T) {
	// server "srv" is 3 characters: a 57-character tool makes 60 (allowed),
	// 58 makes 61 (too long for Cursor). Gemini CLI is simulated: its
	// gemini-name-length comes from the gemini package.
	cat := catalogOf(t, "srv", strings.Repeat("a", 57), strings.Repeat("b", 58), strings.Repeat("c", 63), strings.Repeat("d", 64))
	got := codes(Check(cat))
	want := "cursor-name-length@" + strings.Repeat("b", 58) + " cursor-name-length@" + strings.Repeat("c", 63) +
		" cursor-name-length@" + strings.Repeat("d", 64)
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestToolCounts(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{
		{24, ""},
		{25, "goose-tool-count@"},
		{41, "cursor-tool-count@ goose-tool-count@"},
		// vscode-tool-count comes from the vscode package (TestVSCodeToolCount).
		{65, "cursor-tool-count@ goose-tool-count@"},
		{129, "cursor-tool-count@ goose-tool-count@"},
	}
	for _, tt := range tests {
		var names []string
		for i := 0; i < tt.n; i++ {
			names = append(names, fmt.Sprintf("t%d", i))
		}
		ds := Check(catalogOf(t, "s", names...))
		if got := codes(ds); got != tt.want {
			t.Errorf("%d tools: %q, want %q", tt.n, got, tt.want)
		}
	}
}
