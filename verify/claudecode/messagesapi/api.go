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
// Serve runs it as its own process (`toolfind-model emulate-api`), talking
// with toolfind over standard input and output (package apiproto): the
// run's input comes in, the URL goes out; as the call is about to be made
// toolfind is asked which servers have not listed their tools yet; when
// the input closes, what the run saw goes out. So the toolfind command
// does not link net/http.
package messagesapi

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/toolfind/toolfind/verify/claudecode/apiproto"
)

// SearchTool is the name of Claude Code's search tool (specs/claude.md
// background §1).
const SearchTool = apiproto.SearchTool

// modelAPI is the emulated API of one run.
type modelAPI struct {
	input []byte // the ToolSearch input JSON
	// onCall, when set, runs as the call is about to be made; what it
	// returns is kept in unlisted.
	onCall func() []string
	// onDone, when set, runs once, when the call's result is in.
	onDone func()
	useID  string
	ln     net.Listener
	srv    *http.Server

	mu       sync.Mutex
	unlisted []string
	called   bool     // a tool_use was sent
	required []string // "required" of ToolSearch's input schema as offered
	offered  []string // tools of the latest request that had no ToolSearch
	captured *apiproto.Capture
	once     sync.Once
}

func newModelAPI(input []byte) (*modelAPI, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("model API: %w", err)
	}
	a := &modelAPI{input: input, useID: "toolu_tf" + randomHex(12), ln: ln}
	a.srv = &http.Server{Handler: a, ReadHeaderTimeout: 30 * time.Second}
	go a.srv.Serve(ln)
	return a, nil
}

func (a *modelAPI) url() string { return "http://" + a.ln.Addr().String() }

func (a *modelAPI) close() { a.srv.Close() }

// state is what the run saw.
func (a *modelAPI) state() *apiproto.State {
	a.mu.Lock()
	defer a.mu.Unlock()
	return &apiproto.State{Called: a.called, Required: a.required, Offered: a.offered, Unlisted: a.unlisted, Captured: a.captured}
}

// Serve runs the emulated API for one run, talking with toolfind over in
// and out (package apiproto): it reads the "input" line, listens on
// 127.0.0.1, writes the "url" line, and serves until in closes; then it
// writes the "state" line and returns. A broken protocol line ends the
// run: the error is returned after the state line.
func Serve(in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), apiproto.MaxLine)
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return fmt.Errorf("reading the input: %w", err)
		}
		return errors.New(`no input: the first line must be an "input" message`)
	}
	m, err := apiproto.Decode(sc.Bytes())
	if err != nil {
		return fmt.Errorf("line 1: %w", err)
	}
	if m.Type != apiproto.TypeInput {
		return fmt.Errorf(`line 1: a %q message, want "input" first`, m.Type)
	}
	a, err := newModelAPI(m.Input)
	if err != nil {
		return err
	}
	defer a.close()
	var outMu sync.Mutex
	send := func(m apiproto.Message) {
		outMu.Lock()
		defer outMu.Unlock()
		_, _ = out.Write(apiproto.Encode(m))
	}

	// One call at a time waits for its "unlisted": the reader hands it
	// over, or closes ended when the input ends.
	var (
		callMu  sync.Mutex
		pmu     sync.Mutex
		pending chan []string
		ended   = make(chan struct{})
		readErr error
	)
	a.onCall = func() []string {
		callMu.Lock()
		defer callMu.Unlock()
		reply := make(chan []string, 1)
		pmu.Lock()
		pending = reply
		pmu.Unlock()
		send(apiproto.Message{Type: apiproto.TypeCall})
		select {
		case u := <-reply:
			return u
		case <-ended:
			return nil
		}
	}
	a.onDone = func() { send(apiproto.Message{Type: apiproto.TypeDone}) }
	go func() {
		defer close(ended)
		for n := 2; sc.Scan(); n++ {
			m, err := apiproto.Decode(sc.Bytes())
			if err == nil && m.Type != apiproto.TypeUnlisted {
				err = fmt.Errorf(`a %q message, want "unlisted"`, m.Type)
			}
			pmu.Lock()
			reply := pending
			pending = nil
			pmu.Unlock()
			if err == nil && reply == nil {
				err = errors.New(`"unlisted" without a "call"`)
			}
			if err != nil {
				readErr = fmt.Errorf("line %d: %w", n, err)
				return
			}
			reply <- m.Servers
		}
		if err := sc.Err(); err != nil {
			readErr = fmt.Errorf("reading the input: %w", err)
		}
	}()
	send(apiproto.Message{Type: apiproto.TypeURL, URL: a.url()})
	<-ended
	a.close()
	send(apiproto.Message{Type: apiproto.TypeState, State: a.state()})
	return readErr
}

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
		for _, raw := range apiproto.Blocks(m.Content) {
			var b apiproto.Block
			if json.Unmarshal(raw, &b) == nil && b.Type == "tool_use" && b.ID == a.useID {
				callAt = i
			}
		}
	}
	var got *apiproto.Capture
	if callAt >= 0 {
		var extra []json.RawMessage
		for _, m := range req.Messages[callAt+1:] {
			if m.Role != "user" {
				continue
			}
			for _, raw := range apiproto.Blocks(m.Content) {
				var b apiproto.Block
				_ = json.Unmarshal(raw, &b)
				if got == nil && b.Type == "tool_result" && b.ToolUseID == a.useID {
					got = &apiproto.Capture{Content: b.Content, IsError: b.IsError}
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
