package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/search"
)

func TestWrap(t *testing.T) {
	tests := []struct {
		in    string
		width int
		want  []string
	}{
		{"one two three four five six", 20, []string{"one two three four", "five six"}},
		{"", 20, []string{""}},
		// A word over the width gets a line of its own.
		{"a " + strings.Repeat("x", 25) + " b", 20, []string{"a", strings.Repeat("x", 25), "b"}},
		// Widths under 20 wrap at 20.
		{"aaaa bbbb cccc dddd eeee", 5, []string{"aaaa bbbb cccc dddd", "eeee"}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, wrap(tt.in, tt.width), "wrap(%q, %d)", tt.in, tt.width)
	}
}

func TestCell(t *testing.T) {
	tests := []struct {
		name  string
		hit   search.Hit
		found bool
		limit int
		want  string
	}{
		{"shown", search.Hit{Rank: 2, RankWorst: 2, PWithinLimit: 1}, true, 5, "2"},
		{"tie within the limit", search.Hit{Rank: 3, RankWorst: 4, PWithinLimit: 1}, true, 5, "3-4"},
		// ranks 4-9 for limit 5: shown in 2 of the 6 places' orders
		{"tie across the limit", search.Hit{Rank: 4, RankWorst: 9, PWithinLimit: 2.0 / 6}, true, 5, "4-9~"},
		{"beyond the limit", search.Hit{Rank: 7, RankWorst: 7}, true, 5, "(7)"},
		{"not returned", search.Hit{}, false, 5, "·"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, cell(tt.hit, tt.found, tt.limit), tt.name)
	}
}

// TestShowSummary: show without --tool prints one row per tool, not every
// tool's full text.
func TestShowSummary(t *testing.T) {
	t.Setenv("COLUMNS", "")
	out, errOut, code := run(t, "show")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"19 tools in 5 servers: tokens each model reads of each tool\n",
		"TOOL              DESC  2.1.332  1.0.0  0.171.0  0.171.0   1.18.33    1.18.33  1.0.102  0.61.0  2026.3.28\n",
		// billing/ledger: "Summarizes invoices." is 20 characters.
		"billing/ledger      20       22     97       70       12        42         19       33      95         36\n",
		// ten columns leave 16 characters for the tool, cut in the middle
		"ticket…der_board    39        –      –        –        –        49         26       40     101         43\n",
		"claude never shows tickets/render_board: hidden from the model: visibility [\"app\"] does not\n  include \"model\"",
		"show --tool NAME prints the exact text each model reads of a tool\n",
		// then how VS Code arranges the tools: 51 + 19 = 70 ≥ 64, but 19
		// tools fit the 88 − 51 = 37 slots, so all are flat
		"\nvscode@2026.3.28 (gpt-4.1): 70 tools in a request (51 built-in + 19 MCP), ≥ 64, virtual tools, but\n  every server fits its slots (37), so all 19 MCP tools are flat; approximate: built-ins:",
	} {
		assert.Contains(t, out, want)
	}
	assert.Less(t, strings.Count(out, "\n"), 40, "one line per tool and a few notes")
	// With --tool: the full text, as before.
	out, _, _ = run(t, "show", "--tool", "billing/ledger", "--client", "claude")
	assert.Contains(t, out, `<function>{"description": "Summarizes invoices."`)
}

// TestShowSummaryCapsDropped: a catalog whose 20 tools grok refuses
// (names with ESC) lists the first maxDroppedLines (8) and counts the
// other 20-8 = 12, so the summary still fits a screen.
func TestShowSummaryCapsDropped(t *testing.T) {
	t.Setenv("COLUMNS", "")
	var tools []string
	for i := range 20 {
		tools = append(tools, fmt.Sprintf(`{"name":"bad\u001b[31m_%d","description":"d","inputSchema":{"type":"object"}}`, i))
	}
	cat := writeFile(t, "hostile.json", `{"server":"s","tools":[`+strings.Join(tools, ",")+`]}`)
	out, errOut, code := run(t, "show", "--client", "grok", "--catalog", cat)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, 8, strings.Count(out, "grok never shows "), out)
	assert.Contains(t, out, "... and 12 more like these (--format json lists every view)\n")
	assert.NotContains(t, out, "\x1b")
	assert.Less(t, strings.Count(out, "\n"), 50, out)
}

// TestShowGrokSerdeRefused: show --client grok says why a server whose
// tool holds 1e999 is never shown: serde_json refuses its tools/list
// answer (grok/serde.go); the path names the number.
func TestShowGrokSerdeRefused(t *testing.T) {
	t.Setenv("COLUMNS", "")
	cat := writeFile(t, "big.json", `{"servers":[{"name":"bad","tools":[
{"name":"big","description":"d","inputSchema":{"type":"object","properties":{"n":{"type":"number","maximum":1e999}}}},
{"name":"ok","description":"d","inputSchema":{"type":"object"}}]}]}`)
	out, errOut, code := run(t, "show", "--client", "grok", "--catalog", cat)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "grok never shows bad/big: serde_json refuses the tool at inputSchema.properties.n.maximum (number\n  out of range: 1e999)", out)
	assert.Contains(t, out, `grok never shows bad/ok: not searchable: serde_json refuses tool "big" at`, out)
}
