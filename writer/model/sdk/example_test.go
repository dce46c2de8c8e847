package sdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/writer"
	"github.com/toolfind/toolfind/writer/model"
	"github.com/toolfind/toolfind/writer/model/sdk"
)

// A model behind an OpenAI-compatible server (here a stub standing in for
// Ollama or vLLM) writes Claude Code's ToolSearch call for a prompt.
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","tool_calls":[{"id":"c1","type":"function",
		  "function":{"name":"ToolSearch","arguments":"{\"query\":\"select:mcp__billing__invoice_lookup\"}"}}]}}],
		  "usage":{"prompt_tokens":412,"completion_tokens":18}}`)
	}))
	defer srv.Close()

	p, _ := search.Lookup("claude@2.1.328")
	sim, _ := search.Build(p, corpus.Demo(), nil)
	w, _ := sdk.New(model.Config{API: model.OpenAI, BaseURL: srv.URL + "/v1", Model: "qwen3", Key: "unused"})
	calls, _ := w.Calls(context.Background(), sim, writer.Prompt{ID: "q1", Text: "Find the invoice for order 1042"})
	fmt.Println(string(calls[0]))
	s := w.Stats()
	fmt.Println(s.Requests, "request,", s.InputTokens, "input tokens,", s.OutputTokens, "output tokens")
	// Output:
	// {"query":"select:mcp__billing__invoice_lookup"}
	// 1 request, 412 input tokens, 18 output tokens
}

// The backend's requests through a client of one's own (a proxy, a
// transport that logs); a 429 with Retry-After is an APIError carrying it.
func ExampleWithHTTPClient() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "7")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		io.WriteString(w, `{"error":{"message":"slow down"}}`)
	}))
	defer srv.Close()

	b, _ := sdk.NewBackend(model.Config{API: model.OpenAI, BaseURL: srv.URL, Model: "m", Key: "unused"},
		sdk.WithHTTPClient(&http.Client{Timeout: 10 * time.Second}))
	req := model.Request{Tools: []search.SurfaceTool{{Name: "ToolSearch", InputSchema: json.RawMessage(`{"type":"object"}`)}}}
	_, err := b.Ask(context.Background(), req, "find the invoice tool")
	var ae *model.APIError
	if errors.As(err, &ae) {
		fmt.Println(ae, "- retry after", ae.RetryAfter)
	}
	// Output:
	// 429 Too Many Requests: slow down - retry after 7s
}
