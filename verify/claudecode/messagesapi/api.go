// Package messagesapi emulates the Anthropic Messages API for one Claude
// Code run of `toolfind verify` (package verify/claudecode), on
// 127.0.0.1:
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
//
// Start serves it in this process for one run (Server); Claude Code is
// given its URL, and what the run saw is read when it is closed.
package messagesapi

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/toolfind/toolfind/verify/clientproc"
)

// SearchTool is the name of Claude Code's search tool (specs/claude.md
// background §1).
const SearchTool = "ToolSearch"

// State is what the emulated API saw during a run.
type State struct {
	// Called: the call was sent (a request offered ToolSearch).
	Called bool
	// Required is the "required" of ToolSearch's input schema as first
	// offered (nil when never offered).
	Required []string
	// Offered are the tools of the latest request that had no ToolSearch.
	Offered []string
	// Unlisted is what the unlisted function of Start returned as the
	// call was about to be made.
	Unlisted []string
	// Captured is the call's tool_result, nil when none came.
	Captured *Capture
}

// Capture is what the client sent back for the call.
type Capture struct {
	// Content is the tool_result's content: a string or content blocks.
	Content json.RawMessage
	// IsError is the tool_result's is_error.
	IsError bool
	// Extra are the other content blocks of the same turn.
	Extra []json.RawMessage
}

// Block is a Messages API content block, as far as toolfind reads it.
type Block struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	Text      string          `json:"text"`
	ToolName  string          `json:"tool_name"`
}

// Blocks returns a message's content blocks; plain-string content is one
// text block.
func Blocks(c json.RawMessage) []json.RawMessage {
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

// modelAPI is the emulated API of one run.
type modelAPI struct {
	input []byte // the ToolSearch input JSON
	// onCall, when set, runs as the call is about to be made; what it
	// returns is kept in unlisted.
	onCall func() []string
	// onDone, when set, runs once, when the call's result is in.
	onDone func()
	useID  string

	mu       sync.Mutex
	unlisted []string
	called   bool     // a tool_use was sent
	required []string // "required" of ToolSearch's input schema as offered
	offered  []string // tools of the latest request that had no ToolSearch
	captured *Capture
	once     sync.Once
}

// Server is the emulated API of one run, listening on 127.0.0.1.
type Server struct {
	a    *modelAPI
	api  *clientproc.API
	done chan struct{}
}

// Start listens on 127.0.0.1 and serves the run whose ToolSearch input
// is input (a JSON object). As the call is about to be made, unlisted
// (when not nil) is asked which servers have not listed their tools yet;
// its answer is the state's Unlisted.
func Start(input []byte, unlisted func() []string) (*Server, error) {
	s := &Server{done: make(chan struct{})}
	s.a = &modelAPI{input: input, onCall: unlisted, onDone: func() { close(s.done) }, useID: "toolu_tf" + randomHex(12)}
	var err error
	if s.api, err = clientproc.StartAPI("model API", s.a); err != nil {
		return nil, err
	}
	return s, nil
}

// URL is the API's base URL (ANTHROPIC_BASE_URL): http://127.0.0.1:PORT.
func (s *Server) URL() string { return s.api.URL() }

// Done is closed when the call's result is in.
func (s *Server) Done() <-chan struct{} { return s.done }

// Close stops serving (open connections are closed) and returns what the
// run saw.
func (s *Server) Close() State {
	s.api.Close()
	a := s.a
	a.mu.Lock()
	defer a.mu.Unlock()
	return State{Called: a.called, Required: a.required, Offered: a.offered, Unlisted: a.unlisted, Captured: a.captured}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func (a *modelAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := clientproc.ReadBody(r)
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
		for _, raw := range Blocks(m.Content) {
			var b Block
			if json.Unmarshal(raw, &b) == nil && b.Type == "tool_use" && b.ID == a.useID {
				callAt = i
			}
		}
	}
	var got *Capture
	if callAt >= 0 {
		var extra []json.RawMessage
		for _, m := range req.Messages[callAt+1:] {
			if m.Role != "user" {
				continue
			}
			for _, raw := range Blocks(m.Content) {
				var b Block
				_ = json.Unmarshal(raw, &b)
				if got == nil && b.Type == "tool_result" && b.ToolUseID == a.useID {
					got = &Capture{Content: b.Content, IsError: b.IsError}
				} else {
					extra = append(extra, raw)
				}
			}
		}
		if got != nil {
			got.Extra = extra
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
		if a.onDone != nil {
			a.once.Do(a.onDone)
		}
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
