package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/toolfind/toolfind/internal/pipeprog"
	"github.com/toolfind/toolfind/internal/stderrtail"
	"github.com/toolfind/toolfind/jsbox"
)

// Config configures a remote engine.
type Config struct {
	// Program is the child's executable (toolfind); Args its arguments (default:
	// serve).
	Program string
	Args    []string
	// Name names the program in errors (default: Program's base name).
	Name string
	// Env is the program's environment (nil: this process's).
	Env []string
	// Stderr, when not nil, receives the program's standard error.
	Stderr io.Writer
	// StartTimeout bounds the start and handshake (default 30 s).
	StartTimeout time.Duration
	// Overrun is how long past a run's time limit the program may take
	// to answer before it is killed (default 30 s): the hard time limit
	// behind the engine's own, for a script stuck in one step the engine
	// cannot interrupt. The run, and every later one, then fails.
	Overrun time.Duration
}

// Engine is a jsbox.Engine that runs scripts in a child program,
// started when the first session opens. It is safe for concurrent use;
// Close ends the program.
type Engine struct {
	name string // the program's base name, in errors
	p    *pipeprog.Client[reply]
	wmu  sync.Mutex // serialises the encoding of lines
	line lineEncoder

	overrun time.Duration

	mu       sync.Mutex
	searches map[int64]jsbox.SearchFunc // the runs in flight
	stopped  error                      // why the program was killed (Overrun)
}

var _ jsbox.Engine = (*Engine)(nil)

// New checks the configuration; the program starts with the first
// session.
func New(cfg Config) (*Engine, error) {
	if cfg.Program == "" {
		return nil, errors.New("jsbox: no JavaScript child program given")
	}
	if cfg.Name == "" {
		cfg.Name = filepath.Base(cfg.Program)
	}
	if cfg.Overrun <= 0 {
		cfg.Overrun = 30 * time.Second
	}
	e := &Engine{name: cfg.Name, overrun: cfg.Overrun, searches: map[int64]jsbox.SearchFunc{}}
	e.p = pipeprog.New(pipeprog.Config[reply]{Program: cfg.Program, Args: cfg.Args, Name: cfg.Name, Env: cfg.Env, Stderr: cfg.Stderr,
		StartTimeout: cfg.StartTimeout, Expect: "a toolfind JavaScript child",
		Decode: func(line []byte) (int64, reply, error) {
			r, err := decodeReply(line)
			return r.ID, r, err
		},
		Wrap:      func(err error) error { return err },
		Intercept: e.search,
	})
	return e, nil
}

// start runs the program and checks its ready line.
func (e *Engine) start() error {
	r, err := e.p.Start([]byte(`{"id":0,"hello":{"protocol":` + strconv.Itoa(Protocol) + "}}\n"))
	if err != nil {
		return err
	}
	switch {
	case r.Error != nil:
		e.p.Kill()
		return e.p.Fail("refused the handshake: %s", string(*r.Error))
	case r.Ready == nil:
		return e.p.CheckReady(nil, Protocol)
	}
	return e.p.CheckReady(&r.Ready.Protocol, Protocol)
}

// search answers a run's search() with the run's search function, in its
// own goroutine (the run waits for it); a run given up (cancelled) is
// answered with an error, so that it can end. Other lines are replies.
func (e *Engine) search(id int64, rep reply) bool {
	if rep.Search == nil {
		return false
	}
	e.mu.Lock()
	fn := e.searches[id]
	e.mu.Unlock()
	go func() {
		var f found
		if fn == nil {
			f.Error = "cancelled"
		} else if js, err := fn(rep.Search.input()); err != nil {
			f.Error = text(err.Error())
		} else {
			f.JSON = text(js)
		}
		e.send(call{ID: id, Found: &f})
	}()
	return true
}

// send writes one line to the program.
func (e *Engine) send(c call) error {
	e.wmu.Lock()
	defer e.wmu.Unlock()
	if err := e.line.encode(c); err != nil {
		return err
	}
	return e.p.Send(e.line.buf.Bytes())
}

// request sends one call and waits for its reply, or ctx's end (then it
// tells the program to cancel), or the program's end. A run (limit > 0,
// its time limit) that is not answered within limit + Overrun kills the
// program: the run fails saying so, and so does every later call.
func (e *Engine) request(ctx context.Context, c call, search jsbox.SearchFunc, limit time.Duration) (reply, error) {
	if err := e.p.Started(e.start); err != nil {
		return reply{}, err
	}
	if err := e.stoppedOr(nil); err != nil {
		return reply{}, err
	}
	id, ch, err := e.p.Open()
	if err != nil {
		return reply{}, err
	}
	if search != nil {
		e.mu.Lock()
		e.searches[id] = search
		e.mu.Unlock()
		defer func() {
			e.mu.Lock()
			delete(e.searches, id)
			e.mu.Unlock()
		}()
	}
	c.ID = id
	if err := e.send(c); err != nil {
		// A broken pipe: the program is ending, and its end says why.
		select {
		case <-e.p.Exited():
			_, err := e.p.Ended(id, ch)
			return reply{}, err
		case <-ctx.Done():
			e.p.Forget(id)
			return reply{}, ctx.Err()
		}
	}
	var hard <-chan time.Time
	if limit > 0 {
		t := time.NewTimer(limit + e.overrun)
		defer t.Stop()
		hard = t.C
	}
	select {
	case r := <-ch:
		return r, r.err(e.name)
	case <-ctx.Done():
		e.p.Forget(id)
		e.send(call{ID: id, Cancel: true})
		return reply{}, ctx.Err()
	case <-hard:
		err := e.p.Fail("was stopped: a script ran %s past its %s time limit without being interrupted", e.overrun, limit)
		e.mu.Lock()
		if e.stopped == nil {
			e.stopped = err
		}
		err = e.stopped
		e.mu.Unlock()
		e.p.Forget(id)
		e.p.Kill()
		return reply{}, err
	case <-e.p.Exited():
		r, err := e.p.Ended(id, ch)
		if err != nil {
			return reply{}, e.stoppedOr(err)
		}
		return r, r.err(e.name)
	}
}

// stoppedOr is why the program was killed for a run's overrun, if it
// was, else err (the program's end as pipeprog saw it).
func (e *Engine) stoppedOr(err error) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.stopped != nil {
		return e.stopped
	}
	return err
}

// err is the error of an error reply.
func (r reply) err(program string) error {
	if r.Error != nil {
		return fmt.Errorf("%s: %s", program, string(*r.Error))
	}
	return nil
}

// unexpected is the error of a reply of the wrong kind.
func (e *Engine) unexpected(what string, r reply) error {
	line, _ := encode(r)
	return e.p.Fail("answered %s with %s", what, stderrtail.Clip(line, 120))
}

// Codex implements jsbox.Engine: it sends the setup once; the session's
// runs refer to it.
func (e *Engine) Codex(setup jsbox.CodexSetup) (jsbox.Codex, error) {
	r, err := e.request(context.Background(), call{Codex: wireCodexSetup(setup)}, nil, 0)
	if err != nil {
		return nil, err
	}
	if !r.Opened {
		return nil, e.unexpected("a codex session", r)
	}
	return &codexSession{e: e, id: r.ID, limit: setup.Limits.WithDefaults().Timeout}, nil
}

// OpenCode implements jsbox.Engine.
func (e *Engine) OpenCode(setup jsbox.OpenCodeSetup) (jsbox.OpenCode, error) {
	r, err := e.request(context.Background(), call{OpenCode: wireOpenCodeSetup(setup)}, nil, 0)
	if err != nil {
		return nil, err
	}
	if !r.Opened {
		return nil, e.unexpected("an opencode session", r)
	}
	return &openCodeSession{e: e, id: r.ID, limit: setup.Timeout}, nil
}

type codexSession struct {
	e     *Engine
	id    int64
	limit time.Duration // a run's time limit
}

// Compile implements jsbox.Codex.
func (s *codexSession) Compile(ctx context.Context, code string) (*jsbox.CompileError, error) {
	r, err := s.e.request(ctx, call{Compile: &compileCall{Session: s.id, Code: text(code)}}, nil, 0)
	if err != nil {
		return nil, err
	}
	if r.Compiled == nil {
		return nil, s.e.unexpected("a compile", r)
	}
	if ce := r.Compiled.Error; ce != nil {
		return &jsbox.CompileError{Message: string(ce.Message), Line: ce.Line, Column: ce.Column}, nil
	}
	return nil, nil
}

// Exec implements jsbox.Codex.
func (s *codexSession) Exec(ctx context.Context, run jsbox.CodexRun) (jsbox.CodexOutput, error) {
	c := &execCall{Session: s.id, Code: text(run.Code), Query: text(run.Query), Terms: texts(run.Terms), YieldMs: run.YieldMs, Trusted: run.Trusted}
	r, err := s.e.request(ctx, call{Exec: c}, nil, s.limit)
	if err != nil {
		return jsbox.CodexOutput{}, err
	}
	if r.Output == nil {
		return jsbox.CodexOutput{}, s.e.unexpected("an exec", r)
	}
	o, err := r.Output.output()
	if err != nil {
		return jsbox.CodexOutput{}, s.e.p.Fail("answered an exec with %v", err)
	}
	return o, nil
}

type openCodeSession struct {
	e     *Engine
	id    int64
	limit time.Duration // a run's time limit
}

// Run implements jsbox.OpenCode: the program asks search() of this
// process, which answers with search.
func (s *openCodeSession) Run(ctx context.Context, code string, search jsbox.SearchFunc) (jsbox.OpenCodeOutput, error) {
	r, err := s.e.request(ctx, call{Run: &runCall{Session: s.id, Code: text(code)}}, search, s.limit)
	if err != nil {
		return jsbox.OpenCodeOutput{}, err
	}
	if r.Ran == nil {
		return jsbox.OpenCodeOutput{}, s.e.unexpected("a run", r)
	}
	return r.Ran.output(), nil
}

// Close ends the program: its standard input closes, it finishes and
// exits (killed after 5 s). Later sessions and runs fail.
func (e *Engine) Close() error {
	e.p.Close(5 * time.Second)
	return nil
}
