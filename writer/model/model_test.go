package model

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/toolfind/toolfind/claude" // registers claude@2.1.328
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/writer"
)

// backendFunc is a Backend in a function (the SDK backends are tested
// against API stubs in package writer/model/sdk).
type backendFunc func(ctx context.Context, req Request, prompt string) (Answer, error)

func (f backendFunc) Ask(ctx context.Context, req Request, prompt string) (Answer, error) {
	return f(ctx, req, prompt)
}

func claudeSim(t *testing.T) search.Simulator {
	t.Helper()
	p, err := search.Lookup("claude@2.1.328")
	require.NoError(t, err)
	sim, err := search.Build(p, corpus.Demo(), search.Options{"builtins": "false"})
	require.NoError(t, err)
	return sim
}

func TestCacheSkipsBrokenLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.jsonl")
	good := `{"api":"openai","model":"m","client":"claude@2.1.328","surface":"abc","prompt":"p","sample":0,"call":{"query":"x"}}`
	// A line of another program, then a line cut by an interrupted write.
	require.NoError(t, os.WriteFile(path, []byte(good+"\n{\"other\":1}\n{\"api\":\"openai\",\"mod"), 0o644))
	c, err := OpenCache(path)
	require.NoError(t, err)
	assert.Equal(t, 1, c.Len())
	assert.Equal(t, 2, c.Skipped)
	e, ok := c.Get(Key{API: "openai", Model: "m", Client: "claude@2.1.328", Surface: "abc", Prompt: "p"})
	require.True(t, ok)
	assert.Equal(t, `{"query":"x"}`, string(e.Call))
	noCall := Key{API: "openai", Model: "m", Client: "c", Surface: "s", Prompt: "q"}
	require.NoError(t, c.Put(noCall, Answer{NoCall: "answered without a tool call"}))
	require.NoError(t, c.Close())
	c2, err := OpenCache(path)
	require.NoError(t, err)
	defer c2.Close()
	assert.Equal(t, 2, c2.Len())
	assert.Equal(t, 2, c2.Skipped) // the cut line stays cut, and is not glued to the new one
	// The no-call written as "call": null reads back as no call, not as
	// the call null.
	e, ok = c2.Get(noCall)
	require.True(t, ok)
	assert.Nil(t, e.Call)
	_, err = e.Answer.result()
	var nc *writer.NoCallError
	require.ErrorAs(t, err, &nc)
	assert.Equal(t, "answered without a tool call", nc.Reason)
}

func TestErrorsAreValues(t *testing.T) {
	e := StatusError(429, "", "7")
	assert.Equal(t, 7*time.Second, e.RetryAfter)
	assert.Equal(t, "429 Too Many Requests: Too Many Requests", e.Error())
	assert.True(t, e.retryable())
	assert.False(t, StatusError(401, "x", "").retryable())
	// Retry-After is capped at 60 s; a date in the past is no wait.
	assert.Equal(t, 60*time.Second, StatusError(503, "x", "3600").RetryAfter)
	assert.Equal(t, time.Duration(0), StatusError(503, "x", "Wed, 21 Oct 2015 07:28:00 GMT").RetryAfter)
	eof := errors.New("EOF")
	tr := &APIError{Transport: eof}
	assert.True(t, tr.retryable())
	assert.ErrorIs(t, tr, eof)
	be := &BackendError{Err: eof}
	assert.Equal(t, "model writer: EOF", be.Error())
	assert.ErrorIs(t, be, eof)
}

func TestConfigErrors(t *testing.T) {
	ok := backendFunc(func(context.Context, Request, string) (Answer, error) { return Answer{}, nil })
	_, err := New(Config{API: OpenAI, Model: "m"}, nil)
	assert.EqualError(t, err, "model writer: no backend (writer/model/sdk.New gives the SDK's)")
	_, err = New(Config{API: OpenAI}, ok)
	assert.EqualError(t, err, "model writer: no model named (--model)")
	_, err = New(Config{API: "gemini", Model: "m"}, ok)
	assert.EqualError(t, err, `model writer: unknown API "gemini" (known: openai, anthropic)`)
}

// A backend's own failure ends the run at once: not retried, not
// explained as the API's, and every later prompt gets it.
func TestBackendErrorEndsRun(t *testing.T) {
	var asked atomic.Int64
	gone := &BackendError{Err: errors.New("the backend broke")}
	w, err := New(Config{API: OpenAI, Model: "m", Backoff: time.Millisecond},
		backendFunc(func(context.Context, Request, string) (Answer, error) {
			asked.Add(1)
			return Answer{}, gone
		}))
	require.NoError(t, err)
	_, err = w.Calls(context.Background(), claudeSim(t), writer.Prompt{ID: "q1", Text: "one"})
	assert.Same(t, gone, err)
	_, err = w.Calls(context.Background(), claudeSim(t), writer.Prompt{ID: "q2", Text: "two"})
	assert.Same(t, gone, err)
	assert.Equal(t, int64(1), asked.Load())
	assert.Equal(t, Stats{}, w.Stats(), "no request reached the API")
}

// Any other error is a transport failure: retried (Retries times), then
// explained with the API and URL.
func TestOtherErrorIsTransport(t *testing.T) {
	var asked atomic.Int64
	w, err := New(Config{API: Anthropic, BaseURL: "http://127.0.0.1:9", Model: "m", Retries: 2, Backoff: time.Millisecond},
		backendFunc(func(_ context.Context, req Request, prompt string) (Answer, error) {
			if asked.Add(1) < 3 {
				return Answer{}, errors.New("connection reset")
			}
			return ToolCall(req.Tools[0].Name, ` {"query": "`+prompt+`"} `, req), nil
		}))
	require.NoError(t, err)
	calls, err := w.Calls(context.Background(), claudeSim(t), writer.Prompt{ID: "q1", Text: "invoice"})
	require.NoError(t, err)
	assert.Equal(t, `{"query":"invoice"}`, string(calls[0]))
	// 1 + 2 retries = 3 requests.
	assert.Equal(t, Stats{Calls: 1, Requests: 3, Retries: 2}, w.Stats())

	asked.Store(-10)
	_, err = w.Calls(context.Background(), claudeSim(t), writer.Prompt{ID: "q2", Text: "ledger"})
	assert.EqualError(t, err, "model writer: anthropic API at http://127.0.0.1:9 unreachable (after 2 retries): connection reset")
}

func TestToolCall(t *testing.T) {
	req := Request{Tools: []search.SurfaceTool{{Name: "ToolSearch"}}}
	tests := []struct {
		name, input string
		want        Answer
	}{
		{"ToolSearch", "{ \"query\" : \"x\" }", Answer{Call: []byte(`{"query":"x"}`)}},
		{"Read", `{}`, Answer{NoCall: "called Read instead of ToolSearch"}},
		{"ToolSearch", `"x"`, Answer{NoCall: `invalid input: not a JSON object: "x"`}},
		{"ToolSearch", ``, Answer{NoCall: `invalid input: not a JSON object: `}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, ToolCall(tt.name, tt.input, req), tt.input)
	}
	assert.Equal(t, Answer{NoCall: "answered without a tool call"}, NoToolCall(" \n"))
	assert.Equal(t, Answer{NoCall: "answered in text without a tool call: no"}, NoToolCall(" no "))
}
