package remote

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/toolfind/toolfind/internal/stderrtail"
	"github.com/toolfind/toolfind/writer/model"
)

// Config configures a remote backend.
type Config struct {
	// Program is the toolfind-model executable; Args its arguments
	// (default: serve).
	Program string
	Args    []string
	// Model is the writer's configuration: the program builds its backend
	// from API, BaseURL, Model, Temperature and MaxTokens, and reads Key
	// from its environment (model.KeyVar(API)), where it alone is put.
	Model model.Config
	// Env is the program's environment before the key is added (nil: this
	// process's).
	Env []string
	// Stderr, when not nil, receives the program's standard error.
	Stderr io.Writer
	// StartTimeout bounds the start and handshake (default 30 s).
	StartTimeout time.Duration
}

// Backend is a model.Backend that asks a toolfind-model program,
// started at the first Ask. It is safe for concurrent use; Close ends
// the program.
type Backend struct {
	cfg  Config
	name string // the program's base name, in errors

	once     sync.Once
	startErr error
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	wmu      sync.Mutex // serialises writes to stdin
	exited   chan struct{}
	tail     stderrtail.Writer

	mu      sync.Mutex
	nextID  int64
	pending map[int64]chan reply
	closed  bool
	err     error  // set when the program's output ended: why
	bad     error  // the program's line that is not the protocol
	exit    string // how the program exited, with its last stderr line
}

// New checks the configuration; the program starts at the first Ask.
func New(cfg Config) (*Backend, error) {
	if cfg.Program == "" {
		return nil, errors.New("model writer: no toolfind-model program given")
	}
	if err := model.CheckAPI(cfg.Model.API); err != nil {
		return nil, err
	}
	if len(cfg.Args) == 0 {
		cfg.Args = []string{"serve"}
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = 30 * time.Second
	}
	return &Backend{cfg: cfg, name: filepath.Base(cfg.Program), pending: map[int64]chan reply{}, exited: make(chan struct{})}, nil
}

// fail is a backend error naming the program.
func (b *Backend) fail(format string, args ...any) error {
	return &model.BackendError{Err: fmt.Errorf(b.name+" "+format, args...)}
}

// start runs the program and waits for its ready line.
func (b *Backend) start() error {
	b.mu.Lock()
	closed := b.closed
	b.mu.Unlock()
	if closed {
		return b.fail("was closed")
	}
	env := b.cfg.Env
	if env == nil {
		env = os.Environ()
	}
	// The key only in the environment, never on the command line or the
	// pipe; set even when empty, so the program uses no other.
	env = append(env[:len(env):len(env)], model.KeyVar(b.cfg.Model.API)+"="+b.cfg.Model.Key)
	cmd := exec.Command(b.cfg.Program, b.cfg.Args...)
	cmd.Env = env
	b.tail.W = b.cfg.Stderr
	cmd.Stderr = &b.tail
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return b.fail("cannot start: %v", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return b.fail("cannot start: %v", err)
	}
	if err := cmd.Start(); err != nil {
		return &model.BackendError{Err: fmt.Errorf("cannot start %s: %v", b.cfg.Program, err)}
	}
	b.cmd, b.stdin = cmd, stdin
	ch := make(chan reply, 1)
	b.mu.Lock()
	b.pending[0] = ch
	b.mu.Unlock()
	go b.read(stdout)
	m := b.cfg.Model
	if err := b.send(call{Hello: &hello{Protocol: Protocol, API: m.API, BaseURL: m.BaseURL, Model: m.Model,
		Temperature: m.Temperature, MaxTokens: m.MaxTokens}}); err != nil {
		// The program is gone: its exit says why.
		select {
		case <-b.exited:
		case <-time.After(b.cfg.StartTimeout):
		}
	}
	timer := time.NewTimer(b.cfg.StartTimeout)
	defer timer.Stop()
	var r reply
	select {
	case r = <-ch:
	case <-b.exited:
		select {
		case r = <-ch:
		default:
			return b.notReady()
		}
	case <-timer.C:
		b.kill()
		return b.fail("did not answer within %s: is it toolfind-model? (%s)", b.cfg.StartTimeout, b.cfg.Program)
	}
	switch {
	case r.Error != nil:
		b.kill()
		return r.Error.err(b.name)
	case r.Ready == nil:
		b.kill()
		return b.fail("answered the handshake with no ready line: is it toolfind-model? (%s)", b.cfg.Program)
	case r.Ready.Protocol != Protocol:
		b.kill()
		return b.fail("speaks protocol %d, this toolfind %d: install both from the same version (go install ./cmd/...)", r.Ready.Protocol, Protocol)
	}
	return nil
}

// notReady is the error of a program that ended before its ready line.
func (b *Backend) notReady() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bad != nil {
		return b.fail("is not toolfind-model (%s): %v", b.cfg.Program, b.bad)
	}
	return b.fail("exited before it was ready %s", b.exit)
}

// kill ends the program and waits for its output to end.
func (b *Backend) kill() {
	b.cmd.Process.Kill()
	<-b.exited
}

// read routes the program's replies to their asks until its output ends,
// then records why it ended.
func (b *Backend) read(stdout io.Reader) {
	r := bufio.NewReaderSize(stdout, 64<<10)
	var bad error
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			rep, derr := decodeReply(line)
			if derr != nil {
				bad = fmt.Errorf("its line %d is not the protocol (%v): %q", n, derr, stderrtail.Clip(line, 120))
				b.cmd.Process.Kill()
				break
			}
			b.mu.Lock()
			ch := b.pending[rep.ID]
			delete(b.pending, rep.ID)
			b.mu.Unlock()
			if ch != nil {
				ch <- rep
			}
		}
		if err != nil {
			break
		}
	}
	io.Copy(io.Discard, r)
	werr := b.cmd.Wait()
	b.mu.Lock()
	b.exit = "without an error"
	if werr != nil {
		b.exit = "(" + werr.Error() + ")"
	}
	if l := b.tail.Last(); l != "" {
		b.exit += ": " + l
	}
	b.bad = bad
	switch {
	case bad != nil:
		b.err = b.fail("wrote what is not the protocol: %v", bad)
	case b.closed:
		b.err = b.fail("was closed")
	default:
		b.err = b.fail("exited unexpectedly %s", b.exit)
	}
	b.mu.Unlock()
	close(b.exited)
}

// send writes one line to the program.
func (b *Backend) send(c call) error {
	line, err := encode(c)
	if err != nil {
		return err
	}
	b.wmu.Lock()
	defer b.wmu.Unlock()
	_, err = b.stdin.Write(line)
	return err
}

// Ask implements model.Backend: it sends the request and prompt to the
// program and waits for its answer, or ctx's end (then it tells the
// program to cancel). The program's end is a *model.BackendError.
func (b *Backend) Ask(ctx context.Context, req model.Request, prompt string) (model.Answer, error) {
	b.once.Do(func() { b.startErr = b.start() })
	if b.startErr != nil {
		return model.Answer{}, b.startErr
	}
	b.mu.Lock()
	if b.err != nil {
		err := b.err
		b.mu.Unlock()
		return model.Answer{}, err
	}
	b.nextID++
	id := b.nextID
	ch := make(chan reply, 1)
	b.pending[id] = ch
	b.mu.Unlock()
	a := &ask{Request: req, Prompt: prompt}
	if dl, ok := ctx.Deadline(); ok {
		a.TimeoutMS = max(1, time.Until(dl).Milliseconds())
	}
	if err := b.send(call{ID: id, Ask: a}); err != nil {
		// A broken pipe: the program is ending, and its end says why.
		select {
		case <-b.exited:
			return model.Answer{}, b.exitErr(id)
		case <-ctx.Done():
			b.forget(id)
			return model.Answer{}, ctx.Err()
		}
	}
	select {
	case r := <-ch:
		if err := callerEnded(ctx); r.Error != nil && err != nil {
			// The program was told the time left (timeout_ms) and its
			// own timer can answer before ours fires: the caller's
			// deadline or cancel is the cause, as it is below.
			return model.Answer{}, err
		}
		return r.result(b.name)
	case <-ctx.Done():
		b.forget(id)
		b.send(call{ID: id, Cancel: true})
		return model.Answer{}, ctx.Err()
	case <-b.exited:
		select {
		case r := <-ch:
			return r.result(b.name)
		default:
			return model.Answer{}, b.exitErr(id)
		}
	}
}

// callerEnded is ctx's error, or context.DeadlineExceeded once its
// deadline has passed even if its timer has not fired yet (on a busy
// machine the program's answer to its own timeout_ms can come first).
func callerEnded(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
		return context.DeadlineExceeded
	}
	return nil
}

func (b *Backend) forget(id int64) {
	b.mu.Lock()
	delete(b.pending, id)
	b.mu.Unlock()
}

func (b *Backend) exitErr(id int64) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.pending, id)
	return b.err
}

// result is the answer or error of an ask's reply.
func (r reply) result(program string) (model.Answer, error) {
	if r.Error != nil {
		return model.Answer{}, r.Error.err(program)
	}
	if r.Answer == nil {
		return model.Answer{}, &model.BackendError{Err: fmt.Errorf("%s answered ask %d with a ready line", program, r.ID)}
	}
	return *r.Answer, nil
}

// Close ends the program: its standard input closes, it finishes and
// exits (killed after 5 s). Later asks fail.
func (b *Backend) Close() error {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	// Wait for a start under way, and stop any later one.
	b.once.Do(func() { b.startErr = b.fail("was closed") })
	if b.cmd == nil {
		return nil
	}
	b.stdin.Close()
	select {
	case <-b.exited:
	case <-time.After(5 * time.Second):
		b.kill()
	}
	return nil
}
