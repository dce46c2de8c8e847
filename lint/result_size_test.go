package lint_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/lint"
)

// TestResultTooLarge: a tool whose example result Copilot CLI would spill
// to a file is reported once, at the example, under result-too-large; a
// small example is not.
func TestResultTooLarge(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.json")
	doc := `{"servers":[{"name":"logs","tools":[
{"name":"tail","description":"Returns the last lines of a log.","inputSchema":{"type":"object"},"outputSchema":{"type":"object","examples":[{"lines":"` + strings.Repeat("x", 21000) + `"}]}},
{"name":"count","description":"Counts the lines of a log.","inputSchema":{"type":"object"},"outputSchema":{"type":"object","examples":[{"n":3}]}}]}]}`
	require.NoError(t, os.WriteFile(path, []byte(doc), 0o644))
	cat, err := toolfind.LoadCatalog(path)
	require.NoError(t, err)
	sims, err := toolfind.Clients(cat, "copilot@1.0.102", nil)
	require.NoError(t, err)
	rep, err := lint.Run(context.Background(), cat, sims, lint.Options{})
	require.NoError(t, err)
	var got []*lint.Finding
	for _, f := range rep.Findings {
		if f.Rule == lint.RuleResultTooLarge {
			got = append(got, f)
		}
	}
	require.Len(t, got, 1)
	assert.Equal(t, "tail", got[0].Location.Tool)
	// Located at the example itself (line 2 of the file).
	assert.Equal(t, 2, got[0].Location.Line)
	assert.Equal(t, "/servers/0/tools/0/outputSchema/examples/0", got[0].Location.Pointer)
	var buf bytes.Buffer
	require.NoError(t, rep.WriteText(&buf, corpus.Warning, false))
	// {"lines":"…"}: 12 bytes of framing + 21,000 = 21,012 bytes.
	assert.Contains(t, buf.String(), "21,012 bytes")
	assert.Contains(t, buf.String(), "20,480")
}
