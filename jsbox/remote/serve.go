package remote

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/toolfind/toolfind/jsbox"
)

// Serve is the program's side: it reads the hello line from in, answers
// ready, then answers every call with engine (each exec or run in its own
// goroutine, so several are in flight) until in ends; then it cancels the
// runs still going, waits for them and returns nil. A line that is not
// the protocol is an error naming its line number (after the runs
// stopped); a hello of another protocol version is answered with an
// error, which Serve also returns.
func Serve(ctx context.Context, in io.Reader, out io.Writer, engine jsbox.Engine) error {
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
	if derr == nil && c.Hello.Protocol != Protocol {
		derr = fmt.Errorf("protocol %d: this program speaks %d", c.Hello.Protocol, Protocol)
	}
	if derr != nil {
		derr = fmt.Errorf("line 1: %v", derr)
		msg := text(derr.Error())
		w.write(reply{Error: &msg})
		return derr
	}
	if err := w.write(reply{Ready: &hello{Protocol: Protocol}}); err != nil {
		return err
	}
	s := &server{engine: engine, w: w, codex: map[int64]jsbox.Codex{}, openCode: map[int64]jsbox.OpenCode{}, running: map[int64]*running{}}
	ctx, cancelAll := context.WithCancel(ctx)
	defer cancelAll()
	stop := func(err error) error {
		cancelAll()
		s.wg.Wait()
		if err == nil {
			err = w.error()
		}
		return err
	}
	for n := 2; ; n++ {
		var rerr error
		line, rerr = readLine(r, line)
		if len(bytes.TrimSpace(line)) > 0 {
			c, err := decodeCall(line)
			if err == nil && c.Hello != nil {
				err = errors.New("a second hello")
			}
			if err == nil {
				err = s.handle(ctx, c)
			}
			if err != nil {
				return stop(fmt.Errorf("line %d: %v", n, err))
			}
		}
		if rerr == io.EOF {
			return stop(nil)
		}
		if rerr != nil {
			return stop(rerr)
		}
	}
}

// server is the state of one Serve: the sessions by id and the calls
// running.
type server struct {
	engine jsbox.Engine
	w      *lineWriter
	wg     sync.WaitGroup

	mu       sync.Mutex
	codex    map[int64]jsbox.Codex
	openCode map[int64]jsbox.OpenCode
	running  map[int64]*running
}

// running is a call in flight: its cancel, and where a run's search
// answers go.
type running struct {
	cancel context.CancelFunc
	found  chan found
}

// handle answers one call; an error is a protocol error that ends Serve.
func (s *server) handle(ctx context.Context, c call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.Cancel || c.Found != nil {
		run := s.running[c.ID]
		switch {
		case run == nil:
			// The call has ended meanwhile: nothing to do.
		case c.Cancel:
			run.cancel()
		case run.found == nil:
			return fmt.Errorf("found %d: call %d is not a run", c.ID, c.ID)
		default:
			select {
			case run.found <- *c.Found:
			default:
				return fmt.Errorf("found %d: the run asked no search", c.ID)
			}
		}
		return nil
	}
	if _, dup := s.running[c.ID]; dup || s.codex[c.ID] != nil || s.openCode[c.ID] != nil {
		return fmt.Errorf("id %d is already in use", c.ID)
	}
	switch {
	case c.Codex != nil:
		js, err := s.engine.Codex(c.Codex.setup())
		if err != nil {
			s.fail(c.ID, err)
			return nil
		}
		s.codex[c.ID] = js
		s.w.write(reply{ID: c.ID, Opened: true})
	case c.OpenCode != nil:
		js, err := s.engine.OpenCode(c.OpenCode.setup())
		if err != nil {
			s.fail(c.ID, err)
			return nil
		}
		s.openCode[c.ID] = js
		s.w.write(reply{ID: c.ID, Opened: true})
	case c.Compile != nil:
		js := s.codex[c.Compile.Session]
		if js == nil {
			s.fail(c.ID, fmt.Errorf("compile: no codex session %d", c.Compile.Session))
			return nil
		}
		s.start(ctx, c.ID, false, func(ctx context.Context, _ *running) reply {
			ce, err := js.Compile(ctx, string(c.Compile.Code))
			if err != nil {
				return errorReply(c.ID, err)
			}
			rep := reply{ID: c.ID, Compiled: &compiled{}}
			if ce != nil {
				rep.Compiled.Error = &compileError{Message: text(ce.Message), Line: ce.Line, Column: ce.Column}
			}
			return rep
		})
	case c.Exec != nil:
		js := s.codex[c.Exec.Session]
		if js == nil {
			s.fail(c.ID, fmt.Errorf("exec: no codex session %d", c.Exec.Session))
			return nil
		}
		x := c.Exec
		run := jsbox.CodexRun{Code: string(x.Code), Query: string(x.Query), Terms: strs(x.Terms), YieldMs: x.YieldMs, Trusted: x.Trusted}
		s.start(ctx, c.ID, false, func(ctx context.Context, _ *running) reply {
			o, err := js.Exec(ctx, run)
			if err != nil {
				return errorReply(c.ID, err)
			}
			w, err := wireCodexOutput(o)
			if err != nil {
				return errorReply(c.ID, err)
			}
			return reply{ID: c.ID, Output: w}
		})
	case c.Run != nil:
		js := s.openCode[c.Run.Session]
		if js == nil {
			s.fail(c.ID, fmt.Errorf("run: no opencode session %d", c.Run.Session))
			return nil
		}
		code := string(c.Run.Code)
		s.start(ctx, c.ID, true, func(ctx context.Context, r *running) reply {
			o, err := js.Run(ctx, code, func(in jsbox.SearchInput) (string, error) {
				if err := s.w.write(reply{ID: c.ID, Search: wireSearchInput(in)}); err != nil {
					return "", err
				}
				select {
				case f := <-r.found:
					if f.Error != "" {
						return "", errors.New(string(f.Error))
					}
					return string(f.JSON), nil
				case <-ctx.Done():
					return "", ctx.Err()
				}
			})
			if err != nil {
				return errorReply(c.ID, err)
			}
			return reply{ID: c.ID, Ran: wireRan(o)}
		})
	}
	return nil
}

// start runs fn in its own goroutine as call id and writes its reply.
// Called with s.mu held.
func (s *server) start(ctx context.Context, id int64, searches bool, fn func(context.Context, *running) reply) {
	ctx, cancel := context.WithCancel(ctx)
	r := &running{cancel: cancel}
	if searches {
		r.found = make(chan found, 1)
	}
	s.running[id] = r
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		rep := fn(ctx, r)
		s.mu.Lock()
		delete(s.running, id)
		s.mu.Unlock()
		cancel()
		s.w.write(rep)
	}()
}

// fail answers call id with an error.
func (s *server) fail(id int64, err error) { s.w.write(errorReply(id, err)) }

func errorReply(id int64, err error) reply {
	msg := text(err.Error())
	return reply{ID: id, Error: &msg}
}

// lineWriter writes whole lines, one at a time, and keeps the first
// error.
type lineWriter struct {
	mu   sync.Mutex
	w    io.Writer
	line lineEncoder
	err  error
}

func (l *lineWriter) write(r reply) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return l.err
	}
	err := l.line.encode(r)
	if err != nil {
		err = l.line.encode(errorReply(r.ID, fmt.Errorf("cannot encode the reply: %v", err)))
	}
	if err == nil {
		_, err = l.w.Write(l.line.buf.Bytes())
	}
	l.err = err
	return err
}

func (l *lineWriter) error() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}
