package mcpserver_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/corpus/live/snap"
	"github.com/toolfind/toolfind/internal/golden"
	"github.com/toolfind/toolfind/jsbox"
	"github.com/toolfind/toolfind/jsbox/gojabox"
	"github.com/toolfind/toolfind/lint"
	"github.com/toolfind/toolfind/mcpserver"
	"github.com/toolfind/toolfind/search"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestMain gives the code-mode clients their JavaScript engine, as
// `toolfind mcp` has (its process chooses one).
func TestMain(m *testing.M) {
	restore := jsbox.SetEngine(gojabox.New())
	code := m.Run()
	restore()
	os.Exit(code)
}

// connect starts the server in process and returns a client session on it.
func connect(t *testing.T, opts mcpserver.Options) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := mcpserver.New(opts).Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and returns its one text block and whether it is an
// error result.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	require.NoError(t, err)
	require.Len(t, res.Content, 1)
	text, ok := res.Content[0].(*mcp.TextContent)
	require.True(t, ok, "%T", res.Content[0])
	assert.Nil(t, res.StructuredContent)
	return text.Text, res.IsError
}

// TestToolList: the tools, their schemas and annotations, as a client
// lists them (golden; go test -update rewrites it).
func TestToolList(t *testing.T) {
	cs := connect(t, mcpserver.Options{})
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
		a := tl.Annotations
		require.NotNil(t, a, tl.Name)
		assert.True(t, a.ReadOnlyHint, tl.Name)
		assert.True(t, a.IdempotentHint, tl.Name)
		require.NotNil(t, a.OpenWorldHint, tl.Name)
		assert.False(t, *a.OpenWorldHint, tl.Name)
		require.NotNil(t, a.DestructiveHint, tl.Name)
		assert.False(t, *a.DestructiveHint, tl.Name)
		assert.Nil(t, tl.OutputSchema, tl.Name)
	}
	assert.Equal(t, []string{"lint_tool_definitions", "rank_tools_for_query", "show_tool_as_model_sees_it", "suggest_findability_fixes"}, names)
	data, err := json.MarshalIndent(res.Tools, "", "  ")
	require.NoError(t, err)
	golden.Compare(t, "testdata/tools.golden.json", append(data, '\n'), *update)
	// What the model reads says what clients do, never where toolfind
	// read it.
	for _, cited := range []string{"§", ".md", "spec", "oracle", "seed", "leaked"} {
		assert.NotContains(t, string(data)+mcpserver.Instructions, cited)
	}
	assert.Equal(t, mcpserver.Instructions, cs.InitializeResult().Instructions)
	assert.Equal(t, "toolfind", cs.InitializeResult().ServerInfo.Name)
}

func TestRank(t *testing.T) {
	cs := connect(t, mcpserver.Options{})
	text, isErr := call(t, cs, "rank_tools_for_query", map[string]any{"query": "invoice", "clients": "claude,grok"})
	require.False(t, isErr, text)
	// The demo catalog: Claude's ToolSearch puts invoice_lookup first for
	// "invoice" (as `toolfind rank --query invoice` does).
	assert.True(t, strings.HasPrefix(text, "query \"invoice\" over "), text)
	claude := section(t, text, "claude@2.1.332: limit 5")
	assert.Contains(t, claude, "\n  1     billing/invoice_lookup as mcp__billing__invoice_lookup, score ")
	assert.Contains(t, text, "\ngrok@1.0.0: limit ")

	// Gemini CLI declares every tool: no scores, no limit.
	text, _ = call(t, cs, "rank_tools_for_query", map[string]any{"query": "invoice", "clients": "gemini", "rows": 1})
	assert.Contains(t, text, "\ngemini@0.61.0: no limit: every tool the model reads is listed, ")
	assert.Regexp(t, `\n  1     [a-z]+/[a-z_]+ as mcp_[a-z_]+, shown always\n`, text)
	assert.NotContains(t, text, "the text the model reads")

	text, _ = call(t, cs, "rank_tools_for_query", map[string]any{"query": "invoice", "clients": "claude", "rows": 1, "include_shown_text": true})
	assert.Regexp(t, `\n  … \d+ more \(rows: \d+ lists them\)\n`, text)
	assert.Contains(t, text, "  --- the text the model reads ---\n")

	// A prompt: the heuristic writer writes each client's call first.
	text, isErr = call(t, cs, "rank_tools_for_query", map[string]any{"prompt": "look up the invoice for ACME", "clients": "grok"})
	require.False(t, isErr, text)
	assert.Contains(t, text, "  call written by the heuristic writer: {")
}

// TestRankLongQuery: a query or prompt over corpus.MaxQueryLine (1 MiB =
// 1,048,576 bytes), the bound of a query file's line, is an error result
// naming the limit; one of exactly the limit is ranked.
func TestRankLongQuery(t *testing.T) {
	cs := connect(t, mcpserver.Options{})
	const want = "the query or prompt is longer than 1048576 bytes (1 MiB), the limit for one query"
	for _, field := range []string{"query", "prompt"} {
		text, isErr := call(t, cs, "rank_tools_for_query", map[string]any{field: strings.Repeat("a", 1<<20+1), "clients": "claude"})
		assert.True(t, isErr, field)
		assert.Contains(t, text, want, field)
	}
	text, isErr := call(t, cs, "rank_tools_for_query", map[string]any{"query": strings.Repeat("a ", 1<<19), "clients": "claude"})
	assert.False(t, isErr, text)
}

// section is text's block starting with the line that starts with head.
func section(t *testing.T, text, head string) string {
	t.Helper()
	i := strings.Index(text, "\n"+head)
	require.GreaterOrEqual(t, i, 0, "no %q in\n%s", head, text)
	s := text[i+1:]
	if j := strings.Index(s, "\n\n"); j >= 0 {
		s = s[:j]
	}
	return s
}

func TestShow(t *testing.T) {
	cs := connect(t, mcpserver.Options{})
	text, isErr := call(t, cs, "show_tool_as_model_sees_it", map[string]any{"tool": "invoice_lookup", "clients": "claude,gemini"})
	require.False(t, isErr, text)
	assert.True(t, strings.HasPrefix(text, "billing/invoice_lookup as each client's model sees it\n"), text)
	assert.Contains(t, text, "\n== claude@2.1.332: as mcp__billing__invoice_lookup, ")
	assert.Contains(t, text, "\n== gemini@0.61.0: as mcp_billing_invoice_lookup, ")

	// Gemini CLI does not declare a tool named like one of its built-ins.
	text, isErr = call(t, cs, "show_tool_as_model_sees_it", map[string]any{"tool": "files/write_file", "clients": "gemini"})
	require.False(t, isErr, text)
	assert.Contains(t, text, "\n== gemini@0.61.0: not shown to the model (")

	text, isErr = call(t, cs, "show_tool_as_model_sees_it", map[string]any{"tool": "invoice_lokup"})
	assert.True(t, isErr)
	assert.Contains(t, text, "invoice_lokup")
}

func TestLint(t *testing.T) {
	cs := connect(t, mcpserver.Options{})
	text, isErr := call(t, cs, "lint_tool_definitions", map[string]any{"catalog": []string{"../lint/testdata/hostile.json"}, "min_severity": "error"})
	require.False(t, isErr, text)
	// The library's own report, at the CLI's width for a pipe.
	cat, err := corpus.Load("../lint/testdata/hostile.json")
	require.NoError(t, err)
	sims, err := toolfind.Clients(cat, "all", nil)
	require.NoError(t, err)
	rep, err := lint.Run(context.Background(), cat, sims, lint.Options{})
	require.NoError(t, err)
	var want strings.Builder
	require.NoError(t, rep.WriteTextWidth(&want, corpus.Error, false, 100))
	assert.Equal(t, want.String(), text)
	assert.Contains(t, text, "../lint/testdata/hostile.json:")

	text, isErr = call(t, cs, "lint_tool_definitions", map[string]any{"min_severity": "loud"})
	assert.True(t, isErr)
	assert.True(t, strings.HasPrefix(text, "toolfind: min_severity: "), text)
}

func TestSuggest(t *testing.T) {
	cs := connect(t, mcpserver.Options{})
	// The notes fixture with its query set, the verbatim writer: the
	// suggest package's report (golden), then the patch.
	text, isErr := call(t, cs, "suggest_findability_fixes", map[string]any{
		"catalog": []string{"../suggest/testdata/notes.json"}, "queries_file": "../suggest/testdata/notes.jsonl", "writer": "verbatim"})
	require.False(t, isErr, text)
	golden.Compare(t, "testdata/suggest-notes.golden.txt", []byte(text), *update)
	assert.True(t, strings.HasPrefix(text, "suggest: 3 tools edited over 10 queries; "), text)
	_, patch, ok := strings.Cut(text, "\nJSON Merge Patch (RFC 7386) against ../suggest/testdata/notes.json:\n{")
	require.True(t, ok, text)
	assert.Contains(t, patch, `"description": "Move a note out of the active list into the archive. Also use it for memo and stash."`)

	// Inline queries: the three stash prompts fix archive_note.
	text, isErr = call(t, cs, "suggest_findability_fixes", map[string]any{
		"catalog": []string{"../suggest/testdata/notes.json"}, "writer": "verbatim",
		"queries": []map[string]any{
			{"query": "stash the meeting memo away", "expect": []string{"notes/archive_note"}},
			{"query": "stash my old memo", "expect": []string{"archive_note"}},
			{"query": "put the draft memo away in storage", "expect": []string{"notes/archive_note"}},
		}})
	require.False(t, isErr, text)
	assert.Contains(t, text, "\nnotes/archive_note: fixes 3 prompts")

	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{}, "toolfind: give queries (requests with the tools they expect) or queries_file, one of them"},
		{map[string]any{"queries_file": "x.jsonl", "queries": []map[string]any{{"query": "q", "expect": []string{"a"}}}}, "one of them"},
		{map[string]any{"queries_file": "../suggest/testdata/notes.jsonl", "writer": "model"}, `toolfind: writer "model": want heuristic or verbatim`},
		{map[string]any{"catalog": []string{"../suggest/testdata/notes.json"}, "queries": []map[string]any{{"query": "q", "expect": []string{"nope"}}}}, "nope"},
	} {
		text, isErr := call(t, cs, "suggest_findability_fixes", tc.args)
		assert.True(t, isErr, text)
		assert.Contains(t, text, tc.want)
	}
}

func TestBadArguments(t *testing.T) {
	cs := connect(t, mcpserver.Options{})
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"rank_tools_for_query", map[string]any{}, "toolfind: give query (the search the model types) or prompt (a user request)"},
		{"rank_tools_for_query", map[string]any{"query": "a", "prompt": "b"}, "toolfind: give query or prompt, not both"},
		{"rank_tools_for_query", map[string]any{"query": "a", "rows": -1}, "toolfind: limit and rows must be 0 (the default) or more"},
		{"rank_tools_for_query", map[string]any{"query": "a", "clients": "claud"}, "claud"},
		{"rank_tools_for_query", map[string]any{"query": "a", "catalog": []string{"testdata/missing.json"}}, "testdata/missing.json"},
		{"show_tool_as_model_sees_it", map[string]any{"tool": " "}, "toolfind: give tool (server/tool or a unique tool name)"},
	} {
		text, isErr := call(t, cs, tc.tool, tc.args)
		assert.True(t, isErr, "%s %v: %s", tc.tool, tc.args, text)
		assert.Contains(t, text, tc.want, "%s %v", tc.tool, tc.args)
	}
}

// TestDefaultSource: without a catalog argument a call reads the files
// and the live servers the server was started with, at every call.
func TestDefaultSource(t *testing.T) {
	takes := 0
	opts := mcpserver.Options{
		Catalogs: []string{"../suggest/testdata/notes.json"},
		Live:     []snap.Source{{Name: "self", Command: []string{"toolfind", "mcp"}}},
		Snapshot: func(ctx context.Context, srcs []snap.Source) ([]*snap.Snapshot, error) {
			takes++
			return []*snap.Snapshot{{Source: srcs[0], Name: "self", Tools: []json.RawMessage{
				json.RawMessage(`{"name":"lint_tool_definitions","description":"Lint tool definitions.","inputSchema":{"type":"object"}}`)}}}, nil
		},
		Clients: "claude",
	}
	cs := connect(t, opts)
	text, isErr := call(t, cs, "rank_tools_for_query", map[string]any{"query": "lint"})
	require.False(t, isErr, text)
	assert.True(t, strings.HasPrefix(text, "query \"lint\" over 7 tools in 2 servers\n"), text) // notes' 6 and self's 1
	assert.Contains(t, text, "  1     self/lint_tool_definitions as mcp__self__lint_tool_definitions, ")
	assert.NotContains(t, text, "grok@") // the server's default clients
	call(t, cs, "show_tool_as_model_sees_it", map[string]any{"tool": "self/lint_tool_definitions"})
	assert.Equal(t, 2, takes)
	// A catalog argument replaces both.
	text, _ = call(t, cs, "rank_tools_for_query", map[string]any{"query": "lint", "catalog": []string{"../suggest/testdata/notes.json"}})
	assert.True(t, strings.HasPrefix(text, "query \"lint\" over 6 tools in 1 server\n"), text)
	assert.Equal(t, 2, takes)
}

// selfCatalog is a snapshot of the server's own tools/list, as `toolfind
// snapshot --server 'toolfind mcp'` writes it.
func selfCatalog(t *testing.T) string {
	t.Helper()
	cs := connect(t, mcpserver.Options{})
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	doc, err := json.Marshal(map[string]any{"server": mcpserver.Name, "instructions": cs.InitializeResult().Instructions, "tools": res.Tools})
	require.NoError(t, err)
	path := t.TempDir() + "/toolfind.json"
	require.NoError(t, os.WriteFile(path, doc, 0o644))
	return path
}

// TestLintOfItself: toolfind's lint finds nothing in toolfind mcp's own
// tools, not even at info severity, and no client hides or cuts one.
func TestLintOfItself(t *testing.T) {
	path := selfCatalog(t)
	cs := connect(t, mcpserver.Options{})
	text, isErr := call(t, cs, "lint_tool_definitions", map[string]any{"catalog": []string{path}, "min_severity": "info"})
	require.False(t, isErr, text)
	assert.Equal(t, "0 errors, 0 warnings, 0 info\n", text)

	cat, err := corpus.Load(path)
	require.NoError(t, err)
	sims, err := toolfind.Clients(cat, "all", nil)
	require.NoError(t, err)
	for _, sim := range sims {
		for _, tl := range cat.Tools() {
			v, shown := sim.(search.Viewer).View(tl.ID())
			assert.True(t, shown, "%s hides %s", sim.Client(), tl.ID())
			for _, n := range v.Notes {
				assert.NotContains(t, n, "cut", "%s %s", sim.Client(), tl.ID())
			}
		}
	}
}

// TestFindable: an agent that searches for what each tool does finds it
// within every client's limit, first for the three that start with their
// verb.
func TestFindable(t *testing.T) {
	cat, err := corpus.Load(selfCatalog(t))
	require.NoError(t, err)
	sims, err := toolfind.Clients(cat, "all", nil)
	require.NoError(t, err)
	for _, tc := range []struct {
		query, tool string
		first       bool
	}{
		{"rank MCP tools for a search query", "toolfind/rank_tools_for_query", true},
		{"lint my MCP server tool definitions", "toolfind/lint_tool_definitions", true},
		{"suggest edits to make my tools findable", "toolfind/suggest_findability_fixes", true},
		// Codex's any-term script ranks it third of four here.
		{"what does the model see of my MCP tool", "toolfind/show_tool_as_model_sees_it", false},
	} {
		results, err := toolfind.Rank(context.Background(), sims, search.Query{Text: tc.query})
		require.NoError(t, err)
		for _, r := range results {
			h, ok := r.Find(corpus.ToolID(tc.tool))
			if assert.True(t, ok, "%s: %q does not find %s", r.Client, tc.query, tc.tool) {
				assert.Equal(t, 1.0, h.PWithinLimit, "%s %q", r.Client, tc.query)
				if tc.first {
					assert.Equal(t, 1, h.RankWorst, "%s %q", r.Client, tc.query)
				}
			}
		}
	}
}
