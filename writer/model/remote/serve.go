package remote

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/toolfind/toolfind/writer/model"
)

// Serve is the program's side: it reads the hello line from in, builds
// the backend with newBackend, answers ready, then answers every ask
// (each in its own goroutine, so several are in flight) until in ends;
// then it cancels the asks still running, waits for them and returns nil.
// A line that is not the protocol is an error naming its line number; a
// hello whose backend cannot be built is answered with a fatal error,
// which Serve also returns.
func Serve(ctx context.Context, in io.Reader, out io.Writer, newBackend func(model.Config) (model.Backend, error)) error {
	r := bufio.NewReaderSize(in, 64<<10)
	w := &lineWriter{w: out}
	line, err := r.ReadBytes('\n')
	if len(bytes.TrimSpace(line)) == 0 {
		if err == nil || err == io.EOF {
			return errors.New("line 1: no hello")
		}
		return err
	}
	c, derr := decodeCall(line)
	if derr == nil && c.Hello == nil {
		derr = errors.New("want hello first")
	}
	if derr != nil {
		derr = fmt.Errorf("line 1: %v", derr)
		w.write(reply{Error: &wireError{Fatal: derr.Error()}})
		return derr
	}
	h := c.Hello
	if h.Protocol != Protocol {
		err := fmt.Errorf("protocol %d: this program speaks %d", h.Protocol, Protocol)
		w.write(reply{Error: &wireError{Fatal: err.Error()}})
		return err
	}
	be, err := newBackend(model.Config{API: h.API, BaseURL: h.BaseURL, Model: h.Model, Temperature: h.Temperature, MaxTokens: h.MaxTokens})
	if err != nil {
		w.write(reply{Error: &wireError{Fatal: err.Error()}})
		return err
	}
	if err := w.write(reply{Ready: &ready{Protocol: Protocol}}); err != nil {
		return err
	}

	ctx, cancelAll := context.WithCancel(ctx)
	defer cancelAll()
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		running = map[int64]context.CancelFunc{}
	)
	stop := func(err error) error {
		cancelAll()
		wg.Wait()
		if err == nil {
			err = w.error()
		}
		return err
	}
	for n := 2; ; n++ {
		line, rerr := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			c, err := decodeCall(line)
			if err == nil && c.Hello != nil {
				err = errors.New("a second hello")
			}
			if err != nil {
				return stop(fmt.Errorf("line %d: %v", n, err))
			}
			mu.Lock()
			cancel, dup := running[c.ID]
			if c.Cancel {
				if dup {
					cancel()
				}
				mu.Unlock()
				continue
			}
			if dup {
				mu.Unlock()
				return stop(fmt.Errorf("line %d: ask %d is already running", n, c.ID))
			}
			actx, cancel := context.WithCancel(ctx)
			if c.Ask.TimeoutMS > 0 {
				actx, cancel = context.WithTimeout(ctx, time.Duration(c.Ask.TimeoutMS)*time.Millisecond)
			}
			running[c.ID] = cancel
			mu.Unlock()
			wg.Add(1)
			go func(id int64, a *ask) {
				defer wg.Done()
				ans, err := be.Ask(actx, a.Request, a.Prompt)
				mu.Lock()
				running[id]()
				delete(running, id)
				mu.Unlock()
				rep := reply{ID: id, Answer: &ans}
				if err != nil {
					rep = reply{ID: id, Error: errorOf(err)}
				}
				w.write(rep)
			}(c.ID, c.Ask)
		}
		if rerr == io.EOF {
			return stop(nil)
		}
		if rerr != nil {
			return stop(rerr)
		}
	}
}

// lineWriter writes whole lines, one at a time, and keeps the first
// error.
type lineWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

func (l *lineWriter) write(r reply) error {
	b, err := encode(r)
	if err != nil {
		// An answer whose call is not JSON: the ask fails, not the pipe.
		b, err = encode(reply{ID: r.ID, Error: &wireError{Fatal: "cannot encode the answer: " + err.Error()}})
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return l.err
	}
	if err == nil {
		_, err = l.w.Write(b)
	}
	l.err = err
	return err
}

func (l *lineWriter) error() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}
