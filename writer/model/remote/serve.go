package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/toolfind/toolfind/internal/pipeprog"
	"github.com/toolfind/toolfind/writer/model"
)

// Serve is the program's side: it reads the hello line from in, builds
// the backend with newBackend, answers ready, then answers every ask
// (each in its own goroutine, so several are in flight) until in ends;
// then it cancels the asks still running, waits for them and returns nil.
// A line that is not the protocol is an error naming its line number; a
// hello whose backend cannot be built is answered with a fatal error,
// which Serve also returns. (The loop is package internal/pipeprog's.)
func Serve(ctx context.Context, in io.Reader, out io.Writer, newBackend func(model.Config) (model.Backend, error)) error {
	var be model.Backend
	return pipeprog.Serve(ctx, in, out, pipeprog.Serving{
		Noun: "ask",
		Hello: func(line []byte) ([]byte, error) {
			c, err := decodeCall(line)
			if err == nil && c.Hello == nil {
				err = errors.New("want hello first")
			}
			if err != nil {
				err = fmt.Errorf("line 1: %v", err)
				return fatal(err), err
			}
			h := c.Hello
			if h.Protocol != Protocol {
				err := fmt.Errorf("protocol %d: this program speaks %d", h.Protocol, Protocol)
				return fatal(err), err
			}
			if be, err = newBackend(model.Config{API: h.API, BaseURL: h.BaseURL, Model: h.Model, Temperature: h.Temperature, MaxTokens: h.MaxTokens}); err != nil {
				return fatal(err), err
			}
			return line1(reply{Ready: &ready{Protocol: Protocol}}), nil
		},
		Decode: func(line []byte) (pipeprog.Request, error) {
			c, err := decodeCall(line)
			if err == nil && c.Hello != nil {
				err = errors.New("a second hello")
			}
			if err != nil {
				return pipeprog.Request{}, err
			}
			if c.Cancel {
				return pipeprog.Request{ID: c.ID, Cancel: true}, nil
			}
			a := c.Ask
			return pipeprog.Request{ID: c.ID, TimeLeft: time.Duration(a.TimeoutMS) * time.Millisecond, Run: func(ctx context.Context) []byte {
				ans, err := be.Ask(ctx, a.Request, a.Prompt)
				if err != nil {
					return line1(reply{ID: c.ID, Error: errorOf(err)})
				}
				return line1(reply{ID: c.ID, Answer: &ans})
			}}, nil
		},
	})
}

// fatal is the line of a hello that fails.
func fatal(err error) []byte { return line1(reply{Error: &wireError{Fatal: err.Error()}}) }

// line1 renders a reply; an answer whose call is not JSON fails the ask,
// not the pipe.
func line1(r reply) []byte {
	b, err := encode(r)
	if err != nil {
		b, _ = encode(reply{ID: r.ID, Error: &wireError{Fatal: "cannot encode the answer: " + err.Error()}})
	}
	return b
}
