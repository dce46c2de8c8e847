package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/internal/fakeclient"
)

// fakeGemini builds the fake Gemini CLI (verify/geminicli/testdata).
func fakeGemini(t *testing.T) string {
	return fakeclient.Build(t, "../../verify/geminicli/testdata/fakegemini", "gemini", "")
}

// verify --client gemini on the demo catalog: every declared tool answered
// as simulated, exit 0 — 18 of the 19: files/write_file is named like the
// built-in write_file, which a headless run denies, so it is not
// declared; under --yolo it is, and the JSON report has all 19.
func TestVerifyGeminiFakeClient(t *testing.T) {
	bin := fakeGemini(t)
	out, errOut, code := run(t, "verify", "--client", "gemini", "--binary", bin)
	require.Equal(t, 0, code, "%s\n%s", out, errOut)
	assert.Contains(t, errOut, "toolfind: verifying Gemini CLI 0.61.0 ("+bin+") against gemini@0.61.0: 5 servers, 18 declared tools called once each")
	assert.True(t, strings.HasPrefix(out, "[1/18] match  accounts/add_notes as mcp_accounts_add_notes\n"), out)
	assert.True(t, strings.HasSuffix(out, "declaration order (built-ins included): match\nserver instructions: match\ngemini 0.61.0: 18/18 tools match (profile gemini@0.61.0)\n"), out)
	assert.NotContains(t, out, "files/write_file")

	res := writeFile(t, "r.json", `{"content":[{"type":"text","text":"hi"}],"isError":true}`)
	out, errOut, code = run(t, "verify", "--client", "gemini", "--binary", bin, "--gemini-yolo", "--result", res, "--format", "json")
	require.Equal(t, 0, code, "%s\n%s", out, errOut)
	var rep struct {
		Matched int `json:"matched"`
		Tools   []struct {
			Name, Declaration, Result string
			SimulatedResponse         string `json:"simulated_response"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, 19, rep.Matched)
	assert.Equal(t, `{"error":"MCP tool 'add_notes' reported tool error for function call: {\"name\":\"add_notes\",\"args\":{\"account_id\":\"x\",\"text\":\"x\"}} with response: [{\"functionResponse\":{\"name\":\"add_notes\",\"response\":{\"content\":[{\"type\":\"text\",\"text\":\"hi\"}],\"isError\":true}}}]"}`, rep.Tools[0].SimulatedResponse)
}

func TestVerifyGeminiUsage(t *testing.T) {
	q := writeFile(t, "q.jsonl", `{"query":"a"}`+"\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"verify", "--client", "gemini", "--queries", q}, "--client gemini takes no queries: Gemini CLI has no tool search; verify calls every declared tool once"},
		{[]string{"verify", "--client", "gemini", "--bundle", t.TempDir()}, "--bundle goes with --client claude"},
		{[]string{"verify", "--client", "gemini", "--result", writeFile(t, "bad.json", "[1]")}, "not a JSON object (a CallToolResult)"},
		{[]string{"verify", "--client", "gemini", "--binary", filepath.Join(t.TempDir(), "nope")}, ""},
		{[]string{"verify", "--client", "claude", "--query", "a", "--result", q}, "--result goes with --client gemini"},
	} {
		_, errOut, code := run(t, c.args...)
		assert.NotEqual(t, 0, code, c.args)
		assert.Contains(t, errOut, c.want, c.args)
	}
}
