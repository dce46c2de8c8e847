package main

import (
	"strconv"
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
