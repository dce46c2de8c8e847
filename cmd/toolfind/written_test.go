package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The example: each client's model writes its call for the
// prompt, and rank shows the call and what it finds.
func TestRankPromptMongoDB(t *testing.T) {
	mongo := sharedCatalog(t, "mongodb.json")
	out, errOut, code := run(t, "rank", "--prompt", "Group all the movies by release year", "--catalog", mongo, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Prompt  string
		Results []struct {
			Client, Strategy, Writer string
			Call                     json.RawMessage
			Hits                     []struct{ Tool string }
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Prompt != "Group all the movies by release year" {
		t.Errorf("prompt = %q", got.Prompt)
	}
	// Claude and Grok write what their fitted writers pick (their
	// packages' tests pin how): Claude loads the two aggregate tools,
	// Grok names the server and the two most likely words, "aggregate"
	// and "stats" (group's family); codex-search and OpenCode keep their
	// hand-written writers: the server, then "aggregate", the first word
	// of group's family that a tool name holds, then the keywords.
	want := map[string][]string{
		"claude@2.1.332":            {`{"query":"select:mcp__mongodb__aggregate-db,mcp__mongodb__aggregate"}`},
		"grok@1.0.0":                {`{"query":"mongodb aggregate stats"}`},
		"codex-search@0.171.0":      {`{"query":"mongodb aggregate group movies release year"}`},
		"opencode-codemode@1.18.33": {`{"code":"return await tools.$codemode.search({ query: \"aggregate group movies release year\" })"}`},
		// The intent index's three best tools, named as the reminder lists them.
		"copilot@1.0.102": {`{"pattern":"mongodb-db-stats|mongodb-aggregate|mongodb-aggregate-db|mongodb-export|mongodb-explain"}`},
		"codex@0.171.0":   {`{"code":"const re = /group|movi|releas|year|aggreg|summar|statist|stat/i;\ntext(ALL_TOOLS.filter(t => re.test(t.name) || re.test(t.description)).map(t => t.name).join(\"\\n\"));"}`},
	}
	calls := map[string][]string{}
	found := map[string]bool{}
	for _, r := range got.Results {
		// opencode (eager), gemini and vscode (virtual tools): their
		// models never search, so there is no call.
		if r.Strategy == "catalog" || r.Client == "opencode@1.18.33" || r.Client == "gemini@0.61.0" || r.Client == "vscode@2026.3.28" {
			continue
		}
		var c bytes.Buffer
		if err := json.Compact(&c, r.Call); err != nil {
			t.Fatal(err)
		}
		calls[r.Client] = append(calls[r.Client], c.String())
		if r.Writer != "heuristic" {
			t.Errorf("%s writer = %q", r.Client, r.Writer)
		}
		for _, h := range r.Hits {
			found[r.Client] = found[r.Client] || h.Tool == "mongodb/aggregate"
		}
	}
	if !reflect.DeepEqual(calls, want) {
		t.Errorf("calls =\n%q\nwant\n%q", calls, want)
	}
	for c := range want {
		if !found[c] {
			t.Errorf("%s: mongodb/aggregate not among its calls' hits", c)
		}
	}
	// The compact view (several clients) lists each client's call before
	// the ranks, whole, folded at the width.
	compact, _, code := run(t, "rank", "--prompt", "Group all the movies by release year", "--catalog", mongo)
	if code != 0 || !strings.Contains(compact, "\n  grok call (heuristic writer): {\"query\":\"mongodb aggregate stats\"}\n") ||
		!strings.Contains(strings.ReplaceAll(compact, "\n    ", ""), "  codex call (heuristic writer): {\"code\":\"const re = /group|movi|releas|year|aggreg|summar|statist|") {
		t.Errorf("compact view:\n%s", compact)
	}
	// Grok alone, on a prompt naming an operator ($vectorSearch) that no
	// tool its first search shows declares: its two calls, numbered, one
	// column each.
	table, _, code := run(t, "rank", "--prompt", "Find movies similar to Inception with $vectorSearch on the plot embeddings", "--catalog", mongo, "--client", "grok")
	if code != 0 || !strings.Contains(table, "\n  grok#1 call (heuristic writer): {\"query\":\"mongodb find search\"}\n  grok#2 call (heuristic writer): {\"query\":\"mongodb aggregate\"}\n") ||
		!strings.Contains(table, "\n                                grok#1  grok#2\n") {
		t.Errorf("table:\n%s", table)
	}
	// Codex alone: one result, the per-client table with its call.
	table, _, code = run(t, "rank", "--prompt", "Group all the movies by release year", "--catalog", mongo, "--client", "codex-search")
	if code != 0 || !strings.Contains(table, `  call (heuristic writer): {"query":"mongodb aggregate group movies release year"}`) {
		t.Errorf("table:\n%s", table)
	}
}

// write, then bench --written: the replay scores each client on its own
// calls, and the verbatim baseline stands beside it.
func TestWriteThenBenchWritten(t *testing.T) {
	dir := t.TempDir()
	w := filepath.Join(dir, "w.jsonl")
	_, errOut, code := run(t, "write", "--client", "claude,grok,codex,opencode", "--out", w)
	if code != 0 {
		t.Fatalf("write: exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "wrote 48 calls for 16 prompts (claude@2.1.332, grok@1.0.0, codex@0.171.0) to ") {
		t.Errorf("stderr %q", errOut)
	}
	data, _ := os.ReadFile(w)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 48 {
		t.Fatalf("%d lines", len(lines))
	}
	var first map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	if first["writer"] != "heuristic" || first["client"] != "claude@2.1.332" || first["id"] != "1" {
		t.Errorf("first line %v", first)
	}
	out, errOut, code := run(t, "bench", "--written", w, "--format", "json")
	if code != 0 {
		t.Fatalf("bench: exit %d: %s", code, errOut)
	}
	var rep struct {
		Clients []struct {
			Client, Writer string
			Queries        int
		}
		Outcomes []struct {
			Client string
			Calls  []json.RawMessage
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, c := range rep.Clients {
		rows = append(rows, c.Client+"="+c.Writer)
	}
	// Without --client, the clients of the file; no verbatim rows unasked.
	if got := strings.Join(rows, " "); got != "claude@2.1.332=heuristic codex@0.171.0=heuristic grok@1.0.0=heuristic" {
		t.Errorf("rows: %s", got)
	}
	for _, o := range rep.Outcomes {
		if len(o.Calls) != 1 {
			t.Errorf("%s: %d calls in JSON", o.Client, len(o.Calls))
		}
	}
	table, _, _ := run(t, "bench", "--written", w)
	if !strings.Contains(table, "\nwriter: heuristic (a prediction of the model's call; ") {
		t.Errorf("table lacks the writer note:\n%s", table)
	}
}

func TestBenchWrittenNoCall(t *testing.T) {
	w := writeFile(t, "w.jsonl", `{"id": 1, "prompt": "find the invoice", "client": "claude", "call": null, "expect": ["billing/invoice_lookup"]}
{"id": 2, "prompt": "weather alerts", "client": "claude", "call": {"query": "select:mcp__weather__get_alerts"}, "expect": ["weather/get_alerts"]}
`)
	out, errOut, code := run(t, "bench", "--written", w, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Clients []struct {
			NoCall       int     `json:"no_call"`
			FoundAtLimit float64 `json:"found_at_limit"`
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	// One prompt without a call (not found, never filled with the
	// prompt), one found by select: → 1/2.
	if len(rep.Clients) != 1 || rep.Clients[0].NoCall != 1 || rep.Clients[0].FoundAtLimit != 0.5 {
		t.Errorf("clients = %+v", rep.Clients)
	}
}

func TestWrittenUsageErrors(t *testing.T) {
	bad := writeFile(t, "bad.jsonl", `{"id": 1, "prompt": "p", "client": "claude", "call": "select:x"}`)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--written", bad}, `bad.jsonl:1: field "call": must be a JSON object`},
		{[]string{"bench", "--written", bad, "--queries", bad}, "--written and --queries: give one"},
		{[]string{"bench", "--written", bad, "--writer", "heuristic"}, "--written and --writer"},
		{[]string{"bench", "--writer", "oracle"}, `--writer: unknown writer "oracle"`},
		{[]string{"rank", "--prompt", "x", "--query", "y"}, "rank takes --query or --prompt, not both"},
		{[]string{"rank", "--query", "y", "--writer", "verbatim"}, "--writer goes with --prompt"},
		{[]string{"write", "--client", "opencode"}, "none of these clients' models writes a search call"},
		{[]string{"show", "--surface-file", bad}, "--surface-file goes with --surface"},
		{[]string{"show", "--surface", "--surface-file", writeFile(t, "s.json", `{"claude": {"nope": "x"}}`)}, `claude: unknown surface text "nope" (known: tool_search_description, query_description, max_results_description, reminder_header)`},
	}
	for _, tt := range tests {
		_, errOut, code := run(t, tt.args...)
		if code != exitBadInput || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tt.args, code, errOut, tt.want)
		}
	}
}

func TestShowSurfaceGolden(t *testing.T) {
	out, errOut, code := run(t, "show", "--surface")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "surface-demo.txt", out)
	js, _, code := run(t, "show", "--surface", "--client", "claude", "--format", "json", "--surface-file",
		writeFile(t, "s.json", `{"claude": {"reminder_header": "EXACT HEADER"}}`))
	if code != 0 {
		t.Fatal(code)
	}
	var got struct {
		Surfaces []struct {
			Context []struct{ Role, Text string }
			Wording map[string]string
		}
	}
	if err := json.Unmarshal([]byte(js), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Surfaces) != 1 || !strings.HasPrefix(got.Surfaces[0].Context[0].Text, "EXACT HEADER\nCronCreate\n") || got.Surfaces[0].Wording["reminder_header"] != "user" {
		t.Errorf("surface with a user text: %s", js)
	}
}
