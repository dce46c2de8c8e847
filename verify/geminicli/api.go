package geminicli

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/toolfind/toolfind/verify/clientproc"
)

// Call is one function call the emulated model makes.
type Call struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
	ID   string          `json:"id,omitempty"`
}

// Part is a part of a request's content, as far as verify reads it.
type Part struct {
	Text             *string          `json:"text,omitempty"`
	FunctionCall     *Call            `json:"functionCall,omitempty"`
	FunctionResponse *FunctionReply   `json:"functionResponse,omitempty"`
	InlineData       *json.RawMessage `json:"inlineData,omitempty"`
}

// FunctionReply is a functionResponse part.
type FunctionReply struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Response json.RawMessage `json:"response"`
}

// Content is one turn of a request.
type Content struct {
	Role  string `json:"role"`
	Parts []Part `json:"parts"`
}

// Request is a generateContent request body, as far as verify reads it.
type Request struct {
	Contents []Content `json:"contents"`
	Tools    []struct {
		FunctionDeclarations []json.RawMessage `json:"functionDeclarations"`
	} `json:"tools"`
}

// ParseRequest reads a request body; the error says what is wrong.
func ParseRequest(body []byte) (*Request, error) {
	var r Request
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("request body: %w", err)
	}
	return &r, nil
}

// Declarations are the request's function declarations (all tools
// entries, in order).
func (r *Request) Declarations() []json.RawMessage {
	var out []json.RawMessage
	for _, t := range r.Tools {
		out = append(out, t.FunctionDeclarations...)
	}
	return out
}

// responses returns the functionResponse parts of the request's last
// user turn with the inlineData parts that follow each.
func (r *Request) responses() []Reply {
	if len(r.Contents) == 0 {
		return nil
	}
	last := r.Contents[len(r.Contents)-1]
	var out []Reply
	for _, p := range last.Parts {
		switch {
		case p.FunctionResponse != nil:
			out = append(out, Reply{Name: p.FunctionResponse.Name, ID: p.FunctionResponse.ID, Response: p.FunctionResponse.Response})
		case p.InlineData != nil && len(out) > 0:
			out[len(out)-1].Inline = append(out[len(out)-1].Inline, *p.InlineData)
		}
	}
	return out
}

// Reply is what the client sent back for one call.
type Reply struct {
	Name     string            `json:"name"`
	ID       string            `json:"id"`
	Response json.RawMessage   `json:"response"`
	Inline   []json.RawMessage `json:"inline,omitempty"`
}

// Capture is what the emulated API saw in one run.
type Capture struct {
	// First is the first request that declared functions (the body as
	// sent); nil when none came.
	First json.RawMessage `json:"first,omitempty"`
	// Replies are the function responses of the request that answered
	// the calls, in order.
	Replies []Reply `json:"replies,omitempty"`
	// Requests counts the requests.
	Requests int `json:"requests"`
}

// api is the emulated Gemini API of one run (gemini.md §6): on
// 127.0.0.1, it answers
//
//   - POST …:streamGenerateContent (server-sent events) and
//     …:generateContent (JSON): a request declaring functions and holding
//     no function response gets the calls; the next one with the
//     responses is recorded and gets the text "done", which ends the
//     turn; any other request (the CLI's helper calls) gets a short JSON
//     text;
//   - POST …:countTokens: {"totalTokens": 100};
//   - GET: {"models": []}.
//
// Every answer carries usageMetadata with promptTokenCount 100.
type api struct {
	*clientproc.API
	calls []Call

	mu      sync.Mutex
	capture Capture
	sent    bool
}

func startAPI(calls []Call) (*api, error) {
	a := &api{calls: calls}
	var err error
	a.API, err = clientproc.StartAPI("emulated Gemini API", a)
	return a, err
}

// result is what the run saw, and a broken request's error.
func (a *api) result() (Capture, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.capture, a.Err()
}

func (a *api) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		writeJSON(w, map[string]any{"models": []any{}})
		return
	}
	body, err := clientproc.ReadBody(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	a.mu.Lock()
	a.capture.Requests++
	a.mu.Unlock()
	path := r.URL.Path
	switch {
	case strings.HasSuffix(path, ":countTokens"):
		writeJSON(w, map[string]any{"totalTokens": 100})
		return
	case strings.HasSuffix(path, ":streamGenerateContent"), strings.HasSuffix(path, ":generateContent"):
	default:
		http.NotFound(w, r)
		return
	}
	stream := strings.HasSuffix(path, ":streamGenerateContent")
	model := "gemini-2.5-flash"
	if i := strings.Index(path, "/models/"); i >= 0 {
		model, _, _ = strings.Cut(path[i+len("/models/"):], ":")
	}
	req, err := ParseRequest(body)
	if err != nil {
		a.Fail(err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var parts []map[string]any
	a.mu.Lock()
	switch {
	case len(req.Declarations()) == 0:
		// a helper request of the CLI (router, next speaker…)
		parts = []map[string]any{{"text": `{"reasoning":"toolfind","model_choice":"flash","next_speaker":"user"}`}}
	case !a.sent:
		a.sent = true
		a.capture.First = append(json.RawMessage(nil), body...)
		for _, c := range a.calls {
			parts = append(parts, map[string]any{"functionCall": c})
		}
		if len(parts) == 0 {
			parts = []map[string]any{{"text": "done"}}
			a.Finish()
		}
	default:
		if a.capture.Replies == nil {
			a.capture.Replies = req.responses()
			if a.capture.Replies == nil {
				a.capture.Replies = []Reply{}
			}
		}
		parts = []map[string]any{{"text": "done"}}
		a.Finish()
	}
	a.mu.Unlock()
	answer := map[string]any{
		"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 100, "candidatesTokenCount": 5, "totalTokenCount": 105},
		"modelVersion":  model,
	}
	if !stream {
		writeJSON(w, answer)
		return
	}
	b, _ := json.Marshal(answer)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Content-Length", fmt.Sprint(len(b)+len("data: \r\n\r\n")))
	_, _ = w.Write([]byte("data: "))
	_, _ = w.Write(b)
	_, _ = w.Write([]byte("\r\n\r\n"))
}

func writeJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

var errNoRequest = errors.New("the client made no model request that declared functions")
