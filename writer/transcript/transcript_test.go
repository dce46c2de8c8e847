package transcript

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/writer"
)

func marshal(lines []writer.Line) string {
	var b bytes.Buffer
	if err := writer.WriteLines(&b, lines); err != nil {
		panic(err)
	}
	return b.String()
}

// Real Claude Code 2.1.328 transcripts (testdata/claude/README.md says how
// they were made and what was removed): the prompt, one ToolSearch, its
// tool_result, then a call of the first tool found.
func TestRealClaudeTranscripts(t *testing.T) {
	tests := []struct {
		file, want string
	}{
		{"keyword-then-call.jsonl",
			`{"id":"b090d5fd:1","prompt":"Look up the invoice for order 1042 in billing","client":"claude@2.1.328","call":{"max_results":5,"query":"invoice"},"expect":["mcp__billing__invoice_lookup"],"writer":"import","session":"b090d5fd-1e64-4fc9-a4b4-fad95d4d5305","time":"2026-12-01T23:11:40.924Z"}`},
		{"select-then-call.jsonl",
			`{"id":"5f96877d:1","prompt":"Show me the ledger of the billing system","client":"claude@2.1.328","call":{"max_results":5,"query":"select:mcp__billing__ledger"},"expect":["mcp__billing__ledger"],"writer":"import","session":"5f96877d-db5a-468b-858e-bfe4fb6adfd8","time":"2026-12-01T23:44:32.190Z"}`},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			var st Stats
			lines, err := ImportFile(filepath.Join("testdata/claude", tt.file), Options{}, &st)
			require.NoError(t, err)
			assert.Equal(t, tt.want+"\n", marshal(lines))
			assert.Equal(t, 1, st.Prompts)
			assert.Equal(t, 1, st.WithExpect)
			assert.Zero(t, st.Unknown)
		})
	}
	// 16 lines: the prompt, the search, the MCP call; other: 2 tool
	// results, 2 assistant texts ("Calling it.", "Done."), 9 bookkeeping
	// lines (queue-operation 2, atis-latch 3, last-prompt 3, cost-state 1).
	var st Stats
	_, err := ImportFile("testdata/claude/keyword-then-call.jsonl", Options{}, &st)
	require.NoError(t, err)
	assert.Equal(t, Stats{Files: 1, Lines: 16, Prompts: 1, Searches: 1, WithExpect: 1, Other: 13}, st)
}

func TestClaudeShapes(t *testing.T) {
	const sess = `"sessionId":"s1234567-aaaa","version":"2.1.330","cwd":"/home/u/app"`
	in := strings.Join([]string{
		`{"type":"user","message":{"role":"user","content":"<command-name>/mcp</command-name>"},` + sess + `,"timestamp":"2026-01-01T10:00:00Z"}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"<system-reminder>x</system-reminder>"},{"type":"text","text":"Close ticket 7"}]},` + sess + `,"timestamp":"2026-01-02T10:00:00Z"}`,
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"thinking","thinking":"..."},{"type":"tool_use","id":"a","name":"ToolSearch","input":{"query":"select:mcp__tickets__close-ticket"}}]},` + sess + `}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":[]}]},` + sess + `}`,
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"b","name":"ToolSearch","input":{"query":"+tickets close","max_results":3}}]},` + sess + `}`,
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"c","name":"mcp__tickets__close-ticket","input":{"id":7}}]},` + sess + `}`,
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"d","name":"mcp__tickets__addComment","input":{}}]},` + sess + `}`,
		`{"type":"user","isMeta":true,"message":{"role":"user","content":"Caveat: ..."},` + sess + `}`,
		`{"type":"user","message":{"role":"user","content":"What's the weather?"},` + sess + `,"timestamp":"2026-01-03T10:00:00Z"}`,
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"e","name":"ToolSearch","input":{"query":"weather"}}]},` + sess + `}`,
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"f","name":"ToolSearch","input":"not an object"}]},` + sess + `}`,
		// A subagent's own prompt and search, between the main thread's.
		`{"type":"user","isSidechain":true,"agentId":"ag1","message":{"role":"user","content":"Find alerts"},` + sess + `,"timestamp":"2026-01-03T10:01:00Z"}`,
		`{"type":"assistant","isSidechain":true,"agentId":"ag1","message":{"role":"assistant","content":[{"type":"tool_use","id":"g","name":"ToolSearch","input":{"query":"alerts"}}]},` + sess + `}`,
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"h","name":"mcp__weather__get_forecast","input":{}}]},` + sess + `}`,
		`{"type":"summary","summary":"x","leafUuid":"u"}`,
		`{"type":"brand-new-kind","x":1}`,
		`[1,2]`,
		`not json`,
		``,
		`{"type":"assistant","message":{"role":"assistant","content":"plain text"},` + sess + `}`,
	}, "\n")
	var st Stats
	lines, err := ParseClaude("t.jsonl", strings.NewReader(in), Options{}, &st)
	require.NoError(t, err)
	want := strings.Join([]string{
		// Prompt 1 is the slash command (not a prompt); the reminder block is dropped.
		`{"id":"s1234567:1","prompt":"Close ticket 7","client":"claude@2.1.330","call":{"query":"select:mcp__tickets__close-ticket"},"expect":["mcp__tickets__close-ticket"],"writer":"import","session":"s1234567-aaaa","time":"2026-01-02T10:00:00Z"}`,
		`{"id":"s1234567:1","prompt":"Close ticket 7","client":"claude@2.1.330","call":{"query":"+tickets close","max_results":3},"expect":["mcp__tickets__close-ticket"],"writer":"import","session":"s1234567-aaaa","time":"2026-01-02T10:00:00Z"}`,
		// The weather search's input that is not an object is not a call.
		`{"id":"s1234567:2","prompt":"What's the weather?","client":"claude@2.1.330","call":{"query":"weather"},"expect":["mcp__weather__get_forecast"],"writer":"import","session":"s1234567-aaaa","time":"2026-01-03T10:00:00Z"}`,
		// The subagent called no MCP tool after its search.
		`{"id":"s1234567:3","prompt":"Find alerts","client":"claude@2.1.330","call":{"query":"alerts"},"expect":[],"writer":"import","after":"none","session":"s1234567-aaaa","time":"2026-01-03T10:01:00Z"}`,
	}, "\n") + "\n"
	assert.Equal(t, want, marshal(lines))
	assert.Equal(t, Stats{Lines: 20, Prompts: 3, Searches: 4, WithExpect: 3, Other: 6, Unknown: 3, FirstUnknown: "t.jsonl:16"}, st)

	// Every line is valid in the written-queries format.
	_, err = writer.Parse("out", strings.NewReader(marshal(lines)))
	require.NoError(t, err)

	// Filters.
	st = Stats{}
	lines, err = ParseClaude("t.jsonl", strings.NewReader(in), Options{Since: time.Date(2026, 1, 3, 0, 0, 0, 0, time.UTC)}, &st)
	require.NoError(t, err)
	assert.Len(t, lines, 2)
	assert.Equal(t, 1, st.Filtered)
	for _, p := range []struct {
		project string
		n       int
	}{{"/home/u/app", 4}, {"/home/u/app/", 4}, {"/home/u", 4}, {"/home/u/ap", 0}, {"/other", 0}} {
		st = Stats{}
		lines, err = ParseClaude("t.jsonl", strings.NewReader(in), Options{Project: p.project}, &st)
		require.NoError(t, err)
		assert.Len(t, lines, p.n, p.project)
	}
}

func TestCodexRollout(t *testing.T) {
	var st Stats
	lines, err := ImportFile("testdata/codex/rollout-2026-11-30T09-12-44-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl", Options{}, &st)
	require.NoError(t, err)
	want := strings.Join([]string{
		`{"id":"0199a1b2:1","prompt":"List the open issues in toolfind/toolfind","client":"codex@0.171.0","call":{"code":"const hits = ALL_TOOLS.filter(t => /issue/i.test(t.name + \" \" + t.description));\ntext(hits.map(t => t.name).join(\"\\n\"));"},"expect":["mcp__github__list_issues"],"writer":"import","session":"0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b","time":"2026-11-30T09:12:50.100Z"}`,
		`{"id":"0199a1b2:2","prompt":"Now find the pull request that fixed the crash","client":"codex-search@0.171.0","call":{"query":"github pull request search","limit":8},"expect":["mcp__github__search_pull_requests"],"writer":"import","session":"0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b","time":"2026-11-30T09:14:02.000Z"}`,
		`{"id":"0199a1b2:3","prompt":"Thanks, that's all","client":"codex@0.171.0","call":{"code":"text(ALL_TOOLS.length)"},"expect":[],"writer":"import","after":"none","session":"0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b","time":"2026-11-30T09:15:00.000Z"}`,
	}, "\n") + "\n"
	assert.Equal(t, want, marshal(lines))
	// 19 lines = 3 prompts + 2 second copies of a prompt + 3 searches + 2
	// MCP calls + 8 other (session_meta, environment context,
	// turn_context, token_count, reasoning, exec output, assistant text,
	// tool_search_output) + 1 unknown envelope.
	assert.Equal(t, Stats{Files: 1, Lines: 19, Prompts: 3, Searches: 3, WithExpect: 2, Other: 8, Unknown: 1, FirstUnknown: "testdata/codex/rollout-2026-11-30T09-12-44-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl:19"}, st)
}

func TestImportWalksFolders(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "proj", "sub")
	require.NoError(t, os.MkdirAll(sub, 0o755))
	src, err := os.ReadFile("testdata/claude/keyword-then-call.jsonl")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(sub, "a.jsonl"), src, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644))
	lines, st, err := Import([]string{dir}, Options{})
	require.NoError(t, err)
	assert.Len(t, lines, 1)
	assert.Equal(t, 1, st.Files)
	_, _, err = Import([]string{filepath.Join(dir, "missing")}, Options{})
	require.Error(t, err)
}

func TestLongLineIsSkipped(t *testing.T) {
	defer func(n int) { maxLine = n }(maxLine)
	maxLine = 100 << 10 // 100 KiB, above bufio's 64 KiB buffer
	long := `{"type":"user","message":{"role":"user","content":"` + strings.Repeat("x", maxLine) + `"}}`
	in := long + "\n" + `{"type":"user","message":{"role":"user","content":"short"},"sessionId":"s"}` + "\n" +
		`{"type":"assistant","message":{"content":[{"type":"tool_use","name":"ToolSearch","input":{"query":"q"}}]},"sessionId":"s"}`
	var st Stats
	lines, err := ParseClaude("t", strings.NewReader(in), Options{}, &st)
	require.NoError(t, err)
	require.Len(t, lines, 1)
	assert.Equal(t, "short", lines[0].Prompt)
	assert.Equal(t, Stats{Lines: 3, Prompts: 1, Searches: 1, Unknown: 1, FirstUnknown: "t:1"}, st)
}

func FuzzParseClaude(f *testing.F) {
	src, err := os.ReadFile("testdata/claude/keyword-then-call.jsonl")
	if err == nil {
		f.Add(src)
	}
	f.Add([]byte(`{"type":"user","message":{"role":"user","content":"p"},"sessionId":"s","version":"1"}` + "\n" +
		`{"type":"assistant","message":{"content":[{"type":"tool_use","name":"ToolSearch","input":{"query":"q"}},{"type":"tool_use","name":"mcp__a__b"}]},"sessionId":"s"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var st Stats
		lines, err := ParseClaude("f", bytes.NewReader(data), Options{}, &st)
		if err != nil {
			t.Fatal(err)
		}
		checkLines(t, lines)
	})
}

func FuzzParseCodex(f *testing.F) {
	matches, _ := filepath.Glob("testdata/codex/*.jsonl")
	for _, m := range matches {
		if src, err := os.ReadFile(m); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte(`{"type":"event_msg","payload":{"type":"user_message","message":"p"}}` + "\n" +
		`{"type":"response_item","payload":{"type":"custom_tool_call","name":"exec","input":"ALL_TOOLS; tools.mcp__a__b()"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var st Stats
		lines, err := ParseCodex("f", bytes.NewReader(data), Options{}, &st)
		if err != nil {
			t.Fatal(err)
		}
		checkLines(t, lines)
	})
}

// checkLines: whatever the input, the lines are valid written queries.
func checkLines(t *testing.T, lines []writer.Line) {
	t.Helper()
	out := marshal(lines)
	back, err := writer.Parse("out", strings.NewReader(out))
	if err != nil {
		t.Fatalf("imported lines do not parse: %v\n%s", err, out)
	}
	if len(back) != len(lines) {
		t.Fatalf("%d lines written, %d read back", len(lines), len(back))
	}
}

// TestImportFollowsLinks: a folder of symbolic links to logs, and a link
// to a folder of logs, are read as the logs (two files); a link back to the
// folder itself is walked once; a dangling link is an error naming it and
// its target.
func TestImportFollowsLinks(t *testing.T) {
	real := t.TempDir()
	src, err := os.ReadFile("testdata/claude/keyword-then-call.jsonl")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(real, "a.jsonl"), src, 0o644))
	other := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(other, "b.jsonl"), src, 0o644))
	dir := t.TempDir()
	require.NoError(t, os.Symlink(filepath.Join(real, "a.jsonl"), filepath.Join(dir, "a.jsonl")))
	require.NoError(t, os.Symlink(other, filepath.Join(dir, "proj")))
	require.NoError(t, os.Symlink(dir, filepath.Join(dir, "self")))
	lines, st, err := Import([]string{dir}, Options{})
	require.NoError(t, err)
	assert.Len(t, lines, 2)
	assert.Equal(t, 2, st.Files) // a.jsonl + proj/b.jsonl; self/… not again

	dangling := filepath.Join(dir, "gone.jsonl")
	require.NoError(t, os.Symlink("/nonexistent/x.jsonl", dangling))
	_, _, err = Import([]string{dir}, Options{})
	require.EqualError(t, err, "stat "+dangling+`: a symbolic link to "/nonexistent/x.jsonl", which does not exist`)
}
