package model

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// apiError is a failed request: an HTTP status with the API's message, or
// a transport failure (timeout, refused or broken connection).
type apiError struct {
	status     int
	message    string
	retryAfter time.Duration
	transport  error
}

func (e *apiError) Error() string {
	if e.transport != nil {
		return e.transport.Error()
	}
	return fmt.Sprintf("%d %s: %s", e.status, http.StatusText(e.status), e.message)
}

// retryable: 408, 409 (Anthropic's lock timeout), 429, 5xx and every
// transport failure.
func (e *apiError) retryable() bool {
	if e.transport != nil {
		return true
	}
	return e.status == http.StatusRequestTimeout || e.status == http.StatusConflict ||
		e.status == http.StatusTooManyRequests || e.status >= 500
}

// explain is the error a user reads: what failed and what to do. It never
// holds the key.
func (e *apiError) explain(cfg Config, attempt int) error {
	where := cfg.API + " API"
	if cfg.BaseURL != "" {
		where += " at " + cfg.BaseURL
	}
	tries := ""
	if attempt > 0 {
		tries = fmt.Sprintf(" (after %d retries)", attempt)
	}
	switch {
	case e.transport != nil:
		return fmt.Errorf("model writer: %s unreachable%s: %v", where, tries, e.transport)
	case e.status == http.StatusUnauthorized || e.status == http.StatusForbidden:
		return fmt.Errorf("model writer: the %s refused the API key (%d): check %s", where, e.status, keyVar(cfg.API))
	case e.status == http.StatusNotFound:
		return fmt.Errorf("model writer: the %s answered 404: no model %q there, or a wrong --model-url (%s)", where, cfg.Model, e.message)
	default:
		return fmt.Errorf("model writer: the %s answered %d%s: %s", where, e.status, tries, e.message)
	}
}

// keyVar is the environment variable the key of an API is read from.
func keyVar(api string) string {
	if api == Anthropic {
		return "ANTHROPIC_API_KEY"
	}
	return "OPENAI_API_KEY"
}

// KeyVar is the environment variable the key of an API is read from:
// OPENAI_API_KEY or ANTHROPIC_API_KEY.
func KeyVar(api string) string { return keyVar(api) }

// statusError builds an apiError from a response's status, the API's
// message and the response's Retry-After header.
func statusError(status int, message string, resp *http.Response) *apiError {
	var h http.Header
	if resp != nil {
		h = resp.Header
	}
	e := &apiError{status: status, message: strings.TrimSpace(message)}
	if e.message == "" {
		e.message = http.StatusText(status)
	}
	e.message = clip(e.message, 300)
	if h != nil {
		if s := h.Get("Retry-After"); s != "" {
			if n, err := strconv.Atoi(s); err == nil && n >= 0 {
				e.retryAfter = time.Duration(n) * time.Second
			} else if t, err := http.ParseTime(s); err == nil {
				e.retryAfter = time.Until(t)
			}
			if e.retryAfter > 60*time.Second {
				e.retryAfter = 60 * time.Second
			}
		}
	}
	return e
}

var errNoChoice = errors.New("the answer has no choices")
