package remote

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/toolfind/toolfind/corpus/live/snap"
	"github.com/toolfind/toolfind/internal/stderrtail"
)

// Config configures a Client.
type Config struct {
	// Program is the toolfind-live executable; Args its arguments
	// (default: serve).
	Program string
	Args    []string
	// Env is the program's environment (nil: this process's); the
	// servers it starts inherit it.
	Env []string
	// Stderr, when not nil, receives the program's standard error (its
	// own failures; the servers' stderr is kept for error messages).
	Stderr io.Writer
	// StartTimeout bounds the start and handshake (default 30 s).
	StartTimeout time.Duration
	// CancelWait bounds the wait for the program's answer once a
	// request was cancelled (default 60 s: the program stops and reaps
	// the servers first); then the program is killed.
	CancelWait time.Duration
}

// ProgramError is a failure of the program itself, not of a server: it
// could not be started, is not toolfind-live, crashed, or wrote what is
// not the protocol.
type ProgramError struct{ Err error }

func (e *ProgramError) Error() string { return e.Err.Error() }
func (e *ProgramError) Unwrap() error { return e.Err }

// Client takes snapshots and calls tools through one toolfind-live
// program, started at the first request. It is safe for concurrent use;
// Close ends the program.
type Client struct {
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

// New checks the configuration; the program starts at the first request.
func New(cfg Config) (*Client, error) {
	if cfg.Program == "" {
		return nil, errors.New("live: no toolfind-live program given")
	}
	if len(cfg.Args) == 0 {
		cfg.Args = []string{"serve"}
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = 30 * time.Second
	}
	if cfg.CancelWait <= 0 {
		cfg.CancelWait = time.Minute
	}
	return &Client{cfg: cfg, name: filepath.Base(cfg.Program), pending: map[int64]chan reply{}, exited: make(chan struct{})}, nil
}

// fail is a program error naming the program.
func (c *Client) fail(format string, args ...any) error {
	return &ProgramError{Err: fmt.Errorf(c.name+" "+format, args...)}
}

// start runs the program and waits for its ready line.
func (c *Client) start() error {
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if closed {
		return c.fail("was closed")
	}
	cmd := exec.Command(c.cfg.Program, c.cfg.Args...)
	cmd.Env = c.cfg.Env
	setDeathSignal(cmd)
	c.tail.W = c.cfg.Stderr
	cmd.Stderr = &c.tail
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return c.fail("cannot start: %v", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return c.fail("cannot start: %v", err)
	}
	if err := cmd.Start(); err != nil {
		return &ProgramError{Err: fmt.Errorf("cannot start %s: %v", c.cfg.Program, err)}
	}
	c.cmd, c.stdin = cmd, stdin
	ch := make(chan reply, 1)
	c.mu.Lock()
	c.pending[0] = ch
	c.mu.Unlock()
	go c.read(stdout)
	timer := time.NewTimer(c.cfg.StartTimeout)
	defer timer.Stop()
	if err := c.send(request{Hello: &hello{Protocol: Protocol}}); err != nil {
		// The program is gone: its exit says why.
		select {
		case <-c.exited:
		case <-timer.C:
		}
	}
	var r reply
	select {
	case r = <-ch:
	case <-c.exited:
		select {
		case r = <-ch:
		default:
			return c.notReady()
		}
	case <-timer.C:
		c.kill()
		return c.fail("did not answer within %s: is it toolfind-live? (%s)", c.cfg.StartTimeout, c.cfg.Program)
	}
	switch {
	case r.Fatal != "":
		c.kill()
		return c.fail("refused the handshake: %s", r.Fatal)
	case r.Ready == nil:
		c.kill()
		return c.fail("answered the handshake with no ready line: is it toolfind-live? (%s)", c.cfg.Program)
	case r.Ready.Protocol != Protocol:
		c.kill()
		return c.fail("speaks protocol %d, this toolfind %d: install both from the same version (go install ./cmd/...)", r.Ready.Protocol, Protocol)
	}
	return nil
}

// notReady is the error of a program that ended before its ready line.
func (c *Client) notReady() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bad != nil {
		return c.fail("is not toolfind-live (%s): %v", c.cfg.Program, c.bad)
	}
	return c.fail("exited before it was ready %s", c.exit)
}

// kill ends the program and waits for its output to end.
func (c *Client) kill() {
	c.cmd.Process.Kill()
	<-c.exited
}

// read routes the program's replies to their requests until its output
// ends, then records why it ended.
func (c *Client) read(stdout io.Reader) {
	r := bufio.NewReaderSize(stdout, 64<<10)
	var bad error
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			rep, derr := decodeReply(line)
			if derr != nil {
				bad = fmt.Errorf("its line %d is not the protocol (%v): %q", n, derr, stderrtail.Clip(line, 120))
				c.cmd.Process.Kill()
				break
			}
			c.mu.Lock()
			ch := c.pending[rep.ID]
			delete(c.pending, rep.ID)
			c.mu.Unlock()
			if ch != nil {
				ch <- rep
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
		c.err = c.fail("wrote what is not the protocol: %v", bad)
	case c.closed:
		c.err = c.fail("was closed")
	default:
		c.err = c.fail("exited unexpectedly %s", c.exit)
	}
	c.mu.Unlock()
	close(c.exited)
}

// send writes one line to the program.
func (c *Client) send(r request) error {
	line, err := encode(r)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err = c.stdin.Write(line)
	return err
}

// do sends a request and waits for its reply. When ctx ends first it
// tells the program to cancel the request and still waits for the reply
// (the program answers once it has stopped and reaped the servers, as
// corpus/live does in process), at most CancelWait.
func (c *Client) do(ctx context.Context, r request) (reply, error) {
	c.once.Do(func() { c.startErr = c.start() })
	if c.startErr != nil {
		return reply{}, c.startErr
	}
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return reply{}, err
	}
	c.nextID++
	id := c.nextID
	ch := make(chan reply, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	r.ID = id
	if err := c.send(r); err != nil {
		// A broken pipe: the program is ending, and its end says why.
		<-c.exited
		return c.after(id, ch)
	}
	select {
	case rep := <-ch:
		return rep, nil
	case <-c.exited:
		return c.after(id, ch)
	case <-ctx.Done():
	}
	c.send(request{ID: id, Cancel: true})
	t := time.NewTimer(c.cfg.CancelWait)
	defer t.Stop()
	select {
	case rep := <-ch:
		return rep, nil
	case <-c.exited:
		return c.after(id, ch)
	case <-t.C:
		c.forget(id)
		return reply{}, c.fail("did not answer within %s of the cancel (%v)", c.cfg.CancelWait, ctx.Err())
	}
}

// after is the reply to id once the program has exited: the one it wrote
// before, or why it exited.
func (c *Client) after(id int64, ch chan reply) (reply, error) {
	select {
	case rep := <-ch:
		return rep, nil
	default:
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.pending, id)
	return reply{}, c.err
}

func (c *Client) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// timeLeft is the time left before ctx's deadline, 0 without one.
func timeLeft(ctx context.Context) int64 {
	if dl, ok := ctx.Deadline(); ok {
		return max(1, int64(time.Until(dl)))
	}
	return 0
}

// TakeAll is corpus/live.TakeAll run by the program: every source
// snapshotted concurrently, the snapshots in source order, or the first
// failing source's error — a *snap.StartError, *HandshakeError,
// *ListError or *ParseError with the same message, and the same causes
// for errors.Is and errors.As (snap.ErrTimeout, snap.ErrInterrupted,
// *snap.ExitError), as in process. A failure of the program itself is a
// *ProgramError.
func (c *Client) TakeAll(ctx context.Context, srcs []snap.Source, opts Options) ([]*snap.Snapshot, error) {
	t := &takeReq{Sources: make([]wireSource, len(srcs)), Options: optionsOf(opts), TimeLeftNS: timeLeft(ctx)}
	for i, s := range srcs {
		t.Sources[i] = sourceOf(s)
	}
	rep, err := c.do(ctx, request{Take: t})
	if err != nil {
		return nil, err
	}
	if rep.Error != nil {
		return nil, rep.error()
	}
	if rep.Took == nil {
		return nil, c.fail("answered take %d with no snapshots", rep.ID)
	}
	if len(rep.Took.Snapshots) != len(srcs) {
		return nil, c.fail("answered take %d with %d snapshots for %d sources", rep.ID, len(rep.Took.Snapshots), len(srcs))
	}
	snaps := make([]*snap.Snapshot, len(srcs))
	for i, w := range rep.Took.Snapshots {
		snaps[i] = w.snapshot(srcs[i])
	}
	return snaps, nil
}

// Take is TakeAll of one source.
func (c *Client) Take(ctx context.Context, src snap.Source, opts Options) (*snap.Snapshot, error) {
	snaps, err := c.TakeAll(ctx, []snap.Source{src}, opts)
	if err != nil {
		return nil, err
	}
	return snaps[0], nil
}

// Call is corpus/live.Call run by the program: the server's snapshot and
// one tools/call of tool with args (a JSON object; nil means {}), with the
// errors of TakeAll or a *snap.CallError. Calling a tool can have effects:
// callers must have the user's explicit consent.
func (c *Client) Call(ctx context.Context, src snap.Source, opts Options, tool string, args json.RawMessage) (*snap.ToolCall, error) {
	rep, err := c.do(ctx, request{Call: &callReq{Source: sourceOf(src), Options: optionsOf(opts), Tool: text(tool), Arguments: args,
		TimeLeftNS: timeLeft(ctx)}})
	if err != nil {
		return nil, err
	}
	if rep.Error != nil {
		return nil, rep.error()
	}
	if rep.Called == nil {
		return nil, c.fail("answered call %d with no result", rep.ID)
	}
	return &snap.ToolCall{Snapshot: rep.Called.Snapshot.snapshot(src), Result: json.RawMessage(rep.Called.Result)}, nil
}

// error is the error a reply stands for (decodeReply checked it can).
func (r reply) error() error {
	err, _ := r.Error.err()
	return err
}

// Close ends the program: its standard input closes and it exits (killed
// after 10 s). Later requests fail.
func (c *Client) Close() error {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	// Wait for a start under way, and stop any later one.
	c.once.Do(func() { c.startErr = c.fail("was closed") })
	if c.cmd == nil {
		return nil
	}
	c.stdin.Close()
	t := time.NewTimer(10 * time.Second)
	defer t.Stop()
	select {
	case <-c.exited:
	case <-t.C:
		c.kill()
	}
	return nil
}
