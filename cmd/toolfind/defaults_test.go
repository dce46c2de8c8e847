package main

import (
	"encoding/json"
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
		if c.Writer == "heuristic" && c.WriterLabel != "heuristic (a prediction of the model's call)" {
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
	all := "claude@2.1.332=heuristic grok@1.0.0=heuristic codex@0.171.0=heuristic codex-search@0.171.0=heuristic opencode@1.18.33= opencode-codemode@1.18.33=heuristic gemini@0.61.0="
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
	if !strings.Contains(out, "\nwriter: heuristic (a prediction of the model's call)\n\n") {
		t.Errorf("bench text lacks the writer line:\n%s", out)
	}
	out, _, _ = run(t, "bench", "--client", "claude", "--writer", "verbatim")
	if !strings.Contains(out, "\nwriter: verbatim (the prompt itself as the search: a baseline, not a model's call)\n") {
		t.Errorf("bench --writer verbatim text lacks the writer line:\n%s", out)
	}
	out, _, _ = run(t, "rank", "--client", "claude", "--prompt", "look up an invoice")
	if !strings.HasPrefix(out, "writer: heuristic (a prediction of the model's call)\n") {
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
