package sdk

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/toolfind/toolfind/claude" // registers claude@2.1.328
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/writer"
	"github.com/toolfind/toolfind/writer/model"
)

var update = flag.Bool("update", false, "rewrite the golden request files in testdata/")

const testKey = "sk-test-0123456789"

// stub is a local API server: it records every request and answers each
// with the next of its replies (the last one repeats).
type stub struct {
	t       *testing.T
	mu      sync.Mutex
	bodies  [][]byte
	headers []http.Header
	paths   []string
	replies []reply
	srv     *httptest.Server
}

type reply struct {
	status int
	header map[string]string
	body   string
}

func newStub(t *testing.T, replies ...reply) *stub {
	s := &stub{t: t, replies: replies}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		n := len(s.bodies)
		s.bodies = append(s.bodies, b)
		s.headers = append(s.headers, r.Header.Clone())
		s.paths = append(s.paths, r.URL.Path)
		rp := s.replies[min(n, len(s.replies)-1)]
		s.mu.Unlock()
		for k, v := range rp.header {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rp.status)
		io.WriteString(w, rp.body)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *stub) requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.bodies)
}

// claudeSim is Claude Code 2.1.328 over the demo catalog without its own
// deferred tools, so the reminder lists the catalog's names only.
func claudeSim(t *testing.T) search.Simulator {
	t.Helper()
	p, err := search.Lookup("claude@2.1.328")
	require.NoError(t, err)
	sim, err := search.Build(p, corpus.Demo(), search.Options{"builtins": "false"})
	require.NoError(t, err)
	return sim
}

func openaiReply(args string) reply {
	b, _ := json.Marshal(args)
	return reply{status: 200, body: `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"m",
	 "choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,
	  "tool_calls":[{"id":"call_1","type":"function","function":{"name":"ToolSearch","arguments":` + string(b) + `}}]}}],
	 "usage":{"prompt_tokens":120,"completion_tokens":15,"total_tokens":135}}`}
}

func anthropicReply(input string) reply {
	return reply{status: 200, body: `{"id":"msg_1","type":"message","role":"assistant","model":"m",
	 "content":[{"type":"text","text":"Loading it."},{"type":"tool_use","id":"toolu_1","name":"ToolSearch","input":` + input + `}],
	 "stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":130,"output_tokens":20}}`}
}

func newWriter(t *testing.T, api, url string, cache *model.Cache) *model.Writer {
	t.Helper()
	w, err := New(model.Config{API: api, BaseURL: url, Model: "m", Key: testKey, Cache: cache, Backoff: time.Millisecond, Retries: 3})
	require.NoError(t, err)
	return w
}

func openCache(t *testing.T) *model.Cache {
	t.Helper()
	c, err := model.OpenCache(filepath.Join(t.TempDir(), "cache.jsonl"))
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

// golden compares a request body, indented, with testdata/NAME.
func golden(t *testing.T, name string, body []byte) {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(body, &v))
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	require.NoError(t, enc.Encode(v))
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, b.Bytes(), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create it")
	assert.Equal(t, string(want), b.String())
}

// The deferred-tools reminder of the demo catalog: names sorted by UTF-16
// code units (specs/claude.md background §2: "_" 0x5F sorts before
// lower-case letters, upper-case "I" 0x49 before them too); customer_lookup
// is alwaysLoad and render_board is an app-only UI tool, so neither is
// deferred (specs/claude.md §2).
var demoNames = []string{
	"mcp__accounts__add_notes",
	"mcp__billing__digest",
	"mcp__billing__export",
	"mcp__billing__findInvoice",
	"mcp__billing__invoice_lookup",
	"mcp__billing__ledger",
	"mcp__files__list_directory",
	"mcp__files__move_file",
	"mcp__files__read_file",
	"mcp__files__search_files",
	"mcp__files__write_file",
	"mcp__tickets__addComment",
	"mcp__tickets__close-ticket",
	"mcp__tickets__create_ticket",
	"mcp__tickets__search_tickets",
	"mcp__weather__get_alerts",
	"mcp__weather__get_forecast",
}

// textMessage is a message of text parts, as both APIs write it.
type textMessage struct {
	Role    string `json:"role"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
}

const prompt = "Find the invoice for order 1042"

func TestOpenAIRequestAndCache(t *testing.T) {
	st := newStub(t, openaiReply(`{"query":"select:mcp__billing__invoice_lookup","max_results":5}`))
	cache := openCache(t)
	sim := claudeSim(t)
	w := newWriter(t, model.OpenAI, st.srv.URL, cache)
	calls, err := w.Calls(context.Background(), sim, writer.Prompt{ID: "q1", Text: prompt})
	require.NoError(t, err)
	require.Equal(t, []json.RawMessage{json.RawMessage(`{"query":"select:mcp__billing__invoice_lookup","max_results":5}`)}, calls)
	require.Equal(t, 1, st.requests())
	assert.Equal(t, "/chat/completions", st.paths[0])
	assert.Equal(t, "Bearer "+testKey, st.headers[0].Get("Authorization"))

	var req struct {
		Model    string        `json:"model"`
		Messages []textMessage `json:"messages"`
		Tools    []struct {
			Type     string `json:"type"`
			Function struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
		ToolChoice json.RawMessage `json:"tool_choice"`
	}
	require.NoError(t, json.Unmarshal(st.bodies[0], &req))
	sf, err := sim.(search.Writable).Surface(nil)
	require.NoError(t, err)
	assert.Equal(t, "m", req.Model)
	require.Len(t, req.Tools, 1)
	assert.Equal(t, "function", req.Tools[0].Type)
	assert.Equal(t, "ToolSearch", req.Tools[0].Function.Name)
	assert.Equal(t, sf.Tools[0].Description, req.Tools[0].Function.Description)
	assert.JSONEq(t, string(sf.Tools[0].InputSchema), string(req.Tools[0].Function.Parameters))
	assert.JSONEq(t, `{"type":"function","function":{"name":"ToolSearch"}}`, string(req.ToolChoice))
	require.Len(t, req.Messages, 1, "no system prompt: Claude's surface has only a reminder")
	assert.Equal(t, "user", req.Messages[0].Role)
	require.Len(t, req.Messages[0].Content, 2)
	reminder := req.Messages[0].Content[0].Text
	assert.True(t, strings.HasPrefix(reminder, "<system-reminder>\n"), reminder)
	assert.True(t, strings.HasSuffix(reminder, "\n"+strings.Join(demoNames, "\n")+"\n</system-reminder>"), reminder)
	assert.Equal(t, prompt, req.Messages[0].Content[1].Text)
	golden(t, "openai-claude-request.json", st.bodies[0])

	s := w.Stats()
	assert.Equal(t, model.Stats{Calls: 1, Requests: 1, InputTokens: 120, OutputTokens: 15}, s)

	// A second run over the same cache file sends nothing.
	require.NoError(t, cache.Close())
	cache2, err := model.OpenCache(cache.Path())
	require.NoError(t, err)
	defer cache2.Close()
	assert.Equal(t, 1, cache2.Len())
	w2 := newWriter(t, model.OpenAI, st.srv.URL, cache2)
	calls2, err := w2.Calls(context.Background(), claudeSim(t), writer.Prompt{ID: "q1", Text: prompt})
	require.NoError(t, err)
	assert.Equal(t, calls, calls2)
	assert.Equal(t, 1, st.requests(), "the cached answer was requested again")
	assert.Equal(t, model.Stats{Calls: 1, Cached: 1}, w2.Stats())
	// Another sample is another request.
	_, err = w2.Calls(context.Background(), claudeSim(t), writer.Prompt{ID: "q1#2", Text: prompt, Sample: 1})
	require.NoError(t, err)
	assert.Equal(t, 2, st.requests())

	raw, err := os.ReadFile(cache.Path())
	require.NoError(t, err)
	assert.NotContains(t, string(raw), testKey)
}

func TestAnthropicRequestAndCache(t *testing.T) {
	st := newStub(t, anthropicReply(`{"query":"select:mcp__billing__invoice_lookup","max_results":5}`))
	cache := openCache(t)
	sim := claudeSim(t)
	temp := 0.0
	w, err := New(model.Config{API: model.Anthropic, BaseURL: st.srv.URL, Model: "claude-test", Key: testKey, Cache: cache, Temperature: &temp})
	require.NoError(t, err)
	calls, err := w.Calls(context.Background(), sim, writer.Prompt{ID: "q1", Text: prompt})
	require.NoError(t, err)
	require.Equal(t, `{"query":"select:mcp__billing__invoice_lookup","max_results":5}`, string(calls[0]))
	require.Equal(t, 1, st.requests())
	assert.Equal(t, "/v1/messages", st.paths[0])
	// The SDK sends the key in one of Anthropic's two auth headers.
	assert.Contains(t, []string{testKey, "Bearer " + testKey}, st.headers[0].Get("X-Api-Key")+st.headers[0].Get("Authorization"))

	var req struct {
		Model       string        `json:"model"`
		MaxTokens   int           `json:"max_tokens"`
		Temperature *float64      `json:"temperature"`
		System      any           `json:"system"`
		Messages    []textMessage `json:"messages"`
		Tools       []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"input_schema"`
		} `json:"tools"`
		ToolChoice json.RawMessage `json:"tool_choice"`
	}
	require.NoError(t, json.Unmarshal(st.bodies[0], &req))
	sf, err := sim.(search.Writable).Surface(nil)
	require.NoError(t, err)
	assert.Equal(t, "claude-test", req.Model)
	assert.Equal(t, 4096, req.MaxTokens)
	require.NotNil(t, req.Temperature)
	assert.Equal(t, 0.0, *req.Temperature)
	assert.Nil(t, req.System)
	require.Len(t, req.Tools, 1)
	assert.Equal(t, "ToolSearch", req.Tools[0].Name)
	assert.Equal(t, sf.Tools[0].Description, req.Tools[0].Description)
	assert.JSONEq(t, string(sf.Tools[0].InputSchema), string(req.Tools[0].InputSchema))
	assert.JSONEq(t, `{"type":"tool","name":"ToolSearch"}`, string(req.ToolChoice))
	require.Len(t, req.Messages, 1)
	require.Len(t, req.Messages[0].Content, 2)
	assert.Equal(t, "<system-reminder>\n"+sf.Context[0].Text+"\n</system-reminder>", req.Messages[0].Content[0].Text)
	assert.True(t, strings.HasSuffix(sf.Context[0].Text, "\n"+strings.Join(demoNames, "\n")))
	assert.Equal(t, prompt, req.Messages[0].Content[1].Text)
	golden(t, "anthropic-claude-request.json", st.bodies[0])
	assert.Equal(t, model.Stats{Calls: 1, Requests: 1, InputTokens: 130, OutputTokens: 20}, w.Stats())

	require.NoError(t, cache.Close())
	cache2, err := model.OpenCache(cache.Path())
	require.NoError(t, err)
	defer cache2.Close()
	w2, err := New(model.Config{API: model.Anthropic, BaseURL: st.srv.URL, Model: "claude-test", Key: testKey, Cache: cache2, Temperature: &temp})
	require.NoError(t, err)
	_, err = w2.Calls(context.Background(), claudeSim(t), writer.Prompt{ID: "q1", Text: prompt})
	require.NoError(t, err)
	assert.Equal(t, 1, st.requests(), "the cached answer was requested again")
	// Another temperature is another key.
	hot := 1.0
	w3, err := New(model.Config{API: model.Anthropic, BaseURL: st.srv.URL, Model: "claude-test", Key: testKey, Cache: cache2, Temperature: &hot})
	require.NoError(t, err)
	_, err = w3.Calls(context.Background(), claudeSim(t), writer.Prompt{ID: "q1", Text: prompt})
	require.NoError(t, err)
	assert.Equal(t, 2, st.requests())
}

func TestNoCallIsRecorded(t *testing.T) {
	tests := []struct {
		name   string
		api    string
		reply  reply
		reason string
	}{
		{"openai text", model.OpenAI, reply{200, nil, `{"choices":[{"index":0,"message":{"role":"assistant","content":"I cannot search."}}],"usage":{}}`},
			"answered in text without a tool call: I cannot search."},
		{"openai bad arguments", model.OpenAI, openaiReply(`{"query": "x"`),
			`invalid input: not a JSON object: {"query": "x"`},
		{"openai array arguments", model.OpenAI, openaiReply(`["x"]`),
			`invalid input: not a JSON object: ["x"]`},
		{"anthropic empty", model.Anthropic, reply{200, nil, `{"type":"message","role":"assistant","content":[],"usage":{"input_tokens":5,"output_tokens":0}}`},
			"answered without a tool call"},
		{"anthropic other tool", model.Anthropic, reply{200, nil, `{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"t","name":"Read","input":{}}],"usage":{}}`},
			"called Read instead of ToolSearch"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := newStub(t, tt.reply)
			cache := openCache(t)
			w := newWriter(t, tt.api, st.srv.URL, cache)
			calls, err := w.Calls(context.Background(), claudeSim(t), writer.Prompt{ID: "q1", Text: prompt})
			assert.Nil(t, calls)
			var nc *writer.NoCallError
			require.ErrorAs(t, err, &nc)
			assert.Equal(t, tt.reason, nc.Reason)
			assert.Equal(t, 1, w.Stats().NoCall)
			// Recorded: asked again, the cache answers the same.
			_, err = w.Calls(context.Background(), claudeSim(t), writer.Prompt{ID: "q1", Text: prompt})
			require.ErrorAs(t, err, &nc)
			assert.Equal(t, 1, st.requests())
		})
	}
}

func TestRetries(t *testing.T) {
	st := newStub(t,
		reply{429, map[string]string{"Retry-After": "0"}, `{"error":{"message":"slow down","type":"rate_limit"}}`},
		reply{503, nil, `{"error":{"message":"overloaded"}}`},
		openaiReply(`{"query":"invoice"}`))
	w := newWriter(t, model.OpenAI, st.srv.URL, nil)
	calls, err := w.Calls(context.Background(), claudeSim(t), writer.Prompt{ID: "q1", Text: prompt})
	require.NoError(t, err)
	assert.Equal(t, `{"query":"invoice"}`, string(calls[0]))
	s := w.Stats()
	assert.Equal(t, 3, s.Requests) // 429, 503, 200
	assert.Equal(t, 2, s.Retries)

	// Retries run out: the last status is named.
	st2 := newStub(t, reply{500, nil, `{"error":{"message":"boom"}}`})
	w2 := newWriter(t, model.OpenAI, st2.srv.URL, nil)
	_, err = w2.Calls(context.Background(), claudeSim(t), writer.Prompt{ID: "q1", Text: prompt})
	require.Error(t, err)
	assert.Equal(t, 4, st2.requests()) // 1 + Retries (3)
	assert.Contains(t, err.Error(), "answered 500 (after 3 retries): boom")
}

func TestFatalErrors(t *testing.T) {
	tests := []struct {
		name, api string
		reply     reply
		want      string
	}{
		{"openai 401", model.OpenAI, reply{401, nil, `{"error":{"message":"Incorrect API key provided: sk-test-0123456789"}}`},
			"refused the API key (401): check OPENAI_API_KEY"},
		{"anthropic 401", model.Anthropic, reply{401, nil, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`},
			"refused the API key (401): check ANTHROPIC_API_KEY"},
		{"openai 404", model.OpenAI, reply{404, nil, `{"error":{"message":"The model m does not exist"}}`},
			`answered 404: no model "m" there, or a wrong --model-url (The model m does not exist)`},
		{"anthropic 400", model.Anthropic, reply{400, nil, `{"type":"error","error":{"type":"invalid_request_error","message":"tool_choice: bad"}}`},
			"answered 400: tool_choice: bad"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := newStub(t, tt.reply)
			w := newWriter(t, tt.api, st.srv.URL, nil)
			_, err := w.Calls(context.Background(), claudeSim(t), writer.Prompt{ID: "q1", Text: prompt})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.NotContains(t, err.Error(), testKey)
			assert.Equal(t, 1, st.requests(), "not retried")
			// The run is over: later prompts fail at once.
			_, err2 := w.Calls(context.Background(), claudeSim(t), writer.Prompt{ID: "q2", Text: "other"})
			assert.Equal(t, err, err2)
			assert.Equal(t, 1, st.requests())
		})
	}
}

func TestUnreachable(t *testing.T) {
	st := newStub(t, openaiReply(`{}`))
	url := st.srv.URL
	st.srv.Close()
	w, err := New(model.Config{API: model.OpenAI, BaseURL: url, Model: "m", Key: testKey, Backoff: time.Millisecond, Retries: 1})
	require.NoError(t, err)
	_, err = w.Calls(context.Background(), claudeSim(t), writer.Prompt{ID: "q1", Text: prompt})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "openai API at "+url+" unreachable (after 1 retries)")
}

func TestCancelKeepsCache(t *testing.T) {
	st := newStub(t, openaiReply(`{"query":"a"}`))
	cache := openCache(t)
	w := newWriter(t, model.OpenAI, st.srv.URL, cache)
	_, err := w.Calls(context.Background(), claudeSim(t), writer.Prompt{ID: "q1", Text: "one"})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = w.Calls(ctx, claudeSim(t), writer.Prompt{ID: "q2", Text: "two"})
	require.ErrorIs(t, err, context.Canceled)
	// An interrupted run's cancellation is not a fatal API error.
	_, err = w.Calls(context.Background(), claudeSim(t), writer.Prompt{ID: "q3", Text: "three"})
	require.NoError(t, err)
	raw, err := os.ReadFile(cache.Path())
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(string(raw), "\n"))
}

func TestConfigErrors(t *testing.T) {
	_, err := New(model.Config{API: model.OpenAI})
	assert.EqualError(t, err, "model writer: no model named (--model)")
	_, err = New(model.Config{API: "gemini", Model: "m"})
	assert.EqualError(t, err, `model writer: unknown API "gemini" (known: openai, anthropic)`)
}

func TestWriteConcurrentKeepsOrder(t *testing.T) {
	st := newStub(t, openaiReply(`{"query":"select:mcp__billing__invoice_lookup"}`))
	w, err := New(model.Config{API: model.OpenAI, BaseURL: st.srv.URL, Model: "m", Key: testKey, Concurrency: 3})
	require.NoError(t, err)
	qs, err := corpus.DemoQueries(corpus.Demo())
	require.NoError(t, err)
	lines, err := writer.Write(context.Background(), w, []search.Simulator{claudeSim(t)}, qs)
	require.NoError(t, err)
	require.Len(t, lines, len(qs.Queries))
	for i, l := range lines {
		assert.Equal(t, qs.Queries[i].Text, l.Prompt)
		assert.Equal(t, "model", l.Writer)
	}
	assert.Equal(t, len(qs.Queries), st.requests())
}

// countingTransport counts the requests it carries.
type countingTransport struct{ n int }

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n++
	return http.DefaultTransport.RoundTrip(r)
}

// TestWithHTTPClient: both backends send through the given client, and a
// status with Retry-After becomes an APIError carrying it.
func TestWithHTTPClient(t *testing.T) {
	for _, api := range []string{model.OpenAI, model.Anthropic} {
		t.Run(api, func(t *testing.T) {
			st := newStub(t, reply{429, map[string]string{"Retry-After": "7"}, `{"error":{"message":"slow down"}}`})
			tr := &countingTransport{}
			b, err := NewBackend(model.Config{API: api, BaseURL: st.srv.URL, Model: "m", Key: testKey}, WithHTTPClient(&http.Client{Transport: tr}))
			require.NoError(t, err)
			req := model.Request{Tools: []search.SurfaceTool{{Name: "ToolSearch", Description: "find tools", InputSchema: json.RawMessage(`{"type":"object"}`)}}}
			_, err = b.Ask(context.Background(), req, "hi")
			var ae *model.APIError
			require.ErrorAs(t, err, &ae)
			assert.Equal(t, 429, ae.Status)
			assert.Equal(t, 7*time.Second, ae.RetryAfter)
			assert.Equal(t, 1, tr.n)
			assert.Equal(t, 1, st.requests())
		})
	}
}
