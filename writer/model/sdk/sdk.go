// Package sdk holds the model writer's backends that reach the APIs
// through the official SDKs: OpenAI Chat Completions with
// github.com/openai/openai-go/v3 and Anthropic Messages with
// github.com/anthropics/anthropic-sdk-go/v2 (package writer/model
// describes what is sent and how answers are read).
//
// New is the model writer with them, as the toolfind command runs it.
//
// Each backend sends one request per Ask with the SDK's own retries off
// (the writer/model.Writer retries), and turns an HTTP status into a
// *model.APIError carrying the API's message and Retry-After. The
// Anthropic client reads no environment defaults: its key is only
// Config.Key.
package sdk

import (
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/toolfind/toolfind/writer/model"
)

// Option configures a backend beyond model.Config.
type Option func(*settings)

type settings struct {
	httpClient *http.Client
}

// WithHTTPClient sends the backend's requests with c (a proxy, a custom
// transport, a test server's client). It lives here rather than in
// model.Config so that package model, the writer's core, does not import
// net/http.
func WithHTTPClient(c *http.Client) Option {
	return func(s *settings) { s.httpClient = c }
}

// NewBackend returns the backend of cfg.API (model.OpenAI or
// model.Anthropic), configured by cfg's BaseURL, Model, Key, Temperature
// and MaxTokens, and by opts.
func NewBackend(cfg model.Config, opts ...Option) (model.Backend, error) {
	if err := model.CheckAPI(cfg.API); err != nil {
		return nil, err
	}
	var s settings
	for _, o := range opts {
		o(&s)
	}
	s.httpClient = capped(s.httpClient, cfg.API)
	if cfg.API == model.Anthropic {
		return newAnthropic(cfg, s), nil
	}
	return newOpenAI(cfg, s), nil
}

// New returns a model writer that asks cfg.API through its official SDK
// in this process.
func New(cfg model.Config, opts ...Option) (*model.Writer, error) {
	b, err := NewBackend(cfg, opts...)
	if err != nil {
		return nil, err
	}
	return model.New(cfg, b)
}

// retryAfter is a response's Retry-After header, "" when none.
func retryAfter(resp *http.Response) string {
	if resp == nil {
		return ""
	}
	return resp.Header.Get("Retry-After")
}

// maxAnswer is the most toolfind reads of one API response body (16 MiB:
// an answer of one tool call is a few kilobytes, and max_tokens bounds
// what a model writes). A variable so that tests can lower it.
var maxAnswer = 16 << 20

// capped returns a copy of c (nil: a default client) whose response
// bodies fail with an *answerTooBig past maxAnswer bytes, so that an API
// (or whatever answers at --model-url) cannot make the SDK read an answer
// of any size into memory.
func capped(c *http.Client, api string) *http.Client {
	var cc http.Client
	if c != nil {
		cc = *c
	}
	base := cc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	cc.Transport = &capTransport{base: base, api: api}
	return &cc
}

type capTransport struct {
	base http.RoundTripper
	api  string
}

func (t *capTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	resp.Body = &capBody{rc: resp.Body, left: maxAnswer, api: t.api}
	return resp, nil
}

// capBody fails once more than left bytes have been read from it.
type capBody struct {
	rc   io.ReadCloser
	left int
	api  string
}

func (b *capBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, &answerTooBig{api: b.api}
	}
	if len(p) > b.left+1 {
		p = p[:b.left+1] // one byte more tells an answer of exactly the limit from a longer one
	}
	n, err := b.rc.Read(p)
	b.left -= n
	if b.left < 0 {
		return 0, &answerTooBig{api: b.api}
	}
	return n, err
}

func (b *capBody) Close() error { return b.rc.Close() }

// answerTooBig is an API answer longer than maxAnswer.
type answerTooBig struct{ api string }

func (e *answerTooBig) Error() string {
	return fmt.Sprintf("the %s API's answer is longer than %s, toolfind's limit for one answer; it stopped reading there (is --model-url an API of that kind?)", e.api, sizeText(maxAnswer))
}

// sizeText words a size limit: "16777216 bytes (16 MiB)", "1024 bytes".
func sizeText(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d bytes (%d MiB)", n, n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// tooBig turns an SDK error caused by an answer over the limit into a
// *model.BackendError, which ends the run unretried (the next answer would
// be as long); other errors are returned as they are.
func tooBig(err error) error {
	var e *answerTooBig
	if errors.As(err, &e) {
		return &model.BackendError{Err: e, Sent: true}
	}
	return err
}
