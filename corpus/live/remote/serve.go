package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/toolfind/toolfind/corpus/live/snap"
	"github.com/toolfind/toolfind/internal/pipeprog"
)

// Handler does the program's work: corpus/live's TakeAll and Call with
// Options made into corpus/live.Options (corpus/live.Serve). Package
// remote does not import corpus/live, which imports it.
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
// hello. (The loop is package internal/pipeprog's.)
func Serve(ctx context.Context, in io.Reader, out io.Writer, h Handler) error {
	return pipeprog.Serve(ctx, in, out, pipeprog.Serving{
		Noun: "request",
		Hello: func(line []byte) ([]byte, error) {
			c, err := decodeRequest(line)
			if err == nil && c.Hello == nil {
				err = errors.New("want hello first")
			}
			if err != nil {
				err = fmt.Errorf("line 1: %v", err)
				return render(reply{Fatal: err.Error()}), err
			}
			if c.Hello.Protocol != Protocol {
				err := fmt.Errorf("protocol %d: this program speaks %d", c.Hello.Protocol, Protocol)
				return render(reply{Fatal: err.Error()}), err
			}
			return render(reply{Ready: &hello{Protocol: Protocol}}), nil
		},
		Decode: func(line []byte) (pipeprog.Request, error) {
			c, err := decodeRequest(line)
			if err == nil && c.Hello != nil {
				err = errors.New("a second hello")
			}
			if err != nil {
				return pipeprog.Request{}, err
			}
			return pipeprog.Request{ID: c.ID, Cancel: c.Cancel, TimeLeft: c.timeLeft(),
				Run: func(ctx context.Context) []byte { return render(answer(ctx, h, c)) }}, nil
		},
	})
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

// render is a reply's line. (The wire types always encode; should one
// not, the request fails, not the pipe.)
func render(r reply) []byte {
	b, err := encode(r)
	if err != nil {
		b, _ = encode(reply{ID: r.ID, Error: errorOf(fmt.Errorf("the live-server child cannot encode the answer: %v", err))})
	}
	return b
}
