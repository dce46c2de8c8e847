package model

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/writer"
)

// The APIs a model is reached through.
const (
	OpenAI    = "openai"    // Chat Completions (OpenAI, Ollama, vLLM, llama.cpp, LM Studio…)
	Anthropic = "anthropic" // Messages
)

// Config configures a model writer.
type Config struct {
	// API is OpenAI or Anthropic.
	API string
	// BaseURL is the API's base URL ("" for the vendor's), e.g.
	// http://127.0.0.1:11434/v1 for Ollama.
	BaseURL string
	// Model names the model (required).
	Model string
	// Key is the API key; the caller reads it from OPENAI_API_KEY or
	// ANTHROPIC_API_KEY. It is never written anywhere.
	Key string
	// Temperature, when not nil, is sent with every request.
	Temperature *float64
	// Concurrency is how many requests may be in flight (default 4).
	Concurrency int
	// MaxTokens bounds each answer (default DefaultMaxTokens).
	MaxTokens int
	// Timeout bounds each request (default 120 s).
	Timeout time.Duration
	// Retries is how often a 429, 5xx or timeout is retried (default 5;
	// negative: never).
	Retries int
	// Backoff is the first retry's delay, doubling up to 30 s (default 1 s).
	Backoff time.Duration
	// Texts are the surface texts per client name (--surface-file).
	Texts map[string]search.Texts
	// Cache, when not nil, answers repeated requests and stores new ones.
	Cache *Cache
	// Progress, when not nil, is called after every answer with the
	// running totals; calls are serialised.
	Progress func(Stats)
}

// DefaultMaxTokens bounds each answer when Config.MaxTokens is not set.
const DefaultMaxTokens = 4096

// Backend sends one request to a model's API and returns its answer: one
// request, never retried (the Writer retries). A failed request is an
// *APIError (an HTTP status, or Transport for a timeout or a broken
// connection); a *BackendError is the backend's own failure and ends the
// run as it is; any other error is taken as a transport failure.
//
// The SDK backends (package writer/model/sdk) reach the APIs through the
// official OpenAI and Anthropic SDKs.
type Backend interface {
	Ask(ctx context.Context, req Request, prompt string) (Answer, error)
}

// Stats are a run's running totals.
type Stats struct {
	// Calls counts answers with a call, NoCall answers without one
	// (NoCallReasons by reason's first words), Cached those of both
	// that came from the cache, Requests the HTTP requests sent (retries
	// included) and Retries the retried ones.
	Calls, NoCall, Cached, Requests, Retries int
	// InputTokens and OutputTokens add up the usage the API reported for
	// the requests sent (not for cached answers); Cost adds up the cost
	// when the API reports one (OpenRouter's usage.cost), else 0.
	InputTokens, OutputTokens int64
	Cost                      float64
}

// Writer is the model writer. It is safe for concurrent use.
type Writer struct {
	cfg Config
	api Backend

	sem chan struct{}

	mu       sync.Mutex
	stats    Stats
	fatal    error
	surfaces map[search.Simulator]*prepared
}

// prepared is a client's request, rendered once.
type prepared struct {
	req  Request
	hash string
	err  error
}

// New checks the configuration and returns the writer, asking b. Package
// writer/model/sdk's New gives it the official SDK's backend.
func New(cfg Config, b Backend) (*Writer, error) {
	if b == nil {
		return nil, errors.New("model writer: no backend (writer/model/sdk.New gives the SDK's)")
	}
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, errors.New("model writer: no model named (--model)")
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 4
	}
	if cfg.MaxTokens <= 0 {
		cfg.MaxTokens = DefaultMaxTokens
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 120 * time.Second
	}
	if cfg.Retries == 0 {
		cfg.Retries = 5
	}
	if cfg.Retries < 0 {
		cfg.Retries = 0
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = time.Second
	}
	if err := CheckAPI(cfg.API); err != nil {
		return nil, err
	}
	return &Writer{cfg: cfg, api: b, sem: make(chan struct{}, cfg.Concurrency), surfaces: map[search.Simulator]*prepared{}}, nil
}

// CheckAPI says whether api is one of the APIs (OpenAI, Anthropic).
func CheckAPI(api string) error {
	if api != OpenAI && api != Anthropic {
		return fmt.Errorf("model writer: unknown API %q (known: %s, %s)", api, OpenAI, Anthropic)
	}
	return nil
}

// Name implements writer.Writer.
func (w *Writer) Name() string { return "model" }

// Concurrency implements writer.Concurrent.
func (w *Writer) Concurrency() int { return w.cfg.Concurrency }

// Stats returns the running totals.
func (w *Writer) Stats() Stats {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stats
}

// Calls implements writer.Writer: the model's call for the prompt, from
// the cache when it holds one. An answer without a usable call is a
// *writer.NoCallError.
func (w *Writer) Calls(ctx context.Context, sim search.Simulator, p writer.Prompt) ([]json.RawMessage, error) {
	pr, err := w.prepare(sim)
	if err != nil {
		return nil, err
	}
	w.mu.Lock()
	fatal := w.fatal
	w.mu.Unlock()
	if fatal != nil {
		return nil, fatal
	}
	key := Key{API: w.cfg.API, Model: w.cfg.Model, Temperature: w.cfg.Temperature, Client: sim.Client().String(),
		Surface: pr.hash, Prompt: p.Text, Sample: p.Sample}
	if w.cfg.Cache != nil {
		if e, ok := w.cfg.Cache.Get(key); ok {
			w.count(e.Answer, true)
			return e.Answer.result()
		}
	}
	select {
	case w.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	a, err := w.ask(ctx, pr.req, p.Text)
	<-w.sem
	if err != nil {
		if ctx.Err() == nil {
			w.mu.Lock()
			if w.fatal == nil {
				w.fatal = err
			}
			w.mu.Unlock()
		}
		return nil, err
	}
	if w.cfg.Cache != nil {
		if err := w.cfg.Cache.Put(key, a); err != nil {
			return nil, err
		}
	}
	w.count(a, false)
	return a.result()
}

func (w *Writer) count(a Answer, cached bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if a.Call != nil {
		w.stats.Calls++
	} else {
		w.stats.NoCall++
	}
	if cached {
		w.stats.Cached++
	} else {
		w.stats.InputTokens += a.InputTokens
		w.stats.OutputTokens += a.OutputTokens
		w.stats.Cost += a.Cost
	}
	if w.cfg.Progress != nil {
		w.cfg.Progress(w.stats)
	}
}

// prepare renders a client's surface and request once.
func (w *Writer) prepare(sim search.Simulator) (*prepared, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if pr, ok := w.surfaces[sim]; ok {
		return pr, pr.err
	}
	pr := &prepared{}
	wr, ok := sim.(search.Writable)
	if !ok {
		pr.err = fmt.Errorf("%s: %w", sim.Client(), writer.ErrNotWritable)
	} else if sf, err := wr.Surface(w.cfg.Texts[sim.Client().Name]); err != nil {
		pr.err = err
	} else {
		pr.req = BuildRequest(sf)
		pr.hash = pr.req.hash()
	}
	w.surfaces[sim] = pr
	return pr, pr.err
}

// ask sends one request, retrying what can be retried.
func (w *Writer) ask(ctx context.Context, req Request, prompt string) (Answer, error) {
	if len(req.Tools) == 0 {
		return Answer{NoCall: "the client offers no search tool"}, nil
	}
	delay := w.cfg.Backoff
	for attempt := 0; ; attempt++ {
		w.mu.Lock()
		w.stats.Requests++
		if attempt > 0 {
			w.stats.Retries++
		}
		w.mu.Unlock()
		rctx, cancel := context.WithTimeout(ctx, w.cfg.Timeout)
		a, err := w.api.Ask(rctx, req, prompt)
		cancel()
		if err == nil {
			return a, nil
		}
		if ctx.Err() != nil {
			return Answer{}, ctx.Err()
		}
		var be *BackendError
		if errors.As(err, &be) && be.Sent {
			return Answer{}, be
		}
		if be != nil {
			// Nothing reached the API.
			w.mu.Lock()
			w.stats.Requests--
			if attempt > 0 {
				w.stats.Retries--
			}
			w.mu.Unlock()
			return Answer{}, be
		}
		var ae *APIError
		if !errors.As(err, &ae) {
			// Not an HTTP status: a timeout or a broken connection.
			ae = &APIError{Transport: err}
		}
		if !ae.retryable() || attempt >= w.cfg.Retries {
			return Answer{}, ae.explain(w.cfg, attempt)
		}
		wait := delay
		if ae.RetryAfter > 0 {
			wait = ae.RetryAfter
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return Answer{}, ctx.Err()
		}
		if delay *= 2; delay > 30*time.Second {
			delay = 30 * time.Second
		}
	}
}

// Answer is what the model answered for one request.
type Answer struct {
	// Call is the search tool's input (nil when there is none).
	Call json.RawMessage `json:"call"`
	// NoCall says why there is no call.
	NoCall string `json:"no_call,omitempty"`
	// InputTokens, OutputTokens and Cost are the usage the API reported.
	InputTokens  int64   `json:"input_tokens,omitempty"`
	OutputTokens int64   `json:"output_tokens,omitempty"`
	Cost         float64 `json:"cost,omitempty"`
}

func (a Answer) result() ([]json.RawMessage, error) {
	if a.Call == nil {
		reason := a.NoCall
		if reason == "" {
			reason = "no call"
		}
		return nil, &writer.NoCallError{Reason: reason}
	}
	return []json.RawMessage{a.Call}, nil
}

// ToolCall turns a model's call of the tool name with the input into an
// answer: a call when name is the search tool (req.Tools[0]) and the input
// a JSON object (compacted), else a no-call saying which.
func ToolCall(name, input string, req Request) Answer {
	if name != req.Tools[0].Name {
		return Answer{NoCall: fmt.Sprintf("called %s instead of %s", name, req.Tools[0].Name)}
	}
	t := strings.TrimSpace(input)
	var m map[string]json.RawMessage
	if t == "" || t[0] != '{' || json.Unmarshal([]byte(t), &m) != nil {
		return Answer{NoCall: "invalid input: not a JSON object: " + clip(t, 80)}
	}
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(t)); err != nil {
		return Answer{NoCall: "invalid input: " + err.Error()}
	}
	return Answer{Call: json.RawMessage(b.String())}
}

// NoToolCall is the answer of a model that wrote no tool call, only the
// text.
func NoToolCall(text string) Answer {
	if strings.TrimSpace(text) == "" {
		return Answer{NoCall: "answered without a tool call"}
	}
	return Answer{NoCall: "answered in text without a tool call: " + clip(strings.TrimSpace(text), 80)}
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// Request is one client's request, independent of the API: what the
// model is shown apart from the prompt.
type Request struct {
	// Tools are the surface's tools; Tools[0] is the search tool.
	Tools []search.SurfaceTool `json:"tools"`
	// System is the system prompt ("" for none).
	System string `json:"system,omitempty"`
	// Parts are the user message's text parts before the prompt.
	Parts []string `json:"parts,omitempty"`
}

// BuildRequest places a surface's texts as the client does (package doc).
func BuildRequest(sf search.Surface) Request {
	r := Request{Tools: sf.Tools}
	var sys []string
	for _, c := range sf.Context {
		switch c.Role {
		case "system":
			sys = append(sys, c.Text)
		case "system-reminder":
			// specs/claude.md background §1; specs/grok.md B.1.
			r.Parts = append(r.Parts, "<system-reminder>\n"+c.Text+"\n</system-reminder>")
		default:
			r.Parts = append(r.Parts, c.Text)
		}
	}
	r.System = strings.Join(sys, "\n\n")
	return r
}

// hash identifies what the model is shown apart from the prompt.
func (r Request) hash() string {
	b, _ := json.Marshal(struct {
		Tools  []search.SurfaceTool
		System string
		Parts  []string
	}{r.Tools, r.System, r.Parts})
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:8])
}

// SchemaObject decodes a tool's input schema ({"type":"object"} when it
// is not a JSON object).
func SchemaObject(t search.SurfaceTool) map[string]any {
	var m map[string]any
	if err := json.Unmarshal(t.InputSchema, &m); err != nil || m == nil {
		m = map[string]any{"type": "object"}
	}
	return m
}
