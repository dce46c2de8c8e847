package toolfind_test

import (
	"bytes"
	"context"
	"fmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/bench"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

const (
	sharedCatalogs = "../shared/catalogs"
	githubCatalog  = "../shared/catalogs/github.json"
	githubQueries  = "bench/testdata/github-queries.jsonl"
	metatoolDir    = "../shared/corpora/metatool"
)

// needShared skips when the shared material is absent.
func needShared(t testing.TB, path string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Skipf("shared material %s is absent (%v): skipping", path, err)
	}
}

// recT records AssertFound's failures and the functions that called its
// Helper.
type recT struct{ errs, helpers []string }

// Helper records its caller's name, as testing.T marks its caller.
func (r *recT) Helper() {
	pc, _, _, _ := runtime.Caller(1)
	r.helpers = append(r.helpers, runtime.FuncForPC(pc).Name())
}
func (r *recT) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestAssertFound(t *testing.T) {
	cat, _ := toolfind.LoadCatalog()
	var r recT
	if !toolfind.AssertFound(&r, cat, "weather forecast", "weather/get_forecast", "claude") || len(r.errs) != 0 {
		t.Errorf("weather forecast: %v", r.errs)
	}
	// Several expect spellings resolve to the same tool.
	for _, name := range []string{"weather__get_forecast", "mcp__weather__get_forecast", "get_forecast"} {
		var r recT
		if !toolfind.AssertFound(&r, cat, "weather forecast", name, "claude") {
			t.Errorf("%s: %v", name, r.errs)
		}
	}
	// Errors are reported through t, never panics.
	for _, c := range []struct{ tool, client, want string }{
		{"nope/tool", "claude", `"nope/tool"`},
		{"weather/get_forecast", "cursor", `unknown client "cursor"`},
	} {
		var r recT
		if toolfind.AssertFound(&r, cat, "x", c.tool, c.client) || len(r.errs) != 1 || !strings.Contains(r.errs[0], c.want) {
			t.Errorf("%s/%s: %v", c.tool, c.client, r.errs)
		}
	}
}

// TestAssertFoundHelper: AssertFound itself calls t.Helper, so a failure
// is reported at the line of the test that called AssertFound, not inside
// toolfind.go (testing.T skips exactly the functions that called Helper).
func TestAssertFoundHelper(t *testing.T) {
	cat, _ := toolfind.LoadCatalog()
	var r recT
	toolfind.AssertFound(&r, cat, "x", "nope/tool", "claude")
	assert.Equal(t, []string{"github.com/toolfind/toolfind.AssertFound"}, r.helpers)
}

// requireT is a testify require.TestingT with no Helper method: the
// interface of the testify world (Errorf and FailNow).
type requireT struct{ recT }

func (r *requireT) FailNow() { r.errs = append(r.errs, "FailNow") }

// TestAssertFoundTestify: AssertFound takes testify's require.TestingT,
// which has no Helper, as well as a *testing.T.
func TestAssertFoundTestify(t *testing.T) {
	cat, _ := toolfind.LoadCatalog()
	var rt require.TestingT = &requireT{}
	assert.True(t, toolfind.AssertFound(rt, cat, "weather forecast", "weather/get_forecast", "claude"))
	assert.False(t, toolfind.AssertFound(rt, cat, "x", "nope/tool", "claude"))
	require.Len(t, rt.(*requireT).errs, 1)
	assert.Contains(t, rt.(*requireT).errs[0], `"nope/tool"`)
	// A real *testing.T passes through the same interface.
	toolfind.AssertFound(t, cat, "weather forecast", "weather/get_forecast", "claude", "grok")
}

// TestFindableAllClients runs every registered client (whatever exists):
// one finding per default profile, each a well-formed outcome.
func TestFindableAllClients(t *testing.T) {
	cat, _ := toolfind.LoadCatalog()
	fs, err := toolfind.Findable(context.Background(), cat, "read file", "files/read_file")
	if err != nil {
		t.Fatal(err)
	}
	profiles, _ := search.Resolve("all")
	if len(fs) != len(profiles) {
		t.Fatalf("%d findings for %d clients", len(fs), len(profiles))
	}
	for i, f := range fs {
		if f.Client != profiles[i].ID.String() {
			t.Errorf("finding %d is %s, want %s", i, f.Client, profiles[i].ID)
		}
		if p := f.Outcome.PWithinLimit; p < 0 || p > 1 {
			t.Errorf("%s: p_within_limit %v", f.Client, p)
		}
		t.Log(f)
	}
}

// TestEvaluateEndToEnd runs every registered client over the demo and the
// GitHub query sets and checks the report's shape and invariants; the
// numbers themselves belong to the simulators' own tests.
func TestEvaluateEndToEnd(t *testing.T) {
	type set struct {
		name string
		load func() (*corpus.Catalog, *corpus.QuerySet, error)
	}
	sets := []set{{"demo", func() (*corpus.Catalog, *corpus.QuerySet, error) {
		cat, _ := toolfind.LoadCatalog()
		qs, err := toolfind.DemoQueries(cat)
		return cat, qs, err
	}}}
	if _, err := os.Stat(githubCatalog); err == nil {
		sets = append(sets, set{"github", func() (*corpus.Catalog, *corpus.QuerySet, error) {
			cat, err := toolfind.LoadCatalog(githubCatalog)
			if err != nil {
				return nil, nil, err
			}
			qs, err := toolfind.LoadQueries(githubQueries, cat)
			return cat, qs, err
		}})
	} else {
		t.Logf("%s absent: GitHub query set skipped", githubCatalog)
	}
	for _, s := range sets {
		t.Run(s.name, func(t *testing.T) {
			cat, qs, err := s.load()
			if err != nil {
				t.Fatal(err)
			}
			sims, err := toolfind.Clients(cat, "all", nil)
			if err != nil {
				t.Skipf("no client registered: %v", err)
			}
			ctx := context.Background()
			rep, err := toolfind.Evaluate(ctx, sims, qs, bench.Options{By: []string{"kind"}, PerTool: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Clients) < len(sims) {
				t.Fatalf("%d rows for %d clients", len(rep.Clients), len(sims))
			}
			for i, sim := range sims {
				found := false
				for _, c := range rep.Clients {
					found = found || c.Client == sim.Client().String()
				}
				if !found {
					t.Errorf("client %d (%s) has no row", i, sim.Client())
				}
			}
			for _, c := range rep.Clients {
				if c.Errors > 0 {
					t.Errorf("%s failed on %d queries", c.Client, c.Errors)
				}
				if c.FoundAtLimitWorst > c.FoundAtLimit+1e-9 || c.FoundAtLimit > c.FoundAtLimitBest+1e-9 {
					t.Errorf("%s: band %v ≤ %v ≤ %v violated", c.Client, c.FoundAtLimitWorst, c.FoundAtLimit, c.FoundAtLimitBest)
				}
				t.Logf("%-32s found@1 %6s found@limit %6s MRR %.3f tokens %.0f", c.Client, bench.Percent(c.FoundAt1), bench.Percent(c.FoundAtLimit), c.MRR, c.MeanShownTokens)
			}
			for _, o := range rep.Outcomes {
				if o.PWithinLimit < 0 || o.PWithinLimit > 1 || o.PAllWithinLimit > o.PWithinLimit+1e-9 || o.RR > o.PWithinLimit+1e-9 {
					t.Errorf("%s %q: p %v all %v rr %v", o.Client, o.Query, o.PWithinLimit, o.PAllWithinLimit, o.RR)
				}
			}
			// Same input, same bytes.
			again, err := toolfind.Evaluate(ctx, sims, qs, bench.Options{By: []string{"kind"}, PerTool: true, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			var a, b bytes.Buffer
			rep.WriteJSON(&a)
			again.WriteJSON(&b)
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Error("two runs differ")
			}
			for _, f := range bench.Formats {
				if err := rep.Write(&bytes.Buffer{}, f); err != nil {
					t.Errorf("%s: %v", f, err)
				}
			}
		})
	}
}

// BenchmarkEvaluate runs the GitHub query set (144 queries, 117 tools) and
// the MetaTool set (2,487 queries, 199 tools) through every client at
// once and through each alone.
func BenchmarkEvaluate(b *testing.B) {
	cases := []struct {
		name    string
		catalog string
		queries string
	}{
		{"github", githubCatalog, githubQueries},
		{"metatool", metatoolDir + "/metatool.json", metatoolDir + "/queries.jsonl"},
		{"shared15", sharedCatalogs, githubQueries},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			needShared(b, c.catalog)
			cat, err := toolfind.LoadCatalog(c.catalog)
			if err != nil {
				b.Fatal(err)
			}
			qs, err := toolfind.LoadQueries(c.queries, cat)
			if err != nil {
				b.Fatal(err)
			}
			profiles, _ := search.Resolve("all")
			specs := []string{"all"}
			for _, p := range profiles {
				specs = append(specs, p.ID.Name)
			}
			for _, spec := range specs {
				b.Run(spec, func(b *testing.B) {
					sims, err := toolfind.Clients(cat, spec, nil)
					if err != nil {
						b.Fatal(err)
					}
					b.ReportAllocs()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						if _, err := toolfind.Evaluate(context.Background(), sims, qs, bench.Options{}); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(qs.Queries)*len(sims)), "ns/search")
				})
			}
		})
	}
}
