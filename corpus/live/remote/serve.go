package remote

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/toolfind/toolfind/corpus/live/snap"
)

// Handler does the program's work: corpus/live's TakeAll and Call with
// Options made into corpus/live.Options (cmd/toolfind-live). Package
// remote does not import corpus/live, so that toolfind links no SDK.
type Handler struct {
	TakeAll func(ctx context.Context, srcs []snap.Source, opts Options) ([]*snap.Snapshot, error)
	Call    func(ctx context.Context, src snap.Source, opts Options, tool string, args json.RawMessage) (*snap.ToolCall, error)
}

// Serve is the program's side: it reads the hello line from in, answers
// ready, then answers every take and call (each in its own goroutine, so
// several are in flight) until in ends or ctx is done; then it cancels
// the requests still running, waits for them (the servers are stopped
// and reaped then) and returns. A line that is not the protocol is an
// error naming its line number, answered with "fatal" when it is the
// hello.
func Serve(ctx context.Context, in io.Reader, out io.Writer, h Handler) error {
	r := bufio.NewReaderSize(in, 64<<10)
	w := &lineWriter{w: out}
	line, err := r.ReadBytes('\n')
	if len(bytes.TrimSpace(line)) == 0 {
		if err == nil || err == io.EOF {
			return errors.New("line 1: no hello")
		}
		return err
	}
	c, derr := decodeRequest(line)
	if derr == nil && c.Hello == nil {
		derr = errors.New("want hello first")
	}
	if derr != nil {
		derr = fmt.Errorf("line 1: %v", derr)
		w.write(reply{Fatal: derr.Error()})
		return derr
	}
	if c.Hello.Protocol != Protocol {
		err := fmt.Errorf("protocol %d: this program speaks %d", c.Hello.Protocol, Protocol)
		w.write(reply{Fatal: err.Error()})
		return err
	}
	if err := w.write(reply{Ready: &hello{Protocol: Protocol}}); err != nil {
		return err
	}

	ctx, cancelAll := context.WithCancel(ctx)
	defer cancelAll()
	type input struct {
		line []byte
		err  error
	}
	lines := make(chan input)
	go func() {
		for {
			line, err := r.ReadBytes('\n')
			select {
			case lines <- input{line, err}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
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
		var in input
		select {
		case in = <-lines:
		case <-ctx.Done():
			return stop(nil)
		}
		if len(bytes.TrimSpace(in.line)) > 0 {
			c, err := decodeRequest(in.line)
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
				return stop(fmt.Errorf("line %d: request %d is already running", n, c.ID))
			}
			left := c.timeLeft()
			rctx, cancel := context.WithCancel(ctx)
			if left > 0 {
				rctx, cancel = context.WithTimeout(ctx, left)
			}
			running[c.ID] = cancel
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				rep := answer(rctx, h, c)
				mu.Lock()
				running[c.ID]()
				delete(running, c.ID)
				mu.Unlock()
				w.write(rep)
			}()
		}
		if in.err == io.EOF {
			return stop(nil)
		}
		if in.err != nil {
			return stop(in.err)
		}
	}
}

// timeLeft is the caller's time left of a take or call, 0 for none.
func (r request) timeLeft() time.Duration {
	switch {
	case r.Take != nil:
		return time.Duration(r.Take.TimeLeftNS)
	case r.Call != nil:
		return time.Duration(r.Call.TimeLeftNS)
	}
	return 0
}

// answer runs one take or call.
func answer(ctx context.Context, h Handler, r request) reply {
	if t := r.Take; t != nil {
		srcs := make([]snap.Source, len(t.Sources))
		for i, s := range t.Sources {
			srcs[i] = s.source()
		}
		snaps, err := h.TakeAll(ctx, srcs, t.Options.options())
		if err != nil {
			return reply{ID: r.ID, Error: errorOf(err)}
		}
		tk := &took{Snapshots: make([]wireSnapshot, len(snaps))}
		for i, s := range snaps {
			tk.Snapshots[i] = snapshotOf(s)
		}
		return reply{ID: r.ID, Took: tk}
	}
	cl := r.Call
	tc, err := h.Call(ctx, cl.Source.source(), cl.Options.options(), string(cl.Tool), cl.Arguments)
	if err != nil {
		return reply{ID: r.ID, Error: errorOf(err)}
	}
	return reply{ID: r.ID, Called: &called{Snapshot: snapshotOf(tc.Snapshot), Result: tc.Result}}
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
		// Cannot happen with these types; the request fails, not the pipe.
		b, err = encode(reply{ID: r.ID, Error: errorOf(fmt.Errorf("toolfind-live cannot encode the answer: %v", err))})
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
