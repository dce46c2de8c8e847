package remote

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/toolfind/toolfind/internal/stderrtail"
	"github.com/toolfind/toolfind/jsbox"
)

// Config configures a remote engine.
type Config struct {
	// Program is the toolfind-js executable; Args its arguments (default:
	// serve).
	Program string
	Args    []string
	// Env is the program's environment (nil: this process's).
	Env []string
	// Stderr, when not nil, receives the program's standard error.
	Stderr io.Writer
	// StartTimeout bounds the start and handshake (default 30 s).
	StartTimeout time.Duration
}

// Engine is a jsbox.Engine that runs scripts in a toolfind-js program,
// started when the first session opens. It is safe for concurrent use;
// Close ends the program.
type Engine struct {
	cfg  Config
	name string // the program's base name, in errors

	once     sync.Once
	startErr error
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	wmu      sync.Mutex // serialises writes to stdin
	line     lineEncoder
	exited   chan struct{}
	tail     stderrtail.Writer

	mu      sync.Mutex
	nextID  int64
	pending map[int64]*pending
	closed  bool
	err     error // set when the program's output ended: why
	bad     error // the program's line that is not the protocol
	exit    string
}

// pending is a call waiting for its reply; search answers a run's
// search() calls.
type pending struct {
	ch     chan reply
	search jsbox.SearchFunc
}

var _ jsbox.Engine = (*Engine)(nil)

// New checks the configuration; the program starts with the first
// session.
func New(cfg Config) (*Engine, error) {
	if cfg.Program == "" {
		return nil, errors.New("jsbox: no toolfind-js program given")
	}
	if len(cfg.Args) == 0 {
		cfg.Args = []string{"serve"}
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = 30 * time.Second
	}
	return &Engine{cfg: cfg, name: filepath.Base(cfg.Program), pending: map[int64]*pending{}, exited: make(chan struct{})}, nil
}

// fail is an error naming the program.
func (e *Engine) fail(format string, args ...any) error {
	return fmt.Errorf(e.name+" "+format, args...)
}

// start runs the program and waits for its ready line.
func (e *Engine) start() error {
	e.mu.Lock()
	closed := e.closed
	e.mu.Unlock()
	if closed {
		return e.fail("was closed")
	}
	cmd := exec.Command(e.cfg.Program, e.cfg.Args...)
	cmd.Env = e.cfg.Env
	e.tail.W = e.cfg.Stderr
	cmd.Stderr = &e.tail
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return e.fail("cannot start: %v", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return e.fail("cannot start: %v", err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("cannot start %s: %v", e.cfg.Program, err)
	}
	e.cmd, e.stdin = cmd, stdin
	ch := make(chan reply, 1)
	e.mu.Lock()
	e.pending[0] = &pending{ch: ch}
	e.mu.Unlock()
	go e.read(stdout)
	if err := e.send(call{Hello: &hello{Protocol: Protocol}}); err != nil {
		// The program is gone: its exit says why.
		select {
		case <-e.exited:
		case <-time.After(e.cfg.StartTimeout):
		}
	}
	timer := time.NewTimer(e.cfg.StartTimeout)
	defer timer.Stop()
	var r reply
	select {
	case r = <-ch:
	case <-e.exited:
		select {
		case r = <-ch:
		default:
			return e.notReady()
		}
	case <-timer.C:
		e.kill()
		return e.fail("did not answer within %s: is it toolfind-js? (%s)", e.cfg.StartTimeout, e.cfg.Program)
	}
	switch {
	case r.Error != nil:
		e.kill()
		return e.fail("refused the handshake: %s", string(*r.Error))
	case r.Ready == nil:
		e.kill()
		return e.fail("answered the handshake with no ready line: is it toolfind-js? (%s)", e.cfg.Program)
	case r.Ready.Protocol != Protocol:
		e.kill()
		return e.fail("speaks protocol %d, this toolfind %d: install both from the same version (go install ./cmd/...)", r.Ready.Protocol, Protocol)
	}
	return nil
}

// notReady is the error of a program that ended before its ready line.
func (e *Engine) notReady() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.bad != nil {
		return e.fail("is not toolfind-js (%s): %v", e.cfg.Program, e.bad)
	}
	return e.fail("exited before it was ready %s", e.exit)
}

// kill ends the program and waits for its output to end.
func (e *Engine) kill() {
	e.cmd.Process.Kill()
	<-e.exited
}

// read routes the program's replies to their calls until its output
// ends, then records why it ended.
func (e *Engine) read(stdout io.Reader) {
	r := bufio.NewReaderSize(stdout, 64<<10)
	var bad error
	var line []byte
	for n := 1; ; n++ {
		var err error
		line, err = readLine(r, line)
		if len(bytes.TrimSpace(line)) > 0 {
			rep, derr := decodeReply(line)
			if derr != nil {
				bad = fmt.Errorf("its line %d is not the protocol (%v): %q", n, derr, stderrtail.Clip(line, 120))
				e.cmd.Process.Kill()
				break
			}
			e.route(rep)
		}
		if err != nil {
			break
		}
	}
	io.Copy(io.Discard, r)
	werr := e.cmd.Wait()
	e.mu.Lock()
	e.exit = "without an error"
	if werr != nil {
		e.exit = "(" + werr.Error() + ")"
	}
	if l := e.tail.Last(); l != "" {
		e.exit += ": " + l
	}
	e.bad = bad
	switch {
	case bad != nil:
		e.err = e.fail("wrote what is not the protocol: %v", bad)
	case e.closed:
		e.err = e.fail("was closed")
	default:
		e.err = e.fail("exited unexpectedly %s", e.exit)
	}
	e.mu.Unlock()
	close(e.exited)
}

// route hands a reply to its call: a run's search() is answered with the
// run's search function, in its own goroutine (the run waits for it);
// anything else ends the call.
func (e *Engine) route(rep reply) {
	e.mu.Lock()
	p := e.pending[rep.ID]
	if p != nil && rep.Search == nil {
		delete(e.pending, rep.ID)
	}
	e.mu.Unlock()
	switch {
	case p == nil:
		// A call given up (cancelled): its reply, or its search, is
		// ignored; a search is answered so that the run can end.
		if rep.Search != nil {
			go e.send(call{ID: rep.ID, Found: &found{Error: "cancelled"}})
		}
	case rep.Search != nil:
		go func() {
			var f found
			if p.search == nil {
				f.Error = "this call has no search function"
			} else if js, err := p.search(rep.Search.input()); err != nil {
				f.Error = text(err.Error())
			} else {
				f.JSON = text(js)
			}
			e.send(call{ID: rep.ID, Found: &f})
		}()
	default:
		p.ch <- rep
	}
}

// send writes one line to the program.
func (e *Engine) send(c call) error {
	e.wmu.Lock()
	defer e.wmu.Unlock()
	if err := e.line.encode(c); err != nil {
		return err
	}
	_, err := e.stdin.Write(e.line.buf.Bytes())
	return err
}

// request sends one call and waits for its reply, or ctx's end (then it
// tells the program to cancel), or the program's end.
func (e *Engine) request(ctx context.Context, c call, search jsbox.SearchFunc) (reply, error) {
	e.once.Do(func() { e.startErr = e.start() })
	if e.startErr != nil {
		return reply{}, e.startErr
	}
	e.mu.Lock()
	if e.err != nil {
		err := e.err
		e.mu.Unlock()
		return reply{}, err
	}
	e.nextID++
	id := e.nextID
	p := &pending{ch: make(chan reply, 1), search: search}
	e.pending[id] = p
	e.mu.Unlock()
	c.ID = id
	if err := e.send(c); err != nil {
		// A broken pipe: the program is ending, and its end says why.
		select {
		case <-e.exited:
			return reply{}, e.exitErr(id)
		case <-ctx.Done():
			e.forget(id)
			return reply{}, ctx.Err()
		}
	}
	select {
	case r := <-p.ch:
		return r, r.err(e.name)
	case <-ctx.Done():
		e.forget(id)
		e.send(call{ID: id, Cancel: true})
		return reply{}, ctx.Err()
	case <-e.exited:
		select {
		case r := <-p.ch:
			return r, r.err(e.name)
		default:
			return reply{}, e.exitErr(id)
		}
	}
}

// err is the error of an error reply.
func (r reply) err(program string) error {
	if r.Error != nil {
		return fmt.Errorf("%s: %s", program, string(*r.Error))
	}
	return nil
}

func (e *Engine) forget(id int64) {
	e.mu.Lock()
	delete(e.pending, id)
	e.mu.Unlock()
}

func (e *Engine) exitErr(id int64) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.pending, id)
	return e.err
}

// unexpected is the error of a reply of the wrong kind.
func (e *Engine) unexpected(what string, r reply) error {
	line, _ := encode(r)
	return e.fail("answered %s with %s", what, stderrtail.Clip(line, 120))
}

// Codex implements jsbox.Engine: it sends the setup once; the session's
// runs refer to it.
func (e *Engine) Codex(setup jsbox.CodexSetup) (jsbox.Codex, error) {
	r, err := e.request(context.Background(), call{Codex: wireCodexSetup(setup)}, nil)
	if err != nil {
		return nil, err
	}
	if !r.Opened {
		return nil, e.unexpected("a codex session", r)
	}
	return &codexSession{e: e, id: r.ID}, nil
}

// OpenCode implements jsbox.Engine.
func (e *Engine) OpenCode(setup jsbox.OpenCodeSetup) (jsbox.OpenCode, error) {
	r, err := e.request(context.Background(), call{OpenCode: wireOpenCodeSetup(setup)}, nil)
	if err != nil {
		return nil, err
	}
	if !r.Opened {
		return nil, e.unexpected("an opencode session", r)
	}
	return &openCodeSession{e: e, id: r.ID}, nil
}

type codexSession struct {
	e  *Engine
	id int64
}

// Compile implements jsbox.Codex.
func (s *codexSession) Compile(ctx context.Context, code string) (*jsbox.CompileError, error) {
	r, err := s.e.request(ctx, call{Compile: &compileCall{Session: s.id, Code: text(code)}}, nil)
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
	r, err := s.e.request(ctx, call{Exec: c}, nil)
	if err != nil {
		return jsbox.CodexOutput{}, err
	}
	if r.Output == nil {
		return jsbox.CodexOutput{}, s.e.unexpected("an exec", r)
	}
	o, err := r.Output.output()
	if err != nil {
		return jsbox.CodexOutput{}, s.e.fail("answered an exec with %v", err)
	}
	return o, nil
}

type openCodeSession struct {
	e  *Engine
	id int64
}

// Run implements jsbox.OpenCode: the program asks search() of this
// process, which answers with search.
func (s *openCodeSession) Run(ctx context.Context, code string, search jsbox.SearchFunc) (jsbox.OpenCodeOutput, error) {
	r, err := s.e.request(ctx, call{Run: &runCall{Session: s.id, Code: text(code)}}, search)
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
	e.mu.Lock()
	e.closed = true
	e.mu.Unlock()
	// Wait for a start under way, and stop any later one.
	e.once.Do(func() { e.startErr = e.fail("was closed") })
	if e.cmd == nil {
		return nil
	}
	e.stdin.Close()
	select {
	case <-e.exited:
	case <-time.After(5 * time.Second):
		e.kill()
	}
	return nil
}
