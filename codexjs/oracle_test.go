package codexjs

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// The files under testdata/oracle-0.171.0 were recorded from the real Codex
// CLI 0.171.0 with ../shared/oracles/codex-oracle. For the shared catalogs
// they hold derived facts only (names, sizes, hashes, rankings).

const sharedCatalogs = "../../shared/catalogs"

func loadShared(t testing.TB, name string) *corpus.Catalog {
	t.Helper()
	path := filepath.Join(sharedCatalogs, name)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("shared catalog %s not found (needs the shared folder beside the repo): %v", path, err)
	}
	cat, err := corpus.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// TestAllToolsMatchesCodex compares every MCP entry of ALL_TOOLS (name,
// byte length and SHA-256 of the description) and the length of the whole
// JSON.stringify(ALL_TOOLS) — Codex's own 11 entries included, at their
// stand-in byte sizes — with the real Codex on all 15 shared catalogs.
func TestAllToolsMatchesCodex(t *testing.T) {
	files, _ := filepath.Glob("testdata/oracle-0.171.0/*.alltools.tsv")
	if len(files) != 16 {
		t.Fatalf("want 16 recorded catalogs, have %d", len(files))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".alltools.tsv")
		t.Run(name, func(t *testing.T) {
			var cat *corpus.Catalog
			if name == "livemcpbench" {
				// 70 catalogs never used while writing the package.
				cat = loadShared(t, "../corpora/livemcpbench/catalogs")
			} else {
				cat = loadShared(t, name+".json")
			}
			at := BuildAllTools(cat, false)
			want, dumpBytes, entries := readAllToolsTSV(t, f)
			var got []string
			for _, e := range at.Entries {
				if e.Tool != nil {
					sum := sha256.Sum256([]byte(e.Description))
					got = append(got, fmt.Sprintf("%s\t%d\t%s", e.Name, len(e.Description), hex.EncodeToString(sum[:])))
				}
			}
			if len(got) != len(want) {
				t.Errorf("%d MCP entries, Codex has %d", len(got), len(want))
			}
			for i := 0; i < len(got) && i < len(want); i++ {
				if got[i] != want[i] {
					t.Errorf("entry %d:\n got %s\nwant %s", i, got[i], want[i])
				}
			}
			if len(at.Entries) != entries {
				t.Errorf("%d entries, Codex has %d", len(at.Entries), entries)
			}
			if n := len(at.JSON()); n != dumpBytes {
				t.Errorf("JSON.stringify(ALL_TOOLS) is %d bytes, Codex's is %d", n, dumpBytes)
			}
		})
	}
}

func readAllToolsTSV(t *testing.T, path string) (lines []string, dumpBytes, entries int) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "#"):
		case strings.HasPrefix(l, "dump_utf8_bytes\t"):
			dumpBytes, _ = strconv.Atoi(strings.TrimPrefix(l, "dump_utf8_bytes\t"))
		case strings.HasPrefix(l, "entries\t"):
			entries, _ = strconv.Atoi(strings.TrimPrefix(l, "entries\t"))
		default:
			lines = append(lines, l)
		}
	}
	return lines, dumpBytes, entries
}

// TestAllToolsProbes compares whole MCP entries with Codex on our own probe
// catalogs: schema edge cases (§4), name sanitising, collisions, 128-byte
// names, duplicates, app-only tools, tools Codex rejects, server names.
func TestAllToolsProbes(t *testing.T) {
	for _, name := range []string{"probe", "probe2", "names", "names2"} {
		t.Run(name, func(t *testing.T) {
			cat, err := corpus.Load("testdata/oracle-0.171.0/" + name + ".json")
			if err != nil {
				t.Fatal(err)
			}
			var want []struct{ Name, Description string }
			data, err := os.ReadFile("testdata/oracle-0.171.0/" + name + ".alltools.json")
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatal(err)
			}
			at := BuildAllTools(cat, false)
			var got []Entry
			for _, e := range at.Entries {
				if e.Tool != nil {
					got = append(got, e)
				}
			}
			if len(got) != len(want) {
				t.Errorf("%d MCP entries, Codex has %d", len(got), len(want))
			}
			for i := 0; i < len(got) && i < len(want); i++ {
				if got[i].Name != want[i].Name || got[i].Description != want[i].Description {
					t.Errorf("entry %d:\n got %s %q\nwant %s %q", i, got[i].Name, got[i].Description, want[i].Name, want[i].Description)
				}
			}
		})
	}
}

// TestStrategiesMatchCodex runs each built-in strategy as the real Codex
// ran it (QUERY and TERMS declared in the script) on github.json and
// compares the shown text's length and the tools visible in it, in order.
func TestStrategiesMatchCodex(t *testing.T) {
	cat := loadShared(t, "github.json")
	var rec struct {
		Runs []struct {
			Query, Strategy string
			ShownBytes      int `json:"shown_bytes"`
			Visible         []string
		}
	}
	data, err := os.ReadFile("testdata/oracle-0.171.0/strategies-github.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	m, err := NewCodeMode(cat, search.Options{})
	if err != nil {
		t.Fatal(err)
	}
	src := map[string]string{}
	for _, s := range builtinStrategies {
		src[s.Name] = s.Source
	}
	for _, r := range rec.Runs {
		qj, _ := json.Marshal(r.Query)
		tj, _ := json.Marshal(Terms(r.Query))
		script := fmt.Sprintf("const QUERY = %s;\nconst TERMS = %s;\n%s", qj, tj, src[r.Strategy])
		res := m.RunScript(script, "")
		if len(res.Shown) != r.ShownBytes {
			t.Errorf("%s/%s: shown %d bytes, Codex %d", r.Query, r.Strategy, len(res.Shown), r.ShownBytes)
		}
		var names []string
		for _, h := range res.Hits {
			names = append(names, h.Name)
		}
		if strings.Join(names, ",") != strings.Join(r.Visible, ",") {
			t.Errorf("%s/%s: visible\n got %v\nwant %v", r.Query, r.Strategy, names, r.Visible)
		}
		// The native path and the Search result agree with the script run.
		sr, err := m.Search(context.Background(), search.Query{Text: r.Query})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range sr.All() {
			if v.Strategy == r.Strategy && len(v.Shown) != r.ShownBytes {
				t.Errorf("%s/%s via Search: shown %d bytes, Codex %d", r.Query, r.Strategy, len(v.Shown), r.ShownBytes)
			}
		}
	}
}

// TestToolSearchMatchesCodex compares codex-search with Codex's real
// tool_search (multi_agent off, two runs per query), ties as sets. Codex
// returns namespaces merged in first-seen order (§5.1), so its list is
// grouped by namespace, not in rank order; searchAgrees checks that the
// run is one of the lists our ranking allows.
func TestToolSearchMatchesCodex(t *testing.T) {
	files, _ := filepath.Glob("testdata/oracle-0.171.0/search-*.json")
	if len(files) == 0 {
		t.Fatal("no recorded searches")
	}
	for _, f := range files {
		var rec struct {
			Catalog           string
			ExcludeCJKServers bool `json:"exclude_cjk_servers"`
			Queries           []struct {
				Query string
				Runs  [][]string
			}
		}
		data, _ := os.ReadFile(f)
		if err := json.Unmarshal(data, &rec); err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			cat := loadShared(t, rec.Catalog)
			if rec.ExcludeCJKServers {
				cat = withoutCJKServers(cat)
				if len(cat.Servers) != 59 {
					t.Fatalf("%d servers without CJK text, the recording had 59", len(cat.Servers))
				}
			}
			ts, err := NewToolSearch(cat, search.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range rec.Queries {
				if why := searchAgrees(ts, q.Query, q.Runs); why != "" {
					t.Errorf("%q: %s", q.Query, why)
				}
			}
		})
	}
}

// TestDumpOnGithub is §0's example: the 217,561-byte dump becomes the
// warning header, the first 20,000 bytes, …44391 tokens truncated… and the
// last 20,000 bytes (a 40,107-byte item).
func TestDumpOnGithub(t *testing.T) {
	cat := loadShared(t, "github.json")
	m, err := NewCodeMode(cat, search.Options{"strategies": "dump"})
	if err != nil {
		t.Fatal(err)
	}
	res, _ := m.Search(context.Background(), search.Query{Text: "anything"})
	const header = "Script completed\nWall time 0.0 seconds\nOutput:\n"
	const warn = "Warning: truncated output (original token count: 54391)\nTotal output lines: 1\n\n"
	if !strings.HasPrefix(res.Shown, header+warn) {
		t.Fatalf("shown starts %q", res.Shown[:200])
	}
	item := strings.TrimPrefix(res.Shown, header)
	if len(item) != 40107 || !strings.Contains(item, "…44391 tokens truncated…") {
		t.Errorf("item is %d bytes", len(item))
	}
	if res.Extra["output_bytes"] != 217561 || res.Extra["truncated"] != true {
		t.Errorf("extra %v", res.Extra)
	}
}

// TestBigTextLikeCodex: text("x".repeat(50000)) and the pragma-raised
// budget that meets the 12,000-token second cap, byte for byte (SHA-256 of
// the item Codex returned).
func TestBigTextLikeCodex(t *testing.T) {
	m := newProbeSim(t, nil)
	tests := []struct {
		script string
		bytes  int
		sha    string
	}{
		{`text("x".repeat(50000))`, 40106, "6075e8f6f31a63b126af1e6c86be65f34a6d1a0759f9b7632a2ef7995cbe87f9"},
		{"// @exec: {\"max_output_tokens\": 20000}\ntext(\"y\".repeat(100000))", 47979, "91170334a2785a05664a77358530761aac71f25bc11f58c7e9f34c5d9337dd9e"},
	}
	const header = "Script completed\nWall time 0.0 seconds\nOutput:\n"
	for _, tt := range tests {
		res := m.RunScript(tt.script, "")
		item, ok := strings.CutPrefix(res.Shown, header)
		sum := sha256.Sum256([]byte(item))
		if !ok || len(item) != tt.bytes || hex.EncodeToString(sum[:]) != tt.sha {
			t.Errorf("%q: item %d bytes %x", tt.script, len(item), sum)
		}
	}
}

// searchAgrees says why a real tool_search result cannot come from our
// ranking ("" when it can): the returned set must be a top-limit set our
// tie bands allow, each namespace's tools in an order our ranks allow, and
// the namespaces in first-seen order of their best tools.
func searchAgrees(ts *ToolSearch, query string, runs [][]string) string {
	res, _ := ts.Search(context.Background(), search.Query{Text: query})
	byName := map[string]search.Hit{}
	for _, h := range res.Hits {
		byName[h.Name] = h
	}
	ns := func(name string) string { return name[:strings.LastIndex(name, "__")] }
	for _, run := range runs {
		in := map[string]bool{}
		for _, name := range run {
			in[name] = true
			h, ok := byName[name]
			if !ok || h.Rank > res.Limit {
				return fmt.Sprintf("Codex returns %s; ours %+v", name, h)
			}
		}
		for _, h := range res.Hits {
			if h.PWithinLimit == 1 && !in[h.Name] {
				return "we return " + h.Name + " for sure; Codex did not"
			}
		}
		if want := min(len(res.Hits), res.Limit); len(run) != want {
			return fmt.Sprintf("Codex returns %d tools, we %d", len(run), want)
		}
		firstOf := map[string]string{}
		var order []string
		for i, a := range run {
			if _, seen := firstOf[ns(a)]; !seen {
				firstOf[ns(a)] = a
				order = append(order, ns(a))
			}
			for _, b := range run[i+1:] {
				if ns(a) == ns(b) && byName[a].Rank > byName[b].RankWorst {
					return a + " cannot precede " + b
				}
			}
		}
		for i := 0; i+1 < len(order); i++ {
			a, b := firstOf[order[i]], firstOf[order[i+1]]
			if byName[a].Rank > byName[b].RankWorst {
				return "namespace of " + a + " cannot come before that of " + b
			}
		}
	}
	return ""
}

var cjk = regexp.MustCompile(`[\x{2e80}-\x{9fff}\x{ac00}-\x{d7af}\x{3040}-\x{30ff}\x{ff00}-\x{ffef}]`)

// withoutCJKServers drops the servers whose instructions or tools contain
// CJK characters (the recording's 59-server subset).
func withoutCJKServers(cat *corpus.Catalog) *corpus.Catalog {
	out := &corpus.Catalog{}
	for _, s := range cat.Servers {
		bad := cjk.MatchString(s.Instructions)
		for _, t := range s.Tools {
			if cjk.Match(t.Raw) || cjk.MatchString(t.Value.JS("")) {
				bad = true
			}
		}
		if !bad {
			out.Servers = append(out.Servers, s)
		}
	}
	return out
}
