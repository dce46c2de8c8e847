package pipeprog

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// Request is one line toolfind wrote after the hello, as Serving.Decode
// reads it: a cancel of request ID, or request ID to Run.
type Request struct {
	ID     int64
	Cancel bool
	// TimeLeft, when more than 0, bounds the request (the time left
	// before the caller's deadline).
	TimeLeft time.Duration
	// Run answers the request: the reply line.
	Run func(ctx context.Context) []byte
}

// Serving is what Serve does with the lines.
type Serving struct {
	// Hello reads the first line: the line to answer (ready, or a
	// refusal) and, when the program cannot go on, the error Serve
	// returns after writing that line (if any).
	Hello func(line []byte) (reply []byte, err error)
	// Decode reads every later line (a second hello is its error).
	Decode func(line []byte) (Request, error)
	// Noun names a request in errors: "ask".
	Noun string
}

// Serve is the program's side: it reads the hello line from in and
// answers it, then runs every request in its own goroutine, so several
// are in flight, until in ends or ctx is done; then it cancels the
// requests still running, waits for their replies and returns. A line
// that is not the protocol is an error naming its line number.
func Serve(ctx context.Context, in io.Reader, out io.Writer, s Serving) error {
	r := bufio.NewReaderSize(in, 64<<10)
	w := &lineWriter{w: out}
	line, err := r.ReadBytes('\n')
	if len(bytes.TrimSpace(line)) == 0 {
		if err == nil || err == io.EOF {
			return errors.New("line 1: no hello")
		}
		return err
	}
	reply, err := s.Hello(line)
	if reply != nil {
		if werr := w.write(reply); err == nil && werr != nil {
			return werr
		}
	}
	if err != nil {
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
	// start runs req in a goroutine of its own (mu held; it releases it).
	start := func(req Request) {
		rctx, cancel := context.WithCancel(ctx)
		if req.TimeLeft > 0 {
			rctx, cancel = context.WithTimeout(ctx, req.TimeLeft)
		}
		running[req.ID] = cancel
		mu.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			rep := req.Run(rctx)
			mu.Lock()
			running[req.ID]()
			delete(running, req.ID)
			mu.Unlock()
			w.write(rep)
		}()
	}
	for n := 2; ; n++ {
		var in input
		select {
		case in = <-lines:
		case <-ctx.Done():
			return stop(nil)
		}
		if len(bytes.TrimSpace(in.line)) > 0 {
			req, err := s.Decode(in.line)
			if err != nil {
				return stop(fmt.Errorf("line %d: %v", n, err))
			}
			mu.Lock()
			cancel, dup := running[req.ID]
			switch {
			case req.Cancel:
				if dup {
					cancel()
				}
				mu.Unlock()
			case dup:
				mu.Unlock()
				return stop(fmt.Errorf("line %d: %s %d is already running", n, s.Noun, req.ID))
			default:
				start(req)
			}
		}
		if in.err == io.EOF {
			return stop(nil)
		}
		if in.err != nil {
			return stop(in.err)
		}
	}
}

// lineWriter writes whole lines, one at a time, and keeps the first
// error.
type lineWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

func (l *lineWriter) write(b []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return l.err
	}
	_, l.err = l.w.Write(b)
	return l.err
}

func (l *lineWriter) error() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}
