package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/toolfind/toolfind/internal/pipeprog"
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
	cfg Config
	p   *pipeprog.Client[reply]
}

// New checks the configuration; the program starts at the first Ask.
func New(cfg Config) (*Backend, error) {
	if cfg.Program == "" {
		return nil, errors.New("model writer: no toolfind-model program given")
	}
	if err := model.CheckAPI(cfg.Model.API); err != nil {
		return nil, err
	}
	env := cfg.Env
	if env == nil {
		env = os.Environ()
	}
	// The key only in the environment, never on the command line or the
	// pipe; set even when empty, so the program uses no other.
	env = append(env[:len(env):len(env)], model.KeyVar(cfg.Model.API)+"="+cfg.Model.Key)
	p := pipeprog.New(pipeprog.Config[reply]{Program: cfg.Program, Args: cfg.Args, Env: env, Stderr: cfg.Stderr,
		StartTimeout: cfg.StartTimeout, Expect: "toolfind-model",
		Decode: func(line []byte) (int64, reply, error) {
			r, err := decodeReply(line)
			return r.ID, r, err
		},
		Wrap: func(err error) error { return &model.BackendError{Err: err} }})
	return &Backend{cfg: cfg, p: p}, nil
}

// start runs the program and waits for its ready line.
func (b *Backend) start() error {
	m := b.cfg.Model
	line, err := encode(call{Hello: &hello{Protocol: Protocol, API: m.API, BaseURL: m.BaseURL, Model: m.Model,
		Temperature: m.Temperature, MaxTokens: m.MaxTokens}})
	if err != nil {
		return err
	}
	r, err := b.p.Start(line)
	switch {
	case err != nil:
		return err
	case r.Error != nil:
		b.p.Kill()
		return r.Error.err(filepath.Base(b.cfg.Program))
	case r.Ready == nil:
		return b.p.CheckReady(nil, Protocol)
	}
	return b.p.CheckReady(&r.Ready.Protocol, Protocol)
}

// Ask implements model.Backend: it sends the request and prompt to the
// program and waits for its answer, or ctx's end (then it tells the
// program to cancel). The program's end is a *model.BackendError.
func (b *Backend) Ask(ctx context.Context, req model.Request, prompt string) (model.Answer, error) {
	if err := b.p.Started(b.start); err != nil {
		return model.Answer{}, err
	}
	id, ch, err := b.p.Open()
	if err != nil {
		return model.Answer{}, err
	}
	name := filepath.Base(b.cfg.Program)
	a := &ask{Request: req, Prompt: prompt}
	if dl, ok := ctx.Deadline(); ok {
		// Rounded up: the program's deadline is then never before ours
		// (rounded down, its timer fired up to 1 ms before ours and its
		// answer, a plain error, came back before our deadline passed).
		a.TimeoutMS = max(1, (time.Until(dl) + time.Millisecond - 1).Milliseconds())
	}
	if err := b.p.SendJSON(call{ID: id, Ask: a}); err != nil {
		// A broken pipe: the program is ending, and its end says why.
		select {
		case <-b.p.Exited():
			_, err := b.p.Ended(id, ch)
			return model.Answer{}, err
		case <-ctx.Done():
			b.p.Forget(id)
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
		return r.result(name)
	case <-ctx.Done():
		b.p.Forget(id)
		b.p.SendJSON(call{ID: id, Cancel: true})
		return model.Answer{}, ctx.Err()
	case <-b.p.Exited():
		r, err := b.p.Ended(id, ch)
		if err != nil {
			return model.Answer{}, err
		}
		return r.result(name)
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
	b.p.Close(5 * time.Second)
	return nil
}
