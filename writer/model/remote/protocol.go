package remote

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/toolfind/toolfind/internal/pipeprog"
	"github.com/toolfind/toolfind/writer/model"
)

// Protocol is the version of the line protocol (package doc). A program
// that speaks another one is refused at the handshake.
const Protocol = 1

// call is one line toolfind writes to the program: exactly one of Hello
// (id 0, the first line), Ask or Cancel (ids 1, 2, …).
type call struct {
	ID     int64  `json:"id"`
	Hello  *hello `json:"hello,omitempty"`
	Ask    *ask   `json:"ask,omitempty"`
	Cancel bool   `json:"cancel,omitempty"`
}

// hello configures the program's backend. The API key is not in it: it
// is in the program's environment (model.KeyVar).
type hello struct {
	Protocol    int      `json:"protocol"`
	API         string   `json:"api"`
	BaseURL     string   `json:"base_url,omitempty"`
	Model       string   `json:"model"`
	Temperature *float64 `json:"temperature,omitempty"`
	MaxTokens   int      `json:"max_tokens,omitempty"`
}

// ask is one Backend.Ask; TimeoutMS, when more than 0, bounds it (the
// time left before the caller's deadline).
type ask struct {
	Request   model.Request `json:"request"`
	Prompt    string        `json:"prompt"`
	TimeoutMS int64         `json:"timeout_ms,omitempty"`
}

// reply is one line the program writes: exactly one of Ready (id 0),
// Answer or Error.
type reply struct {
	ID     int64         `json:"id"`
	Ready  *ready        `json:"ready,omitempty"`
	Answer *model.Answer `json:"answer,omitempty"`
	Error  *wireError    `json:"error,omitempty"`
}

type ready struct {
	Protocol int `json:"protocol"`
}

// wireError is a failed ask: exactly one of Status (with Message and
// RetryAfterMS: a *model.APIError's status), Transport (a transport
// failure's text) or Fatal (the backend's own failure, or the program's:
// it ends the run).
type wireError struct {
	Status       int    `json:"status,omitempty"`
	Message      string `json:"message,omitempty"`
	RetryAfterMS int64  `json:"retry_after_ms,omitempty"`
	Transport    string `json:"transport,omitempty"`
	Fatal        string `json:"fatal,omitempty"`
}

// encode renders a message as one line. HTML characters are not escaped,
// so an answer's call crosses the pipe byte for byte.
func encode(v any) ([]byte, error) { return pipeprog.Encode(v) }

// decodeCall reads one line written by toolfind.
func decodeCall(line []byte) (call, error) {
	var c call
	if err := json.Unmarshal(line, &c); err != nil {
		return call{}, fmt.Errorf("not a JSON object: %v", err)
	}
	n := 0
	for _, set := range []bool{c.Hello != nil, c.Ask != nil, c.Cancel} {
		if set {
			n++
		}
	}
	switch {
	case n != 1:
		return call{}, errors.New(`want exactly one of "hello", "ask" and "cancel"`)
	case c.Hello != nil && c.ID != 0:
		return call{}, fmt.Errorf("hello with id %d: want 0", c.ID)
	case c.Hello == nil && c.ID < 1:
		return call{}, fmt.Errorf("id %d: want 1 or more", c.ID)
	case c.Ask != nil && len(c.Ask.Request.Tools) == 0:
		return call{}, fmt.Errorf("ask %d: the request has no tools", c.ID)
	case c.Ask != nil && c.Ask.TimeoutMS < 0:
		return call{}, fmt.Errorf("ask %d: timeout_ms %d: want 0 or more", c.ID, c.Ask.TimeoutMS)
	}
	return c, nil
}

// decodeReply reads one line written by the program.
func decodeReply(line []byte) (reply, error) {
	var r reply
	if err := json.Unmarshal(line, &r); err != nil {
		return reply{}, fmt.Errorf("not a JSON object: %v", err)
	}
	n := 0
	for _, set := range []bool{r.Ready != nil, r.Answer != nil, r.Error != nil} {
		if set {
			n++
		}
	}
	switch {
	case n != 1:
		return reply{}, errors.New(`want exactly one of "ready", "answer" and "error"`)
	case r.ID < 0:
		return reply{}, fmt.Errorf("id %d: want 0 or more", r.ID)
	case r.Ready != nil && r.ID != 0:
		return reply{}, fmt.Errorf("ready with id %d: want 0", r.ID)
	case r.Answer != nil && r.ID == 0:
		return reply{}, errors.New("answer with id 0: want 1 or more")
	}
	if r.Answer != nil && string(r.Answer.Call) == "null" {
		// A no-call: json.RawMessage keeps a JSON null as "null".
		r.Answer.Call = nil
	}
	if e := r.Error; e != nil {
		kinds := 0
		for _, set := range []bool{e.Status != 0, e.Transport != "", e.Fatal != ""} {
			if set {
				kinds++
			}
		}
		switch {
		case kinds != 1:
			return reply{}, fmt.Errorf(`error of id %d: want exactly one of "status", "transport" and "fatal"`, r.ID)
		case e.Status != 0 && (e.Status < 100 || e.Status > 999):
			return reply{}, fmt.Errorf("error of id %d: status %d: want an HTTP status", r.ID, e.Status)
		case e.RetryAfterMS < 0:
			return reply{}, fmt.Errorf("error of id %d: retry_after_ms %d: want 0 or more", r.ID, e.RetryAfterMS)
		}
	}
	return r, nil
}

// errorOf is the wire form of a backend's error.
func errorOf(err error) *wireError {
	var be *model.BackendError
	if errors.As(err, &be) {
		return &wireError{Fatal: be.Err.Error()}
	}
	var ae *model.APIError
	if errors.As(err, &ae) && ae.Transport == nil && ae.Status != 0 {
		return &wireError{Status: ae.Status, Message: ae.Message, RetryAfterMS: ae.RetryAfter.Milliseconds()}
	}
	return &wireError{Transport: err.Error()}
}

// err is the backend error a wire error stands for; program names the
// program in a fatal one.
func (e *wireError) err(program string) error {
	switch {
	case e.Fatal != "":
		return &model.BackendError{Err: fmt.Errorf("%s: %s", program, e.Fatal)}
	case e.Status != 0:
		return &model.APIError{Status: e.Status, Message: e.Message, RetryAfter: time.Duration(e.RetryAfterMS) * time.Millisecond}
	default:
		return &model.APIError{Transport: errors.New(e.Transport)}
	}
}
