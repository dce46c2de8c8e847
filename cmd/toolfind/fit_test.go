package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBenchTextFitsColumns: bench's text report fits $COLUMNS with
// baseline rows, a breakdown and the per-tool view (the writer line alone
// was 163 columns, the per-tool table 250 on the demo): prose is wrapped,
// tables too wide are split into blocks of columns.
func TestBenchTextFitsColumns(t *testing.T) {
	for _, columns := range []int{100, 72} {
		t.Setenv("COLUMNS", strconv.Itoa(columns))
		out, errOut, code := run(t, "bench", "--writer", "heuristic", "--by", "category", "--per-tool", "--quiet")
		require.Equal(t, 0, code, errOut)
		n, line := longestLine(out)
		assert.LessOrEqual(t, n, columns, "COLUMNS=%d: %q", columns, line)
		assert.Contains(t, out, "\nPer tool (queries that show it, of those expecting it):\n")
		assert.Contains(t, out, "\n  TOOL                    QUERIES")
	}
}

// TestRankPromptCallsFolded: with --prompt, each client's call is folded
// to the width at a blank, comma or semicolon, never inside a word (it
// was cut every width characters: "summ" / "ar/i"), and the lines joined
// without separators are the call.
func TestRankPromptCallsFolded(t *testing.T) {
	t.Setenv("COLUMNS", "80")
	out, errOut, code := run(t, "rank", "--prompt", "Group all the movies by release year and show the invoices", "--client", "claude,codex", "--quiet")
	require.Equal(t, 0, code, errOut)
	n, line := longestLine(out)
	assert.LessOrEqual(t, n, 80, line)
	lines := strings.Split(out, "\n")
	var call []string
	for i, l := range lines {
		if !strings.HasPrefix(l, "  codex call (heuristic writer): ") {
			continue
		}
		call = append(call, strings.TrimPrefix(l, "  "))
		for _, c := range lines[i+1:] {
			if strings.HasSuffix(call[len(call)-1], `"}`) {
				break // the call's end
			}
			call = append(call, strings.TrimPrefix(c, "    "))
		}
	}
	require.Greater(t, len(call), 1, out)
	for i := 1; i < len(call); i++ {
		prev := call[i-1]
		assert.Contains(t, " ,;⏎", string([]rune(prev)[len([]rune(prev))-1]), "line %d ends inside a token: %q", i, prev)
	}
	assert.Contains(t, strings.Join(call, ""), `codex call (heuristic writer): {"code":"const re = /group|movi|releas|year|show|invoic|aggreg|summar/i;⏎text(ALL_TOOLS`)
}
