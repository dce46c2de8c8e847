package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/jsbox/gojabox"
	"github.com/toolfind/toolfind/writer"
)

const stubKey = "sk-cli-test-key"

// apiStub answers every request with body and counts the requests; the
// request bodies are kept.
type apiStub struct {
	n      atomic.Int64
	mu     sync.Mutex
	bodies []string
	srv    *httptest.Server
}

func newAPIStub(t *testing.T, body string) *apiStub {
	s := &apiStub{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.bodies = append(s.bodies, string(b))
		s.mu.Unlock()
		s.n.Add(1)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

const twoPrompts = `{"query": "Look up the invoice for order 1042", "expect": ["billing/invoice_lookup"], "id": "p1"}
{"query": "Show me the billing ledger", "expect": ["billing/ledger"], "id": "p2"}
`

func readLines(t *testing.T, path string) []writer.Line {
	t.Helper()
	lines, err := writer.ReadFile(path)
	require.NoError(t, err)
	return lines
}

// The done-when: against stub servers of both APIs, write sends
// the real surface (through the SDKs),
// writes the stub's calls, and a second run sends no request.
func TestWriteModelStubs(t *testing.T) {
	tests := []struct {
		api, keyVar, body, path string
	}{
		{"openai", "OPENAI_API_KEY", `{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"tool_calls",
		  "message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"ToolSearch",
		  "arguments":"{\"query\":\"select:mcp__billing__invoice_lookup\",\"max_results\":5}"}}]}}],"usage":{"prompt_tokens":300,"completion_tokens":20,"total_tokens":320}}`, ""},
		{"anthropic", "ANTHROPIC_API_KEY", `{"id":"msg","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"t1","name":"ToolSearch",
		  "input":{"query":"select:mcp__billing__invoice_lookup","max_results":5}}],"stop_reason":"tool_use","usage":{"input_tokens":310,"output_tokens":25}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.api, func(t *testing.T) {
			t.Setenv(tt.keyVar, stubKey)
			st := newAPIStub(t, tt.body)
			dir := t.TempDir()
			q := writeFile(t, "q.jsonl", twoPrompts)
			out := filepath.Join(dir, "w.jsonl")
			cache := filepath.Join(dir, "cache.jsonl")
			args := []string{"write", "--writer", "model", "--model-api", tt.api, "--model-url", st.srv.URL, "--model", "m",
				"--client", "claude", "--queries", q, "--out", out, "--cache", cache}
			_, errOut, code := run(t, args...)
			require.Equal(t, 0, code, errOut)
			assert.Equal(t, int64(2), st.n.Load())
			assert.Contains(t, errOut, "model m ("+tt.api+"): 2 answers (0 cached, 2 requests sent)")
			// The request holds the surface: ToolSearch, the reminder with
			// the demo catalog's deferred names, the prompt.
			st.mu.Lock()
			body := strings.Join(st.bodies, "\n")
			st.mu.Unlock()
			for _, want := range []string{`"ToolSearch"`, `\nmcp__billing__invoice_lookup\nmcp__billing__ledger\n`, `"Show me the billing ledger"`} {
				assert.Contains(t, body, want)
			}
			assert.NotContains(t, body, stubKey)
			lines := readLines(t, out)
			require.Len(t, lines, 2)
			for i, l := range lines {
				assert.Equal(t, []string{"p1", "p2"}[i], l.ID)
				assert.Equal(t, "model", l.Writer)
				assert.Equal(t, `{"query":"select:mcp__billing__invoice_lookup","max_results":5}`, string(l.Call))
			}
			first, err := os.ReadFile(out)
			require.NoError(t, err)

			// Second run: from the cache, no request.
			_, errOut, code = run(t, args...)
			require.Equal(t, 0, code, errOut)
			assert.Equal(t, int64(2), st.n.Load())
			assert.Contains(t, errOut, "2 answers (2 cached, 0 requests sent)")
			second, err := os.ReadFile(out)
			require.NoError(t, err)
			assert.Equal(t, string(first), string(second))
			raw, err := os.ReadFile(cache)
			require.NoError(t, err)
			assert.NotContains(t, string(raw), stubKey)

			// And the file replays.
			rep, errOut, code := run(t, "bench", "--written", out, "--format", "json")
			require.Equal(t, 0, code, errOut)
			assert.Contains(t, rep, `"writer": "model"`)
		})
	}
}

func TestWriteModelNoCall(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", stubKey)
	st := newAPIStub(t, `{"choices":[{"index":0,"message":{"role":"assistant","content":"I would rather not."}}],"usage":{"prompt_tokens":1,"completion_tokens":1}}`)
	out := filepath.Join(t.TempDir(), "w.jsonl")
	_, errOut, code := run(t, "write", "--writer", "model", "--model-url", st.srv.URL, "--model", "m", "--no-cache",
		"--client", "claude", "--queries", writeFile(t, "q.jsonl", twoPrompts), "--out", out)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "2 without a search call (tag no_call)")
	lines := readLines(t, out)
	require.Len(t, lines, 2)
	assert.Nil(t, lines[0].Call)
	assert.Equal(t, `"answered in text without a tool call: I would rather not."`, string(lines[0].Tags["no_call"]))
	rep, errOut, code := run(t, "bench", "--written", out, "--format", "json")
	require.Equal(t, 0, code, errOut)
	var got struct {
		Clients []struct {
			Client string
			NoCall int `json:"no_call"`
		}
	}
	require.NoError(t, json.Unmarshal([]byte(rep), &got))
	require.NotEmpty(t, got.Clients)
	assert.Equal(t, 2, got.Clients[0].NoCall, rep)
}

func TestWriteCommand(t *testing.T) {
	q := writeFile(t, "q.jsonl", twoPrompts)
	// The script reads the JSON object and answers with a call built from
	// the client and the prompt it was given.
	script := writeFile(t, "w.sh", `in=$(cat); case "$in" in *'"client":"claude@'*'"prompt":"Show me the billing ledger"'*) echo '{"query":"select:mcp__billing__ledger"}';; *'"surface":{"client"'*) echo '[{"query":"invoice"},{"query":"order"}]';; *) echo null;; esac`)
	out := filepath.Join(t.TempDir(), "w.jsonl")
	_, errOut, code := run(t, "write", "--writer", "command", "--writer-command", "sh "+script, "--client", "claude", "--queries", q, "--out", out)
	require.Equal(t, 0, code, errOut)
	lines := readLines(t, out)
	require.Len(t, lines, 3)
	got := []string{}
	for _, l := range lines {
		got = append(got, l.ID+" "+string(l.Call)+" "+l.Writer)
	}
	assert.Equal(t, []string{
		`p1 {"query":"invoice"} command`,
		`p1 {"query":"order"} command`,
		`p2 {"query":"select:mcp__billing__ledger"} command`,
	}, got)

	for _, tt := range []struct{ cmd, timeout, want string }{
		{"echo not json", "1m", "command writer: prompt p1, claude@"},
		{"echo not json", "1m", "the output is not JSON"},
		{"echo oops >&2; exit 3", "1m", "the command exited with status 3: oops"},
		{"echo 42", "1m", "the output is not a JSON object, an array of objects or null: 42"},
		{"sleep 30", "200ms", "no answer within 200ms"},
	} {
		_, errOut, code := run(t, "write", "--writer", "command", "--writer-command", tt.cmd, "--command-timeout", tt.timeout, "--client", "claude", "--queries", q)
		assert.NotEqual(t, 0, code, tt.cmd)
		assert.Contains(t, errOut, tt.want, tt.cmd)
	}
}

func TestQueriesImportThenBench(t *testing.T) {
	out := filepath.Join(t.TempDir(), "imported.jsonl")
	_, errOut, code := run(t, "queries", "import", "../../writer/transcript/testdata/claude", "--out", out)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "imported 2 search calls for 2 prompts from 2 files (2 with the MCP tool called next)\n", errOut)
	lines := readLines(t, out)
	require.Len(t, lines, 2)
	assert.Equal(t, `{"max_results":5,"query":"invoice"}`, string(lines[0].Call))
	assert.Equal(t, []string{"mcp__billing__invoice_lookup"}, lines[0].Expect)
	// The demo catalog holds the billing server the transcripts used.
	rep, errOut, code := run(t, "bench", "--written", out)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, rep, "\nwriter: import (calls real models made, from session logs)\n")

	// Filters: nothing since 2027; a project the sessions were not in.
	for _, args := range [][]string{{"--since", "2027-01-01"}, {"--project", "/nowhere"}} {
		out, errOut, code := run(t, append([]string{"queries", "import", "../../writer/transcript/testdata/claude"}, args...)...)
		require.Equal(t, 0, code, errOut)
		assert.Empty(t, out)
		assert.Contains(t, errOut, "imported 0 search calls for 0 prompts from 2 files (0 with the MCP tool called next); 2 prompts filtered out")
	}
	_, errOut, code = run(t, "queries", "import", "x", "--since", "yesterday")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `--since "yesterday": want a date`)
}

func TestWriterFlagErrors(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"write", "--writer", "heuristic", "--model", "m"}, "--model goes with --writer model"},
		{[]string{"bench", "--writer", "heuristic", "--samples", "3"}, "--samples goes with --writer model or --writer command"},
		{[]string{"write", "--writer", "model"}, "--writer model needs --model NAME"},
		{[]string{"write", "--writer", "model", "--model", "m"}, "--writer model: set OPENAI_API_KEY (or give --model-url"},
		{[]string{"write", "--writer", "model", "--model", "m", "--model-api", "gemini"}, `--model-api "gemini": want openai or anthropic`},
		{[]string{"write", "--writer", "model", "--model", "m", "--samples", "0", "--model-url", "http://x"}, "--samples 0: must be 1 or more"},
		{[]string{"write", "--writer", "command"}, "--writer command needs --writer-command CMD"},
		{[]string{"write", "--writer", "command", "--writer-command", "true", "--model", "m"}, "--model goes with --writer model"},
		{[]string{"write", "--writer", "heuristic", "--writer-command", "true"}, "--writer-command goes with --writer command"},
		{[]string{"bench", "--writer", "verbatim", "--command-timeout", "2s"}, "--command-timeout goes with --writer command"},
		{[]string{"write", "--writer", "model", "--model", "m", "--command-timeout", "2s"}, "--command-timeout goes with --writer command"},
		{[]string{"write", "--writer", "oracle"}, `unknown writer "oracle"`},
	}
	for _, tt := range tests {
		_, errOut, code := run(t, tt.args...)
		assert.Equal(t, 2, code, strings.Join(tt.args, " "))
		assert.Contains(t, errOut, tt.want, strings.Join(tt.args, " "))
	}
}

func TestSamples(t *testing.T) {
	q := writeFile(t, "q.jsonl", twoPrompts)
	out := filepath.Join(t.TempDir(), "w.jsonl")
	_, errOut, code := run(t, "write", "--writer", "command", "--writer-command", `echo '{"query":"invoice"}'`, "--samples", "2", "--client", "claude", "--queries", q, "--out", out)
	require.Equal(t, 0, code, errOut)
	var got []string
	for _, l := range readLines(t, out) {
		got = append(got, l.ID+" "+string(l.Tags["sample"]))
	}
	assert.Equal(t, []string{`p1#1 "1"`, `p1#2 "2"`, `p2#1 "1"`, `p2#2 "2"`}, got)
}

// bench --writer model writes in memory, scores beside verbatim, and
// shares the cache with write.
func TestBenchWriterModel(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", stubKey)
	st := newAPIStub(t, `{"choices":[{"index":0,"message":{"role":"assistant","tool_calls":[{"id":"c","type":"function",
	  "function":{"name":"ToolSearch","arguments":"{\"query\":\"select:mcp__billing__invoice_lookup\"}"}}]}}],"usage":{"prompt_tokens":10,"completion_tokens":2}}`)
	cache := filepath.Join(t.TempDir(), "c.jsonl")
	q := writeFile(t, "q.jsonl", twoPrompts)
	// The verbatim rows only when asked for (--writer model,verbatim).
	args := []string{"bench", "--writer", "model,verbatim", "--model-url", st.srv.URL, "--model", "m", "--cache", cache, "--client", "claude", "--queries", q, "--format", "json"}
	rep, errOut, code := run(t, args...)
	require.Equal(t, 0, code, errOut)
	var got struct {
		Clients []struct {
			Client, Writer string
			FoundAtLimit   float64 `json:"found_at_limit"`
		}
	}
	require.NoError(t, json.Unmarshal([]byte(rep), &got))
	require.Len(t, got.Clients, 2, rep)
	// p1 expects invoice_lookup (selected: found); p2 the ledger (not
	// selected): 1 of 2.
	assert.Equal(t, "model", got.Clients[0].Writer)
	assert.Equal(t, 0.5, got.Clients[0].FoundAtLimit)
	assert.Equal(t, "verbatim", got.Clients[1].Writer)
	assert.Equal(t, int64(2), st.n.Load())
	_, errOut, code = run(t, append(args, "--samples", "1")...)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, int64(2), st.n.Load(), "the second bench asked again")
}

// TestQueriesImportUnknownLine: a broken line is skipped, and the summary
// names where the first one is, its file name escaped.
func TestQueriesImportUnknownLine(t *testing.T) {
	log := writeFile(t, "a\x1b[2J.jsonl", "{\"type\":\"queue-operation\"}\n{broken\n")
	_, errOut, code := run(t, "queries", "import", log)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "1 line of unknown shape skipped (the first: "+strings.ReplaceAll(log, "\x1b", `\x1b`)+":2)")
}

// A run the cache answers sends no request: the model is asked once per
// prompt, the rerun reads both answers from the cache.
func TestWriteModelCacheSendsNothing(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", stubKey)
	q := writeFile(t, "q.jsonl", twoPrompts)
	stub := newAPIStub(t, `{"choices":[{"index":0,"message":{"role":"assistant","tool_calls":[{"id":"c","type":"function",
	  "function":{"name":"ToolSearch","arguments":"{\"query\":\"invoice\"}"}}]}}],"usage":{"prompt_tokens":10,"completion_tokens":2}}`)
	cache := filepath.Join(t.TempDir(), "c.jsonl")
	cached := []string{"write", "--writer", "model", "--model-url", stub.srv.URL, "--model", "m", "--client", "claude", "--queries", q, "--cache", cache}
	_, errOut, code := run(t, cached...)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, int64(2), stub.n.Load())
	_, errOut, code = run(t, cached...)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "2 answers (2 cached, 0 requests sent)")
	assert.Equal(t, int64(2), stub.n.Load())
}

// codexScriptAnswer is a Chat Completions answer calling Codex's exec with
// a script of the model's own: the tools whose name has "invoice".
const codexScriptAnswer = `{"choices":[{"index":0,"message":{"role":"assistant","tool_calls":[{"id":"c","type":"function",
  "function":{"name":"exec","arguments":"{\"code\":\"const hits = ALL_TOOLS.filter(t => /invoice/i.test(t.name));\\ntext(hits.map(t => t.name).join('\\\\n'))\"}"}}]}}],"usage":{"prompt_tokens":10,"completion_tokens":2}}`

// TestBenchModelWrittenCodexScript: a model (the API stub) writes Codex's
// exec script, which is not one of the writers' own searches, so it runs
// in goja in toolfind's JavaScript child; p1's script finds the invoice
// tool, p2's (the same script) not the ledger: 1 of 2. The same bytes as
// with the engine in this process.
func TestBenchModelWrittenCodexScript(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", stubKey)
	st := newAPIStub(t, codexScriptAnswer)
	cache := filepath.Join(t.TempDir(), "c.jsonl")
	q := writeFile(t, "q.jsonl", twoPrompts)
	args := []string{"bench", "--writer", "model", "--model-url", st.srv.URL, "--model", "m", "--cache", cache, "--client", "codex", "--queries", q, "--format", "json"}
	rep, errOut, code := run(t, args...)
	require.Equal(t, 0, code, errOut)
	var got struct {
		Clients []struct {
			Client, Writer string
			FoundAtLimit   float64 `json:"found_at_limit"`
		}
		Outcomes []struct {
			Query, Client string
			Rank          int
		}
	}
	require.NoError(t, json.Unmarshal([]byte(rep), &got))
	var model int
	for _, c := range got.Clients {
		if c.Writer == "model" {
			model++
			assert.Equal(t, "codex@0.171.0", c.Client)
			assert.Equal(t, 0.5, c.FoundAtLimit, rep)
		}
	}
	assert.Equal(t, 1, model, rep)
	assert.Equal(t, int64(2), st.n.Load())
	inProcessJS = gojabox.New()
	local, errOut2, code2 := run(t, args...)
	inProcessJS = nil
	require.Equal(t, 0, code2, errOut2)
	assert.Equal(t, rep, local)
}
