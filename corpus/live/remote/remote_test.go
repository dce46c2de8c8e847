package remote

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/corpus/live/snap"
	"github.com/toolfind/toolfind/internal/pipeprog/pipeprogtest"
)

// serveVar makes this test binary the program: TestMain serves the fake
// handler then (its value is the mode: "serve", "protocol99", "garbage",
// "silent").
const serveVar = "TOOLFIND_LIVE_REMOTE_TEST_SERVE"

func TestMain(m *testing.M) {
	serve := func() error { return Serve(context.Background(), os.Stdin, os.Stdout, fakeHandler) }
	pipeprogtest.Main(m, serveVar, serve, map[string]func() int{
		"garbage": func() int {
			fmt.Println("Starting toolfind-live…")
			io.Copy(io.Discard, os.Stdin)
			return 0
		},
		"silent": func() int {
			io.Copy(io.Discard, os.Stdin)
			return 0
		},
	})
}

// fakeHandler is the program's work in these tests: each source's first
// word says what it does.
var fakeHandler = Handler{
	TakeAll: func(ctx context.Context, srcs []snap.Source, opts Options) ([]*snap.Snapshot, error) {
		var snaps []*snap.Snapshot
		for _, src := range srcs {
			s, err := fakeTake(ctx, src, opts)
			if err != nil {
				return nil, err
			}
			snaps = append(snaps, s)
		}
		return snaps, nil
	},
	Call: func(ctx context.Context, src snap.Source, opts Options, tool string, args json.RawMessage) (*snap.ToolCall, error) {
		s, err := fakeTake(ctx, src, opts)
		if err != nil {
			return nil, err
		}
		if tool == "missing" {
			return nil, &snap.CallError{Failure: snap.Failure{Source: src.String(), Err: errors.New("the server answered with JSON-RPC error -32602: unknown tool")}, Tool: tool}
		}
		return &snap.ToolCall{Snapshot: s, Result: json.RawMessage(`{"content":[],"args":` + string(args) + `}`)}, nil
	},
}

func fakeTake(ctx context.Context, src snap.Source, opts Options) (*snap.Snapshot, error) {
	word := ""
	if len(src.Command) > 0 {
		word = src.Command[0]
	}
	switch word {
	case "crash":
		fmt.Fprintln(os.Stderr, "panic: out of luck\n\ngoroutine 1 [running]:\nmain.main()")
		os.Exit(2)
	case "garbage":
		// The program's output broken mid-session.
		fmt.Println("{half a line")
		<-ctx.Done()
		return nil, ctx.Err()
	case "slow":
		// Answers only when cancelled, as corpus/live does: after the
		// (imaginary) server was reaped, with ErrInterrupted.
		fmt.Fprintf(os.Stderr, "slow: pid %d\n", os.Getpid())
		<-ctx.Done()
		time.Sleep(50 * time.Millisecond)
		return nil, &snap.HandshakeError{Failure: snap.Failure{Source: src.String(), Err: snap.ErrInterrupted}}
	case "fail":
		return nil, &snap.StartError{Failure: snap.Failure{Name: src.Name, Source: src.String(),
			Err: fmt.Errorf("%w before answering initialize", &snap.ExitError{Status: "exit status 3", Code: 3}), Stderr: "srv: no token"}}
	case "echo":
		// The options and source as the program got them, in the tools.
		o, _ := json.Marshal(opts)
		s, _ := json.Marshal(src)
		return &snap.Snapshot{Source: src, Name: "echo", Tools: []json.RawMessage{o, s}, Pages: 1}, nil
	}
	return &snap.Snapshot{Source: src, Name: src.Name, Instructions: "use \u2028 <it>", HasInstructions: true,
		ServerInfo: json.RawMessage("{\n  \"name\": \"acme/x\"\n}"), ProtocolVersion: "2025-11-25",
		Tools: []json.RawMessage{json.RawMessage("{ \"name\" : \"a\",\n \"n\": 1.50E+2 }"), json.RawMessage("\"\xff\""), json.RawMessage("7")}, Pages: 2,
		Duplicates: []snap.Duplicate{{Method: "tools/list", Request: 2, Differs: true}, {Method: "initialize", Request: 1}}}, nil
}

// program is a client of this test binary in mode.
func program(t *testing.T, mode string) (*Client, *pipeprogtest.Buffer) {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	stderr := &pipeprogtest.Buffer{}
	c, err := New(Config{Program: exe, Args: []string{"-test.run=^$"}, Env: append(os.Environ(), serveVar+"="+mode),
		Stderr: stderr, StartTimeout: 10 * time.Second})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c, stderr
}

// A snapshot crosses byte for byte: whitespace inside tools and
// serverInfo, invalid UTF-8, U+2028, HTML characters; the Source is the
// caller's own.
func TestTakeAll(t *testing.T) {
	c, _ := program(t, "serve")
	srcs := []snap.Source{
		{Name: "a", Command: []string{"srv", "--dir", "caf\xe9"}, Env: []string{"K=v"}, Dir: "/tmp"},
		{URL: "http://127.0.0.1:1/mcp", Header: snap.Header{"Authorization": {"Bearer t"}}},
	}
	snaps, err := c.TakeAll(context.Background(), srcs, Options{Timeout: 1500 * time.Microsecond})
	require.NoError(t, err)
	require.Len(t, snaps, 2)
	for i, s := range snaps {
		want, _ := fakeTake(context.Background(), srcs[i], Options{})
		assert.Equal(t, want, s)
		assert.Same(t, &srcs[i].Command, &srcs[i].Command) // (the caller's slice is not rewritten)
	}
	// What the program got: the invalid UTF-8 argument and the options
	// exactly.
	echo, err := c.Take(context.Background(), snap.Source{Command: []string{"echo", "caf\xe9", "<&>"}, Header: snap.Header{"X": {"\xff"}}},
		Options{Timeout: 1500 * time.Microsecond, ProtocolVersion: "2025-06-18", ClientName: "n", ClientVersion: "1.2", ShutdownGrace: time.Second})
	require.NoError(t, err)
	var gotOpts Options
	var gotSrc snap.Source
	require.NoError(t, json.Unmarshal(echo.Tools[0], &gotOpts))
	require.NoError(t, json.Unmarshal(echo.Tools[1], &gotSrc))
	assert.Equal(t, Options{Timeout: 1500 * time.Microsecond, ProtocolVersion: "2025-06-18", ClientName: "n", ClientVersion: "1.2", ShutdownGrace: time.Second}, gotOpts)
	// json.Marshal in the program turned \xff into U+FFFD: what matters
	// is that it arrived as one byte, which the length says.
	assert.Equal(t, []string{"echo", "caf\ufffd", "<&>"}, gotSrc.Command)

	none, err := c.TakeAll(context.Background(), nil, Options{})
	require.NoError(t, err)
	assert.NotNil(t, none)
	assert.Empty(t, none)
}

func TestTextKeepsBytes(t *testing.T) {
	for _, s := range []string{"", "plain", "caf\xe9", "\xff\xfe", "a\u2028b<&>", "\x00"} {
		b, err := json.Marshal(text(s))
		require.NoError(t, err)
		var back text
		require.NoError(t, json.Unmarshal(b, &back))
		assert.Equal(t, s, string(back), "%q via %s", s, b)
	}
}

func TestCall(t *testing.T) {
	c, _ := program(t, "serve")
	src := snap.Source{Name: "n", Command: []string{"srv"}}
	tc, err := c.Call(context.Background(), src, Options{}, "echo", json.RawMessage(`{"a": [1, 2]}`))
	require.NoError(t, err)
	assert.Equal(t, `{"content":[],"args":{"a": [1, 2]}}`, string(tc.Result))
	assert.Equal(t, src, tc.Snapshot.Source)

	_, err = c.Call(context.Background(), src, Options{}, "missing", nil)
	var ce *snap.CallError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "missing", ce.Tool)
	assert.EqualError(t, err, `live server "srv": call (tools/call missing): the server answered with JSON-RPC error -32602: unknown tool`)
}

// The errors corpus/live returns cross with their messages, types and
// causes.
func TestErrorsCross(t *testing.T) {
	c, _ := program(t, "serve")
	_, err := c.TakeAll(context.Background(), []snap.Source{{Name: "b", Command: []string{"fail", "x y"}}}, Options{})
	require.Error(t, err)
	assert.Equal(t, "live server b (fail 'x y'): start: the server process exited (exit status 3) before answering initialize\n  server stderr (last lines):\n    | srv: no token", err.Error())
	var se *snap.StartError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "srv: no token", se.Stderr)
	var ee *snap.ExitError
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, snap.ExitError{Status: "exit status 3", Code: 3}, *ee)
	p, ok := snap.PhaseOf(err)
	assert.True(t, ok)
	assert.Equal(t, snap.PhaseStart, p)
}

// A cancelled request is still answered: with ErrInterrupted, once the
// program has stopped (as corpus/live returns only after reaping).
func TestCancel(t *testing.T) {
	c, _ := program(t, "serve")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := c.Take(ctx, snap.Source{Command: []string{"slow"}}, Options{})
	require.Error(t, err)
	assert.ErrorIs(t, err, snap.ErrInterrupted)
	assert.EqualError(t, err, `live server "slow": handshake (initialize): interrupted`)

	// A deadline crosses as the time left: the program's context ends.
	ctx, cancel = context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = c.Take(ctx, snap.Source{Command: []string{"slow"}}, Options{})
	assert.ErrorIs(t, err, snap.ErrInterrupted)

	// Several in flight at once, answered in any order.
	var wg sync.WaitGroup
	ctx2, cancel2 := context.WithCancel(context.Background())
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				_, errs[i] = c.Take(ctx2, snap.Source{Command: []string{"slow"}}, Options{})
			} else {
				_, errs[i] = c.Take(context.Background(), snap.Source{Name: fmt.Sprint(i), Command: []string{"ok"}}, Options{})
			}
		}()
	}
	time.Sleep(100 * time.Millisecond)
	cancel2()
	wg.Wait()
	for i, err := range errs {
		if i%2 == 0 {
			assert.ErrorIs(t, err, snap.ErrInterrupted)
		} else {
			assert.NoError(t, err)
		}
	}
}

// A program that crashes fails the request in flight and every later one
// with its exit and its panic's line.
func TestProgramCrash(t *testing.T) {
	c, _ := program(t, "serve")
	_, err := c.Take(context.Background(), snap.Source{Command: []string{"crash"}}, Options{})
	var pe *ProgramError
	require.ErrorAs(t, err, &pe)
	exe, _ := os.Executable()
	name := exe[strings.LastIndexByte(exe, os.PathSeparator)+1:]
	assert.EqualError(t, err, name+" exited unexpectedly (exit status 2): panic: out of luck")
	_, err = c.Take(context.Background(), snap.Source{Command: []string{"ok"}}, Options{})
	assert.EqualError(t, err, name+" exited unexpectedly (exit status 2): panic: out of luck")
	_, isLive := snap.PhaseOf(err)
	assert.False(t, isLive, "a program failure is not a server's phase")
}

// A program that writes what is not the protocol after its ready line
// is killed; the request in flight and every later one fail naming the
// line.
func TestProgramGarbage(t *testing.T) {
	c, _ := program(t, "serve")
	_, err := c.Take(context.Background(), snap.Source{Command: []string{"garbage"}}, Options{})
	var pe *ProgramError
	require.ErrorAs(t, err, &pe)
	exe, _ := os.Executable()
	name := exe[strings.LastIndexByte(exe, os.PathSeparator)+1:]
	want := name + ` wrote what is not the protocol: its line 2 is not the protocol (not a JSON object: invalid character 'h' looking for beginning of object key string): "{half a line"`
	assert.EqualError(t, err, want)
	_, err = c.Take(context.Background(), snap.Source{Command: []string{"ok"}}, Options{})
	assert.EqualError(t, err, want)
}

// A program killed while a request is in flight.
func TestProgramKilled(t *testing.T) {
	c, stderr := program(t, "serve")
	done := make(chan error, 1)
	go func() {
		_, err := c.Take(context.Background(), snap.Source{Command: []string{"slow"}}, Options{})
		done <- err
	}()
	var pid int
	require.Eventually(t, func() bool {
		_, err := fmt.Sscanf(stderr.String(), "slow: pid %d", &pid)
		return err == nil
	}, 10*time.Second, 10*time.Millisecond)
	p, err := os.FindProcess(pid)
	require.NoError(t, err)
	require.NoError(t, p.Kill())
	err = <-done
	var pe *ProgramError
	require.ErrorAs(t, err, &pe)
	assert.Contains(t, err.Error(), " exited unexpectedly (signal: killed): slow: pid ")
}

func TestStartErrors(t *testing.T) {
	exe, _ := os.Executable()
	name := exe[strings.LastIndexByte(exe, os.PathSeparator)+1:]
	for _, tt := range []struct{ mode, want string }{
		{"protocol99", name + " speaks protocol 99, this toolfind 1: install both from the same version (go install ./cmd/...)"},
		{"garbage", name + ` is not a toolfind live-server child (` + exe + `): its line 1 is not the protocol (not a JSON object: invalid character 'S' looking for beginning of value): "Starting toolfind-live…"`},
	} {
		c, _ := program(t, tt.mode)
		_, err := c.Take(context.Background(), snap.Source{Command: []string{"ok"}}, Options{})
		assert.EqualError(t, err, tt.want, tt.mode)
	}

	c, err := New(Config{Program: exe, Args: []string{"-test.run=^$"}, Env: append(os.Environ(), serveVar+"=silent"), StartTimeout: 200 * time.Millisecond})
	require.NoError(t, err)
	_, err = c.Take(context.Background(), snap.Source{Command: []string{"ok"}}, Options{})
	assert.EqualError(t, err, name+" did not answer within 200ms: is it a toolfind live-server child? ("+exe+")")
	c.Close()

	c, err = New(Config{Program: "/nonexistent/toolfind-live"})
	require.NoError(t, err)
	_, err = c.Take(context.Background(), snap.Source{Command: []string{"ok"}}, Options{})
	assert.EqualError(t, err, "cannot start /nonexistent/toolfind-live: fork/exec /nonexistent/toolfind-live: no such file or directory")

	_, err = New(Config{})
	assert.EqualError(t, err, "live: no live-server child program given")

	c, err = New(Config{Program: exe})
	require.NoError(t, err)
	c.Close()
	_, err = c.Take(context.Background(), snap.Source{Command: []string{"ok"}}, Options{})
	assert.EqualError(t, err, name+" was closed")
}

// timeoutLike is corpus/live's timeout cause: its own text, errors.Is
// ErrTimeout.
type timeoutLike struct{}

func (timeoutLike) Error() string {
	return "no answer to initialize within 1s; the server is running but silent (timed out; see --timeout)"
}
func (timeoutLike) Is(target error) bool { return target == snap.ErrTimeout }

// rpcLike stands for the SDK's *jsonrpc.Error: a type the client does not
// know, which crosses by its text.
type rpcLike struct{ code int64 }

func (e *rpcLike) Error() string { return fmt.Sprintf("Method not found (%d)", e.code) }

// TestErrorRoundTrip: every error type corpus/live returns, and the
// causes in their chains, through the wire form and back: the same text,
// the same phase and fields, the same errors.Is and errors.As answers.
func TestErrorRoundTrip(t *testing.T) {
	f := func(err error) snap.Failure {
		return snap.Failure{Name: "n", Source: "srv --x 'a b'", Err: err, Stderr: "line 1\n\tline \\x1b 2"}
	}
	notFound := &exec.Error{Name: "srv", Err: exec.ErrNotFound}
	perm := &fs.PathError{Op: "fork/exec", Path: "./srv", Err: fs.ErrPermission}
	tests := []struct {
		name string
		err  error
		is   []error
	}{
		{"start: not found", &snap.StartError{Failure: f(fmt.Errorf("command %q not found in PATH: %w", "srv", notFound))}, []error{exec.ErrNotFound}},
		{"start: permission", &snap.StartError{Failure: snap.Failure{Source: "./srv", Err: perm}}, []error{fs.ErrPermission}},
		{"start: exited", &snap.StartError{Failure: f(fmt.Errorf("%w before answering initialize", &snap.ExitError{Status: "signal: killed", Code: -1}))}, nil},
		{"handshake: timeout", &snap.HandshakeError{Failure: f(timeoutLike{}), After: 1500 * time.Millisecond}, []error{snap.ErrTimeout}},
		{"handshake: interrupted", &snap.HandshakeError{Failure: f(snap.ErrInterrupted)}, []error{snap.ErrInterrupted}},
		{"handshake: rpc", &snap.HandshakeError{Failure: f(fmt.Errorf("the server answered with JSON-RPC error %d: %w", -32602, &rpcLike{-32602}))}, nil},
		{"list: exit", &snap.ListError{Failure: f(&snap.ExitError{Status: "exit status 4", Code: 4}), Page: 3}, nil},
		{"list: deadline", &snap.ListError{Failure: f(fmt.Errorf("wrapped: %w", context.DeadlineExceeded)), Page: 1}, []error{context.DeadlineExceeded}},
		{"parse", &snap.ParseError{Failure: f(errors.New(`not a JSON-RPC 2.0 message: invalid JSON: "hello \xff"`)), What: "stdout line 1"}, nil},
		{"call", &snap.CallError{Failure: f(errors.Join(io.EOF, io.ErrUnexpectedEOF)), Tool: "echo"}, []error{io.EOF, io.ErrUnexpectedEOF}},
		{"plain", errors.New("live: a source needs exactly one of Command and URL"), nil},
		{"wrapped phase", fmt.Errorf("merging: %w", &snap.ListError{Failure: f(context.Canceled), Page: 2}), []error{context.Canceled}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line, err := encode(reply{ID: 7, Error: errorOf(tt.err)})
			require.NoError(t, err)
			rep, err := decodeReply(line)
			require.NoError(t, err)
			got := rep.error()
			assert.Equal(t, tt.err.Error(), got.Error())
			// snap's types are rebuilt; others cross by their text.
			if reflect.TypeOf(tt.err).Elem().PkgPath() == reflect.TypeOf(snap.Failure{}).PkgPath() {
				assert.Equal(t, reflect.TypeOf(tt.err), reflect.TypeOf(got))
			}
			wp, wok := snap.PhaseOf(tt.err)
			gp, gok := snap.PhaseOf(got)
			assert.Equal(t, wok, gok)
			assert.Equal(t, wp, gp)
			for _, s := range sentinels {
				assert.Equal(t, errors.Is(tt.err, s.err), errors.Is(got, s.err), "errors.Is %s", s.name)
			}
			for _, want := range tt.is {
				assert.ErrorIs(t, got, want)
			}
			var we, ge *snap.ExitError
			if assert.Equal(t, errors.As(tt.err, &we), errors.As(got, &ge)) && we != nil {
				assert.Equal(t, *we, *ge)
			}
			// The phase errors' own fields.
			switch w := tt.err.(type) {
			case *snap.HandshakeError:
				assert.Equal(t, w.After, got.(*snap.HandshakeError).After)
				assert.Equal(t, w.Failure.Stderr, got.(*snap.HandshakeError).Stderr)
			case *snap.ListError:
				assert.Equal(t, w.Page, got.(*snap.ListError).Page)
			case *snap.ParseError:
				assert.Equal(t, w.What, got.(*snap.ParseError).What)
			case *snap.CallError:
				assert.Equal(t, w.Tool, got.(*snap.CallError).Tool)
			}
		})
	}
}

// TestDecode: what each decoder refuses, with its reason.
func TestDecode(t *testing.T) {
	for _, tt := range []struct{ line, want string }{
		{`{"id":0}`, `want exactly one of "hello", "take", "call" and "cancel"`},
		{`{"id":1,"hello":{"protocol":1}}`, "hello with id 1: want 0"},
		{`{"id":0,"take":{"sources":[]}}`, "id 0: want 1 or more"},
		{`{"id":2,"take":{"sources":[],"time_left_ns":-1}}`, "take 2: a negative duration"},
		{`{"id":2,"call":{"source":{},"tool":"t","options":{"timeout_ns":-5}}}`, "call 2: a negative duration"},
		{`{"id":2,"cancel":true,"take":{}}`, `want exactly one of "hello", "take", "call" and "cancel"`},
		{`[1]`, "not a JSON object: json: cannot unmarshal array into Go value of type remote.request"},
	} {
		_, err := decodeRequest([]byte(tt.line))
		assert.EqualError(t, err, tt.want, tt.line)
	}
	for _, tt := range []struct{ line, want string }{
		{`{"id":1}`, `want exactly one of "ready", "took", "called", "error" and "fatal"`},
		{`{"id":1,"ready":{"protocol":1}}`, "ready with id 1: want 0"},
		{`{"id":0,"took":{"snapshots":[]}}`, "an answer with id 0: want 1 or more"},
		{`{"id":-1,"fatal":"x"}`, "id -1: want 0 or more"},
		{`{"id":1,"error":{"text":"x","phase":"start"}}`, "error of id 1: a start error without a cause"},
		{`{"id":1,"error":{"text":"x","phase":"dance","cause":{"text":"y"}}}`, `error of id 1: phase "dance": want start, handshake, list, parse or call`},
		{`{"id":1,"error":{"text":"x","sentinel":"gone"}}`, `error of id 1: sentinel "gone": not one this program knows`},
		{`{"id":1,"error":{"text":"x","is":["gone"]}}`, `error of id 1: is "gone": not a sentinel this program knows`},
		{`{"id":1,"error":{"text":"x","sentinel":"eof","exit":{"status":"s","code":1}}}`, `error of id 1: an error with more than one of "phase", "exit" and "sentinel"`},
		{`{"id":1,"error":{"text":"x","cause":{"text":"a"},"causes":[{"text":"b"}]}}`, `error of id 1: an error with both "cause" and "causes"`},
		{`{"id":1,"error":{"text":"x","exit":{"status":"s","code":1},"cause":{"text":"a"}}}`, `error of id 1: an "exit" or "sentinel" error with a cause`},
	} {
		_, err := decodeReply([]byte(tt.line))
		assert.EqualError(t, err, tt.want, tt.line)
	}
	deep := strings.Repeat(`{"text":"x","cause":`, 70) + `{"text":"y"}` + strings.Repeat("}", 70)
	_, err := decodeReply([]byte(`{"id":1,"error":` + deep + `}`))
	assert.EqualError(t, err, "error of id 1: an error chain deeper than 64")
}

// TestServe: the program's side, line by line.
func TestServe(t *testing.T) {
	serve := func(lines ...string) ([]string, error) {
		var out bytes.Buffer
		err := Serve(context.Background(), strings.NewReader(strings.Join(lines, "\n")+"\n"), &out, fakeHandler)
		return strings.Split(strings.TrimSpace(out.String()), "\n"), err
	}
	out, err := serve(`{"id":0,"hello":{"protocol":1}}`, `{"id":1,"take":{"sources":[{"name":"b","command":["fail"]}]}}`)
	require.NoError(t, err)
	require.Len(t, out, 2)
	assert.Equal(t, `{"id":0,"ready":{"protocol":1}}`, out[0])
	assert.Equal(t, `{"id":1,"error":{"text":"live server b (fail): start: the server process exited (exit status 3) before answering initialize\n  server stderr (last lines):\n    | srv: no token","phase":"start","name":"b","source":"fail","stderr":"srv: no token","cause":{"text":"the server process exited (exit status 3) before answering initialize","cause":{"text":"the server process exited (exit status 3)","exit":{"status":"exit status 3","code":3}}}}}`, out[1])

	out, err = serve(`{"id":0,"hello":{"protocol":2}}`)
	assert.EqualError(t, err, "protocol 2: this program speaks 1")
	assert.Equal(t, []string{`{"id":0,"fatal":"protocol 2: this program speaks 1"}`}, out)
	out, err = serve(`{"id":1,"take":{"sources":[]}}`)
	assert.EqualError(t, err, "line 1: want hello first")
	assert.Equal(t, []string{`{"id":0,"fatal":"line 1: want hello first"}`}, out)
	_, err = serve(`{"id":0,"hello":{"protocol":1}}`, `{"id":0,"hello":{"protocol":1}}`)
	assert.EqualError(t, err, "line 2: a second hello")
	_, err = serve(`{"id":0,"hello":{"protocol":1}}`, `nonsense`)
	assert.EqualError(t, err, "line 2: not a JSON object: invalid character 'o' in literal null (expecting 'u')")
	err = Serve(context.Background(), strings.NewReader(""), io.Discard, fakeHandler)
	assert.EqualError(t, err, "line 1: no hello")
}

// TestServeContext: the program's context ending (SIGTERM) cancels the
// requests in flight, answers them, and returns without the input's end.
func TestServeContext(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	var out pipeprogtest.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, pr, &out, fakeHandler) }()
	io.WriteString(pw, `{"id":0,"hello":{"protocol":1}}`+"\n"+`{"id":1,"take":{"sources":[{"command":["slow"]}]}}`+"\n")
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "ready") }, 5*time.Second, 5*time.Millisecond)
	cancel()
	require.NoError(t, <-done)
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	var last string
	for sc.Scan() {
		last = sc.Text()
	}
	assert.Equal(t, `{"id":1,"error":{"text":"live server \"slow\": handshake (initialize): interrupted","phase":"handshake","source":"slow","cause":{"text":"interrupted","sentinel":"interrupted"}}}`, last)
}

func FuzzDecodeRequest(f *testing.F) {
	f.Add([]byte(`{"id":0,"hello":{"protocol":1}}`))
	f.Add([]byte(`{"id":1,"take":{"sources":[{"name":"a","command":["srv",{"bytes":"/w=="}],"header":{"A":["b"]}}],"options":{"timeout_ns":5}}}`))
	f.Add([]byte(`{"id":2,"call":{"source":{"url":"http://x"},"options":{},"tool":"t","arguments":"e30="}}`))
	f.Add([]byte(`{"id":3,"cancel":true}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		r, err := decodeRequest(line)
		if err != nil {
			return
		}
		// What decodes re-encodes to a line that decodes and encodes to
		// itself (an empty list and an absent one are the same request).
		b, err := encode(r)
		if err != nil {
			t.Fatalf("re-encoding %+v: %v", r, err)
		}
		r2, err := decodeRequest(b)
		if err != nil {
			t.Fatalf("%s → %s: %v", line, b, err)
		}
		if b2, _ := encode(r2); !bytes.Equal(b, b2) {
			t.Fatalf("%s → %s → %s", line, b, b2)
		}
		if r.Take != nil {
			for _, s := range r.Take.Sources {
				s.source()
			}
		}
	})
}

func FuzzDecodeReply(f *testing.F) {
	f.Add([]byte(`{"id":0,"ready":{"protocol":1}}`))
	f.Add([]byte(`{"id":1,"took":{"snapshots":[{"name":"a","server_info":"e30=","tools":["e30=",null],"pages":1}]}}`))
	f.Add([]byte(`{"id":2,"called":{"snapshot":{"name":"a","tools":null,"pages":1},"result":"e30="}}`))
	f.Add([]byte(`{"id":3,"error":{"text":"x","phase":"list","page":2,"cause":{"text":"y","is":["timeout"],"cause":{"text":"z","exit":{"status":"s","code":1}}}}}`))
	f.Add([]byte(`{"id":4,"error":{"text":"x","causes":[{"text":"a","sentinel":"eof"},{"text":"b"}]}}`))
	f.Add([]byte(`{"id":0,"fatal":"no"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		r, err := decodeReply(line)
		if err != nil {
			return
		}
		if r.Error != nil {
			// Every decoded error has a text, and its wire form keeps
			// it.
			e := r.error()
			msg := e.Error()
			back, err := r.Error.err()
			if err != nil || back.Error() != msg {
				t.Fatalf("%s: %v", line, err)
			}
			if again, _ := errorOf(e).err(); again.Error() != msg {
				t.Fatalf("%s: re-encoded %q, was %q", line, again.Error(), msg)
			}
		}
		if r.Took != nil {
			for _, s := range r.Took.Snapshots {
				s.snapshot(snap.Source{})
			}
		}
	})
}

// A Client asks toolfind's live-server child; here this test binary stands in for it
// (its TestMain serves a fake server behind the protocol).
func ExampleClient() {
	exe, _ := os.Executable()
	c, err := New(Config{Program: exe, Args: []string{"-test.run=^$"}, Env: append(os.Environ(), serveVar+"=serve")})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	src, _ := snap.ParseServer("billing=./bin/billing-mcp --stdio")
	snaps, err := c.TakeAll(context.Background(), []snap.Source{src}, Options{Timeout: 10 * time.Second})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(snaps[0].Name, snaps[0].Pages, string(snaps[0].Tools[0]))

	_, err = c.Take(context.Background(), snap.Source{Name: "b", Command: []string{"fail"}}, Options{})
	var exit *snap.ExitError
	fmt.Println(errors.As(err, &exit), exit.Code)
	fmt.Println(err)
	// Output:
	// billing 2 { "name" : "a",
	//  "n": 1.50E+2 }
	// true 3
	// live server b (fail): start: the server process exited (exit status 3) before answering initialize
	//   server stderr (last lines):
	//     | srv: no token
}
