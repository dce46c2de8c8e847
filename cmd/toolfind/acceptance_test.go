package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/toolfind -run %s -update)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run with -update after checking):\n%s", path, got)
	}
}

// TestMainJob is the README's first command: rank --query invoice on the
// embedded demo with every client.
func TestMainJob(t *testing.T) {
	t.Setenv("COLUMNS", "") // 100 columns
	out, errOut, code := run(t, "rank", "--query", "invoice")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "rank-invoice.txt", out)
	out, errOut, code = run(t, "rank", "--query", "invoice", "--by-client")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "rank-invoice-by-client.txt", out)
}

// TestRankFitsTheScreen is the "done when": rank --query invoice on
// the shared catalogs prints at most one screen, and every line of rank,
// with or without --explain, fits the width.
func TestRankFitsTheScreen(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "catalogs")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared catalogs not found at %s (they sit beside the repository): %v", dir, err)
	}
	for _, tc := range []struct {
		columns  string
		args     []string
		maxLines int
	}{
		// the table, the legend and about one note per client: 26 lines
		// with eight clients; vscode's one note (2 lines at 100 columns,
		// 3 at 80) makes 28
		{"", []string{"--query", "invoice"}, 28},
		{"", []string{"--query", "create pull request"}, 50},
		// at 80 columns the nine clients' columns take two blocks, each
		// repeating the 20 rows
		{"80", []string{"--query", "create pull request"}, 76},
		{"", []string{"--query", "create pull request", "--explain", "--client", "claude,grok,codex-search"}, 0},
		{"", []string{"--query", "list pods", "--by-client"}, 0},
	} {
		t.Setenv("COLUMNS", tc.columns)
		out, errOut, code := run(t, append([]string{"rank", "--catalog", dir}, tc.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errOut)
		}
		width := 100
		if tc.columns != "" {
			width = 80
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if tc.maxLines > 0 && len(lines) > tc.maxLines {
			t.Errorf("%v: %d lines, want at most %d:\n%s", tc.args, len(lines), tc.maxLines, out)
		}
		for _, l := range lines {
			if n := utf8.RuneCountInString(l); n > width {
				t.Errorf("%v: line of %d characters (width %d): %q", tc.args, n, width, l)
			}
		}
	}
}

type rankJSON struct {
	Query   string `json:"query"`
	Results []struct {
		Client   string `json:"client"`
		Strategy string `json:"strategy"`
		Hits     []struct {
			Rank  int     `json:"rank"`
			Tool  string  `json:"tool"`
			Name  string  `json:"name"`
			Score float64 `json:"score"`
		} `json:"hits"`
		Shown string `json:"shown"`
	} `json:"results"`
}

func rankJSONOf(t *testing.T, args ...string) rankJSON {
	t.Helper()
	out, errOut, code := run(t, append([]string{"rank", "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r rankJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestClaudeSeed checks issue 3's acceptance on the demo catalog: the
// seed's rankings (claude spec §4).
func TestClaudeSeed(t *testing.T) {
	tests := []struct {
		args []string
		want string // tool:score, in rank order
	}{
		// invoice: part 12 + coarse substring 4; part substring 6 + coarse
		// substring 4; search hint 4; description word 2.
		{[]string{"--query", "invoice"}, "billing/invoice_lookup:16 billing/findInvoice:10 billing/export:4 billing/digest:2"},
		// billing: part 12 + coarse 12 for each billing tool, tied in pool
		// order; add_notes only through its description (2).
		{[]string{"--query", "billing", "--limit", "10"}, "billing/digest:24 billing/export:24 billing/findInvoice:24 billing/invoice_lookup:24 billing/ledger:24 accounts/add_notes:2"},
		{[]string{"--query", "customer"}, ""}, // customer_lookup is always loaded, not deferred
	}
	for _, tt := range tests {
		r := rankJSONOf(t, append([]string{"--client", "claude"}, tt.args...)...)
		var got []string
		for _, h := range r.Results[0].Hits {
			got = append(got, h.Tool+":"+formatScore(h.Score))
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("%v: got %q, want %q", tt.args, strings.Join(got, " "), tt.want)
		}
		if tt.want == "" && r.Results[0].Shown != "No matching deferred tools found" {
			t.Errorf("%v: shown %q", tt.args, r.Results[0].Shown)
		}
	}
}

func sharedCatalog(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join("..", "..", "..", "shared", "catalogs", name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared catalog %s not found (it sits beside the repository): %v", p, err)
	}
	return p
}

// TestGrokShortcut: issue 4's exact-name shortcut from the CLI.
func TestGrokShortcut(t *testing.T) {
	gh := sharedCatalog(t, "github.json")
	r := rankJSONOf(t, "--client", "grok", "--query", "github__get_me", "--catalog", gh)
	if h := r.Results[0].Hits; len(h) != 1 || h[0].Tool != "github/get_me" || h[0].Score != 1 {
		t.Errorf("hits %+v, want only github/get_me with score 1", h)
	}
	if !strings.Contains(r.Results[0].Shown, `"tool_name": "github__get_me"`) {
		t.Errorf("shown lacks the search_tool JSON: %.300s", r.Results[0].Shown)
	}
}

// TestCodexScript: issue 5's user script through the CLI; Codex's output
// cap leaves the header item and a middle-cut text.
func TestCodexScript(t *testing.T) {
	script := writeFile(t, "s.js", `text("x".repeat(50000))`)
	r := rankJSONOf(t, "--client", "codex", "--query", "anything", "--codex-script", script)
	var shown string
	for _, res := range r.Results {
		if res.Strategy == "script" {
			shown = res.Shown
		}
	}
	if !strings.HasPrefix(shown, "Script completed") || !strings.Contains(shown, "tokens truncated") {
		t.Errorf("script result: %.400s", shown)
	}
}

// TestOpenCodeCatalogMembership: issue 6's command on github.json.
func TestOpenCodeCatalogMembership(t *testing.T) {
	gh := sharedCatalog(t, "github.json")
	r := rankJSONOf(t, "--client", "opencode-codemode", "--query", "create issues", "--catalog", gh)
	if len(r.Results) == 0 || len(r.Results[0].Hits) == 0 {
		t.Fatalf("no results: %+v", r)
	}
	if !strings.Contains(r.Results[0].Shown, "## Available tools") {
		t.Errorf("shown lacks the catalog section: %.300s", r.Results[0].Shown)
	}
}

// TestClientBoolOption: client options of kind bool read like bool flags.
// The demo's deferred pool is 19 tools − customer_lookup (always loaded) −
// render_board (app-only) = 17, plus Claude Code's 11 deferred built-ins.
func TestClientBoolOption(t *testing.T) {
	for _, tt := range []struct {
		flag string
		pool float64
	}{{"--claude-builtins", 28}, {"--claude-builtins=true", 28}, {"--claude-builtins=false", 17}} {
		out, errOut, code := run(t, "rank", "--client", "claude", "--query", "x", "--format", "json", tt.flag)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tt.flag, code, errOut)
		}
		var r struct {
			Results []struct {
				Extra map[string]any `json:"extra"`
			} `json:"results"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if got := r.Results[0].Extra["pool_size"]; got != tt.pool {
			t.Errorf("%s: pool_size %v, want %v", tt.flag, got, tt.pool)
		}
	}
	_, errOut, code := run(t, "rank", "--query", "x", "--claude-builtins=maybe")
	if code != exitBadInput || !strings.Contains(errOut, `"maybe" is not a boolean`) {
		t.Errorf("bad bool: exit %d, %q", code, errOut)
	}
}
