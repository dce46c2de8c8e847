package writer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/toolfind/toolfind/internal/proctree"
	"github.com/toolfind/toolfind/search"
)

// Command is the writer backed by a program: any script or CLI can be the
// model. For every (client, prompt) it runs Argv once with one JSON object
// on standard input:
//
//	{"id": "q1", "client": "claude@2.1.328", "surface": {…search.Surface…}, "prompt": "…"}
//
// and reads the call from standard output: a JSON object (one call), an
// array of objects (several calls, in order), or null or nothing (the
// model made no search call). A run longer than Timeout, a non-zero exit
// status and output that is none of these are errors naming the prompt's
// id and the client.
type Command struct {
	// Argv is the program and its arguments (e.g. sh -c "…").
	Argv []string
	// Timeout bounds one run (default 60 s).
	Timeout time.Duration
	// Texts are the surface texts per client name (--surface-file).
	Texts map[string]search.Texts
	// Workers is how many runs may go at once (default 1).
	Workers int

	mu       sync.Mutex
	surfaces map[search.Simulator]surfaceOrErr
}

type surfaceOrErr struct {
	sf  search.Surface
	err error
}

// Name implements Writer.
func (c *Command) Name() string { return "command" }

// Concurrency implements Concurrent.
func (c *Command) Concurrency() int { return max(c.Workers, 1) }

func (c *Command) surface(sim search.Simulator) (search.Surface, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.surfaces[sim]; ok {
		return s.sf, s.err
	}
	if c.surfaces == nil {
		c.surfaces = map[search.Simulator]surfaceOrErr{}
	}
	var s surfaceOrErr
	if w, ok := sim.(search.Writable); !ok {
		s.err = fmt.Errorf("%s: %w", sim.Client(), ErrNotWritable)
	} else {
		s.sf, s.err = w.Surface(c.Texts[sim.Client().Name])
	}
	c.surfaces[sim] = s
	return s.sf, s.err
}

// Calls implements Writer.
func (c *Command) Calls(ctx context.Context, sim search.Simulator, p Prompt) ([]json.RawMessage, error) {
	if len(c.Argv) == 0 {
		return nil, errors.New("command writer: no command")
	}
	sf, err := c.surface(sim)
	if err != nil {
		return nil, err
	}
	in, err := json.Marshal(struct {
		ID      string         `json:"id"`
		Client  string         `json:"client"`
		Surface search.Surface `json:"surface"`
		Prompt  string         `json:"prompt"`
	}{p.ID, sim.Client().String(), sf, p.Text})
	if err != nil {
		return nil, err
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = 60 * time.Second
	}
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.Command(c.Argv[0], c.Argv[1:]...)
	cmd.Stdin = bytes.NewReader(in)
	var errb bytes.Buffer
	out := &capWriter{max: maxCommandOutput, over: cancel}
	cmd.Stdout, cmd.Stderr = out, &limited{b: &errb, n: 4096}
	where := fmt.Sprintf("command writer: prompt %s, %s", p.ID, sim.Client())
	// The command's whole process tree ends with it (a backgrounded
	// `sleep` holding its output included), at its exit, its timeout or
	// Ctrl-C; no wait outlasts it (internal/proctree).
	var runErr error
	if proc, err := proctree.Start(cmd, CommandTagVariable); err != nil {
		runErr = err
	} else if !proc.Wait(rctx.Done()) {
		runErr = proc.Err()
	}
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case out.full:
		return nil, fmt.Errorf("%s: the command wrote more than %d bytes to standard output, toolfind's limit for one answer; it was stopped there (an answer is one JSON call, an array of calls or null)", where, maxCommandOutput)
	case rctx.Err() != nil:
		return nil, fmt.Errorf("%s: no answer within %s", where, timeout)
	case runErr != nil:
		var ee *exec.ExitError
		if errors.As(runErr, &ee) {
			return nil, fmt.Errorf("%s: the command exited with status %d%s", where, ee.ExitCode(), stderrTail(errb.String()))
		}
		return nil, fmt.Errorf("%s: %v", where, runErr)
	}
	calls, err := parseCommandOutput(out.b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("%s: %v", where, err)
	}
	return calls, nil
}

// CommandTagVariable is set in the environment of each run of a Command
// to a value unique to the run, so that everything the run starts can be
// found and ended with it.
const CommandTagVariable = "TOOLFIND_WRITER_COMMAND"

// parseCommandOutput reads a command's answer: an object, an array of
// objects, null or nothing.
func parseCommandOutput(b []byte) ([]json.RawMessage, error) {
	t := bytes.TrimSpace(b)
	if len(t) == 0 || string(t) == "null" {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("the output is not JSON (%v): %s", err, clip(string(t)))
	}
	if dec.More() {
		return nil, fmt.Errorf("the output holds more than one JSON value: %s", clip(string(t)))
	}
	switch v[0] {
	case '{':
		var b bytes.Buffer
		_ = json.Compact(&b, v)
		return []json.RawMessage{b.Bytes()}, nil
	case '[':
		var list []json.RawMessage
		if err := json.Unmarshal(v, &list); err != nil {
			return nil, fmt.Errorf("the output is not JSON: %v", err)
		}
		out := make([]json.RawMessage, 0, len(list))
		for i, c := range list {
			c = bytes.TrimSpace(c)
			if len(c) == 0 || c[0] != '{' {
				return nil, fmt.Errorf("call %d of the output is not a JSON object: %s", i, clip(string(c)))
			}
			var b bytes.Buffer
			_ = json.Compact(&b, c)
			out = append(out, b.Bytes())
		}
		return out, nil
	}
	return nil, fmt.Errorf("the output is not a JSON object, an array of objects or null: %s", clip(string(t)))
}

// maxCommandOutput bounds what toolfind reads of one run's standard
// output (16 MiB; an answer is a few calls). A variable so that tests can
// lower it.
var maxCommandOutput = 16 << 20

// capWriter keeps what is written to it up to max bytes; past that it
// calls over (which stops the command) and fails every write, so that a
// command writing without end (yes(1)) costs no more than max.
type capWriter struct {
	b    bytes.Buffer
	max  int
	over func()
	full bool
}

func (w *capWriter) Write(p []byte) (int, error) {
	if w.full || w.b.Len()+len(p) > w.max {
		if !w.full {
			w.full = true
			w.over()
		}
		return 0, errOutputFull
	}
	return w.b.Write(p)
}

var errOutputFull = errors.New("standard output over the limit")

// limited keeps the first n bytes written to it.
type limited struct {
	b *bytes.Buffer
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if room := l.n - l.b.Len(); room > 0 {
		l.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func stderrTail(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	return ": " + clip(strings.TrimSpace(lines[len(lines)-1]))
}
