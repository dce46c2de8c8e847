// Package pipeprog runs a child program that answers JSON lines over its
// standard input and output, and is that program's loop: toolfind runs
// itself this way as its live-server child (corpus/live/remote), which
// reaps the servers' process trees even when toolfind is killed, and as
// its JavaScript child (jsbox/remote, whose own Serve also routes the
// answers to a run's questions), where a model-written script runs
// apart from toolfind.
//
// The lines have ids: the client's hello is id 0 and is answered first
// (ready, or a refusal); requests have ids 1, 2, …, several may be in
// flight, and their replies come in any order, matched by id. What a line
// holds is the caller's: Client gets a decoder for the program's lines,
// Serve one for toolfind's.
//
// Client starts the program, sends the hello, routes replies to the
// requests waiting for them, keeps the end of the program's standard
// error, and when the program's output ends — it exited, crashed, or
// wrote a line that is not the protocol (then it is killed) — records
// why, in an error naming the program, for every request in flight and
// every later one. Serve answers each request in a goroutine of its own
// with a context that the request's cancel line, its time left, or the
// end of the input or of Serve's context ends; it returns once every
// request has been answered.
package pipeprog

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/toolfind/toolfind/internal/stderrtail"
)

// Config configures a Client for replies of type R.
type Config[R any] struct {
	// Program is the executable; Args its arguments (default: serve).
	Program string
	Args    []string
	// Name names the program in errors (default: Program's base name).
	Name string
	// Env is its environment (nil: this process's).
	Env []string
	// Stderr, when not nil, receives its standard error.
	Stderr io.Writer
	// StartTimeout bounds the start and the hello's answer (default
	// 30 s).
	StartTimeout time.Duration
	// Expect names the program it should be, in errors: "a toolfind
	// live-server child".
	Expect string
	// Decode reads one line the program wrote: its id and reply.
	Decode func(line []byte) (id int64, reply R, err error)
	// Wrap makes the program's failures the caller's error type.
	Wrap func(error) error
	// Setup, when not nil, adjusts the command before it starts.
	Setup func(*exec.Cmd)
	// Intercept, when not nil, sees every line before it is routed: true
	// when it handled the line, which then ends no request (a question
	// the program asks in the middle of one, as the JavaScript child does for an
	// OpenCode script's search()). It must not block.
	Intercept func(id int64, reply R) bool
}

// Client is one run of the program. It is safe for concurrent use.
type Client[R any] struct {
	cfg  Config[R]
	name string // the program's base name, in errors

	cmd    *exec.Cmd
	stdin  io.WriteCloser
	wmu    sync.Mutex // serialises writes to stdin
	exited chan struct{}
	tail   stderrtail.Writer

	once     sync.Once // the start, by Started or Close
	startErr error

	mu      sync.Mutex
	nextID  int64
	pending map[int64]chan R
	closed  bool
	err     error // set when the program's output ended: why
	bad     error // the program's line that is not the protocol
	exit    string
}

// New prepares a client; Start (or Started) runs the program.
func New[R any](cfg Config[R]) *Client[R] {
	if len(cfg.Args) == 0 {
		cfg.Args = []string{"serve"}
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = 30 * time.Second
	}
	if cfg.Name == "" {
		cfg.Name = filepath.Base(cfg.Program)
	}
	return &Client[R]{cfg: cfg, name: cfg.Name, pending: map[int64]chan R{}, exited: make(chan struct{})}
}

// Fail is a failure of the program: the format after its name, wrapped.
func (c *Client[R]) Fail(format string, args ...any) error {
	return c.cfg.Wrap(fmt.Errorf(c.name+" "+format, args...))
}

// Start runs the program, writes hello (a line of id 0) and returns the
// program's line of id 0, which the caller checks. A program that cannot
// start, ends before it answers, writes what is not the protocol or does
// not answer within StartTimeout (it is killed then) is an error.
func (c *Client[R]) Start(hello []byte) (R, error) {
	var zero R
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if closed {
		return zero, c.Fail("was closed")
	}
	cmd := exec.Command(c.cfg.Program, c.cfg.Args...)
	cmd.Env = c.cfg.Env
	if c.cfg.Setup != nil {
		c.cfg.Setup(cmd)
	}
	c.tail.W = c.cfg.Stderr
	cmd.Stderr = &c.tail
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return zero, c.Fail("cannot start: %v", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return zero, c.Fail("cannot start: %v", err)
	}
	if err := cmd.Start(); err != nil {
		return zero, c.cfg.Wrap(fmt.Errorf("cannot start %s: %v", c.cfg.Program, err))
	}
	c.cmd, c.stdin = cmd, stdin
	ch := make(chan R, 1)
	c.mu.Lock()
	c.pending[0] = ch
	c.mu.Unlock()
	go c.read(stdout)
	timer := time.NewTimer(c.cfg.StartTimeout)
	defer timer.Stop()
	if err := c.Send(hello); err != nil {
		// The program is gone: its exit says why.
		select {
		case <-c.exited:
		case <-timer.C:
		}
	}
	select {
	case r := <-ch:
		return r, nil
	case <-c.exited:
		select {
		case r := <-ch:
			return r, nil
		default:
			return zero, c.notReady()
		}
	case <-timer.C:
		c.Kill()
		return zero, c.Fail("did not answer within %s: is it %s? (%s)", c.cfg.StartTimeout, c.cfg.Expect, c.cfg.Program)
	}
}

// notReady is the error of a program that ended before its first line.
func (c *Client[R]) notReady() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bad != nil {
		return c.Fail("is not %s (%s): %v", c.cfg.Expect, c.cfg.Program, c.bad)
	}
	return c.Fail("exited before it was ready %s", c.exit)
}

// Started runs start (which calls Start and checks its answer) once, at
// the first call, and is its error ever after; after Close it is "was
// closed" if start never ran.
func (c *Client[R]) Started(start func() error) error {
	c.once.Do(func() { c.startErr = start() })
	return c.startErr
}

// CheckReady checks the hello's answer once the caller has seen no
// refusal in it: protocol is its ready line's protocol (nil: it has none),
// which must be want. A program that fails the check is killed.
func (c *Client[R]) CheckReady(protocol *int, want int) error {
	switch {
	case protocol == nil:
		c.Kill()
		return c.Fail("answered the handshake with no ready line: is it %s? (%s)", c.cfg.Expect, c.cfg.Program)
	case *protocol != want:
		c.Kill()
		return c.Fail("speaks protocol %d, this toolfind %d: install both from the same version (go install ./cmd/...)", *protocol, want)
	}
	return nil
}

// Kill ends the program and waits for its output to end.
func (c *Client[R]) Kill() {
	c.cmd.Process.Kill()
	<-c.exited
}

// read routes the program's lines to their requests until its output
// ends, then records why it ended.
func (c *Client[R]) read(stdout io.Reader) {
	r := bufio.NewReaderSize(stdout, 64<<10)
	var bad error
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			id, rep, derr := c.cfg.Decode(line)
			if derr != nil {
				bad = fmt.Errorf("its line %d is not the protocol (%v): %q", n, derr, stderrtail.Clip(line, 120))
				c.cmd.Process.Kill()
				break
			}
			if c.cfg.Intercept == nil || !c.cfg.Intercept(id, rep) {
				c.mu.Lock()
				ch := c.pending[id]
				delete(c.pending, id)
				c.mu.Unlock()
				if ch != nil {
					ch <- rep
				}
			}
		}
		if err != nil {
			break
		}
	}
	io.Copy(io.Discard, r)
	werr := c.cmd.Wait()
	c.mu.Lock()
	c.exit = "without an error"
	if werr != nil {
		c.exit = "(" + werr.Error() + ")"
	}
	if l := c.tail.Last(); l != "" {
		c.exit += ": " + l
	}
	c.bad = bad
	switch {
	case bad != nil:
		c.err = c.Fail("wrote what is not the protocol: %v", bad)
	case c.closed:
		c.err = c.Fail("was closed")
	default:
		c.err = c.Fail("exited unexpectedly %s", c.exit)
	}
	c.mu.Unlock()
	close(c.exited)
}

// Send writes one line to the program.
func (c *Client[R]) Send(line []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.stdin.Write(line)
	return err
}

// SendJSON writes v to the program as one line (Encode).
func (c *Client[R]) SendJSON(v any) error {
	line, err := Encode(v)
	if err != nil {
		return err
	}
	return c.Send(line)
}

// Open is a new request: its id and the channel its reply comes on; or
// why the program ended, if it did.
func (c *Client[R]) Open() (int64, chan R, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return 0, nil, c.err
	}
	c.nextID++
	ch := make(chan R, 1)
	c.pending[c.nextID] = ch
	return c.nextID, ch, nil
}

// Exited is closed when the program's output has ended.
func (c *Client[R]) Exited() <-chan struct{} { return c.exited }

// Ended is the reply to id once the program has ended: the one it wrote
// before, or why it ended.
func (c *Client[R]) Ended(id int64, ch chan R) (R, error) {
	select {
	case r := <-ch:
		return r, nil
	default:
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.pending, id)
	var zero R
	return zero, c.err
}

// Forget drops a request whose reply is no longer awaited.
func (c *Client[R]) Forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// Close ends the program: a start under way finishes first and a later
// one fails ("was closed"), its end reads as "was closed", its standard
// input closes, and it is killed if it has not exited within wait.
func (c *Client[R]) Close(wait time.Duration) {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.once.Do(func() { c.startErr = c.Fail("was closed") })
	if c.cmd == nil {
		return
	}
	c.stdin.Close()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-c.exited:
	case <-t.C:
		c.Kill()
	}
}
