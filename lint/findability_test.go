package lint

import (
	"context"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// fakeSim answers every query with fixed hits; limit is its default.
type fakeSim struct {
	name  string
	limit int
	hits  []search.Hit
}

func (f fakeSim) Client() search.ClientID { return search.ClientID{Name: f.name, Version: "t"} }

func (f fakeSim) Search(_ context.Context, q search.Query) (search.Result, error) {
	limit := q.Limit
	if limit == 0 {
		limit = f.limit
	}
	hits := f.hits
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return search.Result{Client: f.Client().String(), Limit: limit, Hits: hits}, nil
}

func hits(scores map[string]float64, order ...string) []search.Hit {
	var out []search.Hit
	for i, id := range order {
		out = append(out, search.Hit{Rank: i + 1, RankWorst: i + 1, Tool: corpus.ToolID(id), Score: scores[id]})
	}
	return out
}

func fakeCatalog(t *testing.T) *corpus.Catalog {
	t.Helper()
	servers, _, err := corpus.ParseCatalog("f.json", []byte(`{"server":"s","tools":[
		{"name":"get_a","description":"d","inputSchema":{}},{"name":"get_b","description":"d","inputSchema":{}},
		{"name":"get_c","description":"d","inputSchema":{}},{"name":"get_d","description":"d","inputSchema":{}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return &corpus.Catalog{Servers: servers}
}

func searchFindings(t *testing.T, sims ...search.Simulator) []string {
	t.Helper()
	cfg := Config{}
	_ = cfg.Set([]string{"all"}, false)
	_ = cfg.Set([]string{RuleNotFound, RuleTie}, true)
	rep, err := Run(context.Background(), fakeCatalog(t), sims, Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range rep.Findings {
		out = append(out, f.Message)
	}
	return out
}

// TestOwnNameNotFound: a tool is flagged only when every searching client
// misses it within its default limit.
func TestOwnNameNotFound(t *testing.T) {
	sc := map[string]float64{"s/get_a": 4, "s/get_b": 3, "s/get_c": 2, "s/get_d": 1}
	// Both clients return at most 2 results: get_c and get_d are past
	// that in both (ranks 3 and 4 of 4).
	got := searchFindings(t,
		fakeSim{"claude", 2, hits(sc, "s/get_a", "s/get_b", "s/get_c", "s/get_d")},
		fakeSim{"grok", 2, hits(sc, "s/get_a", "s/get_b", "s/get_c")})
	want := `s/get_c: no client's search returns it for its own name's words "get c"; claude@t: ranks it 3 for "get c", past its limit of 2; grok@t: ranks it 3 for "get c", past its limit of 2` + "\n" +
		`s/get_d: no client's search returns it for its own name's words "get d"; claude@t: ranks it 4 for "get d", past its limit of 2; grok@t: does not return it for "get d"`
	if g := strings.Join(got, "\n"); g != want {
		t.Errorf("got\n%s\nwant\n%s", g, want)
	}
	// A second client that returns get_c and get_d first clears them.
	got = searchFindings(t,
		fakeSim{"claude", 2, hits(sc, "s/get_a", "s/get_b", "s/get_c", "s/get_d")},
		fakeSim{"grok", 2, hits(sc, "s/get_d", "s/get_c")})
	if len(got) != 0 {
		t.Errorf("found by grok, still flagged: %v", got)
	}
}

// TestOwnNameTie: flagged when at least TieMany (3) tools share the score
// in every client that returns the tool.
func TestOwnNameTie(t *testing.T) {
	all := map[string]float64{"s/get_a": 5, "s/get_b": 5, "s/get_c": 5, "s/get_d": 5}
	two := map[string]float64{"s/get_a": 5, "s/get_b": 5, "s/get_c": 4, "s/get_d": 3}
	order := []string{"s/get_a", "s/get_b", "s/get_c", "s/get_d"}
	got := searchFindings(t, fakeSim{"claude", 5, hits(all, order...)}, fakeSim{"grok", 5, hits(all, order...)})
	if len(got) != 4 || !strings.HasPrefix(got[0], `s/get_a: ties with other tools for its own name's words "get a" in every client; claude@t: ties it at rank 1 with 3 tools (get_b, get_c, get_d)`) {
		t.Errorf("4 tools tied everywhere: %v", got)
	}
	// grok separates them: only 2 share a score there.
	got = searchFindings(t, fakeSim{"claude", 5, hits(all, order...)}, fakeSim{"grok", 5, hits(two, order...)})
	if len(got) != 0 {
		t.Errorf("grok tells them apart, still flagged: %v", got)
	}
}

// TestRepeatedDefinitionChecked: corpus validation skips a repeated name;
// lint checks the second definition and places the finding there.
func TestRepeatedDefinitionChecked(t *testing.T) {
	data := []byte("{\"server\":\"s\",\"tools\":[\n{\"name\":\"t\",\"description\":\"ok\",\"inputSchema\":{\"type\":\"object\"}},\n{\"name\":\"t\",\"description\":\"ok\",\"inputSchema\":{\"properties\":null}}]}")
	servers, diags, err := corpus.ParseCatalog("r.json", data)
	if err != nil {
		t.Fatal(err)
	}
	cat := &corpus.Catalog{}
	if err := cat.AddParsed(servers, diags); err != nil {
		t.Fatal(err)
	}
	cat.Revalidate()
	cfg := Config{}
	_ = cfg.Set([]string{"all"}, false)
	_ = cfg.Set([]string{RuleSchema}, true)
	rep, err := Run(context.Background(), cat, nil, Options{Config: cfg, ReadFile: func(string) ([]byte, error) { return data, nil }})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 1 {
		t.Fatalf("%d findings, want 1", len(rep.Findings))
	}
	f := rep.Findings[0]
	// Line 3 is the second definition; "properties" follows
	// `{"name":"t","description":"ok","inputSchema":{` (46 columns).
	if f.Location.Definition != 2 || f.Location.String() != "r.json:3:47" || f.Cause != "s/t (definition 2): inputSchema.properties: properties is a null, not an object" {
		t.Errorf("finding %+v at %s: %s", f.Location, f.Location, f.Cause)
	}
}
