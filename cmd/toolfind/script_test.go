package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCodexScriptUnusable: a script that cannot run at all, or a script
// for a client that is not selected, is exit 2 before any query runs.
func TestCodexScriptUnusable(t *testing.T) {
	broken := writeFile(t, "broken.js", "// find tools\nlet x = ;\n")
	empty := writeFile(t, "empty.js", "")
	ok := writeFile(t, "ok.js", "text(ALL_TOOLS.map(t => t.name).join('\\n'))\n")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"syntax error", []string{"rank", "--client", "codex", "--codex-script", broken, "-q", "invoice"},
			"toolfind: --codex-script " + broken + ":2:9: SyntaxError: Unexpected token ; (and 2 more errors)\n"},
		{"empty file", []string{"bench", "--client", "codex", "--codex-script", empty},
			"toolfind: --codex-script " + empty + ": the script is empty\n"},
		{"non-Codex client", []string{"rank", "--client", "claude,grok", "--codex-script", ok, "-q", "invoice"},
			"toolfind: --codex-script applies to client codex, which is not selected (--client claude,grok)\n"},
		{"codex-search is not code mode", []string{"check", "--client", "codex-search", "--codex-script", ok, "--min-mrr", "0"},
			"toolfind: --codex-script applies to client codex, which is not selected (--client codex-search)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, tt.args...)
			if code != exitBadInput || errOut != tt.want || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q\nwant exit 2, stderr %q", code, out, errOut, tt.want)
			}
		})
	}
}

// TestCodexScriptRunErrors: a script that throws or loops is an error per
// query: shown in rank, counted in bench with the errors column and the
// summary line, and a failed check unless --allow-errors.
func TestCodexScriptRunErrors(t *testing.T) {
	throw := writeFile(t, "throw.js", "text('partial')\nthrow new Error('no index for ' + QUERY)\n")
	loop := writeFile(t, "loop.js", "while (true) {}\n")

	out, _, code := run(t, "rank", "--client", "codex", "--codex-script", throw, "-q", "invoice", "--codex-strategies", "name")
	want := "codex@0.171.0 [script] — 0 hits, limit 0, model reads 30 tokens\n  error: Error: no index for invoice (at exec_main.mjs:2:7)\n  (no tools: the search failed)\n"
	if code != 0 || !strings.HasPrefix(out, want) {
		t.Errorf("rank exit %d:\n%s\nwant prefix\n%s", code, out, want)
	}
	out, _, _ = run(t, "rank", "--client", "codex", "--codex-script", loop, "--codex-timeout", "20ms", "-q", "invoice", "--format", "json")
	var r rankOutput
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if got := r.Results[0]; got.Error != "the script was stopped at the 20ms time limit (Codex would yield it as a running cell)" || !got.TimedOut {
		t.Errorf("rank JSON error %q, timed_out %v", got.Error, got.TimedOut)
	}

	// The demo query set has 16 queries.
	out, _, code = run(t, "bench", "--writer", "verbatim", "--client", "codex", "--codex-script", loop, "--codex-timeout", "20ms", "--codex-strategies", "name")
	if code != 0 || !strings.Contains(out, "  ERRORS\n") || !strings.Contains(out, "\nwarning: codex@0.171.0: 16 of 16 runs timed out\n") {
		t.Errorf("bench exit %d:\n%s", code, out)
	}
	_, errOut, code := run(t, "check", "--writer", "verbatim", "--client", "codex", "--codex-script", throw, "--codex-strategies", "name", "--min-mrr", "0", "--format", "json")
	if code != exitCheckFailed || !strings.Contains(errOut, "warning: codex@0.171.0: 16 of 16 runs failed\n") ||
		!strings.HasSuffix(errOut, "ERROR codex@0.171.0: 16 of 16 runs failed\ntoolfind: check failed: 16 failed searches (--allow-errors to accept)\n") {
		t.Errorf("check exit %d, stderr:\n%s", code, errOut)
	}
	_, errOut, code = run(t, "check", "--writer", "verbatim", "--client", "codex", "--codex-script", throw, "--codex-strategies", "name", "--min-mrr", "0", "--format", "json", "--allow-errors")
	if code != 0 || !strings.HasSuffix(errOut, "check passed: 1 client\n") {
		t.Errorf("check --allow-errors exit %d, stderr:\n%s", code, errOut)
	}
}
