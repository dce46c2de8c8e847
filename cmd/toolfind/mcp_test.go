package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/corpus/live/snap"
)

// mcpSession starts `toolfind mcp ARGS` (this test binary as toolfind)
// and connects an MCP client to it over stdio.
func mcpSession(t *testing.T, args ...string) *mcp.ClientSession {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, append([]string{"mcp"}, args...)...)
	cmd.Env = append(os.Environ(), asToolfindEnv+"=1")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

func mcpText(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	require.NoError(t, err)
	require.Len(t, res.Content, 1)
	text := res.Content[0].(*mcp.TextContent).Text
	require.False(t, res.IsError, text)
	return text
}

// TestMCPOverStdio: an MCP client starts `toolfind mcp`, lists its tools
// and gets a ranking back (Codex's scripts run in toolfind's JavaScript
// child, as in every command); suggest answers what `toolfind suggest`
// prints, and the merge patch.
func TestMCPOverStdio(t *testing.T) {
	cs := mcpSession(t, "--client", "claude,codex")
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	assert.Equal(t, []string{"lint_tool_definitions", "rank_tools_for_query", "show_tool_as_model_sees_it", "suggest_findability_fixes"}, names)

	text := mcpText(t, cs, "rank_tools_for_query", map[string]any{"query": "invoice"})
	assert.Contains(t, text, "\nclaude@2.1.332: limit 5, ")
	assert.Contains(t, text, "\n  1     billing/invoice_lookup as mcp__billing__invoice_lookup, score ")
	assert.Contains(t, text, "\ncodex@0.171.0 [")
	assert.NotContains(t, text, "grok@") // --client is the calls' default

	text = mcpText(t, cs, "suggest_findability_fixes", map[string]any{
		"catalog": []string{"../../suggest/testdata/notes.json"}, "queries_file": "../../suggest/testdata/notes.jsonl", "writer": "verbatim"})
	cli, _, code := run(t, "suggest", "--quiet", "--client", "claude,codex", "--catalog", "../../suggest/testdata/notes.json",
		"--queries", "../../suggest/testdata/notes.jsonl", "--writer", "verbatim")
	require.Equal(t, 0, code)
	assert.True(t, strings.HasPrefix(text, cli+"\nJSON Merge Patch (RFC 7386) against ../../suggest/testdata/notes.json:\n{\n"), text)
}

// TestMCPLintsItsLiveServer: `toolfind mcp --server 'toolfind mcp'` lints
// the running server it was started with (a second toolfind mcp, through
// toolfind's live-server child) when a call names no catalog: toolfind's
// own tools have nothing to fix.
func TestMCPLintsItsLiveServer(t *testing.T) {
	exe, err := os.Executable()
	require.NoError(t, err)
	cs := mcpSession(t, "--server", snap.JoinCommand([]string{exe, "mcp"}))
	text := mcpText(t, cs, "lint_tool_definitions", map[string]any{"min_severity": "info"})
	assert.Equal(t, "0 errors, 0 warnings, 0 info\n", text)
	text = mcpText(t, cs, "show_tool_as_model_sees_it", map[string]any{"tool": "rank_tools_for_query", "clients": "claude"})
	assert.True(t, strings.HasPrefix(text, "toolfind/rank_tools_for_query as each client's model sees it\n\n== claude@2.1.332: as mcp__toolfind__rank_tools_for_query, "), text)
}

// TestLintOfToolfindMCP: `toolfind snapshot --server 'toolfind mcp'`, then
// lint and show on the snapshot: no finding, no tool hidden or cut.
func TestLintOfToolfindMCP(t *testing.T) {
	exe, err := os.Executable()
	require.NoError(t, err)
	t.Setenv(asToolfindEnv, "1") // the server this process starts is toolfind
	out, stderr, code := run(t, "snapshot", "--server", snap.JoinCommand([]string{exe, "mcp"}))
	require.Equal(t, 0, code, stderr)
	p := writeFile(t, "toolfind.json", out)
	assert.Contains(t, out, `"server": "toolfind"`)

	out, stderr, code = run(t, "lint", "--catalog", p, "--min-severity", "info", "--fail-on", "info")
	assert.Equal(t, 0, code, stderr)
	assert.Equal(t, "0 errors, 0 warnings, 0 info\n", out)

	out, _, code = run(t, "show", "--catalog", p)
	require.Equal(t, 0, code)
	assert.True(t, strings.HasPrefix(out, "4 tools in 1 server: tokens each model reads of each tool\n"), out)
	rows := 0
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "toolfi…") { // ten columns leave 16 characters for the name
			rows++
			assert.NotContains(t, l, "*", "a client cuts a description")
			assert.NotContains(t, l, "–", "a client hides a tool")
		}
	}
	assert.Equal(t, 4, rows, out)
	assert.NotContains(t, out, " never shows ")
}

// TestMCPBadFlags: a mistake in toolfind mcp's own flags ends it before it
// serves (exit 2), saying which flag.
func TestMCPBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"mcp", "--client", "claud"}, "toolfind: --client: "},
		{[]string{"mcp", "--server", "'unterminated"}, "toolfind: "},
		{[]string{"mcp", "--timeout", "0s"}, "toolfind: --timeout 0s: must be more than 0"},
		{[]string{"mcp", "extra"}, "toolfind: "},
	} {
		_, stderr, code := run(t, tc.args...)
		assert.Equal(t, exitBadInput, code, "%q: %s", tc.args, stderr)
		assert.True(t, strings.HasPrefix(stderr, tc.want), "%q: %s", tc.args, stderr)
	}
}

// TestMCPWithTypeScriptClient: the official TypeScript SDK's client (from
// the npm packages .ci/install-npm.sh installs, $TOOLFIND_NPM_DIR) lists
// toolfind mcp's tools and gets a ranking back, as a Node agent would.
func TestMCPWithTypeScriptClient(t *testing.T) {
	dir := os.Getenv("TOOLFIND_NPM_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", ".ci", "npm")
	}
	sdk, err := filepath.Abs(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "dist", "esm", "client"))
	require.NoError(t, err)
	if _, err := os.Stat(filepath.Join(sdk, "stdio.js")); err != nil {
		t.Skipf("the TypeScript MCP SDK is not installed (.ci/install-npm.sh or $TOOLFIND_NPM_DIR): %v", err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	exe, err := os.Executable()
	require.NoError(t, err)
	script := `import { Client } from ` + jsString("file://"+filepath.ToSlash(filepath.Join(sdk, "index.js"))) + `;
import { StdioClientTransport } from ` + jsString("file://"+filepath.ToSlash(filepath.Join(sdk, "stdio.js"))) + `;
const t = new StdioClientTransport({ command: ` + jsString(exe) + `, args: ["mcp", "--client", "claude"],
  env: { ...process.env, ` + asToolfindEnv + `: "1" } });
const c = new Client({ name: "ts", version: "1" });
await c.connect(t);
const tools = await c.listTools();
const r = await c.callTool({ name: "rank_tools_for_query", arguments: { query: "invoice", rows: 1 } });
console.log(JSON.stringify({ tools: tools.tools.map(x => x.name), text: r.content[0].text }));
await c.close();
`
	p := writeFile(t, "client.mjs", script)
	out, err := exec.Command(node, p).Output()
	require.NoError(t, err, "%s", out)
	var got struct {
		Tools []string
		Text  string
	}
	require.NoError(t, json.Unmarshal(out, &got), "%s", out)
	assert.Equal(t, []string{"lint_tool_definitions", "rank_tools_for_query", "show_tool_as_model_sees_it", "suggest_findability_fixes"}, got.Tools)
	assert.Contains(t, got.Text, "\n  1     billing/invoice_lookup as mcp__billing__invoice_lookup, score ")
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
