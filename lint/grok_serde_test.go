package lint_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/lint"
)

// TestGrokSerdeRefused: a number serde_json refuses (1e999) in one tool's
// schema makes Grok Build drop the server's tools (grok/serde.go); lint
// says so in one schema finding at the number, naming server, tool and path.
func TestGrokSerdeRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cat.json")
	doc := `{"servers":[{"name":"bad","tools":[
{"name":"ok_tool","description":"Counts widgets.","inputSchema":{"type":"object"}},
{"name":"big","description":"Counts widgets.","inputSchema":{"type":"object","properties":{"n":{"type":"number",
"maximum":1e999}}}}]}]}`
	require.NoError(t, os.WriteFile(path, []byte(doc), 0o644))
	cat, err := toolfind.LoadCatalog(path)
	require.NoError(t, err)
	sims, err := toolfind.Clients(cat, "grok@1.0.0", nil)
	require.NoError(t, err)
	rep, err := lint.Run(context.Background(), cat, sims, lint.Options{})
	require.NoError(t, err)
	var got []*lint.Finding
	for _, f := range rep.Findings {
		if f.Rule == lint.RuleSchema {
			got = append(got, f)
		}
	}
	require.Len(t, got, 1)
	assert.Equal(t, corpus.Error, got[0].Severity)
	assert.Equal(t, "big", got[0].Location.Tool)
	assert.Equal(t, "/servers/0/tools/1/inputSchema/properties/n/maximum", got[0].Location.Pointer)
	assert.Equal(t, 4, got[0].Location.Line) // "maximum" is on the file's fourth line
	assert.Equal(t, `bad/big: inputSchema.properties.n.maximum is not what clients accept; grok@1.0.0: cannot read (serde_json refuses the JSON) and drops all 2 tools of bad`, got[0].Message)
	var buf bytes.Buffer
	require.NoError(t, rep.WriteText(&buf, corpus.Warning, true))
	assert.Contains(t, buf.String(), `serde_json refuses the tool at inputSchema.properties.n.maximum (number out of range: 1e999)`)
}
