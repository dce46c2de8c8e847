package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// benchRows runs a command that prints a bench JSON report and returns
// its rows as "client=writer" (writer "" for a row whose client makes no
// call: OpenCode's eager mode shows every tool).
func benchRows(t *testing.T, args ...string) []string {
	t.Helper()
	out, errOut, code := run(t, args...)
	if code != 0 {
		t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, errOut)
	}
	var rep struct {
		Clients []struct {
			Client, Writer string
			WriterLabel    string `json:"writer_label"`
			Variant        bool
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var rows []string
	for _, c := range rep.Clients {
		if c.Variant {
			continue
		}
		rows = append(rows, c.Client+"="+c.Writer)
		// The label says what the calls are and the measured agreement
		// for the client, or that it was not measured.
		if c.Writer == "heuristic" && !(strings.HasPrefix(c.WriterLabel, "heuristic (a prediction of the model's call; agrees with model-written calls on ") ||
			c.WriterLabel == "heuristic (a prediction of the model's call; its agreement with model-written calls is not measured for this client)") {
			t.Errorf("%s: writer_label %q", c.Client, c.WriterLabel)
		}
	}
	return rows
}

// TestDefaultWriterHeuristic: bench, check and suggest score prompts with
// the heuristic writer unless --writer says otherwise, in every row of
// every client whose model writes a call, and add no verbatim rows
// unasked (issue 24, points 3 and 6).
func TestDefaultWriterHeuristic(t *testing.T) {
	all := "claude@2.1.332=heuristic grok@1.0.0=heuristic codex@0.171.0=heuristic codex-search@0.171.0=heuristic opencode@1.18.33= opencode-codemode@1.18.33=heuristic copilot@1.0.102=heuristic gemini@0.61.0= vscode@2026.3.28="
	if got := strings.Join(benchRows(t, "bench", "--format", "json"), " "); got != all {
		t.Errorf("bench rows:\n got %s\nwant %s", got, all)
	}
	if got := strings.Join(benchRows(t, "check", "--min-mrr", "0", "--format", "json"), " "); got != all {
		t.Errorf("check rows:\n got %s\nwant %s", got, all)
	}
	// The baseline only when asked for, after the heuristic rows.
	got := strings.Join(benchRows(t, "bench", "--client", "claude,opencode", "--writer", "heuristic,verbatim", "--format", "json"), " ")
	if want := "claude@2.1.332=heuristic claude@2.1.332 (verbatim)=verbatim opencode@1.18.33="; got != want {
		t.Errorf("--writer heuristic,verbatim rows:\n got %s\nwant %s", got, want)
	}
	// The text says which writer, once, with what its calls are.
	out, _, _ := run(t, "bench", "--client", "claude,grok")
	if !strings.Contains(out, "\nwriter: heuristic (a prediction of the model's call; agreement with model-written calls,\nleave-one-catalog-out: claude 0.") {
		t.Errorf("bench text lacks the writer line:\n%s", out)
	}
	out, _, _ = run(t, "bench", "--client", "claude", "--writer", "verbatim")
	if !strings.Contains(out, "\nwriter: verbatim (the prompt itself as the search: a baseline, not a model's call)\n") {
		t.Errorf("bench --writer verbatim text lacks the writer line:\n%s", out)
	}
	out, _, _ = run(t, "rank", "--client", "claude", "--prompt", "look up an invoice")
	if !strings.HasPrefix(out, "writer: heuristic (a prediction of the model's call; agrees with model-written calls on ") {
		t.Errorf("rank --prompt lacks the writer line:\n%s", out)
	}
	out, _, code := run(t, "suggest", "--client", "grok", "--format", "json")
	var sug struct{ Writer string }
	if err := json.Unmarshal([]byte(out), &sug); code != 0 || err != nil || sug.Writer != "heuristic" {
		t.Errorf("suggest: exit %d, writer %q (%v)", code, sug.Writer, err)
	}
}

// TestQueryOnlyOptionNeedsVerbatim: an option of how a client searches a
// query text does nothing when every call is written; it is refused,
// saying how to run it.
func TestQueryOnlyOptionNeedsVerbatim(t *testing.T) {
	script := writeFile(t, "s.js", "text(ALL_TOOLS.map(t => t.name).join('\\n'))\n")
	_, errOut, code := run(t, "bench", "--client", "codex", "--codex-script", script)
	want := "toolfind: --codex-script sets how codex searches the query text, but here every call is written by the heuristic writer, so it would change nothing; to run it, add --writer verbatim (the query text is the search)\n"
	if code != exitBadInput || errOut != want {
		t.Errorf("exit %d, stderr %q\nwant %q", code, errOut, want)
	}
	if _, errOut, code := run(t, "bench", "--client", "codex", "--codex-script", script, "--writer", "heuristic,verbatim"); code != 0 {
		t.Errorf("with verbatim: exit %d: %s", code, errOut)
	}
}

// TestBenchWrittenTwoClients: 2 Claude lines and 1 Codex line, every call
// finding its tool, give Claude 2 of 2 and Codex 1 of 1, and say so.
func TestBenchWrittenTwoClients(t *testing.T) {
	w := writeFile(t, "w.jsonl", `{"id": 1, "prompt": "find the invoice", "client": "claude", "call": {"query": "select:mcp__billing__invoice_lookup"}, "expect": ["billing/invoice_lookup"]}
{"id": 2, "prompt": "weather alerts", "client": "claude", "call": {"query": "select:mcp__weather__get_alerts"}, "expect": ["weather/get_alerts"]}
{"id": 3, "prompt": "list the files", "client": "codex", "call": {"code": "const re = /list/i;\ntext(ALL_TOOLS.filter(t => re.test(t.name) || re.test(t.description)).map(t => t.name).join(\"\\n\"));"}, "expect": ["files/list_directory"]}
`)
	out, errOut, code := run(t, "bench", "--written", w, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Clients []struct {
			Client       string
			Queries      int
			FoundAtLimit float64 `json:"found_at_limit"`
			NoCall       int     `json:"no_call"`
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, c := range rep.Clients {
		rows = append(rows, fmt.Sprintf("%s %d %.3f %d", c.Client, c.Queries, c.FoundAtLimit, c.NoCall))
	}
	if got, want := strings.Join(rows, "; "), "claude@2.1.332 2 1.000 0; codex@0.171.0 1 1.000 0"; got != want {
		t.Errorf("rows (client, queries, found@limit, no call):\n got %s\nwant %s", got, want)
	}
	out, _, _ = run(t, "bench", "--written", w)
	if !strings.Contains(out, "each client is scored over the prompts written for it: claude@2.1.332 on 2, codex@0.171.0 on 1") {
		t.Errorf("the table does not say what each client is scored on:\n%s", out)
	}
}
