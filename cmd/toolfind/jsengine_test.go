package main

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/jsbox/gojabox"
)

// The same bytes whether scripts run in toolfind's JavaScript child or in
// this process:
// rank of a Codex script, Codex's built-in strategies in goja, and bench
// of model-written Codex and OpenCode scripts (the first 30 lines of each
// client's in the held-out azure set).
func TestJSChildOutput(t *testing.T) {
	script := writeFile(t, "s.js", "const hits = ALL_TOOLS.filter(t => /invoice/i.test(t.description));\ntext(hits.map(t => t.name).join('\\n'))\n")
	runs := [][]string{
		{"rank", "--client", "codex", "--codex-script", script, "-q", "invoice", "--format", "json"},
		{"rank", "--client", "codex", "--codex-engine", "goja", "-q", "send an invoice", "--format", "json"},
	}
	if data, err := os.ReadFile("../../writer/testdata/heldout/azure.jsonl"); err == nil {
		n := map[string]int{}
		var lines []string
		for _, l := range strings.Split(string(data), "\n") {
			for _, c := range []string{`"client": "codex@`, `"client": "opencode-codemode@`} {
				if strings.Contains(l, c) && n[c] < 30 {
					n[c]++
					lines = append(lines, l)
				}
			}
		}
		written := writeFile(t, "written.jsonl", strings.Join(lines, "\n")+"\n")
		catalog := sharedDir(t, "catalogs", "azure.json")
		runs = append(runs, []string{"bench", "--written", written, "--catalog", catalog, "--codex-timeout", "60s", "--format", "json"})
	}
	for _, args := range runs {
		child, errOut, code := run(t, args...)
		require.Equal(t, exitOK, code, "%q: %s", args, errOut)
		inProcessJS = gojabox.New()
		local, errOut2, code2 := run(t, args...)
		inProcessJS = nil
		require.Equal(t, exitOK, code2, "%q: %s", args, errOut2)
		assert.Equal(t, local, child, "%q", args)
		assert.Equal(t, errOut2, errOut, "%q", args)
		assert.Contains(t, child, `"codex@0.171.0"`, "%q", args)
	}
}
