package claude

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
)

// sharedCatalogs is the folder of real MCP catalogs shared by the project.
const sharedCatalogs = "../../shared/catalogs"

// recorded is one query answered by the real Claude Code 2.1.328 (the
// claude-oracle harness: the real CLI against stub MCP servers serving the
// shared catalogs byte for byte, an emulated model making one ToolSearch
// call). Only our own queries and the returned tool names are kept.
//
// To re-record: merge the named catalogs into one {"servers":[...]} file,
// write the queries as {"query":Q,"max_results":N} lines, then run
//
//	claude-oracle --catalog merged.json --queries q.jsonl --out bi.jsonl
//	claude-oracle --catalog merged.json --queries q.jsonl --mcp-only --out mcp.jsonl
//
// and keep catalogs, builtins (false for --mcp-only), query, max_results
// and matches of each line.
type recorded struct {
	Catalogs   []string `json:"catalogs"`
	Builtins   bool     `json:"builtins"` // false: the oracle's --mcp-only
	Query      string   `json:"query"`
	MaxResults int      `json:"max_results"`
	Matches    []string `json:"matches"`
}

func loadRecorded(t *testing.T, path string) []recorded {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []recorded
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		var r recorded
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s:%d: %v", path, line, err)
		}
		out = append(out, r)
	}
	return out
}

// sharedCatalog loads some of the shared catalogs, or skips the test.
func sharedCatalog(t testing.TB, names ...string) *corpus.Catalog {
	t.Helper()
	if _, err := os.Stat(sharedCatalogs); err != nil {
		t.Skipf("shared catalogs not found at %s: %v", sharedCatalogs, err)
	}
	var paths []string
	for _, n := range names {
		paths = append(paths, filepath.Join(sharedCatalogs, n+".json"))
	}
	if len(names) == 0 {
		paths = []string{sharedCatalogs}
	}
	cat, err := corpus.Load(paths...)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// TestRealClaude replays queries recorded from the real Claude Code 2.1.328
// over real multi-server catalogs, with and without its deferred built-ins,
// and wants the same tools in the same order.
func TestRealClaude(t *testing.T) {
	recs := loadRecorded(t, filepath.Join("testdata", "oracle-2.1.328.jsonl"))
	sims := map[string]*Simulator{}
	agree := 0
	for _, r := range recs {
		key := strings.Join(r.Catalogs, ",")
		if r.Builtins {
			key += "+builtins"
		}
		s := sims[key]
		if s == nil {
			s = New(sharedCatalog(t, r.Catalogs...), V2_1_328, Options{Builtins: r.Builtins})
			sims[key] = s
		}
		got := hitNames(run(t, s, r.Query, r.MaxResults))
		if reflect.DeepEqual(got, r.Matches) || len(got) == 0 && len(r.Matches) == 0 {
			agree++
			continue
		}
		t.Errorf("%s %q max %d:\n got %q\nreal %q", key, r.Query, r.MaxResults, got, r.Matches)
	}
	t.Logf("%d of %d recorded queries agree with the real Claude Code 2.1.328", agree, len(recs))
}

// TestRealClaudeHostile replays queries recorded from the real Claude Code
// 2.1.328 (built-ins disallowed) over small catalogs of our own that probe
// case-only differences, names that sanitise alike, bare-name select:
// across servers and non-ASCII text (testdata/oracle-hostile-*).
func TestRealClaudeHostile(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "oracle-hostile-catalogs.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cats map[string]json.RawMessage
	if err := json.Unmarshal(data, &cats); err != nil {
		t.Fatal(err)
	}
	type rec struct {
		Catalog    string   `json:"catalog"` // a key of oracle-hostile-catalogs.json
		Builtins   bool     `json:"builtins"`
		Query      string   `json:"query"`
		MaxResults int      `json:"max_results"`
		Matches    []string `json:"matches"`
	}
	var recs []rec
	f, err := os.ReadFile(filepath.Join("testdata", "oracle-hostile-2.1.328.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(f)), "\n") {
		var r rec
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	for _, r := range recs {
		s := New(catalogOf(t, string(cats[r.Catalog])), V2_1_328, Options{Builtins: r.Builtins})
		got := hitNames(run(t, s, r.Query, r.MaxResults))
		if !reflect.DeepEqual(got, r.Matches) && !(len(got) == 0 && len(r.Matches) == 0) {
			t.Errorf("%s %q:\n got %q\nreal %q", r.Catalog, r.Query, got, r.Matches)
		}
	}
	t.Logf("%d recorded queries checked", len(recs))
}

// TestRealPools: hostile catalogs of our own (one malformation per server)
// and the deferred pool the real Claude Code 2.1.328 announced for them
// (built-ins included). The announcement is sorted by UTF-16 code units, not
// in pool order, so the pools are compared as sorted sets; pool order is
// checked by TestTieOrder and the recorded rankings.
func TestRealPools(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "oracle-pools-2.1.328.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Catalog json.RawMessage `json:"catalog"`
		Pool    []string        `json:"pool"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		s := New(catalogOf(t, string(c.Catalog)), V2_1_328, DefaultOptions())
		var got []string
		for _, e := range s.deferred {
			got = append(got, e.name)
		}
		want := append([]string(nil), c.Pool...)
		gotSorted := append([]string(nil), got...)
		sort.Strings(gotSorted)
		sort.Strings(want)
		if !reflect.DeepEqual(gotSorted, want) {
			t.Errorf("case %d: pool\n got %q\nreal %q", i, gotSorted, want)
		}
	}
}
