package model

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/toolfind/toolfind/internal/urlredact"
)

// APIError is a failed request: an HTTP status with the API's message, or
// a transport failure (timeout, refused or broken connection).
type APIError struct {
	// Status is the HTTP status (0 for a transport failure) and Message
	// the API's message, clipped.
	Status  int
	Message string
	// RetryAfter is the response's Retry-After (at most 60 s), 0 when none.
	RetryAfter time.Duration
	// Transport, when not nil, is the transport failure.
	Transport error
}

func (e *APIError) Error() string {
	if e.Transport != nil {
		return e.Transport.Error()
	}
	return fmt.Sprintf("%d %s: %s", e.Status, http.StatusText(e.Status), e.Message)
}

// Unwrap returns the transport failure.
func (e *APIError) Unwrap() error { return e.Transport }

// BackendError is a backend's own failure, not the API's: it ends the run
// at once, unretried, and is the error every later call returns.
type BackendError struct {
	Err error
	// Sent says the request reached the API (its answer was the
	// failure): it counts as a request sent.
	Sent bool
}

func (e *BackendError) Error() string { return "model writer: " + e.Err.Error() }

// Unwrap returns the failure.
func (e *BackendError) Unwrap() error { return e.Err }

// retryable: 408, 409 (Anthropic's lock timeout), 429, 5xx and every
// transport failure.
func (e *APIError) retryable() bool {
	if e.Transport != nil || e.Status == 0 {
		return true
	}
	return e.Status == 408 || e.Status == 409 || e.Status == 429 || e.Status >= 500
}

// explain is the error a user reads: what failed and what to do. It never
// holds the key.
func (e *APIError) explain(cfg Config, attempt int) (err error) {
	where := cfg.API + " API"
	if cfg.BaseURL != "" {
		where += " at " + urlredact.URL(cfg.BaseURL)
	}
	secrets := urlredact.Secrets(cfg.BaseURL)
	defer func() {
		if secrets != nil && err != nil {
			err = errors.New(urlredact.Scrub(err.Error(), secrets))
		}
	}()
	tries := ""
	if attempt > 0 {
		tries = fmt.Sprintf(" (after %d retries)", attempt)
	}
	switch {
	case e.Transport != nil || e.Status == 0:
		return fmt.Errorf("model writer: %s unreachable%s: %v", where, tries, e)
	case e.Status == 401 || e.Status == 403:
		return fmt.Errorf("model writer: the %s refused the API key (%d): check %s", where, e.Status, KeyVar(cfg.API))
	case e.Status == 404:
		return fmt.Errorf("model writer: the %s answered 404: no model %q there, or a wrong --model-url (%s)", where, cfg.Model, e.Message)
	default:
		return fmt.Errorf("model writer: the %s answered %d%s: %s", where, e.Status, tries, e.Message)
	}
}

// KeyVar is the environment variable the key of an API is read from:
// OPENAI_API_KEY or ANTHROPIC_API_KEY.
func KeyVar(api string) string {
	if api == Anthropic {
		return "ANTHROPIC_API_KEY"
	}
	return "OPENAI_API_KEY"
}

// StatusError builds an APIError from a response's status, the API's
// message and the response's Retry-After header ("" when none): delay
// seconds or an HTTP date (RFC 9110 §10.2.3), at most 60 s.
func StatusError(status int, message, retryAfter string) *APIError {
	e := &APIError{Status: status, Message: strings.TrimSpace(message)}
	if e.Message == "" {
		e.Message = http.StatusText(status)
	}
	e.Message = clip(e.Message, 300)
	if retryAfter != "" {
		if n, err := strconv.Atoi(retryAfter); err == nil && n >= 0 {
			e.RetryAfter = time.Duration(n) * time.Second
		} else if t, err := http.ParseTime(retryAfter); err == nil {
			e.RetryAfter = time.Until(t)
		}
		e.RetryAfter = min(max(e.RetryAfter, 0), 60*time.Second)
	}
	return e
}
