package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolfind/toolfind/bench/benchtest"
)

// The bench and check tests run the fake clients of package benchtest
// (not part of "all"), so that they do not depend on any real client's
// scores.
func init() { benchtest.Register() }

const (
	fakes         = "fake,fake-random,fake-multi"
	goldenQueries = "../../bench/testdata/golden-queries.jsonl"
)

// cli runs the CLI in-process: stdout, stderr, exit code.
func cli(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(args, strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), code
}

func TestBenchDemoDefault(t *testing.T) {
	// No --queries and no --catalog: the embedded demo query set.
	out, errOut, code := cli(t, "bench", "--client", fakes)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"16 queries (demo/queries.jsonl) × 3 clients (4 variants) over 19 tools (demo)",
		"CLIENT         LIMIT     @1  @LIMIT    MRR  RANK  RANK  FOUND  TOKENS",
		"fake@1             3  75.0%   87.5%  0.812  1.14   2.0      2      12",
		// the names strategy of fake-multi, under it
		"fake-multi@1       3  75.0%   87.5%  0.812  1.14   2.0      2      12\n  names            3  68.8%   75.0%",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if errOut != "" {
		t.Errorf("stderr not empty (no progress bar when not a terminal): %q", errOut)
	}
}

func TestBenchFormats(t *testing.T) {
	base := []string{"bench", "--client", fakes, "--queries", goldenQueries, "--by", "category", "--per-tool"}
	t.Run("json", func(t *testing.T) {
		out, errOut, code := cli(t, append(base, "--format", "json")...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var v struct {
			Clients  []map[string]any `json:"clients"`
			Outcomes []map[string]any `json:"outcomes"`
			By       []map[string]any `json:"by"`
			PerTool  []map[string]any `json:"per_tool"`
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatal(err)
		}
		if len(v.Clients) != 4 || len(v.Outcomes) != 39 || len(v.By) != 1 || len(v.PerTool) != 9 {
			t.Errorf("clients %d outcomes %d by %d per_tool %d", len(v.Clients), len(v.Outcomes), len(v.By), len(v.PerTool))
		}
		// The design's keys.
		for _, k := range []string{"client", "queries", "found_at_1", "found_at_limit", "mrr", "not_found", "mean_shown_tokens"} {
			if _, ok := v.Clients[0][k]; !ok {
				t.Errorf("clients[0] lacks %q", k)
			}
		}
		for _, k := range []string{"query", "expect", "client", "rank", "rank_worst", "p_within_limit"} {
			if _, ok := v.Outcomes[0][k]; !ok {
				t.Errorf("outcomes[0] lacks %q", k)
			}
		}
		// The failing query is reported on stderr too.
		if !strings.Contains(errOut, "warning: fake@1: 1 of 10 runs failed\n") {
			t.Errorf("stderr %q", errOut)
		}
	})
	t.Run("junit", func(t *testing.T) {
		out, _, code := cli(t, append(base, "--format", "junit")...)
		var v struct {
			XMLName xml.Name
			Tests   int `xml:"tests,attr"`
		}
		if err := xml.Unmarshal([]byte(out), &v); err != nil || code != 0 || v.XMLName.Local != "testsuites" || v.Tests != 30 { // 10 queries × 3 clients (variant rows are left out)
			t.Errorf("exit %d, %v, %+v", code, err, v)
		}
	})
	t.Run("markdown", func(t *testing.T) {
		out, _, code := cli(t, append(base, "--format", "md")...)
		if code != 0 || !strings.HasPrefix(out, "## toolfind findability") || !strings.Contains(out, "| `fake@1` | 3 | 9 |") {
			t.Errorf("exit %d:\n%s", code, out)
		}
	})
	t.Run("html to file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "report.html")
		out, _, code := cli(t, append(base, "--format", "html", "--out", path)...)
		if code != 0 || out != "" {
			t.Fatalf("exit %d, stdout %q", code, out)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s := string(data)
		if !strings.HasPrefix(s, "<!DOCTYPE html>") || !strings.Contains(s, "<svg") || strings.Contains(s, "<script") || strings.Contains(s, "http://") && !strings.Contains(s, `xmlns="http://www.w3.org/2000/svg"`) {
			t.Errorf("not a self-contained HTML report")
		}
	})
}

// TestBenchDeterministic: one worker or many, the same bytes.
func TestBenchDeterministic(t *testing.T) {
	args := []string{"bench", "--client", fakes, "--queries", goldenQueries, "--format", "json", "--per-tool", "--by", "kind"}
	one, _, _ := cli(t, append(args, "--workers", "1")...)
	many, _, _ := cli(t, append(args, "--workers", "8")...)
	if one != many || one == "" {
		t.Error("--workers 1 and --workers 8 differ")
	}
}

func TestBenchUsageErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(bad, []byte("{\"query\": \"x\", \"expect\": [\"nope/tool\"]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"catalog without queries", []string{"bench", "--catalog", "../../corpus/demo/catalog.json"}, "--queries is required"},
		{"bad format", []string{"bench", "--format", "pdf"}, `--format "pdf": want text, json, markdown, junit or html`},
		{"negative workers", []string{"bench", "--workers", "-1"}, "--workers -1"},
		{"negative limit", []string{"bench", "--limit", "-2"}, "--limit -2"},
		{"by a reserved key", []string{"bench", "--by", "query"}, `--by "query"`},
		{"missing queries file", []string{"bench", "--queries", "nope.jsonl"}, "nope.jsonl"},
		{"unresolvable expect", []string{"bench", "--queries", bad}, bad + ":1"},
		{"unknown client", []string{"bench", "--client", "cursor"}, `unknown client "cursor"`},
		{"unwritable out", []string{"bench", "--client", "fake", "--out", filepath.Join(t.TempDir(), "no", "such", "dir.txt")}, "--out"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := cli(t, tt.args...)
			if code != exitBadInput || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d (want %d), stderr %q (want %q)", code, exitBadInput, errOut, tt.want)
			}
		})
	}
}

func TestRunStatus(t *testing.T) {
	// A terminal, no --quiet: quick phases draw no bar, only the summary.
	var buf bytes.Buffer
	r := newRun(&buf, true, false, false)
	ph := r.begin("load", 100, true)
	ph.set(50)
	ph.end("loaded 3 tools in 1 server")
	r.begin("build", 2, false).end("built 2 clients")
	r.finish()
	if got := buf.String(); !regexp.MustCompile(`^loaded 3 tools in 1 server in \d+\.\d\d s; built 2 clients in \d+\.\d\d s; \d+\.\d\d s in all\n$`).MatchString(got) {
		t.Errorf("summary %q", got)
	}
	// A phase longer than the delay draws a bar (github.com/vbauerster/mpb),
	// then erases it. The bars redraw only when told to here (refresh):
	// each send after the first waits for the draw before it, so the
	// first frame is the one at 1 of 4. Completing the bar draws its last
	// frame, and ending the phase erases it (cursor up, erase down).
	buf.Reset()
	r = newRun(&buf, true, false, false)
	r.delay = 0
	refresh := make(chan any)
	r.refresh = refresh
	ph = r.begin("search", 4, false)
	ph.set(1)
	for range 3 {
		refresh <- true
	}
	for i := int64(2); i <= 4; i++ {
		ph.set(i)
	}
	ph.end("")
	const erase = "\x1b[1A\x1b[J"
	// 28 cells between the brackets of 30: 25% is 7, the 7th the tip.
	first := regexp.MustCompile(`^search  25% \[======>-{21}\] 1 / 4 ETA \d+[a-zµ]*s\n`)
	if got := buf.String(); !first.MatchString(got) || !strings.HasSuffix(got, erase+"search 100% ["+strings.Repeat("=", 28)+"] 4 / 4\n"+erase) {
		t.Errorf("bar %q", got)
	}
	// A total not known when the bar starts (a load's bytes): a spinner
	// with the amount; erased when the phase ends.
	buf.Reset()
	ph = r.begin("load", 0, true)
	ph.set(1536)
	ph.end("")
	if got := buf.String(); got != "load ⠋ 1.5 KiB\n"+erase {
		t.Errorf("spinner %q", got)
	}
	// A total set before the first report (as build's callback does): a
	// bar, counts in thousands; the phase ends before it completes.
	buf.Reset()
	ph = r.begin("build", 0, false)
	ph.total = 1049
	ph.set(3)
	ph.end("")
	if got := buf.String(); got != "build   0% ["+strings.Repeat("-", 28)+"] 3 / 1,049\n"+erase {
		t.Errorf("bar of 1,049 %q", got)
	}
	// --quiet or not a terminal: nothing at all; --timing: the table.
	for _, tc := range []struct{ terminal, quiet bool }{{true, true}, {false, false}} {
		buf.Reset()
		r = newRun(&buf, tc.terminal, tc.quiet, false)
		r.delay = 0
		r.begin("load", 1, false).set(1)
		r.finish()
		if buf.Len() != 0 {
			t.Errorf("terminal %v quiet %v: printed %q", tc.terminal, tc.quiet, buf.String())
		}
	}
	buf.Reset()
	r = newRun(&buf, false, false, true)
	r.begin("load", 0, true).end("loaded 1 tool")
	r.finish()
	if got := buf.String(); !strings.Contains(got, "phase") || !strings.Contains(got, "load") || !strings.Contains(got, "total") || !strings.Contains(got, "peak RSS") {
		t.Errorf("timing table %q", got)
	}
}

func TestBenchByUnknownTag(t *testing.T) {
	_, errOut, code := cli(t, "bench", "--client", fakes, "--by", "section")
	if code != exitBadInput || !strings.Contains(errOut, `--by "section": no query of demo/queries.jsonl has this tag; tags present: category, kind`) {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// TestBenchTextFitsWidth: the text report of a real corpus fits 100
// columns (the MetaTool queries are long; they are cut).
func TestBenchTextFitsWidth(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpora", "mongodb-accuracy")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared corpora not found at %s (they sit beside the repository): %v", dir, err)
	}
	out, errOut, code := cli(t, "bench", "--catalog", filepath.Join(dir, "..", "..", "catalogs", "mongodb.json"),
		"--queries", filepath.Join(dir, "queries.jsonl"), "--client", "claude,grok,codex")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "× 3 clients over 53 tools") || !strings.Contains(out, `233 of 234 queries scored; 1 skipped: no expected tool (empty "expect")`) ||
		!strings.Contains(out, "\nwriter: heuristic (a prediction of the model's call; agreement with model-written calls,\nleave-one-catalog-out: claude 0.") {
		t.Errorf("header:\n%s", out[:min(len(out), 400)])
	}
	for _, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("line of %d characters: %q", n, l)
		}
	}
}

func TestHints(t *testing.T) {
	// bench --queries for another catalog, without --catalog.
	q := writeFile(t, "q.jsonl", "# a comment line\n// another\n{\"query\": \"x\", \"expect\": [\"azure__storage_list\"]}\n")
	_, errOut, code := cli(t, "bench", "--queries", q, "--client", "claude")
	if code != exitBadInput || !strings.Contains(errOut, "hint: without --catalog the queries are resolved against the embedded demo catalog; pass --catalog") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	// --limit that a client does not apply.
	out, _, code := cli(t, "rank", "--query", "invoice", "--limit", "3", "--client", "claude,opencode", "--by-client")
	if code != 0 || !strings.Contains(out, "note: --limit 3 does not apply to this client (it shows 19)") || strings.Contains(out, "claude@2.1.332 — 3 hits, limit 3, model reads 166 tokens\n  note: --limit") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}
