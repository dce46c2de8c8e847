package codexjs

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// diffQueries are the queries the differential test runs on every catalog.
var diffQueries = []string{"", "pull request", "list issues", "create a new database", "search", "ü İstanbul ΣΑΣ", "the a of", "zzzz_nothing", "get", "file"}

// TestNativeMatchesGoja proves the native Go path of every built-in
// strategy prints exactly what the goja run of its JavaScript prints, over
// the demo catalog and each of the 15 shared catalogs.
func TestNativeMatchesGoja(t *testing.T) {
	cats := demoAndShared(t)
	qs := diffQueries
	if testing.Short() {
		qs = qs[:4]
	}
	for name, cat := range cats {
		native, err := NewCodeMode(cat, search.Options{})
		if err != nil {
			t.Fatal(err)
		}
		gj, err := NewCodeMode(cat, search.Options{"engine": "goja"})
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range qs {
			a, _ := native.Search(context.Background(), search.Query{Text: q})
			b, _ := gj.Search(context.Background(), search.Query{Text: q})
			ra, rb := a.All(), b.All()
			for i := range ra {
				if ra[i].Shown != rb[i].Shown || len(ra[i].Hits) != len(rb[i].Hits) {
					t.Errorf("%s %q %s: native and goja differ (%d vs %d bytes)", name, q, ra[i].Strategy, len(ra[i].Shown), len(rb[i].Shown))
				}
			}
		}
	}
}

// TestSearchShape checks the Result contract on the demo catalog: the
// primary strategy first, the others as Variants, hits ranked by first
// appearance, Shown starting with the header item.
func TestSearchShape(t *testing.T) {
	m, err := NewCodeMode(corpus.Demo(), search.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.Search(context.Background(), search.Query{Text: "invoice"})
	if err != nil {
		t.Fatal(err)
	}
	var strategies []string
	for _, r := range res.All() {
		strategies = append(strategies, r.Strategy)
		if !strings.HasPrefix(r.Shown, "Script completed\nWall time 0.0 seconds\nOutput:\n") {
			t.Errorf("%s: shown %q", r.Strategy, r.Shown)
		}
		for i, h := range r.Hits {
			if h.Rank != i+1 || h.RankWorst != h.Rank || h.PWithinLimit != 1 {
				t.Errorf("%s: hit %+v", r.Strategy, h)
			}
		}
		if r.Limit != len(r.Hits) || r.Client != "codex@0.171.0" {
			t.Errorf("%s: limit %d client %s", r.Strategy, r.Limit, r.Client)
		}
	}
	if got := strings.Join(strategies, ","); got != "all-terms,any-term,name,dump" {
		t.Errorf("strategies %s", got)
	}
	// Every billing tool mentions invoices; they print in name order.
	var got []string
	for _, h := range res.Hits {
		got = append(got, string(h.Tool))
	}
	if want := "billing/digest,billing/findInvoice,billing/invoice_lookup,billing/ledger"; strings.Join(got, ",") != want {
		t.Errorf("all-terms hits %v, want %s", got, want)
	}
	// A user script becomes the primary result.
	m2, err := NewCodeMode(corpus.Demo(), search.Options{"script": "text(ALL_TOOLS.filter(t => t.name.includes(TERMS[0])).map(t => t.name).join(\"\\n\"))", "strategies": "name"})
	if err != nil {
		t.Fatal(err)
	}
	res2, _ := m2.Search(context.Background(), search.Query{Text: "invoice"})
	if res2.Strategy != "script" || len(res2.Variants) != 1 || len(res2.Hits) == 0 {
		t.Errorf("script result %+v", res2)
	}
}

func TestTerms(t *testing.T) {
	for q, want := range map[string]string{
		"Create a Pull-Request!": "create,pull,request",
		"the a of":               "the,a,of", // all stop words: kept
		"list list issues":       "list,issues",
		"ÜBER straße":            "über,straße",
		"":                       "",
	} {
		if got := strings.Join(Terms(q), ","); got != want {
			t.Errorf("%q: %q want %q", q, got, want)
		}
	}
}

// TestViewerAndReporter: what `show` and `lint` get.
func TestViewerAndReporter(t *testing.T) {
	m := newProbeSim(t, nil)
	v, ok := m.View("probe/dup")
	if !ok || v.Name != "mcp__probe__dup" || !strings.HasPrefix(v.Text, `{"name":"mcp__probe__dup","description":"First dup.`) || v.Tokens != approxTokens(len(v.Text)) {
		t.Errorf("view %+v", v)
	}
	if _, ok := m.View("probe/hidden_app"); ok {
		t.Error("an app-only tool must not be viewable")
	}
	codes := map[string][]string{}
	for _, d := range m.Problems() {
		if d.Client != "codex@0.171.0" {
			t.Errorf("client %q", d.Client)
		}
		codes[d.Code] = append(codes[d.Code], d.Server+"/"+d.Tool)
	}
	for code, want := range map[string]string{
		"codex-app-only":          "probe/hidden_app",
		"codex-duplicate":         "probe/dup",
		"codex-schema-rejected":   "risky-items-tuple/tuple",
		"codex-server-tools-list": "risky-noschema/noschema",
		"codex-renamed":           "probe/weird-name.tool",
	} {
		if !strings.Contains(strings.Join(codes[code], ","), want) {
			t.Errorf("%s: %v lacks %s", code, codes[code], want)
		}
	}
	cat, _ := corpus.Load("testdata/oracle-0.171.0/names.json")
	bad := 0
	for _, d := range BuildAllTools(cat, false).Problems() {
		if d.Code == "codex-server-name" {
			bad++
		}
	}
	if bad != 11 {
		t.Errorf("%d servers rejected by name, want 11", bad)
	}
}

// TestAgentPlugin: §3 limits.
func TestAgentPlugin(t *testing.T) {
	long := strings.Repeat("a", 999) + "é" + "tail"
	var tools []string
	for i := 0; i < 12; i++ {
		tools = append(tools, `{"name":"t`+itoa(100+i)+`","description":"`+long+`","inputSchema":{"type":"object","properties":{"x":{"type":"string","description":"`+strings.Repeat("d", 4000)+`"}}}}`)
	}
	tools = append(tools, `{"name":"huge","description":"h","inputSchema":{"type":"object","properties":{"x":{"type":"string","enum":["`+strings.Repeat("e", 9000)+`"]}}}}`)
	dir := t.TempDir()
	path := filepath.Join(dir, "plug.json")
	if err := os.WriteFile(path, []byte(`{"server":"plug","instructions":"`+strings.Repeat("é", 500)+`overflow","tools":[`+strings.Join(tools, ",")+`]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cat, err := corpus.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	at := BuildAllTools(cat, true)
	n := 0
	for _, e := range at.Entries {
		if e.Tool == nil {
			continue
		}
		n++
		if e.ToolDescription != strings.Repeat("a", 999) || e.NamespaceDescription != strings.Repeat("é", 500) {
			t.Errorf("%s: description %d bytes, instructions %q…", e.Name, len(e.ToolDescription), e.NamespaceDescription[:10])
		}
	}
	// Each tool's spec is about 5,100 bytes: 12 of them pass 8,000 but the
	// 64,000-byte running total admits only the first 12·k ≤ 64,000.
	if n == 0 || n >= 13 {
		t.Errorf("%d plugin tools kept", n)
	}
	hidden := 0
	for _, d := range at.Problems() {
		if d.Code == "codex-plugin-budget" {
			hidden++
		}
	}
	if hidden != 13-n {
		t.Errorf("%d hidden, %d kept", hidden, n)
	}
	if plain := BuildAllTools(cat, false); len(plain.Entries) != len(builtinEntries())+13 {
		t.Errorf("ordinary servers keep everything: %d", len(plain.Entries))
	}
}

// TestDemoGolden pins ALL_TOOLS of the embedded demo catalog.
func TestDemoGolden(t *testing.T) {
	got := BuildAllTools(corpus.Demo(), false).JSON()
	path := "testdata/demo.alltools.json"
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestDemoGolden -update)", err)
	}
	if got != string(want) {
		t.Errorf("ALL_TOOLS of the demo catalog changed; run with -update if intended")
	}
}

func TestParseExecSource(t *testing.T) {
	tests := []struct{ in, code, err string }{
		{"text(1)", "text(1)", ""},
		{"// @exec: {\"yield_time_ms\": 5, \"max_output_tokens\": 7}\ntext(1)", "text(1)", ""},
		{"  ", "", "exec expects raw JavaScript source text"},
		{"// @exec: {\"max_output_tokens\": 5}\n  ", "", "exec pragma must be followed by JavaScript source"},
		{"// @exec:\ntext(1)", "", "exec pragma must be a JSON object"},
		{"// @exec: [1]\ntext(1)", "", "exec pragma must be a JSON object"},
		{"// @exec: {x\ntext(1)", "", "exec pragma must be valid JSON"},
		{"// @exec: {\"max_output_tokens\": -1}\ntext(1)", "", "must be non-negative safe integers"},
		{"// @exec: {\"max_output_tokens\": 9007199254740992}\ntext(1)", "", "`max_output_tokens` must be a non-negative safe integer"},
	}
	for _, tt := range tests {
		p, msg := parseExecSource(tt.in)
		if (tt.err == "" && msg != "") || !strings.Contains(msg, tt.err) || (tt.err == "" && p.code != tt.code) {
			t.Errorf("%q: code %q msg %q", tt.in, p.code, msg)
		}
	}
}

func FuzzParseExecSource(f *testing.F) {
	f.Add("// @exec: {\"yield_time_ms\": 1}\ntext(1)")
	f.Add("text(1)")
	f.Fuzz(func(t *testing.T, s string) {
		p, msg := parseExecSource(s)
		if msg == "" && !strings.HasSuffix(s, p.code) {
			t.Fatalf("code %q is not the tail of %q", p.code, s)
		}
	})
}

// FuzzScript runs arbitrary scripts: never a panic or a hang.
func FuzzScript(f *testing.F) {
	for _, s := range []string{"text(ALL_TOOLS.length)", "await tools.mcp__probe__dup({a:[1]})", "throw 1", "exit()", "for(;;){}", "setTimeout(()=>text(1), 5); await 0"} {
		f.Add(s)
	}
	m := newProbeSim(f, search.Options{"timeout": "100ms"})
	f.Fuzz(func(t *testing.T, s string) {
		res := m.RunScript(s, "q")
		if res.Shown == "" {
			t.Fatalf("empty result for %q", s)
		}
	})
}

// TestConcurrentSearch: Search is safe for concurrent use (run with -race).
func TestConcurrentSearch(t *testing.T) {
	for _, engine := range []string{"native", "goja"} {
		m, err := NewCodeMode(corpus.Demo(), search.Options{"engine": engine, "script": "text(QUERY); text(ALL_TOOLS.length)"})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := m.Search(context.Background(), search.Query{Text: "invoice"})
		done := make(chan string, 8)
		for i := 0; i < 8; i++ {
			go func() {
				res, _ := m.Search(context.Background(), search.Query{Text: "invoice"})
				var b strings.Builder
				for _, r := range res.All() {
					b.WriteString(r.Shown)
				}
				done <- b.String()
			}()
		}
		var wb strings.Builder
		for _, r := range want.All() {
			wb.WriteString(r.Shown)
		}
		for i := 0; i < 8; i++ {
			if got := <-done; got != wb.String() {
				t.Errorf("%s: concurrent result differs", engine)
			}
		}
	}
}

// demoAndShared returns the demo catalog and every shared catalog by file
// name (the demo alone, said in the log, when ../shared is absent).
func demoAndShared(t *testing.T) map[string]*corpus.Catalog {
	t.Helper()
	cats := map[string]*corpus.Catalog{"demo": corpus.Demo()}
	files, _ := filepath.Glob(filepath.Join(sharedCatalogs, "*.json"))
	if len(files) == 0 {
		t.Logf("shared catalogs not found in %s: checking the demo catalog only", sharedCatalogs)
	}
	for _, f := range files {
		cat, err := corpus.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		cats[filepath.Base(f)] = cat
	}
	return cats
}

// TestLowerEntry: the one-piece ASCII path gives jsLower's text, and
// non-ASCII text goes through jsLower itself.
func TestLowerEntry(t *testing.T) {
	for _, tc := range [][2]string{
		{"mcp__GitHub__Create_Issue", "Creates an ISSUE.\n\ndeclare const tools: { X(args: {}): Promise<CallToolResult>; };"},
		{"", ""}, {"a", "Z"}, {"ÉTÉ", "Σ final Σ"}, {"x", "\x7f@[`{"},
	} {
		if got, want := lowerEntry(tc[0], tc[1]), jsLower(tc[0]+"\n"+tc[1]); got != want {
			t.Errorf("lowerEntry(%q, %q) = %q, want %q", tc[0], tc[1], got, want)
		}
	}
}
