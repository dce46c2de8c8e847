package opencode

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

func build(t *testing.T, client string, cat *corpus.Catalog) search.Simulator {
	t.Helper()
	p, err := search.Lookup(client)
	if err != nil {
		t.Fatal(err)
	}
	sim, err := search.Build(p, cat, nil)
	if err != nil {
		t.Fatal(err)
	}
	return sim
}

func TestRegistry(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{"opencode", "opencode@1.18.33"},
		{"opencode@1.18.33", "opencode@1.18.33"},
		{"opencode-codemode", "opencode-codemode@1.18.33"},
		{"opencode-codemode@2", "opencode-codemode@2"},
	} {
		sim := build(t, tc.spec, corpus.Demo())
		if got := sim.Client().String(); got != tc.want {
			t.Errorf("%s: %s", tc.spec, got)
		}
		if _, ok := sim.(search.Viewer); !ok {
			t.Errorf("%s is not a Viewer", tc.spec)
		}
		if _, ok := sim.(search.Reporter); !ok {
			t.Errorf("%s is not a Reporter", tc.spec)
		}
	}
	p, _ := search.Lookup("opencode-codemode")
	if _, err := search.Build(p, corpus.Demo(), search.Options{OptBudget: "-1"}); err == nil {
		t.Error("budget -1 must be refused")
	}
	sim, err := search.Build(p, corpus.Demo(), search.Options{OptBudget: "100"})
	if err != nil {
		t.Fatal(err)
	}
	if c := sim.(*CodeMode).Catalog(); c.Budget != 100 || c.Complete {
		t.Errorf("budget 100: %+v", c)
	}
}

// TestCodeModeResult is the rank contract: hits are search()'s items in
// order, marked in_catalog; Shown is the catalog, a blank line and the
// search result; the catalog variant lists the shown tools.
func TestCodeModeResult(t *testing.T) {
	sim := build(t, "opencode-codemode", loadShared(t, "github"))
	r, err := sim.Search(context.Background(), search.Query{Text: "create issues"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Client != "opencode-codemode@1.18.33" || r.Strategy != "search" || r.Limit != 10 || len(r.Hits) != 10 {
		t.Fatalf("%s %s limit %d, %d hits", r.Client, r.Strategy, r.Limit, len(r.Hits))
	}
	h := r.Hits[0]
	if h.Rank != 1 || h.RankWorst != 1 || h.PWithinLimit != 1 || h.Tool != "github/create_issue" || h.Name != "tools.github.create_issue" || h.Score != 28 || h.Extra["in_catalog"] != false {
		t.Errorf("first hit %+v", h)
	}
	cs := r.Extra["catalog"].(string)
	sr := r.Extra["search_result"].(string)
	if r.Shown != cs+"\n\n"+sr || !strings.HasPrefix(cs, "## Available tools (PARTIAL - 29 of 117 shown") || !strings.HasPrefix(sr, "{\n  \"items\": [\n    {\n      \"path\": \"tools.github.create_issue\"") {
		t.Errorf("shown: %.200q", r.Shown)
	}
	if r.ShownTokens != Tokens(cs)+Tokens(sr) || r.Extra["search_remaining"] != 34 || r.Extra["search_next"] != 10 {
		t.Errorf("tokens %d extra %v %v", r.ShownTokens, r.Extra["search_remaining"], r.Extra["search_next"])
	}
	if len(r.Variants) != 1 || r.Variants[0].Strategy != "catalog" || len(r.Variants[0].Hits) != 29 {
		t.Fatalf("variants %+v", r.Variants)
	}
	// A catalog tool is found without searching and marked so in search().
	// (An exact path returns that tool alone.)
	r, _ = sim.Search(context.Background(), search.Query{Text: "tools.github.get_me", Limit: 3})
	found := false
	for _, h := range r.Hits {
		if h.Tool == "github/get_me" {
			found = h.Extra["in_catalog"] == true
		}
	}
	if !found || r.Limit != 3 || len(r.Hits) != 1 {
		t.Errorf("get_me: %+v", r.Hits)
	}
	if _, err := sim.Search(context.Background(), search.Query{Text: "x", Limit: -1}); err == nil {
		t.Error("limit -1 must be an error")
	}
	// The JSON of rank carries everything.
	b, err := json.Marshal(r)
	if err != nil || !strings.Contains(string(b), `"in_catalog":true`) {
		t.Errorf("json: %v %.100s", err, b)
	}
}

func TestCodeModeV2(t *testing.T) {
	sim := build(t, "opencode-codemode@2", loadShared(t, "github"))
	r, _ := sim.Search(context.Background(), search.Query{Text: "create issues"})
	cs := r.Extra["catalog"].(string)
	if !strings.HasPrefix(cs, "## Available tools (PARTIAL - 29 of 117 shown; find the rest with search(...))") || !strings.HasSuffix(cs, "- search(input: …): …") {
		t.Errorf("v2 catalog: %.120q … %q", cs, cs[len(cs)-40:])
	}
	if r.Extra["search_script"] != `return search({ query: "create issues" })` {
		t.Errorf("v2 script %v", r.Extra["search_script"])
	}
}

func TestEager(t *testing.T) {
	sim := build(t, "opencode", corpus.Demo())
	r, err := sim.Search(context.Background(), search.Query{Text: "anything"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Hits) != 19 || r.Limit != 19 {
		t.Fatalf("%d hits", len(r.Hits))
	}
	for _, h := range r.Hits {
		if h.Rank != 1 || h.RankWorst != 1 || h.PWithinLimit != 1 {
			t.Errorf("%+v", h)
		}
	}
	// The definitions as the captured request carries them.
	want := `{"type":"function","function":{"name":"billing_export","description":"Pushes data.","parameters":{"type":"object","properties":{"format":{"type":"string","enum":["csv","json"]},"since":{"type":"string","description":"ISO date"}},"required":["format"],"additionalProperties":false}}}`
	if !strings.Contains(r.Shown, want+"\n") {
		t.Errorf("shown lacks %s", want)
	}
	e := sim.(*Eager)
	mcp, builtin, total := e.DefinitionTokens()
	// 20,801 built-in chars → 5,200; total = round((mcp chars + 20,801 +
	// 2 brackets + 28 commas) / 4).
	if builtin != 5200 || total != roundQuarter(e.mcpChars+20801+2+28) || mcp != roundQuarter(e.mcpChars) || r.ShownTokens != total {
		t.Errorf("tokens %d %d %d (%d)", mcp, builtin, total, r.ShownTokens)
	}
	v, ok := sim.(search.Viewer).View("billing/export")
	if !ok || v.Name != "billing_export" || v.Text != want {
		t.Errorf("view %+v", v)
	}
	if _, ok := sim.(search.Viewer).View("nope/none"); ok {
		t.Error("unknown tool viewed")
	}
	// Request order is by name: tickets_addComment before tickets_close-ticket.
	if i, j := strings.Index(r.Shown, `"tickets_addComment"`), strings.Index(r.Shown, `"tickets_close-ticket"`); i > j {
		t.Error("order")
	}
}

func TestEagerParameters(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"type":"object","properties":{"a":{"type":"string"}}}`, `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`},
		{`{"$schema":"x","type":"object"}`, `{"$schema":"x","type":"object","properties":{},"additionalProperties":false}`},
		{`{"properties":null,"additionalProperties":true,"type":"object"}`, `{"properties":{},"additionalProperties":false,"type":"object"}`},
	} {
		cat, err := parseCatalog(`{"server":"s","tools":[{"name":"t","inputSchema":` + tc.in + `}]}`)
		if err != nil {
			t.Fatal(err)
		}
		if got := EagerParameters(cat.Tools()[0].InputSchema).JS(""); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}

func parseCatalog(s string) (*corpus.Catalog, error) {
	servers, _, err := corpus.ParseCatalog("test.json", []byte(s))
	if err != nil {
		return nil, err
	}
	cat := &corpus.Catalog{}
	return cat, cat.Add(servers...)
}

func TestViewCodeMode(t *testing.T) {
	sim := build(t, "opencode-codemode", loadShared(t, "github"))
	v, ok := sim.(search.Viewer).View("github/get_me")
	if !ok || v.Name != "tools.github.get_me" || !strings.HasPrefix(v.Text, "  - tools.github.get_me(input: ") || v.Tokens != Tokens(v.Text) {
		t.Errorf("get_me: %+v", v)
	}
	v, ok = sim.(search.Viewer).View("github/create_issue")
	if !ok || !strings.HasPrefix(v.Text, "tools.github.create_issue(input: {") || !strings.Contains(v.Notes[0], "search") {
		t.Errorf("create_issue: %+v", v)
	}
}

// TestProblems: renames, namespace moves, collisions and refused servers.
func TestProblems(t *testing.T) {
	cat, err := corpus.Load("testdata/edge.json", "testdata/risky.json")
	if err != nil {
		t.Fatal(err)
	}
	codes := func(ds []corpus.Diagnostic) map[string][]string {
		m := map[string][]string{}
		for _, d := range ds {
			m[d.Code] = append(m[d.Code], d.Server+"/"+d.Tool)
		}
		return m
	}
	cm := codes(build(t, "opencode-codemode", cat).(search.Reporter).Problems())
	for code, want := range map[string]string{
		"opencode-namespace":         "svc/admin_reset",
		"opencode-sanitized":         "a.b c/t-1 edge-cases/get.thing edge-cases/do thing",
		"opencode-description-cut":   "edge-cases/docs edge-cases/do thing",
		"opencode-description-empty": "edge-cases/get.thing edge-cases/noDesc",
		"opencode-server-dropped":    "risky/propTrue risky/descNum risky/reqString risky/enumObj risky/dupKeys risky/dupTool risky/dupTool",
	} {
		got := strings.Join(cm[code], " ")
		for _, w := range strings.Fields(strings.ReplaceAll(want, "a.b c", "a.b_c")) {
			if !strings.Contains(strings.ReplaceAll(got, "a.b c", "a.b_c"), w) {
				t.Errorf("%s: got %q, missing %s", code, got, w)
			}
		}
	}
	em := codes(build(t, "opencode", cat).(search.Reporter).Problems())
	if len(em["opencode-server-dropped"]) != 7 || len(em["opencode-not-in-catalog"]) != 0 {
		t.Errorf("eager problems %v", em)
	}
	// Duplicate names: the last definition wins, the first is reported.
	// The section is OpenCode 1.18.33's for this catalog (oracle capture).
	dup, _ := parseCatalog(`{"server":"s","tools":[{"name":"t","description":"first","inputSchema":{"type":"object"}},{"name":"t","description":"second","inputSchema":{"type":"object","properties":{"z":{"type":"string"}}}},{"name":"t.x","description":"dotted","inputSchema":{"type":"object"}},{"name":"t_x","description":"underscored","inputSchema":{"type":"object"}}]}`)
	s := newCodeMode(dup, profile118())
	want := "## Available tools (COMPLETE list - every tool is shown below with its full call signature)\n\n- s (2 tools)\n" +
		"  - tools.s.t(input: {\n  z?: string,\n}): Promise<unknown> // second\n  - tools.s.t_x(input: {}): Promise<unknown> // underscored"
	if s.catalog.Text != want {
		t.Errorf("duplicates:\n%s", firstDiff(s.catalog.Text, want))
	}
	if got := codes(s.Problems())["opencode-key-collision"]; strings.Join(got, " ") != "s/t s/t.x" {
		t.Errorf("collisions %v", got)
	}
}

func TestEmptyCatalog(t *testing.T) {
	sim := build(t, "opencode-codemode", &corpus.Catalog{})
	r, err := sim.Search(context.Background(), search.Query{Text: "x"})
	if err != nil || len(r.Hits) != 0 || r.Shown != "" || !strings.Contains(r.Notes[0], "no execute tool") {
		t.Errorf("%+v %v", r, err)
	}
}

// TestConcurrentSearch: Search is safe for concurrent use (run with -race).
func TestConcurrentSearch(t *testing.T) {
	cat := corpus.Demo()
	for _, client := range []string{"opencode", "opencode-codemode"} {
		sim := build(t, client, cat)
		want, _ := sim.Search(context.Background(), search.Query{Text: "invoice"})
		var wg sync.WaitGroup
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := sim.Search(context.Background(), search.Query{Text: "invoice"})
				if err != nil || r.Shown != want.Shown || len(r.Hits) != len(want.Hits) {
					t.Errorf("%s: concurrent result differs", client)
				}
			}()
		}
		wg.Wait()
	}
}

func TestCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, client := range []string{"opencode", "opencode-codemode"} {
		if _, err := build(t, client, corpus.Demo()).Search(ctx, search.Query{Text: "x"}); err == nil {
			t.Errorf("%s: no error on a canceled context", client)
		}
	}
}

// TestEagerOracle compares the eager request with what OpenCode 1.18.33
// sent (testdata/oracle/eager.json): the MCP tool definitions for the
// demo catalog, byte for byte, and the order of all offered tools (MCP
// and built-in) for testdata/order.json.
func TestEagerOracle(t *testing.T) {
	data, err := os.ReadFile("testdata/oracle/eager.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		DemoDefinitions []string `json:"demo_definitions"`
		DemoOffered     []string `json:"demo_offered"`
		OrderOffered    []string `json:"order_offered"`
	}
	if err := json.Unmarshal(data, &fx); err != nil {
		t.Fatal(err)
	}
	e := NewEager(corpus.Demo())
	if got := e.shown; got != strings.Join(fx.DemoDefinitions, "\n") {
		t.Errorf("demo definitions differ:\n%s", firstDiff(got, strings.Join(fx.DemoDefinitions, "\n")))
	}
	if len(e.entries) != len(fx.DemoDefinitions) {
		t.Fatalf("%d definitions, fixture has %d", len(e.entries), len(fx.DemoDefinitions))
	}
	for i, want := range fx.DemoDefinitions {
		if got := e.def(i); got != want || got != EagerDefinition(e.entries[i].tool) {
			t.Errorf("definition %d:\n%s", i, firstDiff(got, want))
		}
	}
	cat, err := corpus.Load("testdata/order.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sim  *Eager
		want []string
	}{{e, fx.DemoOffered}, {NewEager(cat), fx.OrderOffered}} {
		if got := offered(tc.sim); strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("offered:\n got %v\nwant %v", got, tc.want)
		}
	}
}

// offered merges the MCP tool names with the 10 built-ins in request
// order (localeCompare).
func offered(e *Eager) []string {
	var names []string
	for _, en := range e.entries {
		names = append(names, en.key)
	}
	for b := range builtinDefinitionChars {
		names = append(names, b)
	}
	search.SortLocale(names)
	return names
}

// TestOutputSchemaFallback: an outputSchema the MCP SDK refuses makes
// OpenCode list the server again without output schemas (section
// captured from OpenCode 1.18.33); a valid one renders its type.
func TestOutputSchemaFallback(t *testing.T) {
	cat, _ := parseCatalog(`{"servers":[{"name":"r","tools":[{"name":"outBad","description":"x","inputSchema":{"type":"object"},"outputSchema":{"type":"string"}},{"name":"ok","description":"fine","inputSchema":{"type":"object"}}]}]}`)
	s := newCodeMode(cat, profile118())
	want := "## Available tools (COMPLETE list - every tool is shown below with its full call signature)\n\n- r (2 tools)\n" +
		"  - tools.r.ok(input: {}): Promise<unknown> // fine\n  - tools.r.outBad(input: {}): Promise<unknown> // x"
	if s.catalog.Text != want {
		t.Errorf("section:\n%s", firstDiff(s.catalog.Text, want))
	}
	if p := s.Problems(); len(p) == 0 || p[0].Code != "opencode-output-schema-dropped" {
		t.Errorf("problems %+v", p)
	}
	for _, tc := range []struct {
		schema string
		lost   bool
	}{
		{`{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"type":"string"}}}`, false},
		{`{"type":"object","properties":{"a":{"$ref":"#/$defs/Missing"}}}`, true},
		{`{"type":"object","properties":{"a":{"$ref":"https://example.com/a.json"}}}`, true},
		{`{"type":"object","properties":{"a":{"type":"array","items":{"$ref":"#"}}}}`, false},
		{`{"type":"object","required":"a"}`, true},
		{`null`, true},
	} {
		cat, _ := parseCatalog(`{"server":"s","tools":[{"name":"t","inputSchema":{"type":"object"},"outputSchema":` + tc.schema + `}]}`)
		if got := outputSchemaProblem(cat.Tools()[0]) != ""; got != tc.lost {
			t.Errorf("%s: lost %v, want %v", tc.schema, got, tc.lost)
		}
	}
}

// TestSDKReject: the tool shapes for which OpenCode 1.18.33 runs without
// the whole server (each seen with opencode-oracle), and shapes it keeps.
func TestSDKReject(t *testing.T) {
	for _, tc := range []struct {
		tool  string
		field string // "" = accepted
	}{
		{`{"name":"t","description":"x","inputSchema":{"type":"object"}}`, ""},
		{`{"name":"t","description":null,"inputSchema":{"type":"object"}}`, "description"},
		{`{"name":"t","title":5,"inputSchema":{"type":"object"}}`, "title"},
		{`{"name":"t"}`, "inputSchema"},
		{`{"name":"t","inputSchema":{"properties":{}}}`, "inputSchema.type"},
		{`{"name":"t","inputSchema":{"type":"object","properties":[{}]}}`, "inputSchema.properties"},
		{`{"name":"t","inputSchema":{"type":"object","properties":{"a":true}}}`, "inputSchema.properties.a"},
		{`{"name":"t","inputSchema":{"type":"object","properties":{"a":[1]}}}`, ""},
		{`{"name":"t","inputSchema":{"type":"object","required":"a"}}`, "inputSchema.required"},
		{`{"name":"t","inputSchema":{"type":"object","required":["a",1]}}`, "inputSchema.required"},
		{`{"name":"t","inputSchema":{"type":"object","properties":{"a":{"enum":{}}}}}`, ""},
		{`{"name":"t","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"destructiveHint":null}}`, "annotations.destructiveHint"},
		{`{"name":"t","inputSchema":{"type":"object"},"annotations":{"title":null}}`, "annotations.title"},
		{`{"name":"t","inputSchema":{"type":"object"},"annotations":{"title":"T","openWorldHint":false}}`, ""},
	} {
		cat, err := parseCatalog(`{"server":"s","tools":[` + tc.tool + `]}`)
		if err != nil {
			t.Fatal(err)
		}
		rj := sdkReject(cat.Tools()[0])
		got := ""
		if rj != nil {
			got = rj.field
		}
		if got != tc.field {
			t.Errorf("%s: refused at %q, want %q", tc.tool, got, tc.field)
		}
	}
}
