package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// TestShowVSCodeGitHub: `show --client vscode` on the shared GitHub
// catalog (117 tools) prints the table, then how VS Code Copilot Chat
// arranges the tools: 51 built-ins + 117 = 168 ≥ 64, 88 − 51 = 37 slots,
// min(37, ceil(117/4) = 30) = 30 entries, the stubs with their tools,
// the flat ones, and what is approximate. Every line fits the width.
func TestShowVSCodeGitHub(t *testing.T) {
	cat := filepath.Join("..", "..", "..", "shared", "catalogs", "github.json")
	if _, err := os.Stat(cat); err != nil {
		t.Skipf("shared catalogs not found at %s: %v", cat, err)
	}
	t.Setenv("COLUMNS", "") // 100 columns
	out, errOut, code := run(t, "show", "--client", "vscode", "--catalog", cat)
	require.Equal(t, 0, code, errOut)
	golden(t, "show-vscode-github.txt", out)
	require.Contains(t, out, "request: 51 built-in + 30 MCP entries (7 flat tools, 23 stubs) = 81 functions\n")
	require.Contains(t, out, "\nstub activate_")
	require.Contains(t, out, "\napproximate: clusters: toolfind's word clustering")
	for _, cols := range []string{"", "80"} {
		t.Setenv("COLUMNS", cols)
		width := 100
		if cols != "" {
			width = 80
		}
		out, _, _ := run(t, "show", "--client", "vscode", "--catalog", cat)
		for _, l := range strings.Split(out, "\n") {
			require.LessOrEqual(t, utf8.RuneCountInString(l), width, l)
		}
	}
	// With --format json the outline comes as lines.
	out, _, code = run(t, "show", "--client", "vscode", "--catalog", cat, "--format", "json")
	require.Equal(t, 0, code)
	require.Contains(t, out, `"outlines": [`)
	require.Contains(t, out, `"client": "vscode@2026.3.28"`)
}
