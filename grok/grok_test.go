package grok

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/search/bm25"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

func sharedCatalog(tb testing.TB, name string) *corpus.Catalog {
	tb.Helper()
	p := filepath.Join("..", "..", "shared", "catalogs", name)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("shared catalogs not found (%s): %v", p, err)
	}
	cat, err := corpus.Load(p)
	if err != nil {
		tb.Fatal(err)
	}
	return cat
}

func TestSplitIdentifier(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"SearchDashboards", []string{"Search", "Dashboards"}}, // B.2 example
		{"grafana-ai", []string{"grafana", "ai"}},              // B.2 example
		{"HTTPServer", []string{"HTTPServer"}},                 // capitals stay together
		{"get__me_Now", []string{"get", "me", "Now"}},
		{"github__create_pull_request", []string{"github", "create", "pull", "request"}},
		{"__x--y__", []string{"x", "y"}},
		{"getHTTPResponse", []string{"get", "HTTPResponse"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := SplitIdentifier(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("SplitIdentifier(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNormalizeQuery(t *testing.T) {
	tests := []struct{ in, want string }{
		{"create pull request", "create pull request"},                         // nothing to split
		{"create_issue", "create_issue create issue"},                          // `_`
		{"linear save-issue", "linear save-issue linear save issue"},           // `-`: every word's pieces
		{"searchDashboards now", "searchDashboards now search Dashboards now"}, // lower→upper
		{"HTTP", "HTTP"},
		{"___", "___"}, // needs a split but has no pieces
	}
	for _, tt := range tests {
		if got := NormalizeQuery(tt.in); got != tt.want {
			t.Errorf("NormalizeQuery(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDocument(t *testing.T) {
	got := Document("my-srv", "getItem", "Gets an item.", []string{"item_id", "verbose"})
	want := "my-srv getItem Gets an item. item_id verbose my srv get Item item id verbose"
	if got != want {
		t.Errorf("Document = %q, want %q", got, want)
	}
}

func TestNameProblem(t *testing.T) {
	tests := []struct {
		q  string
		ok bool
	}{
		{"github__get_me", true},
		{"my-server__tool-1", true},
		{"a___b", false},   // overlapping "__" boundaries: 2
		{"a__b__c", false}, // two boundaries
		{"__tool", false},  // empty server
		{"srv__", false},   // empty tool
		{"srv__to ol", false},
		{"1srv__tool", false},                      // must start with a letter or _
		{"srv__" + strings.Repeat("x", 59), true},  // 64 characters
		{"srv__" + strings.Repeat("x", 60), false}, // 65
		{"srv__tööl", false},
	}
	for _, tt := range tests {
		if got := nameProblem(tt.q) == ""; got != tt.ok {
			t.Errorf("nameProblem(%q) = %q, want ok=%v", tt.q, nameProblem(tt.q), tt.ok)
		}
	}
}

func TestTruncateDescription(t *testing.T) {
	if s, cut := TruncateDescription(strings.Repeat("a", 2048)); cut || len(s) != 2048 {
		t.Error("2,048 characters must stay")
	}
	// 2,048 characters but 4,096 bytes: not cut (both limits must be exceeded).
	if _, cut := TruncateDescription(strings.Repeat("é", 2048)); cut {
		t.Error("2,048 multi-byte characters must stay")
	}
	s, cut := TruncateDescription(strings.Repeat("a", 3000))
	// 2048 − 15 (suffix bytes) = 2033 kept + 13 suffix characters = 2046.
	if !cut || len([]rune(s)) != 2046 || !strings.HasSuffix(s, strings.Repeat("a", 10)+"\u2026 [truncated]") {
		t.Errorf("cut to %d characters", len([]rune(s)))
	}
}

func TestFormatF64(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{1, "1.0"},
		{float64(float32(7.016247)), "7.016246795654297"},
		{0.1, "0.1"},
		{120, "120.0"},
		{1e16, "1e16"},
		{1.5e20, "1.5e20"},
		{1e15, "1000000000000000.0"},
		{0.00001, "0.00001"},
		{1e-7, "1e-7"},
		{-2.5, "-2.5"},
	}
	for _, tt := range tests {
		if got := FormatF64(tt.in); got != tt.want {
			t.Errorf("FormatF64(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for lit, want := range map[string]string{"3": "3", "-7": "-7", "1.0": "1.0", "1e3": "1000.0", "-0": "-0.0",
		"18446744073709551616": "1.8446744073709552e19", "0.5": "0.5"} {
		if got := FormatNumber(lit); got != want {
			t.Errorf("FormatNumber(%s) = %q, want %q", lit, got, want)
		}
	}
}

// TestTies builds a catalog where three tools tie and the limit cuts the
// tie group: each tied tool has a 2/3 chance (2 places for 3 tools).
func TestTies(t *testing.T) {
	cat := &corpus.Catalog{}
	srv := &corpus.Server{Name: "s"}
	for i, name := range []string{"alpha", "beta", "gamma", "delta"} {
		desc := "widget"
		if name == "alpha" {
			desc = "widget widget"
		}
		srv.Tools = append(srv.Tools, &corpus.Tool{Server: "s", Name: name, Description: desc, Index: i})
	}
	cat.Servers = []*corpus.Server{srv}
	sim := New(cat, Options{})
	res, err := sim.Search(context.Background(), search.Query{Text: "widget", Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		name        string
		rank, worst int
		p           float64
	}
	var got []row
	for _, h := range res.Hits {
		got = append(got, row{h.Name, h.Rank, h.RankWorst, h.PWithinLimit})
	}
	want := []row{
		{"s__alpha", 1, 1, 1},
		{"s__beta", 2, 4, 2.0 / 3}, {"s__gamma", 2, 4, 2.0 / 3}, {"s__delta", 2, 4, 2.0 / 3},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("hits = %v, want %v", got, want)
	}
	if strings.Count(res.Shown, `"tool_name"`) != 3 {
		t.Errorf("shown must hold exactly the limit's 3 tools:\n%s", res.Shown)
	}
}

func TestExactShortcut(t *testing.T) {
	cat := sharedCatalog(t, "github.json")
	sim := New(cat, Options{})
	for _, q := range []string{"github__get_me", "  GET_ME ", "Github__Get_Me"} {
		res, err := sim.Search(context.Background(), search.Query{Text: q, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) != 1 || res.Hits[0].Name != "github__get_me" || res.Hits[0].Score != 1 || !strings.Contains(res.Shown, `"score": 1.0,`) {
			t.Errorf("%q: hits %v", q, res.Hits)
		}
	}
}

func TestHiddenAndRejected(t *testing.T) {
	cat := sharedCatalog(t, "github.json")
	sim := New(cat, Options{})
	codes := map[string]int{}
	for _, d := range sim.Problems() {
		codes[d.Code]++
	}
	// github.json: ui_get is app-only (codex.md §0 counts 116 of 117).
	if codes[CodeHidden] != 1 || sim.Len() != 116 {
		t.Errorf("problems %v, %d searchable", codes, sim.Len())
	}
	if _, ok := sim.View("github/ui_get"); ok {
		t.Error("a hidden tool must have no view")
	}
	v, ok := sim.View("github/get_me")
	if !ok || !strings.Contains(v.Text, `"tool_name": "github__get_me"`) {
		t.Errorf("view: %+v", v)
	}
}

func TestEmptyCatalog(t *testing.T) {
	sim := New(&corpus.Catalog{}, Options{})
	res, _ := sim.Search(context.Background(), search.Query{Text: "x"})
	want := "{\n  \"results\": [],\n  \"total_hidden_tools\": 0,\n  \"status\": \"ready\",\n  \"note\": \"" + noteEmpty + "\"\n}"
	if res.Shown != want {
		t.Errorf("shown %q", res.Shown)
	}
	sim = New(&corpus.Catalog{}, Options{Partial: true})
	res, _ = sim.Search(context.Background(), search.Query{Text: "x"})
	if !strings.Contains(res.Shown, `"status": "partial"`) || !strings.Contains(res.Shown, notePartial) {
		t.Errorf("partial: %s", res.Shown)
	}
}

// TestScoresAreBM25 checks that every hit's score is the bm25 package's
// score of the tool's document for the normalised query.
func TestScoresAreBM25(t *testing.T) {
	cat := sharedCatalog(t, "github.json")
	sim := New(cat, Options{})
	q := "create pull request"
	res, _ := sim.Search(context.Background(), search.Query{Text: q})
	for _, h := range res.Hits {
		i, _ := sim.index(h.Tool)
		if got := sim.ix.Score(NormalizeQuery(q), i); float64(got) != h.Score {
			t.Errorf("%s: %v vs %v", h.Tool, got, h.Score)
		}
	}
	if res.Hits[0].Name != "github__create_pull_request_review" || res.Hits[0].Score != float64(float32(7.016247)) {
		t.Errorf("top hit %+v", res.Hits[0])
	}
	_ = bm25.Tokenize
}

var goldenQueries = []struct {
	file, catalog, query string
	limit                int
}{
	{"demo_invoice.json", "", "invoice", 0},
	{"demo_weather_forecast.json", "", "weather forecast", 0},
	{"demo_exact.json", "", "billing__invoice_lookup", 0},
	{"github_create_pull_request.json", "github.json", "create pull request", 0},
	{"github_list_limit3.json", "github.json", "list", 3},
	{"github_get_me.json", "github.json", "github__get_me", 0},
	{"github_issue_comments.json", "github.json", "addIssueComment", 8},
	// A 3,032-character description (3,050 bytes: "—" is 3 bytes) cut to
	// 2,033 characters + "… [truncated]".
	{"okta_get_logs_cut.json", "okta.json", "okta__get_logs", 0},
}

// TestGolden compares Result.Shown with testdata/*.json (the exact
// search_tool text); run with -update to rewrite them.
func TestGolden(t *testing.T) {
	for _, g := range goldenQueries {
		t.Run(g.file, func(t *testing.T) {
			cat := corpus.Demo()
			if g.catalog != "" {
				cat = sharedCatalog(t, g.catalog)
			}
			res, err := New(cat, Options{}).Search(context.Background(), search.Query{Text: g.query, Limit: g.limit})
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", g.file)
			if *update {
				if err := os.WriteFile(path, []byte(res.Shown+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if res.Shown+"\n" != string(want) {
				t.Errorf("%s differs from the golden file:\n%s", g.query, res.Shown)
			}
		})
	}
}

func FuzzSearch(f *testing.F) {
	f.Add("srv", "a_b", "x y", "itemId", "a_b", "second tool", "a_b y", uint8(0))
	f.Add("s-1", "getThing", strings.Repeat("z", 3000), "p", "get__x", "", "GETTHING", uint8(2))
	f.Add("s", "t", "widget", "", "u", "widget", "widget widget", uint8(1))
	f.Fuzz(func(t *testing.T, srv, name1, desc1, prop, name2, desc2, query string, limit uint8) {
		schema, err := ojson.Parse([]byte(`{"type":"object","properties":{` + strconv.Quote(prop) + `:{"type":"string"}}}`))
		if err != nil {
			schema = ojson.Value{}
		}
		server := &corpus.Server{Name: srv}
		for i, nd := range [][2]string{{name1, desc1}, {name2, desc2}, {name1 + "x", desc1 + " " + desc2}} {
			server.Tools = append(server.Tools, &corpus.Tool{Server: srv, Name: nd[0], Description: nd[1], InputSchema: schema, Index: i})
		}
		sim := New(&corpus.Catalog{Servers: []*corpus.Server{server}}, Options{})
		res, err := sim.Search(context.Background(), search.Query{Text: query, Limit: int(limit)})
		if err != nil {
			t.Fatal(err)
		}
		sure := 0
		for i, h := range res.Hits {
			if h.Rank > h.RankWorst || h.PWithinLimit <= 0 || h.PWithinLimit > 1 || h.Score <= 0 {
				t.Fatalf("bad hit %+v", h)
			}
			if i > 0 && res.Hits[i-1].Score < h.Score {
				t.Fatalf("hits out of order: %+v", res.Hits)
			}
			if h.PWithinLimit == 1 {
				sure++
			}
		}
		if sure > res.Limit {
			t.Fatalf("%d sure hits over limit %d", sure, res.Limit)
		}
		var out struct {
			Results []struct {
				Tools []struct {
					ToolName string `json:"tool_name"`
				} `json:"tools"`
			} `json:"results"`
			Total int `json:"total_hidden_tools"`
		}
		if err := json.Unmarshal([]byte(res.Shown), &out); err != nil {
			t.Fatalf("shown is not JSON: %v\n%s", err, res.Shown)
		}
		n := 0
		for _, g := range out.Results {
			n += len(g.Tools)
		}
		if n > res.Limit && len(res.Hits) != 1 || out.Total != sim.Len() {
			t.Fatalf("shown %d tools (limit %d), total %d", n, res.Limit, out.Total)
		}
	})
}

// TestConcurrentSearch runs searches in parallel (run with -race): the
// simulator and its index are shared read-only, the scratch buffers pooled.
func TestConcurrentSearch(t *testing.T) {
	sim := New(corpus.Demo(), Options{})
	want, _ := sim.Search(context.Background(), search.Query{Text: "invoice"})
	done := make(chan string)
	for g := 0; g < 8; g++ {
		go func() {
			for i := 0; i < 50; i++ {
				res, err := sim.Search(context.Background(), search.Query{Text: "invoice"})
				if err != nil || res.Shown != want.Shown {
					done <- "result differs"
					return
				}
			}
			done <- ""
		}()
	}
	for g := 0; g < 8; g++ {
		if msg := <-done; msg != "" {
			t.Error(msg)
		}
	}
}

func TestProblems(t *testing.T) {
	vis, _ := ojson.Parse([]byte(`{"ui":{"visibility":["app"]}}`))
	srv := &corpus.Server{Name: "s", Tools: []*corpus.Tool{
		{Server: "s", Name: "ok", Description: "fine"},
		{Server: "s", Name: "bad name", Description: "space in name"},
		{Server: "s", Name: "_lead", Description: "s___lead has two boundaries"},
		{Server: "s", Name: "app_only", Meta: vis},
		{Server: "s", Name: "ok", Description: "duplicate"},
	}}
	sim := New(&corpus.Catalog{Servers: []*corpus.Server{srv}}, Options{})
	var got []string
	for _, d := range sim.Problems() {
		got = append(got, d.Tool+":"+d.Code+":"+d.Severity.String())
	}
	want := []string{
		"bad name:" + CodeNameRejected + ":error",
		"_lead:" + CodeNameRejected + ":error",
		"app_only:" + CodeHidden + ":info",
		"ok:" + CodeDuplicate + ":warning",
	}
	if !reflect.DeepEqual(got, want) || sim.Len() != 1 {
		t.Errorf("problems %q (len %d), want %q", got, sim.Len(), want)
	}
	res, _ := sim.Search(context.Background(), search.Query{Text: "space name"})
	if len(res.Hits) != 0 {
		t.Errorf("a skipped tool was found: %+v", res.Hits)
	}
}

// TestNameProblemNamesTheCharacter: a rejected non-ASCII name is reported
// with its character, not a stray UTF-8 byte.
func TestNameProblemNamesTheCharacter(t *testing.T) {
	tests := []struct{ name, want string }{
		{"odd__unicode_naïve_tool", `character 'ï' at byte 15 does not match ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`},
		{"odd__1tool", ""}, // a digit is fine after the first character
		{"1odd__tool", `character '1' at byte 0 does not match ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`},
		{"a___b", `2 "__" boundaries, want exactly 1`}, // overlapping boundaries count
		{"odd__", "empty server or tool part"},
	}
	for _, tt := range tests {
		if got := nameProblem(tt.name); got != tt.want {
			t.Errorf("nameProblem(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestEveryNameRejected: a catalog whose every name Grok refuses gives 0
// hits, and the result says why.
func TestEveryNameRejected(t *testing.T) {
	servers, _, err := corpus.ParseCatalog("r.json", []byte(`{"server":"my__server","tools":[
	  {"name":"list","inputSchema":{"type":"object"}},{"name":"get","inputSchema":{"type":"object"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	s := New(&corpus.Catalog{Servers: servers}, Options{})
	r, err := s.Search(context.Background(), search.Query{Text: "list"})
	if err != nil {
		t.Fatal(err)
	}
	// "my__server__list" has 2 "__" boundaries.
	want := `0 hits because no tool is searchable: Grok refuses all 2 tool names, e.g. Grok refuses to register "my__server__list" (2 "__" boundaries, want exactly 1)`
	if len(r.Hits) != 0 || len(r.Notes) == 0 || !strings.HasPrefix(r.Notes[0], want) {
		t.Errorf("hits %v, notes %q", r.Hits, r.Notes)
	}
}

// splitIdentifierRef is B.2's split_identifier written as the spec says it
// (nested splits), the reference for the one-pass SplitIdentifier.
func splitIdentifierRef(s string) []string {
	var out []string
	for _, p1 := range strings.Split(s, "__") {
		for _, p2 := range strings.Split(p1, "_") {
			for _, part := range strings.Split(p2, "-") {
				if part == "" {
					continue
				}
				start := 0
				for i := 1; i < len(part); i++ {
					if isLower(part[i-1]) && isUpper(part[i]) {
						out = append(out, part[start:i])
						start = i
					}
				}
				out = append(out, part[start:])
			}
		}
	}
	return out
}

// FuzzDocument holds SplitIdentifier and Document to the spec's nested
// splits and joins.
func FuzzDocument(f *testing.F) {
	f.Add("grafana-ai", "get__me_Now", "Gets me.", "orgId,page-size")
	f.Add("_-_", "a__b", "", "")
	f.Fuzz(func(t *testing.T, server, tool, desc, paramList string) {
		params := strings.Split(paramList, ",")
		if paramList == "" {
			params = nil
		}
		if got, want := SplitIdentifier(tool), splitIdentifierRef(tool); !slices.Equal(got, want) {
			t.Fatalf("SplitIdentifier(%q) = %q, want %q", tool, got, want)
		}
		var extra []string
		extra = append(extra, splitIdentifierRef(server)...)
		extra = append(extra, splitIdentifierRef(tool)...)
		for _, p := range params {
			extra = append(extra, splitIdentifierRef(p)...)
		}
		want := server + " " + tool + " " + desc + " " + strings.Join(params, " ") + " " + strings.Join(extra, " ")
		if got := Document(server, tool, desc, params); got != want {
			t.Fatalf("Document = %q, want %q", got, want)
		}
	})
}
