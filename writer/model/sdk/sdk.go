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
