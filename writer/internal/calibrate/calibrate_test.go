package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/jsbox"
	"github.com/toolfind/toolfind/jsbox/gojabox"
	"github.com/toolfind/toolfind/search/intent"
	"github.com/toolfind/toolfind/writer"
	"github.com/toolfind/toolfind/writer/calib"
)

const sharedDir = "../../../../shared"

// The README's table is the table of loco.json, as fit renders it.
func TestREADMETableMatchesLoco(t *testing.T) {
	b, err := os.ReadFile("../../testdata/calib/loco.json")
	if err != nil {
		t.Fatal(err)
	}
	var res results
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	got, err := readmeTable("../../testdata/calib/README.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := renderTable(res); got != want {
		t.Errorf("README table differs from loco.json (go run ./writer/internal/calibrate fit):\n%s\nwant\n%s", got, want)
	}
}

var fullLOCO = flag.Bool("loco", false, "TestFitReproduces: also refit every leave-one-out fold and compare loco.json (minutes)")

// Fitting again on the stored set gives the embedded models, bit for bit,
// and with -loco the stored leave-one-out rows.
func TestFitReproduces(t *testing.T) {
	if testing.Short() {
		t.Skip("fits every family and replays every call: skipped with -short")
	}
	if _, err := os.Stat(filepath.Join(sharedDir, "corpora")); err != nil {
		t.Skipf("shared corpora not found (%v): this check needs ../shared", err)
	}
	wd, _ := os.Getwd()
	root := filepath.Join(wd, "..", "..", "..")
	out, err := fitAll(filepath.Join(root, "..", "shared"), filepath.Join(root, "writer", "testdata", "calib"), families3, !*fullLOCO, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	for fam, m := range out.models {
		want, err := os.ReadFile(filepath.Join(root, fitFile[fam]))
		if err != nil {
			t.Fatal(err)
		}
		if got := modelJSON(m); string(got) != string(want) {
			t.Errorf("%s: fitted model differs from %s:\n%s\nwant\n%s", fam, fitFile[fam], got, want)
		}
	}
	if !*fullLOCO {
		return
	}
	b, err := os.ReadFile(filepath.Join(root, "writer", "testdata", "calib", "loco.json"))
	if err != nil {
		t.Fatal(err)
	}
	var stored results
	json.Unmarshal(b, &stored)
	if !reflect.DeepEqual(out.res.Rows, stored.Rows) {
		t.Errorf("leave-one-out rows differ from loco.json:\n%+v\nwant\n%+v", out.res.Rows, stored.Rows)
	}
}

func TestCodeTerms(t *testing.T) {
	for _, c := range []struct {
		code string
		want []string
	}{
		// a regex literal after "=", and the string of a join
		{"const re = /aggregat|vector search/i;\ntext(ALL_TOOLS.filter(t => re.test(t.name)).map(t => t.name).join(\"\\n\"));", []string{"n", "aggregat", "vector", "search"}},
		// string literals of every quote kind (not a template, not a
		// message); division is no regex
		{"const k = ['Mongo', \"index\", `raw`]; const x = a / b / c; `tmpl ${k}`; text(\"No match among the tools\")", []string{"mongo", "index", "raw"}},
		{"text(ALL_TOOLS.map(t => t.name))", nil},
	} {
		call, _ := json.Marshal(map[string]string{"code": c.code})
		if got := codeTerms(call); !reflect.DeepEqual(got, c.want) {
			t.Errorf("codeTerms(%q) = %q, want %q", c.code, got, c.want)
		}
	}
}

func TestPatternTerms(t *testing.T) {
	for _, c := range []struct {
		pattern string
		want    []string
	}{
		{"github-create_issue|github-list_issues", []string{"github", "create", "issue", "github", "list", "issues"}},
		{"(?i)Pull.*Request", []string{"i", "pull", "request"}},
		{`\d+`, []string{"d"}},
	} {
		call, _ := json.Marshal(map[string]string{"pattern": c.pattern})
		if got := patternTerms(call); !reflect.DeepEqual(got, c.want) {
			t.Errorf("patternTerms(%q) = %q, want %q", c.pattern, got, c.want)
		}
	}
}

// checkCall reads a tool_search_tool call as its schema does: a pattern
// of 1 to 200 characters and an optional integer limit.
func TestCheckCallCopilot(t *testing.T) {
	long := strings.Repeat("a", 201)
	for _, c := range []struct {
		call string
		ok   bool
	}{
		{`{"pattern": "issue"}`, true},
		{`{"pattern": "issue", "limit": 10}`, true},
		{`{"pattern": "` + long[:200] + `"}`, true},
		{`{"pattern": "` + long + `"}`, false}, // 201 characters
		{`{"pattern": "  "}`, false},
		{`{"query": "issue"}`, false},
		{`{"pattern": "issue", "limit": "5"}`, false},
	} {
		if err := checkCall("copilot", json.RawMessage(c.call)); (err == nil) != c.ok {
			t.Errorf("checkCall(%s) = %v, want ok %v", c.call, err, c.ok)
		}
	}
}

func TestTermHit(t *testing.T) {
	c := intent.WordCand{Form: "movies", Stem: "movi"}
	for _, c2 := range []struct {
		terms []string
		want  bool
	}{
		{[]string{"movie"}, true},   // begins with the stem
		{[]string{"mov"}, true},     // the form begins with it
		{[]string{"mo"}, false},     // under three characters
		{[]string{"film"}, false},   // another word
		{[]string{"moviesx"}, true}, // begins with the stem
	} {
		if got := termHit(c, c2.terms); got != c2.want {
			t.Errorf("termHit(movies, %q) = %v, want %v", c2.terms, got, c2.want)
		}
	}
}

func TestClaudePicks(t *testing.T) {
	got := claudePicks(json.RawMessage(`{"query": " select:mcp__a__B, WebSearch ,,", "max_results": 5}`))
	want := map[string]bool{"mcp__a__b": true, "websearch": true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("picks %v, want %v", got, want)
	}
	if got := claudePicks(json.RawMessage(`{"query": "mongodb aggregate"}`)); len(got) != 0 {
		t.Errorf("keyword query picks %v", got)
	}
}

// ingestBatch keeps valid answers, drops every other line with a reason,
// and names the prompts left without an answer.
func TestIngestBatch(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "claude-9.jsonl")
	os.WriteFile(out, []byte(strings.Join([]string{
		`{"id": "p0001", "call": {"query": "select:mcp__mongodb__find"}}`,
		`{"id": "p0001", "call": {"query": "again"}}`,
		`{"id": "p0009", "call": {"query": "x"}}`,
		`{"id": "p0002", "call": {"query": ""}}`,
		`not json`,
		``,
	}, "\n")), 0o644)
	keys := []calib.Key{
		{ID: "p0001", Batch: "claude-9", Client: "claude", Setup: "s", Prompt: calib.Prompt{Corpus: "mongodb-accuracy", Line: 4, Text: "find movies", Expect: []string{"mongodb__find"}}},
		{ID: "p0002", Batch: "claude-9", Client: "claude", Setup: "s", Prompt: calib.Prompt{Corpus: "mongodb-accuracy", Line: 5, Text: "count movies", Expect: []string{"mongodb__count"}}},
	}
	lines, bad, err := ingestBatch("claude-9", out, keys)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 1 || lines[0].ID != "claude-9/p0001" || lines[0].Client != "claude@2.1.332" || string(lines[0].Call) != `{"query":"select:mcp__mongodb__find"}` {
		t.Fatalf("lines %+v", lines)
	}
	if got := string(lines[0].Marshal()); got != `{"id":"claude-9/p0001","prompt":"find movies","client":"claude@2.1.332","call":{"query":"select:mcp__mongodb__find"},"expect":["mongodb__find"],"writer":"model-blind","batch":"claude-9","corpus":"mongodb-accuracy","line":4,"setup":"s"}` {
		t.Errorf("line %s", got)
	}
	want := []string{
		`claude-9.jsonl:2: id "p0001" answered twice (first kept)`,
		`claude-9.jsonl:3: id "p0009" is not a prompt of the batch`,
		`claude-9.jsonl:4: id p0002: call: empty query`,
		`claude-9.jsonl:5: not a JSON object {id, call}: invalid character 'o' in literal null (expecting 'u')`,
		`claude-9: id p0002 has no valid answer`,
	}
	if !reflect.DeepEqual(bad, want) {
		t.Errorf("problems:\n%s\nwant\n%s", strings.Join(bad, "\n"), strings.Join(want, "\n"))
	}
}

func FuzzCodeTerms(f *testing.F) {
	f.Add(`const re = /a|b/i; "x" 'y' ` + "`z`")
	f.Add(`/unterminated`)
	f.Fuzz(func(t *testing.T, code string) {
		call, _ := json.Marshal(map[string]string{"code": code})
		for _, term := range codeTerms(call) {
			if term == "" || strings.ToLower(term) != term {
				t.Fatalf("term %q", term)
			}
		}
	})
}

// TestMain gives the tests the JavaScript engine main sets: the model's
// Codex scripts run in goja.
func TestMain(m *testing.M) {
	jsbox.SetEngine(gojabox.New())
	os.Exit(m.Run())
}

// TestMergeBatches: ingesting keeps the stored lines of batches whose
// answers are gone from the work folder, and a batch ingested again
// replaces its own lines only.
func TestMergeBatches(t *testing.T) {
	line := func(id, batch string) writer.Line {
		return writer.Line{ID: id, Prompt: "p", Tags: map[string]json.RawMessage{"batch": json.RawMessage(`"` + batch + `"`)}}
	}
	old := []writer.Line{line("a-1/p1", "a-1"), line("a-2/p1", "a-2"), line("a-2/p2", "a-2")}
	fresh := []writer.Line{line("a-2/p1'", "a-2"), line("a-0/p1", "a-0")}
	got := mergeBatches(old, fresh, map[string]bool{"a-2": true, "a-0": true})
	var ids []string
	for _, l := range got {
		ids = append(ids, l.ID)
	}
	// a-1 kept (not ingested again), a-2 replaced by its fresh line, a-0
	// added; ordered by batch.
	want := []string{"a-0/p1", "a-1/p1", "a-2/p1'"}
	if strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Errorf("got %v, want %v", ids, want)
	}
}

// TestEarlierReport: the count and problem lines of batches not ingested
// again are carried over.
func TestEarlierReport(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ingest.txt")
	os.WriteFile(path, []byte("# ingest: header\nclaude-1: 272 prompts, 272 calls kept, 0 problems\ngrok-1: 272 prompts, 271 calls kept, 1 problems\ngrok-1.jsonl:7: dropped\nclaude-1.jsonl:3: dropped\n"), 0o644)
	counts, report := earlierReport(path, map[string]bool{"claude-1": true})
	if strings.Join(counts, "|") != "grok-1: 272 prompts, 271 calls kept, 1 problems" || strings.Join(report, "|") != "grok-1.jsonl:7: dropped" {
		t.Errorf("counts %q, report %q", counts, report)
	}
}
