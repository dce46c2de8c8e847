// Package sdk holds the model writer's backends that reach the APIs
// through the official SDKs: OpenAI Chat Completions with
// github.com/openai/openai-go/v3 and Anthropic Messages with
// github.com/anthropics/anthropic-sdk-go/v2 (package writer/model
// describes what is sent and how answers are read).
//
// The SDKs are large: linked into a program they add about 85 MB and
// their package initialisation to every start. So the toolfind command
// does not link this package: it runs the toolfind-model program
// (cmd/toolfind-model), which serves this package's backends to it over
// a pipe (package writer/model/remote). A Go program that wants the model
// writer in its own process calls New.
//
// Each backend sends one request per Ask with the SDK's own retries off
// (the writer/model.Writer retries), and turns an HTTP status into a
// *model.APIError carrying the API's message and Retry-After. The
// Anthropic client reads no environment defaults: its key is only
// Config.Key.
package sdk

import (
	"github.com/toolfind/toolfind/writer/model"
)

// NewBackend returns the backend of cfg.API (model.OpenAI or
// model.Anthropic), configured by cfg's BaseURL, Model, Key, Temperature,
// MaxTokens and HTTPClient.
func NewBackend(cfg model.Config) (model.Backend, error) {
	if err := model.CheckAPI(cfg.API); err != nil {
		return nil, err
	}
	if cfg.API == model.Anthropic {
		return newAnthropic(cfg), nil
	}
	return newOpenAI(cfg), nil
}

// New returns a model writer that asks cfg.API through its official SDK
// in this process.
func New(cfg model.Config) (*model.Writer, error) {
	b, err := NewBackend(cfg)
	if err != nil {
		return nil, err
	}
	return model.New(cfg, b)
}
