package remote

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"time"

	"github.com/toolfind/toolfind/corpus/live/snap"
	"github.com/toolfind/toolfind/internal/pipeprog"
)

// Config configures a Client.
type Config struct {
	// Program is the child's executable (toolfind); Args its arguments
	// (default: serve).
	Program string
	Args    []string
	// Name names the program in errors (default: Program's base name).
	Name string
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
// could not be started, is not a live-server child, crashed, or wrote what is
// not the protocol.
type ProgramError struct{ Err error }

func (e *ProgramError) Error() string { return e.Err.Error() }
func (e *ProgramError) Unwrap() error { return e.Err }

// Client takes snapshots and calls tools through one live-server child
// program, started at the first request. It is safe for concurrent use;
// Close ends the program.
type Client struct {
	cfg Config
	p   *pipeprog.Client[reply]
}

// New checks the configuration; the program starts at the first request.
func New(cfg Config) (*Client, error) {
	if cfg.Program == "" {
		return nil, errors.New("live: no live-server child program given")
	}
	if cfg.CancelWait <= 0 {
		cfg.CancelWait = time.Minute
	}
	p := pipeprog.New(pipeprog.Config[reply]{Program: cfg.Program, Args: cfg.Args, Name: cfg.Name, Env: cfg.Env, Stderr: cfg.Stderr,
		StartTimeout: cfg.StartTimeout, Expect: "a toolfind live-server child", Setup: setDeathSignal,
		Decode: func(line []byte) (int64, reply, error) {
			r, err := decodeReply(line)
			return r.ID, r, err
		},
		Wrap: func(err error) error { return &ProgramError{Err: err} }})
	return &Client{cfg: cfg, p: p}, nil
}

// start runs the program and waits for its ready line.
func (c *Client) start() error {
	line, err := encode(request{Hello: &hello{Protocol: Protocol}})
	if err != nil {
		return err
	}
	r, err := c.p.Start(line)
	switch {
	case err != nil:
		return err
	case r.Fatal != "":
		c.p.Kill()
		return c.p.Fail("refused the handshake: %s", r.Fatal)
	case r.Ready == nil:
		return c.p.CheckReady(nil, Protocol)
	}
	return c.p.CheckReady(&r.Ready.Protocol, Protocol)
}

// do sends a request and waits for its reply. When ctx ends first it
// tells the program to cancel the request and still waits for the reply
// (the program answers once it has stopped and reaped the servers, as
// corpus/live does in process), at most CancelWait.
func (c *Client) do(ctx context.Context, r request) (reply, error) {
	if err := c.p.Started(c.start); err != nil {
		return reply{}, err
	}
	id, ch, err := c.p.Open()
	if err != nil {
		return reply{}, err
	}
	r.ID = id
	if err := c.p.SendJSON(r); err != nil {
		// A broken pipe: the program is ending, and its end says why.
		<-c.p.Exited()
		return c.p.Ended(id, ch)
	}
	select {
	case rep := <-ch:
		return rep, nil
	case <-c.p.Exited():
		return c.p.Ended(id, ch)
	case <-ctx.Done():
	}
	c.p.SendJSON(request{ID: id, Cancel: true})
	t := time.NewTimer(c.cfg.CancelWait)
	defer t.Stop()
	select {
	case rep := <-ch:
		return rep, nil
	case <-c.p.Exited():
		return c.p.Ended(id, ch)
	case <-t.C:
		c.p.Forget(id)
		return reply{}, c.p.Fail("did not answer within %s of the cancel (%v)", c.cfg.CancelWait, ctx.Err())
	}
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
		return nil, c.p.Fail("answered take %d with no snapshots", rep.ID)
	}
	if len(rep.Took.Snapshots) != len(srcs) {
		return nil, c.p.Fail("answered take %d with %d snapshots for %d sources", rep.ID, len(rep.Took.Snapshots), len(srcs))
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
		return nil, c.p.Fail("answered call %d with no result", rep.ID)
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
	c.p.Close(10 * time.Second)
	return nil
}
