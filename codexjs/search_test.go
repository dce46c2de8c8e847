package codexjs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

func writeCatalog(t *testing.T, body string) *corpus.Catalog {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cat.json")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	cat, err := corpus.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// §0: the flat name has no separator, the server and raw tool names, the
// top-level title (not annotations.title), the description, the trimmed
// instructions and the sorted property names.
func TestSearchText(t *testing.T) {
	cat := writeCatalog(t, `{"server":"git-hub","instructions":"  Use it.  ","tools":[
		{"name":"get.me","title":"Me","annotations":{"title":"Anno"},"description":"Who am I","inputSchema":{"type":"object","properties":{"z":{},"a":{}}}}]}`)
	e, ok := BuildAllTools(cat, false).Entry("git-hub/get.me")
	if !ok {
		t.Fatal("missing")
	}
	if got, want := SearchText(&e), "mcp__git_hubget_me get_me get.me git-hub Me Who am I Use it. a z"; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// Tie bands: four tools with identical texts but for the name tie on a
// query that only matches the shared words; with limit 3 each has rank
// 1–4 and a 3/4 chance of being shown.
func TestSearchTies(t *testing.T) {
	cat := writeCatalog(t, `{"server":"s","tools":[
		{"name":"aa","description":"export report","inputSchema":{"type":"object"}},
		{"name":"bb","description":"export report","inputSchema":{"type":"object"}},
		{"name":"cc","description":"export report","inputSchema":{"type":"object"}},
		{"name":"dd","description":"export report","inputSchema":{"type":"object"}},
		{"name":"ee","description":"unrelated words","inputSchema":{"type":"object"}}]}`)
	ts, err := NewToolSearch(cat, search.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, _ := ts.Search(context.Background(), search.Query{Text: "export", Limit: 3})
	if len(res.Hits) != 4 || res.Limit != 3 {
		t.Fatalf("hits %+v", res.Hits)
	}
	for _, h := range res.Hits {
		if h.Rank != 1 || h.RankWorst != 4 || h.PWithinLimit != 0.75 {
			t.Errorf("hit %+v", h)
		}
	}
	// The shown namespaces hold the first 3 (document order).
	if n := strings.Count(res.Shown, `"type":"function"`); n != 3 || !strings.HasPrefix(res.Shown, `[{"type":"namespace","name":"mcp__s","description":"Tools in the mcp__s namespace.","tools":[{"type":"function","name":"aa","description":"export report","strict":false,"defer_loading":true,"parameters":{"type":"object","properties":{}}}`) {
		t.Errorf("shown %s", res.Shown)
	}
	empty, _ := ts.Search(context.Background(), search.Query{Text: "  "})
	if empty.Shown != "query must not be empty" || len(empty.Hits) != 0 {
		t.Errorf("empty query: %+v", empty)
	}
	none, _ := ts.Search(context.Background(), search.Query{Text: "zzz"})
	if none.Shown != "[]" || len(none.Hits) != 0 {
		t.Errorf("no match: %+v", none)
	}
}

func TestAgentToolsOption(t *testing.T) {
	ts, err := NewToolSearch(corpus.Demo(), search.Options{"agent-tools": "true"})
	if err != nil {
		t.Fatal(err)
	}
	res, _ := ts.Search(context.Background(), search.Query{Text: "spawn agent"})
	if len(res.Hits) == 0 || res.Hits[0].Name != "multi_agent_v1__spawn_agent" {
		t.Errorf("hits %+v", res.Hits)
	}
	if v, ok := ts.View("weather/get_forecast"); !ok || !strings.HasPrefix(v.Text, "mcp__weatherget_forecast get_forecast get_forecast weather") {
		t.Errorf("view %+v", v)
	}
}
