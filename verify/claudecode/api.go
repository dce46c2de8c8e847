package claudecode

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/toolfind/toolfind/verify"
)

// SearchTool is the name of Claude Code's search tool (specs/claude.md
// background §1).
const SearchTool = "ToolSearch"

// modelAPI emulates the Anthropic Messages API for one Claude Code run:
//
//   - POST …/v1/messages whose "tools" offer ToolSearch and whose messages
//     hold no call of ours yet: answered with one tool_use block calling
//     ToolSearch with the run's input (stop_reason "tool_use");
//   - POST …/v1/messages carrying the tool_result of that call: recorded,
//     answered with a short text, so the client ends its turn;
//   - any other POST …/v1/messages (titles, side questions): a short text;
//   - POST …/v1/messages/count_tokens: {"input_tokens": 42};
//   - HEAD, GET / and GET /v1: 200; anything else 404.
//
// Answers are streamed as server-sent events when the request asks for a
// stream, plain JSON otherwise.
type modelAPI struct {
	input []byte // the ToolSearch input JSON
	// onCall, when set, runs as the call is about to be made; what it
	// returns is kept in unlisted.
	onCall   func() []string
	unlisted []string
	useID    string
	ln       net.Listener
	srv      *http.Server

	mu       sync.Mutex
	called   bool     // a tool_use was sent
	required []string // "required" of ToolSearch's input schema as offered
	offered  []string // tools of the latest request that had no ToolSearch
	captured *capture
	done     chan struct{}
	once     sync.Once
}

// capture is what the client sent back for the call.
type capture struct {
	content json.RawMessage   // the tool_result content: a string or blocks
	isError bool              // the tool_result's is_error
	extra   []json.RawMessage // the other blocks of the same turn
}

func newModelAPI(input []byte) (*modelAPI, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("model API: %w", err)
	}
	a := &modelAPI{input: input, useID: "toolu_tf" + randomHex(12), ln: ln, done: make(chan struct{})}
	a.srv = &http.Server{Handler: a, ReadHeaderTimeout: 30 * time.Second}
	go a.srv.Serve(ln)
	return a, nil
}

func (a *modelAPI) url() string { return "http://" + a.ln.Addr().String() }

func (a *modelAPI) close() { a.srv.Close() }

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// maxBody bounds one request body (Claude Code's requests with 1,000+
// tools are a few MB).
const maxBody = 256 << 20

func (a *modelAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		apiError(w, http.StatusBadRequest, "invalid_request_error", "reading the body: "+err.Error())
		return
	}
	path := strings.TrimSuffix(r.URL.Path, "/")
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(path, "/v1/messages/count_tokens"):
		writeJSON(w, map[string]any{"input_tokens": 42})
	case r.Method == http.MethodPost && strings.HasSuffix(path, "/v1/messages"):
		a.messages(w, body)
	case r.Method == http.MethodHead || r.Method == http.MethodGet && (path == "" || path == "/v1"):
		w.WriteHeader(http.StatusOK)
	default:
		apiError(w, http.StatusNotFound, "not_found_error", "toolfind verify: no such endpoint "+r.Method+" "+r.URL.Path)
	}
}

type message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type request struct {
	Model    string    `json:"model"`
	Stream   bool      `json:"stream"`
	Messages []message `json:"messages"`
	Tools    []struct {
		Name        string `json:"name"`
		Type        string `json:"type"`
		InputSchema struct {
			Required []string `json:"required"`
		} `json:"input_schema"`
	} `json:"tools"`
}

type block struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	Text      string          `json:"text"`
	ToolName  string          `json:"tool_name"`
}

// blocks returns a message's content blocks; plain-string content is one
// text block.
func blocks(c json.RawMessage) []json.RawMessage {
	var list []json.RawMessage
	if json.Unmarshal(c, &list) == nil {
		return list
	}
	var s string
	if json.Unmarshal(c, &s) == nil {
		b, _ := json.Marshal(map[string]string{"type": "text", "text": s})
		return []json.RawMessage{b}
	}
	return nil
}

func (a *modelAPI) messages(w http.ResponseWriter, body []byte) {
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		apiError(w, http.StatusBadRequest, "invalid_request_error", "toolfind verify: bad JSON: "+err.Error())
		return
	}
	offers := false
	var names, required []string
	for _, t := range req.Tools {
		names = append(names, t.Name)
		if t.Name == SearchTool {
			offers, required = true, t.InputSchema.Required
		}
	}
	// Our call in the history, then its result in a later user turn.
	callAt := -1
	for i, m := range req.Messages {
		if m.Role != "assistant" {
			continue
		}
		for _, raw := range blocks(m.Content) {
			var b block
			if json.Unmarshal(raw, &b) == nil && b.Type == "tool_use" && b.ID == a.useID {
				callAt = i
			}
		}
	}
	var got *capture
	if callAt >= 0 {
		var extra []json.RawMessage
		for _, m := range req.Messages[callAt+1:] {
			if m.Role != "user" {
				continue
			}
			for _, raw := range blocks(m.Content) {
				var b block
				_ = json.Unmarshal(raw, &b)
				if got == nil && b.Type == "tool_result" && b.ToolUseID == a.useID {
					got = &capture{content: b.Content, isError: b.IsError}
				} else {
					extra = append(extra, raw)
				}
			}
		}
		if got != nil {
			got.extra = extra
		}
	}
	switch {
	case got != nil:
		a.mu.Lock()
		if a.captured == nil {
			a.captured = got
		}
		a.mu.Unlock()
		reply(w, req, []map[string]any{{"type": "text", "text": "Done."}}, "end_turn")
		a.once.Do(func() { close(a.done) })
	case offers && callAt < 0:
		var unlisted []string
		if a.onCall != nil {
			unlisted = a.onCall()
		}
		a.mu.Lock()
		if !a.called {
			a.unlisted = unlisted
		}
		a.called = true
		if a.required == nil {
			a.required = append([]string{}, required...)
		}
		a.mu.Unlock()
		reply(w, req, []map[string]any{{"type": "tool_use", "id": a.useID, "name": SearchTool, "input": json.RawMessage(a.input)}}, "tool_use")
	default:
		if len(names) > 0 && !offers {
			a.mu.Lock()
			a.offered = names
			a.mu.Unlock()
		}
		reply(w, req, []map[string]any{{"type": "text", "text": "OK."}}, "end_turn")
	}
}

// answer turns the captured tool_result into a verify.Answer: the
// tool_reference names in order; with none, the result's text followed by
// the texts of the other blocks of the same turn (Claude Code's
// reminders), each after a blank line.
func (c *capture) answer() (verify.Answer, error) {
	a := verify.Answer{Tools: []string{}}
	var text []string
	for _, raw := range blocks(c.content) {
		var b block
		if err := json.Unmarshal(raw, &b); err != nil {
			return a, fmt.Errorf("tool_result content: %w", err)
		}
		switch b.Type {
		case "tool_reference":
			a.Tools = append(a.Tools, b.ToolName)
		case "text":
			text = append(text, b.Text)
		}
	}
	if c.isError {
		return a, fmt.Errorf("the client reported a tool error: %s", strings.Join(text, " "))
	}
	if len(a.Tools) > 0 {
		return a, nil
	}
	for _, raw := range c.extra {
		var b block
		if json.Unmarshal(raw, &b) == nil && b.Type == "text" {
			text = append(text, b.Text)
		}
	}
	a.Text = strings.Join(text, "\n\n")
	return a, nil
}

// reply answers a Messages request, streamed when asked to.
func reply(w http.ResponseWriter, req request, content []map[string]any, stop string) {
	model := req.Model
	if model == "" {
		model = "toolfind-verify"
	}
	id := "msg_tf" + randomHex(12)
	usage := map[string]any{"input_tokens": 100, "output_tokens": 10, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	if !req.Stream {
		writeJSON(w, map[string]any{"id": id, "type": "message", "role": "assistant", "model": model,
			"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": usage})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	var buf bytes.Buffer
	event := func(name string, data map[string]any) {
		data["type"] = name
		b, _ := json.Marshal(data)
		fmt.Fprintf(&buf, "event: %s\ndata: %s\n\n", name, b)
	}
	event("message_start", map[string]any{"message": map[string]any{"id": id, "type": "message", "role": "assistant",
		"model": model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}})
	event("ping", map[string]any{})
	for i, c := range content {
		if c["type"] == "tool_use" {
			event("content_block_start", map[string]any{"index": i, "content_block": map[string]any{
				"type": "tool_use", "id": c["id"], "name": c["name"], "input": map[string]any{}}})
			event("content_block_delta", map[string]any{"index": i, "delta": map[string]any{
				"type": "input_json_delta", "partial_json": string(c["input"].(json.RawMessage))}})
		} else {
			event("content_block_start", map[string]any{"index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			event("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "text_delta", "text": c["text"]}})
		}
		event("content_block_stop", map[string]any{"index": i})
	}
	event("message_delta", map[string]any{"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 10}})
	event("message_stop", map[string]any{})
	w.Write(buf.Bytes())
}

func writeJSON(w http.ResponseWriter, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(b)
}

func apiError(w http.ResponseWriter, code int, typ, msg string) {
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(b)
}
